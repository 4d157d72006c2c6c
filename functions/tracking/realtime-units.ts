/**
 * The units a caller may see as the map shows them: a unit locked by someone else is listed without
 * its position (TrackerIsLocked, naming the locker), except to an admin during the account's working
 * hours when it enables them (spec section 6). The map's list and the fleet overview's status
 * figures read the same, so their counts agree.
 */
import type { MapUnit, RealtimeUnit } from '../../shared/schemas/tracking';
import type { AuthContext } from '../platform/auth-context';
import type { UnitItem } from '../domain/unit/schema';
import { isLockedFor } from '../units/lock-rules';
import { encodeCursor, decodeCursor } from './realtime-cursor';
import { toMapUnit, toRealtimeUnit } from './stored-shape';
import { getUnit, listUnits, listUnitsPage } from './unit-repository';
import { accountWorkingHours, lockedUnitsVisibleTo } from './working-hours';
import { NotFoundError } from '../platform/errors';

/** Whether units locked by someone else show their position to this caller now. */
async function showsLocked(auth: AuthContext, nowMs: number): Promise<boolean> {
  const hours = auth.isAdmin ? await accountWorkingHours(auth.accountId) : undefined;
  return lockedUnitsVisibleTo(auth, hours, nowMs);
}

/** The unit in either form, without its state when it is locked against the caller. */
function withLock<U extends { state: unknown }>(auth: AuthContext, item: UnitItem, unit: U, showLocked: boolean): U {
  return isLockedFor(auth, item) && !showLocked ? { ...unit, state: null } : unit;
}

const realtimeUnitFor = (auth: AuthContext, item: UnitItem, showLocked: boolean): RealtimeUnit => withLock(auth, item, toRealtimeUnit(item), showLocked);

export async function realtimeUnitsOf(auth: AuthContext, nowMs: number): Promise<{ items: UnitItem[]; units: RealtimeUnit[] }> {
  const [items, showLocked] = await Promise.all([listUnits(auth), showsLocked(auth, nowMs)]);
  return { items, units: items.map((item) => realtimeUnitFor(auth, item, showLocked)) };
}

/** One unit in full, as the list answers it; none when the caller may not see it. */
export async function realtimeUnitOf(auth: AuthContext, imei: string, nowMs: number): Promise<RealtimeUnit[]> {
  try {
    const [item, showLocked] = await Promise.all([getUnit(auth, imei), showsLocked(auth, nowMs)]);
    return [realtimeUnitFor(auth, item, showLocked)];
  } catch (error) {
    if (error instanceof NotFoundError) return [];
    throw error;
  }
}

/** A page of the map's view (`view=map`): `limit` units after the cursor's, in IMEI order, and the next page's cursor. */
export async function mapUnitsPageOf(auth: AuthContext, nowMs: number, limit: number, cursor: string | undefined): Promise<{ units: MapUnit[]; next: string | null }> {
  const after = cursor === undefined ? undefined : decodeCursor(auth, cursor);
  const [{ items, last }, showLocked] = await Promise.all([listUnitsPage(auth, after, limit), showsLocked(auth, nowMs)]);
  const units = items.map((item) => withLock(auth, item, toMapUnit(item), showLocked));
  return { units, next: last === null ? null : encodeCursor(auth, last) };
}
