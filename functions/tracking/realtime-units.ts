/**
 * The units a caller may see as the map shows them: a unit locked by someone else is listed without
 * its position (TrackerIsLocked, naming the locker), except to an admin during the account's working
 * hours when it enables them (spec section 6). The map's list and the fleet overview's status
 * figures read the same, so their counts agree.
 */
import type { RealtimeUnit } from '../../shared/schemas/tracking';
import type { AuthContext } from '../platform/auth-context';
import type { UnitItem } from '../domain/unit/schema';
import { isLockedFor } from '../units/lock-rules';
import { toRealtimeUnit } from './stored-shape';
import { listUnits } from './unit-repository';
import { accountWorkingHours, lockedUnitsVisibleTo } from './working-hours';

export async function realtimeUnitsOf(auth: AuthContext, nowMs: number): Promise<{ items: UnitItem[]; units: RealtimeUnit[] }> {
  const [items, hours] = await Promise.all([listUnits(auth), auth.isAdmin ? accountWorkingHours(auth.accountId) : Promise.resolve(undefined)]);
  const showLocked = lockedUnitsVisibleTo(auth, hours, nowMs);
  const units = items.map((item) => (isLockedFor(auth, item) && !showLocked ? { ...toRealtimeUnit(item), state: null } : toRealtimeUnit(item)));
  return { items, units };
}
