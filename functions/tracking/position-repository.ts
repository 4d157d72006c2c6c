/**
 * A unit's raw positions over a period, oldest first: one Query on (imei, ts BETWEEN), followed
 * page by page (each page is at most 1 MB) up to a cap, reading the attributes the answer uses
 * (functions/ingest/position-codec.ts: packed, or each its own in items written before).
 *
 * Positions are keyed by IMEI alone and outlive a registration (they expire with the retention), so
 * an IMEI registered again by a new owner still holds its previous owner's positions: what a unit's
 * owner reads starts at the unit's registration (unitPositions).
 */
import { QueryCommand, type QueryCommandOutput } from '@aws-sdk/lib-dynamodb';
import { dynamo, tableName } from '../platform/db';
import type { UnitItem } from '../domain/unit/schema';
import { positionOfItem, positionProjection } from '../ingest/position-codec';
import { POSITION_ATTRIBUTES, type PositionItem } from './stored-shape';

/** What a positions query answers of a stored position, in either of its forms. */
function positionItemOf(item: Record<string, unknown>): PositionItem {
  const { ts, lat, lon, speed, heading, ignition } = positionOfItem(item);
  return { ts, lat, lon, ...(speed !== undefined ? { speed } : {}), ...(heading !== undefined ? { heading } : {}), ...(ignition !== undefined ? { ignition } : {}) };
}

export interface PositionPage {
  items: PositionItem[];
  /** More positions lie in the period than the cap let through. */
  truncated: boolean;
}

export async function queryPositions(imei: string, fromMs: number, toMs: number, max: number): Promise<PositionPage> {
  const items: PositionItem[] = [];
  const projection = positionProjection(POSITION_ATTRIBUTES);
  let start: QueryCommandOutput['LastEvaluatedKey'];
  do {
    const page: QueryCommandOutput = await dynamo().send(
      new QueryCommand({
        TableName: tableName('positions'),
        KeyConditionExpression: 'imei = :imei AND #p0 BETWEEN :from AND :to',
        ExpressionAttributeValues: { ':imei': imei, ':from': fromMs, ':to': toMs },
        ...projection,
        ScanIndexForward: true,
        // One more than still fits tells a full period from a cut one without reading further.
        Limit: max - items.length + 1,
        ExclusiveStartKey: start,
      }),
    );
    for (const item of page.Items ?? []) items.push(positionItemOf(item));
    start = page.LastEvaluatedKey;
  } while (start && items.length <= max);
  const truncated = items.length > max;
  if (truncated) items.length = max;
  return { items, truncated };
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
  const page = await dynamo().send(
    new QueryCommand({
      TableName: tableName('positions'),
      KeyConditionExpression: 'imei = :imei AND #p0 BETWEEN :from AND :to',
      ExpressionAttributeValues: { ':imei': unit.imei, ':from': registeredAt, ':to': beforeMs - 1 },
      ...positionProjection(POSITION_ATTRIBUTES),
      ScanIndexForward: false,
      Limit: 1,
    }),
  );
  const item = page.Items?.[0];
  return item ? positionItemOf(item) : null;
}
