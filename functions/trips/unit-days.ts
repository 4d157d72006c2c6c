/**
 * Keeping the day rollups (table `unit-days`, functions/trips/unit-day-item.ts) current, exactly,
 * under redelivery and races (docs/decisions/0036-day-rollups.md):
 *
 * 1. Every trip write calls `tripsChanged` after the trip is written. It refreshes the fleet
 *    overview's rollups (trip-rollups.ts), raises the generation `gen` of each touched day item
 *    (`ADD gen 1`, creating the item when there is none) and only then puts the days on the
 *    unit-day-rollup queue.
 * 2. The queue's consumer (unit-day-rollup.ts) recomputes each day (`recomputeUnitDay`): it reads
 *    the day's `gen` G first, then the day's trips (a consistent Query), and writes the whole item
 *    under the condition `gen = G`. A recomputation that read the trips before a later write finds
 *    its condition failed (that write raised `gen`) and writes nothing: the later write's own
 *    message recomputes. So an older result never overwrites a newer one, and a redelivered message
 *    writes the same item again.
 *
 * A day whose trips all went away keeps its item with `trips: 0` (and its generation, so that the
 * guard never starts over); the reader leaves it out.
 *
 * 3. After its days, the consumer recomputes their months (`recomputeUnitMonths`): a month item
 *    (sort key yyyy-MM, beside the days) sums the month's day items, for reports over whole months
 *    that would otherwise read every day. It first raises the month's own generation `mgen`
 *    (getting N back), then reads the days, and writes under `mgen = N`. A run that started later
 *    raised `mgen` after its own day writes and reads the days after this run's, so when two
 *    overlap the later one's write stands and the earlier one's fails.
 */
import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { EcoEvent } from '../../shared/eco';
import { localDayOf } from '../../shared/local-time';
import { unitEcoEvents } from '../events/event-repository';
import { isConditionFailure } from '../platform/conditions';
import { dynamo, tableName } from '../platform/db';
import type { Ports } from '../platform/ports';
import type { TripItem } from './trip-item';
import { unitTrips } from './trip-repository';
import { refreshTripRollups } from './trip-rollups';
import { ROLLUP_ZONE, rollupDayRange, unitDayAttributes, unitDayFigures, unitDayKey, unitMonthItemOf, type UnitDay } from './unit-day-item';
import { readUnitDays } from './unit-day-reads';

const DAY_S = 86_400;
/** A day without trips, and an item announced but never recomputed, is kept this long after the day. */
const EMPTY_KEEP_DAYS = 400;

/** The local days (ROLLUP_ZONE) in which trips starting at `starts` fall, in order. */
export const rollupDaysOf = (starts: readonly number[]): string[] => [...new Set(starts.map((ts) => localDayOf(ts, ROLLUP_ZONE)))].sort();

const emptyExpiry = (day: string): number => Math.floor(rollupDayRange(day).toMs / 1000) + EMPTY_KEEP_DAYS * DAY_S;

/** Raises the generation of each day (after a trip write there, before its recomputation is asked for). */
export async function bumpUnitDays(accountId: string, imei: string, days: readonly string[]): Promise<void> {
  await Promise.all(
    days.map((day) =>
      dynamo().send(
        new UpdateCommand({
          TableName: tableName('unitDays'),
          Key: { unit: unitDayKey(accountId, imei), day },
          UpdateExpression: 'ADD gen :one SET accountId = :account, imei = :imei, expiresAt = if_not_exists(expiresAt, :exp)',
          ExpressionAttributeValues: { ':one': 1, ':account': accountId, ':imei': imei, ':exp': emptyExpiry(day) },
        }),
      ),
    ),
  );
}

/**
 * After trips of a unit were stored, replaced, deleted, edited, merged, split or given a driver:
 * the fleet overview's rollups of their starts are refreshed and the day rollups of their local
 * days announced and queued. `starts`: the starts of every trip written or removed (old and new).
 */
export async function tripsChanged(ports: Pick<Ports, 'queues'>, accountId: string, imei: string, starts: readonly number[]): Promise<void> {
  if (!starts.length) return;
  await refreshTripRollups(accountId, imei, starts);
  const days = rollupDaysOf(starts);
  await bumpUnitDays(accountId, imei, days);
  await ports.queues.send('unit-day-rollup', { accountId, imei, days });
}

/** An eco event counts on the day its trip started: that of the event, or the day before for a trip over midnight. */
const ECO_TRIP_REACH_MS = 12 * 3_600_000;

/**
 * After an eco event (shared/eco.ts) was recorded: its days' counts are announced and queued as
 * after a trip write, so a day recomputed before the event was stored is recomputed again.
 */
export async function ecoEventRecorded(ports: Pick<Ports, 'queues'>, accountId: string, imei: string, ts: number): Promise<void> {
  const days = rollupDaysOf([ts - ECO_TRIP_REACH_MS, ts]);
  await bumpUnitDays(accountId, imei, days);
  await ports.queues.send('unit-day-rollup', { accountId, imei, days });
}

/** What a recomputation read: the day's generation (undefined: no item yet), then its trips and their eco events. */
export interface UnitDayRead {
  accountId: string;
  imei: string;
  day: string;
  gen: number | undefined;
  trips: TripItem[];
  /** The eco events from the day's first trip start to its last trip stop. */
  ecoEvents: EcoEvent[];
}

