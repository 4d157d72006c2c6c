/**
 * Who may reach a trip (docs/architecture.md rule 1): the unit must be one the caller may see (an
 * admin every unit of the account, an ordinary user only the granted ones, through
 * functions/tracking/unit-repository.ts), and the trip must belong to the unit's account and
 * current registration. Anything else is NotFound, exactly like a trip that does not exist.
 * A unit locked by someone else (functions/units/lock-rules.ts) is 423 TrackerIsLocked for every
 * trip route: reading, editing, merging, splitting, attesting, check-ins, and the odometer and
 * operating-hours entries (the unit editor's readings too).
 */
import type { AuthContext } from '../platform/auth-context';
import { NotFoundError } from '../platform/errors';
import { registeredAtOf, type UnitItem } from '../domain/unit/schema';
import { getUnit } from '../tracking/unit-repository';
import { assertNotLockedFor } from '../units/lock-rules';
import { parseTripId, type TripItem } from './trip-item';
import { getTrip } from './trip-repository';

type Caller = Pick<AuthContext, 'accountId' | 'unitImeis' | 'userId' | 'isSupport'>;

export async function unitFor(caller: Caller, imei: string): Promise<UnitItem> {
  const unit = await getUnit(caller, imei);
  assertNotLockedFor(caller, unit);
  return unit;
}

export async function tripFor(caller: Caller, id: string, notFoundKey = 'NotFound'): Promise<{ unit: UnitItem; trip: TripItem }> {
  const key = parseTripId(id);
  if (!key) throw new NotFoundError(notFoundKey);
  let unit: UnitItem;
  try {
    unit = await getUnit(caller, key.imei);
  } catch (error) {
    if (error instanceof NotFoundError) throw new NotFoundError(notFoundKey);
    throw error;
  }
  assertNotLockedFor(caller, unit);
  const trip = await getTrip(key.imei, key.startTs);
  if (!trip || trip.accountId !== unit.accountId || trip.startTs < registeredAtOf(unit)) throw new NotFoundError(notFoundKey);
  return { unit, trip };
}
