/**
 * Storage of the ingest path. Idempotence and order tolerance:
 * - a position's identity is (imei, ts): positions newer than the unit's stored state go out in
 *   unconditional batches (an overwrite rewrites the same device record), older ones, where a
 *   redelivery lands, are put only if (imei, ts) is new (ingest-message.ts decides which);
 * - the unit's state, stages and effects move by transitions conditional on the item's revision
 *   (functions/domain/unit/reads.ts), read strongly consistent for every batch.
 * The accounts' retention is read with their live watch mark and cached per instance for seconds
 * to a minute (functions/domain/account/live-watch.ts): an account setting, not a unit's state, and
 * a change of it applies to positions stored from then on.
 */
import { BatchGetCommand, PutCommand, type BatchGetCommandOutput } from '@aws-sdk/lib-dynamodb';
import { isConditionFailure } from '../platform/conditions';
import { dynamo, tableName } from '../platform/db';
import { logger } from '../platform/logger';
import { accountForIngest, forgetAccountReads } from '../domain/account/live-watch';
import { getUnitItems } from '../domain/unit/reads';
import { CorruptUnitItemError, registeredAtOf, type UnitItem } from '../domain/unit/schema';
import { batchPutMarshalled, type MarshalledItem } from './batch-write';
import { PACKED_ATTRIBUTE, packPosition } from './position-codec';
import type { Position } from './types';

/** Spec: raw positions are kept 13 months unless the account says otherwise. */
export const DEFAULT_RETENTION_DAYS = 395;
const DAY_MS = 86_400_000;

export type UnitLookup =
  | {
      status: 'registered';
      unit: UnitItem;
      retentionDays: number;
      /** When the unit was registered (to its current owner), epoch ms; -Infinity when the record has no time. */
      registeredAt: number;
    }
  | { status: 'UnknownUnit' | 'Unregistered' | 'UnitUnreadable' };

/** For tests. */
export function forgetRetention(): void {
  forgetAccountReads();
}

/**
 * The account's retention in days: positions, trips and events expire after it. Read with the
 * account's live watch mark (functions/domain/account/live-watch.ts), cached per instance for a
 * few seconds to a minute.
 */
export async function retentionOf(accountId: string, now: number = Date.now()): Promise<number> {
  return (await accountForIngest(accountId, now)).retentionDays ?? DEFAULT_RETENTION_DAYS;
}

/** IMEIs in the inventory (provisioned trackers), of those given. */
async function inInventory(imeis: readonly string[]): Promise<Set<string>> {
  const table = tableName('inventory');
  const found = new Set<string>();
  for (let i = 0; i < imeis.length; i += 100) {
    let keys: Record<string, unknown>[] | undefined = imeis.slice(i, i + 100).map((imei) => ({ imei }));
    while (keys?.length) {
      const out: BatchGetCommandOutput = await dynamo().send(new BatchGetCommand({ RequestItems: { [table]: { Keys: keys, ProjectionExpression: 'imei' } } }));
      for (const item of out.Responses?.[table] ?? []) found.add(String(item['imei']));
      keys = out.UnprocessedKeys?.[table]?.Keys;
    }
  }
  return found;
}

/** The units of a batch as stored now (strongly consistent), and for the others why they are none. */
export async function lookupUnits(imeis: readonly string[], now: number = Date.now()): Promise<Map<string, UnitLookup>> {
  const units = await getUnitItems(imeis);
  const lookups = new Map<string, UnitLookup>();
  for (const [imei, unit] of units) if (unit instanceof CorruptUnitItemError) lookups.set(imei, { status: 'UnitUnreadable' });
  const missing = imeis.filter((imei) => !units.has(imei));
  const stock = missing.length ? await inInventory(missing) : new Set<string>();
  for (const imei of missing) lookups.set(imei, { status: stock.has(imei) ? 'Unregistered' : 'UnknownUnit' });
  await Promise.all(
    [...units.values()].map(async (unit) => {
      if (unit instanceof CorruptUnitItemError) {
        logger.error('units item unreadable; its messages are dead-lettered', { error: unit.message });
        return;
      }
      lookups.set(unit.imei, { status: 'registered', unit, retentionDays: await retentionOf(unit.accountId, now), registeredAt: registeredAtOf(unit) });
    }),
  );
  return lookups;
}

/** TTL of a position: its device time plus the account's retention, in epoch seconds. */
export function positionExpiry(ts: number, retentionDays: number): number {
  return Math.floor((ts + retentionDays * DAY_MS) / 1000);
}


/** A positions item as ingest writes it (functions/ingest/position-codec.ts). */
export type PositionRecordItem = { late?: true; imei: string; ts: number; p: Uint8Array; expiresAt: number };

/** The positions item of a record, as ingest stores it (functions/ingest/position-codec.ts). */
export function positionItem(imei: string, p: Position, receivedAt: number, retentionDays: number, late = false): PositionRecordItem {
  return {
    ...(late ? { late: true as const } : {}),
    imei,
    ts: p.ts,
    [PACKED_ATTRIBUTE]: packPosition(p, receivedAt, p.ts),
    expiresAt: positionExpiry(p.ts, retentionDays),
  };
}

/** The item in DynamoDB's attribute values, as the batch writes send it: a handful of attributes need no marshaller. */
export function positionAttributes(item: PositionRecordItem): MarshalledItem {
  const attributes: MarshalledItem = { imei: { S: item.imei }, ts: { N: String(item.ts) }, [PACKED_ATTRIBUTE]: { B: item.p }, expiresAt: { N: String(item.expiresAt) } };
  if (item.late) attributes['late'] = { BOOL: true };
  return attributes;
}

/**
 * How a conditional put went: `new`, or a `duplicate` of a stored position. A duplicate of one
 * stored late (flagged `late` by `positionItem`) says so: the stages may not have seen it (a batch
 * that failed after storing it and before its transition), so they are shown it again; a
 * duplicate of a position once stored fresh was seen by them already.
 */
export type PutOutcome = 'new' | 'duplicate' | 'lateDuplicate';

export async function putPositionIfNew(item: Record<string, unknown>): Promise<PutOutcome> {
  try {
    await dynamo().send(
      new PutCommand({ TableName: tableName('positions'), Item: item, ConditionExpression: 'attribute_not_exists(ts)', ReturnValuesOnConditionCheckFailure: 'ALL_OLD' }),
    );
    return 'new';
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
    // The old item comes marshalled (the document client does not convert an error's fields).
    const late = (error as { Item?: Record<string, unknown> }).Item?.['late'];
    return late === true || (late as { BOOL?: boolean } | undefined)?.BOOL === true ? 'lateDuplicate' : 'duplicate';
  }
}

/** True when the position was new; false when (imei, ts) was already stored (a redelivery). */
export async function storePosition(imei: string, p: Position, receivedAt: number, retentionDays: number): Promise<boolean> {
  return (await putPositionIfNew(positionItem(imei, p, receivedAt, retentionDays))) === 'new';
}

/** Unconditional: for items of distinct keys whose overwrite rewrites the same device record. */
export function putPositions(items: readonly PositionRecordItem[]): Promise<void> {
  return batchPutMarshalled(tableName('positions'), items.map(positionAttributes));
}
