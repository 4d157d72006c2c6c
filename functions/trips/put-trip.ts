import { routes } from '../../shared/routes';
import { tripMessageKeys as keys } from '../../shared/schemas/trips-messages';
import { NotFoundError, ValidationError, type FieldErrors } from '../platform/errors';
import { idempotentHandler } from '../platform/idempotency';
import { projectAllowed, purposeAllowed, tripAccountSettings } from './account-settings';
import { tripFor } from './access';
import { TripIsAttestedError } from './errors';
import { accountUser } from './people';
import { editableFields } from './trip-item';
import { getTrip, updateTripFields } from './trip-repository';
import { tripView } from './trip-views';
import { tripsChanged } from './unit-days';

const FIGURE_FIELDS = ['type', 'driverId', 'project'] as const;

export const handler = idempotentHandler(routes.putTrip, async ({ auth, params, body, timeZone, ports }) => {
  const { unit, trip } = await tripFor(auth, params.id);
  if (trip.attestationId !== undefined) throw new TripIsAttestedError();

  // Empty text clears a field as null does.
  const changes: Record<string, string | null> = {};
  for (const field of editableFields) {
    const value = body[field];
    if (value !== undefined) changes[field] = value === '' ? null : value;
  }
  const errors: FieldErrors = {};
  if (changes['purpose'] !== undefined || changes['project'] !== undefined) {
    const settings = await tripAccountSettings(auth.accountId);
    if (changes['purpose'] !== undefined && !purposeAllowed(settings, changes['purpose'])) errors['purpose'] = [keys.PurposeNotAllowed];
    if (changes['project'] !== undefined && !projectAllowed(settings, changes['project'])) errors['project'] = [keys.ProjectNotAllowed];
  }
  const driverId = changes['driverId'];
  if (driverId && !(await accountUser(auth.accountId, driverId))) errors['driverId'] = [keys.InvalidDriver];
  if (Object.keys(errors).length) throw new ValidationError(errors);
  if (changes['type'] === null) delete changes['type'];
  if (!Object.keys(changes).length) return tripView(unit, trip, timeZone);

  const updated = await updateTripFields(trip, changes, auth.userId, ports.clock.now().getTime());
  if (!updated) {
    // Attested, or gone (merged into the trip before it) since it was read.
    const now = await getTrip(trip.imei, trip.startTs);
    if (now?.attestationId !== undefined) throw new TripIsAttestedError();
    throw new NotFoundError();
  }
  // The type, driver and project are in the day rollups' figures; purpose, note and passengers are not.
  if (FIGURE_FIELDS.some((field) => changes[field] !== undefined)) await tripsChanged(ports, trip.accountId, trip.imei, [trip.startTs]);
  return tripView(unit, updated, timeZone);
});
