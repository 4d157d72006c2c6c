/**
 * Which member routes each feature of a feature profile (shared/schemas/organisation.ts) covers.
 * An ordinary user with a profile gets `403 FeatureNotInProfile` on a route whose feature the
 * profile lacks (functions/platform/http.ts); admins are never limited. Decided by capability, so a
 * new trip log, geofence or place route is covered the day it is added, plus the map's own routes.
 */
import type { RouteDef } from './route-def';
import type { ProfileFeature } from './schemas/organisation';

const byCapability: Partial<Record<RouteDef['capability'], ProfileFeature>> = {
  trips: 'tripLog',
  geofences: 'geofences',
  places: 'places',
  bookings: 'carBooking',
  events: 'alarms',
};

/** The map's routes outside those capabilities: the units on the map and a unit's history. */
const byOperation: Readonly<Record<string, ProfileFeature>> = {
  getRealtimeUnits: 'realtimeMap',
  getPositions: 'realtimeMap',
  // Autoplan reports a vehicle's trip log month (docs/decisions/0039-autoplan.md).
  postAutoplanReport: 'tripLog',
};

/** The profile feature a route belongs to, or null when no profile limits it (public, admin and support routes never are). */
export function profileFeatureOf(route: Pick<RouteDef, 'access' | 'capability' | 'operationId'>): ProfileFeature | null {
  if (route.access !== 'member') return null;
  return byOperation[route.operationId] ?? byCapability[route.capability] ?? null;
}

/** Whether a profile (its feature list; null: no profile) allows a route's feature. */
export function profileAllows(features: readonly ProfileFeature[] | null, feature: ProfileFeature | null): boolean {
  return feature === null || features === null || features.includes(feature);
}
