/**
 * Storage of the ingest path. Idempotence and order tolerance:
 * - a position's identity is (imei, ts): positions newer than the unit's known state go out in
 *   unconditional batches (an overwrite rewrites the same device record), older ones, where a
 *   redelivery lands, are put only if (imei, ts) is new (ingest-message.ts decides which);
 * - the unit's `state` moves only to a newer device time, so a late or concurrent message never
 *   moves it back, and only an existing unit item is touched (UpdateItem would create one).
 * Unit lookups (account, retention, last state) are cached per IMEI: a warm function sees the
 * same trackers again and again, and a stale entry only loosens the jump filter (see filter.ts).
 * Concurrent misses of one IMEI share one read; entries expire at staggered times, so a fleet
 * that was loaded at once is not reread at once either; and an expired unit is still served for
 * one more TTL while a read refreshes it in the background, so an expiry never holds up a batch.
 */
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo, tableName } from '../platform/db';
import { logger } from '../platform/logger';
import { batchPut } from './batch-write';
import { fixOf } from './state';
import type { Position, UnitState } from './types';

/** Spec: raw positions are kept 13 months unless the account says otherwise. */
export const DEFAULT_RETENTION_DAYS = 395;
const DAY_MS = 86_400_000;

export type UnitLookup =
  | {
      status: 'registered';
      accountId: string;
      retentionDays: number;
      state: UnitState | undefined;
      /** When the unit was registered (to its current owner), epoch ms; -Infinity when the record has no time. */
      registeredAt: number;
    }
  | { status: 'UnknownUnit' | 'Unregistered' };

export const CACHE_TTL_MS = 60_000;
/** Shorter for IMEIs that are not (yet) units: a registration should show up soon. */
export const MISS_TTL_MS = 15_000;
/** Each entry lives between (1 - this) and 1 times its TTL, drawn at random. */
export const CACHE_TTL_SPREAD = 0.25;
const CACHE_MAX = 20_000;

interface Entry<T> {
  value: T;
  /** Fresh until then. */
  expires: number;
  /** Served, while one read refreshes it, until then. */
  usableUntil: number;
}

const units = new Map<string, Entry<UnitLookup>>();
const accounts = new Map<string, Entry<number>>();
const loadingUnits = new Map<string, Promise<UnitLookup>>();
const loadingAccounts = new Map<string, Promise<number>>();

/** For tests, and for anything that knows units just changed. */
export function forgetUnits(): void {
  units.clear();
  accounts.clear();
  loadingUnits.clear();
  loadingAccounts.clear();
}

/**
 * The store refused or failed a state this instance claimed: another writer holds a newer one (or
 * the unit is gone), or the write failed and the call is retried. Either way the next message
 * reads the unit afresh.
 */
export function forgetUnit(imei: string): void {
  units.delete(imei);
}

/** `servesStale`: the entry may stand in for one more TTL while a read refreshes it. */
function remember<T>(cache: Map<string, Entry<T>>, key: string, value: T, ttlMs: number, servesStale: boolean): void {
  if (cache.size >= CACHE_MAX && !cache.has(key)) {
    // Maps iterate in insertion order: drop the oldest entry.
    const oldest = cache.keys().next();
    if (!oldest.done) cache.delete(oldest.value);
  }
  const expires = Date.now() + ttlMs * (1 - CACHE_TTL_SPREAD * Math.random());
  cache.set(key, { value, expires, usableUntil: servesStale ? expires + ttlMs : expires });
}

/** One read per key at a time: callers that miss while it runs wait for the same answer. */
function singleFlight<T>(loading: Map<string, Promise<T>>, key: string, load: () => Promise<T>): Promise<T> {
  let pending = loading.get(key);
  if (!pending) {
    pending = load().finally(() => loading.delete(key));
    loading.set(key, pending);
  }
  return pending;
}

/**
 * A fresh entry; or an expired one that may still be served, while one read refreshes it in the
 * background, so that an expiry never holds up a batch; otherwise the read.
 */
function cached<T>(cache: Map<string, Entry<T>>, loading: Map<string, Promise<T>>, key: string, now: number, load: () => Promise<T>): T | Promise<T> {
  const hit = cache.get(key);
  if (hit && hit.expires > now) return hit.value;
  const read = singleFlight(loading, key, load);
  if (!hit || hit.usableUntil <= now) return read;
  read.catch((error: unknown) => logger.warn('unit cache refresh failed', { error: error instanceof Error ? error.message : String(error) }));
  return hit.value;
}

function retentionOf(accountId: string, now: number): number | Promise<number> {
  return cached(accounts, loadingAccounts, accountId, now, async () => {
    const account = await dynamo().send(
      new GetCommand({ TableName: tableName('accounts'), Key: { accountId }, ProjectionExpression: 'retentionDays' }),
    );
    const days = account.Item?.['retentionDays'];
    const value = typeof days === 'number' && days > 0 ? days : DEFAULT_RETENTION_DAYS;
    remember(accounts, accountId, value, CACHE_TTL_MS, true);
    return value;
  });
}

