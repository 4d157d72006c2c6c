/**
 * A unit's raw positions over a period, oldest first, up to a cap (functions/ingest/position-query.ts
 * reads them in any of their stored forms).
 *
 * Positions are keyed by IMEI alone and outlive a registration (they expire with the retention), so
 * an IMEI registered again by a new owner still holds its previous owner's positions: what a unit's
 * owner reads starts at the unit's registration (unitPositions).
 */
import type { UnitItem } from '../domain/unit/schema';
import type { StoredPosition } from '../ingest/position-codec';
import { readPositions } from '../ingest/position-query';
import { POSITION_ATTRIBUTES, type PositionItem } from './stored-shape';

/** What a positions query answers of a stored position. */
function positionItemOf({ ts, lat, lon, speed, heading, ignition }: StoredPosition): PositionItem {
  return { ts, lat, lon, ...(speed !== undefined ? { speed } : {}), ...(heading !== undefined ? { heading } : {}), ...(ignition !== undefined ? { ignition } : {}) };
}

export interface PositionPage {
  items: PositionItem[];
  /** More positions lie in the period than the cap let through. */
  truncated: boolean;
}

export async function queryPositions(imei: string, fromMs: number, toMs: number, max: number): Promise<PositionPage> {
  const { positions, truncated } = await readPositions(imei, fromMs, toMs, { attributes: POSITION_ATTRIBUTES, max });
  return { items: positions.map(positionItemOf), truncated };
}

/**
 * The positions of a period that belong to the unit's current registration: the period is cut to
 * start at the unit's registration time. A unit record without a readable one shows none, rather
 * than every earlier owner's.
 */
export function unitPositions(unit: Pick<UnitItem, 'imei' | 'createdAt'>, fromMs: number, toMs: number, max: number): Promise<PositionPage> {
  const registeredAt = unit.createdAt === undefined ? NaN : Date.parse(unit.createdAt);
  const from = Math.max(fromMs, registeredAt);
  // NaN (no registration time) fails this too.
  if (!(from <= toMs)) return Promise.resolve({ items: [], truncated: false });
  return queryPositions(unit.imei, from, toMs, max);
}

/** The unit's last position before `beforeMs` since its registration, or null. */
export async function lastPositionBefore(unit: Pick<UnitItem, 'imei' | 'createdAt'>, beforeMs: number): Promise<PositionItem | null> {
  const registeredAt = unit.createdAt === undefined ? NaN : Date.parse(unit.createdAt);
  if (!(registeredAt < beforeMs)) return null;
  const [last] = (await readPositions(unit.imei, registeredAt, beforeMs - 1, { attributes: POSITION_ATTRIBUTES, backwards: true, max: 1 })).positions;
  return last ? positionItemOf(last) : null;
}