/** The first half of a recomputation: the generation, then (never before) the trips and their eco events. */
export async function readUnitDay(accountId: string, imei: string, day: string): Promise<UnitDayRead> {
  const current = await dynamo().send(new GetCommand({ TableName: tableName('unitDays'), Key: { unit: unitDayKey(accountId, imei), day }, ProjectionExpression: 'gen', ConsistentRead: true }));
  const gen = current.Item?.['gen'];
  const { fromMs, toMs } = rollupDayRange(day);
  // All of the account's trips of the IMEI that day (no registration bound: the key holds the account), consistently read.
  const trips = await unitTrips({ imei, accountId, createdAt: undefined }, fromMs, toMs - 1, { consistent: true });
  const ecoEvents = trips.length ? await unitEcoEvents({ imei, accountId, createdAt: undefined }, Math.min(...trips.map((t) => t.startTs)), Math.max(...trips.map((t) => t.stopTs))) : [];
  return { accountId, imei, day, gen: typeof gen === 'number' ? gen : undefined, trips, ecoEvents };
}

/** The item a read gives: the figures, or `trips: 0` for a day without trips. The same read gives the same item. */
export function unitDayItemOf(read: UnitDayRead): Record<string, unknown> {
  const figures = unitDayFigures(read.trips, read.ecoEvents);
  const expiries = read.trips.map((t) => t.expiresAt).filter((e) => e !== undefined);
  return {
    unit: unitDayKey(read.accountId, read.imei),
    day: read.day,
    accountId: read.accountId,
    imei: read.imei,
    ...(read.gen !== undefined ? { gen: read.gen } : {}),
    ...(figures ? unitDayAttributes(figures) : { trips: 0 }),
    // The day goes when its trips go (they expire with the account's retention).
    expiresAt: expiries.length ? Math.max(...expiries) : emptyExpiry(read.day),
  };
}

/** The second half: writes the item unless the generation moved since it was read. False when it did (a later write's recomputation decides). */
export async function writeUnitDay(read: UnitDayRead): Promise<boolean> {
  try {
    await dynamo().send(
      new PutCommand({
        TableName: tableName('unitDays'),
        Item: unitDayItemOf(read),
        ConditionExpression: read.gen === undefined ? 'attribute_not_exists(gen)' : 'gen = :gen',
        ...(read.gen === undefined ? {} : { ExpressionAttributeValues: { ':gen': read.gen } }),
      }),
    );
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}

/** Recomputes one day of a unit from its trips; false when a later trip write superseded this run. */
export async function recomputeUnitDay(accountId: string, imei: string, day: string): Promise<boolean> {
  return writeUnitDay(await readUnitDay(accountId, imei, day));
}

/** The months (yyyy-MM) of local days. */
export const monthsOf = (days: readonly string[]): string[] => [...new Set(days.map((d) => d.slice(0, 7)))].sort();

/** What a month's recomputation read: the generation it raised the month to, then the month's days. */
export interface UnitMonthRead {
  accountId: string;
  imei: string;
  month: string;
  mgen: number;
  days: UnitDay[];
}

/** The first half of a month's recomputation: raises its generation, then (never before) reads its days. */
export async function readUnitMonth(accountId: string, imei: string, month: string): Promise<UnitMonthRead> {
  const bumped = await dynamo().send(
    new UpdateCommand({
      TableName: tableName('unitDays'),
      Key: { unit: unitDayKey(accountId, imei), day: month },
      UpdateExpression: 'ADD mgen :one',
      ExpressionAttributeValues: { ':one': 1 },
      ReturnValues: 'UPDATED_NEW',
    }),
  );
  const days = await readUnitDays(accountId, imei, `${month}-01`, `${month}-31`, { consistent: true });
  return { accountId, imei, month, mgen: Number(bumped.Attributes?.['mgen']), days };
}

/** The second half: writes the month unless a later recomputation raised its generation since. */
export async function writeUnitMonth(read: UnitMonthRead): Promise<boolean> {
  try {
    await dynamo().send(
      new PutCommand({
        TableName: tableName('unitDays'),
        Item: { ...unitMonthItemOf(read.accountId, read.imei, read.month, read.days, emptyExpiry(`${read.month}-01`)), mgen: read.mgen },
        ConditionExpression: 'mgen = :mgen',
        ExpressionAttributeValues: { ':mgen': read.mgen },
      }),
    );
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}

/** Recomputes a unit's month item from its day items; false when a later run overtook this one. */
export async function recomputeUnitMonth(accountId: string, imei: string, month: string): Promise<boolean> {
  return writeUnitMonth(await readUnitMonth(accountId, imei, month));
}

/** Recomputes each day (see above), then their months. */
export async function recomputeUnitDaysAndMonths(accountId: string, imei: string, days: readonly string[]): Promise<{ overtaken: string[] }> {
  const overtaken: string[] = [];
  for (const day of days) if (!(await recomputeUnitDay(accountId, imei, day))) overtaken.push(day);
  for (const month of monthsOf(days)) if (!(await recomputeUnitMonth(accountId, imei, month))) overtaken.push(month);
  return { overtaken };
}