async function loadUnit(imei: string, now: number): Promise<UnitLookup> {
  const db = dynamo();
  const unit = await db.send(
    new GetCommand({
      TableName: tableName('units'),
      Key: { imei },
      ProjectionExpression: 'accountId, createdAt, #s',
      ExpressionAttributeNames: { '#s': 'state' },
    }),
  );
  let value: UnitLookup;
  if (unit.Item && typeof unit.Item['accountId'] === 'string') {
    const accountId = unit.Item['accountId'];
    const createdAt = typeof unit.Item['createdAt'] === 'string' ? Date.parse(unit.Item['createdAt']) : NaN;
    const registeredAt = Number.isNaN(createdAt) ? -Infinity : createdAt;
    let state = unit.Item['state'] as UnitState | undefined;
    // This instance may have moved the state while the read was on its way (of this registration:
    // an IMEI registered again starts afresh).
    const held = units.get(imei)?.value;
    if (
      held?.status === 'registered' &&
      held.accountId === accountId &&
      held.registeredAt === registeredAt &&
      held.state &&
      (!state || held.state.ts > state.ts)
    ) {
      state = held.state;
    }
    value = { status: 'registered', accountId, retentionDays: await retentionOf(accountId, now), state, registeredAt };
  } else {
    const stock = await db.send(new GetCommand({ TableName: tableName('inventory'), Key: { imei }, ProjectionExpression: 'imei' }));
    value = { status: stock.Item ? 'Unregistered' : 'UnknownUnit' };
  }
  // A unit may stand in while it is reread; an IMEI that is no unit may not: it may have just become one.
  const registered = value.status === 'registered';
  remember(units, imei, value, registered ? CACHE_TTL_MS : MISS_TTL_MS, registered);
  return value;
}

export async function lookupUnit(imei: string, now: number = Date.now()): Promise<UnitLookup> {
  return cached(units, loadingUnits, imei, now, () => loadUnit(imei, now));
}

/**
 * Makes `state` the unit's state this instance knows, unless it already knows the same or a newer
 * one: true when it moved. Ingest publishes a state live only when it moved here, so that this
 * instance never sends a unit back in time, and before the store has it (the state writer follows).
 * A unit missing from the cache (evicted, or forgotten after another writer won) is put back with
 * the state; the store's condition still decides whether the state is the newest.
 */
export function claimState(imei: string, unit: Extract<UnitLookup, { status: 'registered' }>, state: UnitState): boolean {
  const hit = units.get(imei);
  if (!hit) {
    remember(units, imei, { ...unit, state }, CACHE_TTL_MS, true);
    return true;
  }
  if (hit.value.status !== 'registered') return true;
  if (hit.value.state && hit.value.state.ts >= state.ts) return false;
  hit.value = { ...hit.value, state };
  return true;
}

/** TTL of a position: its device time plus the account's retention, in epoch seconds. */
export function positionExpiry(ts: number, retentionDays: number): number {
  return Math.floor((ts + retentionDays * DAY_MS) / 1000);
}

export function isConditionFailure(error: unknown): boolean {
  return error instanceof ConditionalCheckFailedException || (error instanceof Error && error.name === 'ConditionalCheckFailedException');
}

/** The positions item of a record, as ingest stores it. */
export function positionItem(imei: string, p: Position, receivedAt: number, retentionDays: number): Record<string, unknown> {
  return {
    imei,
    ...fixOf(p),
    ignition: p.ignition,
    movement: p.movement,
    odometer: p.odometer,
    engineSeconds: p.engineSeconds,
    extVolts: p.extVolts,
    batVolts: p.batVolts,
    din: p.din,
    dout: p.dout,
    ble: p.ble?.length ? p.ble : undefined,
    rfid: p.rfid,
    io: p.io,
    receivedAt,
    expiresAt: positionExpiry(p.ts, retentionDays),
  };
}

/** True when the item was new; false when (imei, ts) was already stored (a redelivery). */
export async function putPositionIfNew(item: Record<string, unknown>): Promise<boolean> {
  try {
    await dynamo().send(new PutCommand({ TableName: tableName('positions'), Item: item, ConditionExpression: 'attribute_not_exists(ts)' }));
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}

/** True when the position was new; false when (imei, ts) was already stored (a redelivery). */
export function storePosition(imei: string, p: Position, receivedAt: number, retentionDays: number): Promise<boolean> {
  return putPositionIfNew(positionItem(imei, p, receivedAt, retentionDays));
}

/** Unconditional: for items of distinct keys whose overwrite rewrites the same device record. */
export function putPositions(items: readonly Record<string, unknown>[]): Promise<void> {
  return batchPut(tableName('positions'), items);
}

/** True when the unit's state moved to this one; false when it already held the same or a newer one. */
export async function advanceState(imei: string, state: UnitState): Promise<boolean> {
  try {
    await dynamo().send(
      new UpdateCommand({
        TableName: tableName('units'),
        Key: { imei },
        UpdateExpression: 'SET #s = :s',
        ConditionExpression: 'attribute_exists(imei) AND (attribute_not_exists(#s) OR #s.#ts < :ts)',
        ExpressionAttributeNames: { '#s': 'state', '#ts': 'ts' },
        ExpressionAttributeValues: { ':s': state, ':ts': state.ts },
      }),
    );
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}
