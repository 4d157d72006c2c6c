/**
 * Odometer entries (table `odometer-entries`: partition `imei`, sort `atTs`) and the odometer a trip
 * shows.
 *
 * A trip carries the unit's distance counter at its start and stop (`startCounterM`,
 * `stopCounterM`): the tracker's own odometer when it reports one (`counterSource: 'tracker'`),
 * otherwise a counter the detector sums up (`'computed'`). An entry says "at this time the
 * vehicle's odometer read this many km" and keeps the counter at that time, so every later trip
 * reads: odometer = entry.value + (counter − entry.counterAtEntryM) / 1000, from the latest entry
 * at or before the trip's start whose counter is of the same source.
 *
 * Without such an entry: a tracker counter is shown as the odometer (it is the tracker's), a
 * computed one gives null, since a sum of GPS distances since installation is no odometer reading
 * (docs/decisions/0015-trip-log.md).
 */
import { DeleteCommand, PutCommand, QueryCommand, type QueryCommandOutput } from '@aws-sdk/lib-dynamodb';
import { isConditionFailure } from '../platform/conditions';
import { dynamo, tableName } from '../platform/db';
import { registeredAtOf, type UnitItem } from '../platform/unit-item';
import type { Odometers, TripItem } from './trip-item';
import { neighbourTrip } from './trip-repository';

export interface OdometerEntryItem {
  imei: string;
  atTs: number;
  accountId: string;
  /** km */
  valueKm: number;
  /** The unit's trip counter at `atTs` (m) and its source; absent when the unit had no trip yet. */
  counterAtEntryM?: number;
  counterSource?: 'tracker' | 'computed';
  createdBy: string;
  createdAt: number;
}

type Unit = Pick<UnitItem, 'imei' | 'accountId' | 'createdAt'>;

/** The unit's entries of its current registration, oldest first. */
export async function listOdometerEntries(unit: Unit): Promise<OdometerEntryItem[]> {
  const from = registeredAtOf(unit);
  const entries: OdometerEntryItem[] = [];
  let start: QueryCommandOutput['LastEvaluatedKey'];
  do {
    const page: QueryCommandOutput = await dynamo().send(
      new QueryCommand({
        TableName: tableName('odometerEntries'),
        KeyConditionExpression: 'imei = :imei AND atTs >= :from',
        ExpressionAttributeValues: { ':imei': unit.imei, ':from': Number.isFinite(from) ? from : 0 },
        ExclusiveStartKey: start,
      }),
    );
    for (const item of (page.Items ?? []) as OdometerEntryItem[]) if (item.accountId === unit.accountId) entries.push(item);
    start = page.LastEvaluatedKey;
  } while (start);
  return entries;
}

/**
 * The unit's counter at an instant, from its trips: parked after a trip, the counter stays at its
 * stop; within a trip it is interpolated by time; before the first trip, that trip's start. Null
 * while the unit has no trip.
 */
export async function counterAt(unit: Unit, ts: number): Promise<{ counterM: number; source: 'tracker' | 'computed' } | null> {
  const before = await neighbourTrip(unit, ts + 1, 'before');
  if (before) {
    if (ts >= before.stopTs || before.stopTs <= before.startTs) return { counterM: before.stopCounterM, source: before.counterSource };
    const share = (ts - before.startTs) / (before.stopTs - before.startTs);
    return { counterM: before.startCounterM + share * (before.stopCounterM - before.startCounterM), source: before.counterSource };
  }
  const after = await neighbourTrip(unit, ts, 'after');
  return after ? { counterM: after.startCounterM, source: after.counterSource } : null;
}

export async function putOdometerEntry(item: OdometerEntryItem): Promise<void> {
  await dynamo().send(new PutCommand({ TableName: tableName('odometerEntries'), Item: item }));
}

/** False when there is no such entry of the account. */
export async function deleteOdometerEntry(unit: Unit, atTs: number): Promise<boolean> {
  try {
    await dynamo().send(
      new DeleteCommand({
        TableName: tableName('odometerEntries'),
        Key: { imei: unit.imei, atTs },
        ConditionExpression: 'accountId = :account',
        ExpressionAttributeValues: { ':account': unit.accountId },
      }),
    );
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}

const round3 = (km: number): number => Math.round(km * 1000) / 1000;

/**
 * Gives entries stored before the unit's first trip their counter: the start of the first trip
 * after them (the unit stood still until then). Read once per entry that lacks one.
 */
export async function resolveEntryCounters(unit: Unit, entries: readonly OdometerEntryItem[]): Promise<OdometerEntryItem[]> {
  return Promise.all(
    entries.map(async (entry) => {
      if (entry.counterAtEntryM !== undefined) return entry;
      const next = await neighbourTrip(unit, entry.atTs - 1, 'after');
      return next ? { ...entry, counterAtEntryM: next.startCounterM, counterSource: next.counterSource } : entry;
    }),
  );
}

/** The odometer at a trip's start and stop (km, 3 decimals) from the entries (oldest first). */
export function odometersOf(trip: Pick<TripItem, 'startTs' | 'startCounterM' | 'stopCounterM' | 'counterSource'>, entries: readonly OdometerEntryItem[]): Odometers {
  let entry: OdometerEntryItem | undefined;
  for (const e of entries) {
    if (e.atTs > trip.startTs) break;
    entry = e;
  }
  if (entry && entry.counterAtEntryM !== undefined && (entry.counterSource ?? trip.counterSource) === trip.counterSource) {
    const base = entry.counterAtEntryM;
    return { start: round3(entry.valueKm + (trip.startCounterM - base) / 1000), stop: round3(entry.valueKm + (trip.stopCounterM - base) / 1000) };
  }
  if (trip.counterSource === 'tracker') return { start: round3(trip.startCounterM / 1000), stop: round3(trip.stopCounterM / 1000) };
  return { start: null, stop: null };
}
