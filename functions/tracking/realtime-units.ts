/**
 * The units a caller may see as the map shows them: a unit locked by someone else is listed without
 * its position (TrackerIsLocked, naming the locker), except to an admin during the account's working
 * hours when it enables them (spec section 6). The map's list and the fleet overview's status
 * figures read the same, so their counts agree.
 */
import type { MapUnit, RealtimeUnit } from '../../shared/schemas/tracking';
import type { AuthContext } from '../platform/auth-context';
import type { MapUnitItem, UnitItem } from '../domain/unit/schema';
import { isLockedFor } from '../units/lock-rules';
import { encodeCursor, decodeCursor, type CursorPosition } from './realtime-cursor';
import { toMapUnit, toRealtimeUnit } from './stored-shape';
import { getUnit, lastUnitImei, listUnits, listUnitsPage } from './unit-repository';
import { accountWorkingHours, lockedUnitsVisibleTo } from './working-hours';
import { NotFoundError } from '../platform/errors';

/** Whether units locked by someone else show their position to this caller now. */
async function showsLocked(auth: AuthContext, nowMs: number): Promise<boolean> {
  const hours = auth.isAdmin ? await accountWorkingHours(auth.accountId) : undefined;
  return lockedUnitsVisibleTo(auth, hours, nowMs);
}

/** The unit in either form, without its state when it is locked against the caller. */
function withLock<U extends { state: unknown }>(auth: AuthContext, item: Pick<MapUnitItem, 'lockedBy'>, unit: U, showLocked: boolean): U {
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

/**
 * Where the chains of a first page asked with `segments` start: the IMEIs after the first page's
 * last (`after`) up to the greatest the caller may see (`last`) cut into `count` equal spans of the
 * 15-digit IMEI space, the last one open (units registered meanwhile). A fleet's IMEIs cluster by
 * model (their first eight digits), so the spans are about equal for one model and uneven but
 * still complete for several: each span is read to its end, page by page.
 */
export function segmentsAfter(after: string, last: string, count: number): CursorPosition[] {
  const from = Number(after);
  const span = Number(last) - from;
  const bounds: string[] = [after];
  for (let k = 1; k < count; k++) {
    const bound = String(from + Math.floor((span * k) / count)).padStart(after.length, '0');
    if (bound > (bounds.at(-1) as string)) bounds.push(bound);
  }
  return bounds.map((start, k) => (k + 1 < bounds.length ? { after: start, until: bounds[k + 1] as string } : { after: start }));
}

/**
 * A page of the map's view (`view=map`): `limit` units after the cursor's (within its segment), in
 * IMEI order, and the next page's cursor; with `segments`, a first page also names the cursors of
 * the chains to read beside `next`'s.
 */
export async function mapUnitsPageOf(
  auth: AuthContext,
  nowMs: number,
  limit: number,
  cursor: string | undefined,
  segments?: number,
): Promise<{ units: MapUnit[]; next: string | null; segments?: string[] }> {
  const position = cursor === undefined ? undefined : decodeCursor(auth, cursor);
  const [{ items, last }, showLocked, lastImei] = await Promise.all([
    listUnitsPage(auth, position?.after, limit, position?.until),
    showsLocked(auth, nowMs),
    segments === undefined ? null : lastUnitImei(auth),
  ]);
  const units = items.map((item) => withLock(auth, item, toMapUnit(item), showLocked));
  const until = position?.until;
  if (segments === undefined) return { units, next: last === null ? null : encodeCursor(auth, { after: last, ...(until === undefined ? {} : { until }) }) };
  if (last === null || lastImei === null || lastImei <= last) return { units, next: last === null ? null : encodeCursor(auth, { after: last }), segments: [] };
  const [first, ...others] = segmentsAfter(last, lastImei, segments);
  return { units, next: encodeCursor(auth, first as CursorPosition), segments: others.map((segment) => encodeCursor(auth, segment)) };
}
