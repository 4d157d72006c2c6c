/**
 * Storage of the ingest path. Idempotence and order tolerance:
 * - a position's identity is (imei, ts): positions newer than the unit's stored state go out in
 *   unconditional batches, each message's as one chunk item (an overwrite rewrites the same device
 *   records), older ones, where a redelivery lands, are put only if (imei, ts) is new and no chunk
 *   holds it (ingest-message.ts decides which);
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
import { CHUNK_ATTRIBUTE, CHUNK_MAX_POSITIONS, CHUNK_SPAN_MS, PACKED_ATTRIBUTE, packChunk, packPosition } from './position-codec';
import { readPositions } from './position-query';
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

/**
 * The positions of one unit as items: runs of positions within CHUNK_SPAN_MS of the run's oldest
 * (and at most CHUNK_MAX_POSITIONS) as one chunk item each, keyed by that oldest position, and a
 * position alone as its own item. DynamoDB's work and bill go by the item: a buffered message of
 * ten positions is one item of about a kilobyte instead of ten.
 */
export function chunkAttributes(items: readonly PositionRecordItem[]): MarshalledItem[] {
  // Most messages are one record, and a buffer comes in time order: neither is copied.
  if (items.length === 1) return [positionAttributes(items[0] as PositionRecordItem)];
  let ordered = true;
  for (let i = 1; i < items.length && ordered; i++) ordered = (items[i - 1] as PositionRecordItem).ts < (items[i] as PositionRecordItem).ts;
  const sorted = ordered ? items : [...items].sort((a, b) => a.ts - b.ts);
  const out: MarshalledItem[] = [];
  for (let i = 0; i < sorted.length; ) {
    const first = sorted[i] as PositionRecordItem;
    let end = i + 1;
    while (end < sorted.length && end - i < CHUNK_MAX_POSITIONS && (sorted[end] as PositionRecordItem).ts - first.ts <= CHUNK_SPAN_MS) end++;
    if (end - i === 1) out.push(positionAttributes(first));
    else {
      const run = sorted.slice(i, end);
      out.push({
        imei: { S: first.imei },
        ts: { N: String(first.ts) },
        [CHUNK_ATTRIBUTE]: { B: packChunk(first.ts, run) },
        expiresAt: { N: String((run[run.length - 1] as PositionRecordItem).expiresAt) },
      });
    }
    i = end;
  }
  return out;
}

/**
 * Unconditional: for fresh positions, whose overwrite rewrites the same device records. The
 * positions of each message (of one unit, each time once in the batch) go as its chunks
 * (`chunkAttributes`): a message delivered again while its positions are still fresh (its batch
 * failed before the unit's state moved past them) makes the same chunks and overwrites them.
 */
export function putPositions(messages: ReadonlyArray<readonly PositionRecordItem[]>): Promise<void> {
  return batchPutMarshalled(tableName('positions'), messages.flatMap(chunkAttributes));
}

/**
 * Of the times given, those a chunk of the unit holds (strongly consistent). A late position is
 * put only if its key is new (`putPositionIfNew`), which finds the positions stored alone but not
 * one inside a chunk: chunks hold fresh positions, which the stages have seen, so such a time is
 * a duplicate.
 */
export async function timesInChunks(imei: string, times: readonly number[]): Promise<Set<number>> {
  if (!times.length) return new Set();
  const wanted = new Set(times);
  const from = Math.min(...times);
  const to = Math.max(...times);
  // Only the chunks matter; a position alone is found by the conditional put.
  const { positions } = await readPositions(imei, from, to, { attributes: [], consistent: true, chunksOnly: true });
  return new Set(positions.map((p) => p.ts).filter((ts) => wanted.has(ts)));
}
