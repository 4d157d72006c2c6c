/**
 * Storage of the ingest path. Idempotence and order tolerance live in the conditions:
 * - a position is written only if (imei, ts) is new, so a redelivered message changes nothing;
 * - the unit's `state` moves only to a newer device time, so a late or concurrent message never
 *   moves it back, and only an existing unit item is touched (UpdateItem would create one).
 * Unit lookups (account, retention, last state) are cached briefly per IMEI: a warm function sees
 * the same trackers again and again, and a stale entry only loosens the jump filter (see filter.ts).
 */
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo, tableName } from '../platform/db';
import type { Position, UnitState } from './types';

/** Spec: raw positions are kept 13 months unless the account says otherwise. */
export const DEFAULT_RETENTION_DAYS = 395;
const DAY_MS = 86_400_000;

export type UnitLookup =
  | { status: 'registered'; accountId: string; retentionDays: number; state: UnitState | undefined }
  | { status: 'UnknownUnit' | 'Unregistered' };

const CACHE_TTL_MS = 60_000;
/** Shorter for IMEIs that are not (yet) units: a registration should show up soon. */
const MISS_TTL_MS = 15_000;
const CACHE_MAX = 20_000;

const cache = new Map<string, { value: UnitLookup; expires: number }>();

/** For tests, and for anything that knows a unit just changed. */
export function forgetUnits(): void {
  cache.clear();
}

/** Another writer got there first: the next message reads the unit afresh. */
export function forgetUnit(imei: string): void {
  cache.delete(imei);
}

function remember(imei: string, value: UnitLookup, now: number): void {
  if (cache.size >= CACHE_MAX) {
    // Maps iterate in insertion order: drop the oldest entry.
    const oldest = cache.keys().next();
    if (!oldest.done) cache.delete(oldest.value);
  }
  cache.set(imei, { value, expires: now + (value.status === 'registered' ? CACHE_TTL_MS : MISS_TTL_MS) });
}

export async function lookupUnit(imei: string, now: number = Date.now()): Promise<UnitLookup> {
  const hit = cache.get(imei);
  if (hit && hit.expires > now) return hit.value;

  const db = dynamo();
  const unit = await db.send(
    new GetCommand({
      TableName: tableName('units'),
      Key: { imei },
      ProjectionExpression: 'accountId, #s',
      ExpressionAttributeNames: { '#s': 'state' },
    }),
  );
  let value: UnitLookup;
  if (unit.Item && typeof unit.Item['accountId'] === 'string') {
    const accountId = unit.Item['accountId'];
    const account = await db.send(
      new GetCommand({ TableName: tableName('accounts'), Key: { accountId }, ProjectionExpression: 'retentionDays' }),
    );
    const days = account.Item?.['retentionDays'];
    value = {
      status: 'registered',
      accountId,
      retentionDays: typeof days === 'number' && days > 0 ? days : DEFAULT_RETENTION_DAYS,
      state: unit.Item['state'] as UnitState | undefined,
    };
  } else {
    const stock = await db.send(new GetCommand({ TableName: tableName('inventory'), Key: { imei }, ProjectionExpression: 'imei' }));
    value = { status: stock.Item ? 'Unregistered' : 'UnknownUnit' };
  }
  remember(imei, value, now);
  return value;
}

/** Keeps the cached state in step with what this instance just wrote. */
export function rememberState(imei: string, state: UnitState): void {
  const hit = cache.get(imei);
  if (hit?.value.status === 'registered' && (!hit.value.state || hit.value.state.ts < state.ts)) {
    hit.value = { ...hit.value, state };
  }
}

/** TTL of a position: its device time plus the account's retention, in epoch seconds. */
export function positionExpiry(ts: number, retentionDays: number): number {
  return Math.floor((ts + retentionDays * DAY_MS) / 1000);
}

export function isConditionFailure(error: unknown): boolean {
  return error instanceof ConditionalCheckFailedException || (error instanceof Error && error.name === 'ConditionalCheckFailedException');
}

/** True when the position was new; false when (imei, ts) was already stored (a redelivery). */
export async function storePosition(imei: string, p: Position, receivedAt: number, retentionDays: number): Promise<boolean> {
  try {
    await dynamo().send(
      new PutCommand({
        TableName: tableName('positions'),
        Item: {
          imei,
          ts: p.ts,
          lat: p.lat,
          lon: p.lon,
          speed: p.speed,
          heading: p.heading,
          alt: p.alt,
          sats: p.sats,
          hdop: p.hdop,
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
        },
        ConditionExpression: 'attribute_not_exists(ts)',
      }),
    );
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
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
