/**
 * The trip log's API routes, from the route manifest (shared/routes.ts), with `{name}` parameters
 * filled in.
 */
import { routes } from '../../../../../shared/routes';

export const tripPaths = {
  list: routes.getTrips.path,
  trip: routes.putTrip.path,
  merge: routes.mergeTrips.path,
  split: routes.splitTrip.path,
  route: routes.getTripRoute.path,
  passages: routes.getTripPassages.path,
  attest: routes.attestTrips.path,
  attestations: routes.getTripAttestations.path,
  odometerEntries: routes.getOdometerEntries.path,
  odometerEntry: routes.deleteOdometerEntry.path,
  checkIn: routes.driverCheckIn.path,
  checkInCode: routes.getCheckInCode.path,
  checkInUnit: routes.getCheckInUnit.path,
  drivers: routes.getUnitDrivers.path,
  attestationStatus: routes.getAttestationStatus.path,
  approveAttestation: routes.approveAttestation.path,
  unlockAttestation: routes.unlockAttestation.path,
  deleteAttestation: routes.deleteAttestation.path,
  remindAttestation: routes.remindAttestation.path,
  demoHistory: routes.getDemoHistory.path,
} as const;

/** A manifest path with its `{name}` parameters filled in, each URI-encoded. */
export function withParams(path: string, params: Readonly<Record<string, string>>): string {
  return path.replace(/\{(\w+)\}/g, (whole, name: string) => (name in params ? encodeURIComponent(params[name] as string) : whole));
}
