/**
 * Reading the day rollups (table `unit-days`, functions/trips/unit-day-item.ts): what the reports
 * call. Read-only, so a function that reads them is granted reads only.
 *
 * Odometers: a day holds the raw counters of its first trip's start and its last trip's stop. The
 * odometer at either is the trip log's (functions/trips/odometer.ts `odometersOf`, from the unit's
 * odometer entries, `resolvedOdometerEntries`): read the entries once per unit, then
 * `unitDayOdometers(day, entries)` for each day. An entry made later changes what is read, never
 * what is stored.
 */
import { GetCommand, QueryCommand, type QueryCommandOutput } from '@aws-sdk/lib-dynamodb';
import { addDays } from '../../shared/local-time';
import { mapLimited } from '../platform/concurrency';
import { dynamo, tableName } from '../platform/db';
import { odometersOf, type OdometerEntryItem } from './odometer';
import type { Odometers } from './trip-item';
import { parseUnitDayItem, parseUnitMonthItem, unitDayKey, type UnitDay, type UnitMonth } from './unit-day-item';

/**
 * The days of a unit of an account from `fromDay` to `toDay` (yyyy-MM-dd, both included, local
 * days in ROLLUP_ZONE), oldest first; only days on which a trip of this account starts. One Query,
 * followed page by page.
 */
export async function readUnitDays(accountId: string, imei: string, fromDay: string, toDay: string, options: { consistent?: boolean } = {}): Promise<UnitDay[]> {
  if (!(fromDay <= toDay)) return [];
  const days: UnitDay[] = [];
  let start: QueryCommandOutput['LastEvaluatedKey'];
  do {
    const page: QueryCommandOutput = await dynamo().send(
      new QueryCommand({
        TableName: tableName('unitDays'),
        KeyConditionExpression: '#unit = :unit AND #day BETWEEN :from AND :to',
        ExpressionAttributeNames: { '#unit': 'unit', '#day': 'day' },
        ExpressionAttributeValues: { ':unit': unitDayKey(accountId, imei), ':from': fromDay, ':to': toDay },
        ConsistentRead: options.consistent ?? false,
        ExclusiveStartKey: start,
      }),
    );
    for (const item of page.Items ?? []) {
      const day = parseUnitDayItem(item);
      if (day) days.push(day);
    }
    start = page.LastEvaluatedKey;
  } while (start);
  return days;
}

/** One unit's month item (yyyy-MM), or null when the unit has no trip in the month. One GetItem. */
export async function readUnitMonthItem(accountId: string, imei: string, month: string): Promise<UnitMonth | null> {
  const out = await dynamo().send(new GetCommand({ TableName: tableName('unitDays'), Key: { unit: unitDayKey(accountId, imei), day: month }, ConsistentRead: true }));
  return out.Item ? parseUnitMonthItem(out.Item) : null;
}

/** Local days from `fromDay` to `toDay`, both included. */
function daysFrom(fromDay: string, toDay: string): string[] {
  const days: string[] = [];
  for (let day = fromDay; day <= toDay; day = addDays(day, 1)) days.push(day);
  return days;
}

/** What a unit's summary reads of a day or month item: everything but the drivers and projects. */
const SUMMARY_ATTRIBUTES = [
  'unit', 'day', 'accountId', 'imei', 'trips', 'distanceM', 'byType', 'movingS', 'idleS', 'figuresMissing', 'maxSpeedKmh',
  'firstStartTs', 'lastStartTs', 'lastStopTs', 'startCounterM', 'counterSource', 'stopCounterM', 'stopCounterSource', 'daily',
  'harshAccelerations', 'harshBrakings', 'harshCornerings', 'overspeedS',
] as const;

/**
 * Every unit's days of an account from `fromDay` to `toDay`, without their drivers and projects:
 * one Query of the byDay index per day (the account's units of that day, by their key's prefix),
 * at most `parallel` at once. For a report over many units, far fewer calls than one Query per unit.
 */
export async function readAccountDays(accountId: string, fromDay: string, toDay: string, parallel = 16): Promise<UnitDay[]> {
  return (await accountItems(accountId, daysFrom(fromDay, toDay), parallel)).flatMap((item) => parseUnitDayItem(item) ?? []);
}

/** Every unit's month items of an account (months yyyy-MM), the same way: one Query per month. */
export async function readAccountMonths(accountId: string, months: readonly string[], parallel = 16): Promise<UnitMonth[]> {
  return (await accountItems(accountId, months, parallel)).flatMap((item) => parseUnitMonthItem(item) ?? []);
}

/** The account's items under each sort key of `keys` (days or months), through the byDay index. */
async function accountItems(accountId: string, keys: readonly string[], parallel: number): Promise<Record<string, unknown>[]> {
  const names = Object.fromEntries(SUMMARY_ATTRIBUTES.map((a, i) => [`#a${i}`, a]));
  const perKey = await mapLimited(keys, parallel, async (key) => {
    const found: Record<string, unknown>[] = [];
    let start: QueryCommandOutput['LastEvaluatedKey'];
    do {
      const page: QueryCommandOutput = await dynamo().send(
        new QueryCommand({
          TableName: tableName('unitDays'),
          IndexName: 'byDay',
          KeyConditionExpression: '#a1 = :key AND begins_with(#a0, :account)',
          ExpressionAttributeNames: names,
          // Without the drivers and projects: a unit's summary does not show them.
          ProjectionExpression: Object.keys(names).join(', '),
          ExpressionAttributeValues: { ':key': key, ':account': unitDayKey(accountId, '') },
          ExclusiveStartKey: start,
        }),
      );
      for (const item of page.Items ?? []) if (item['accountId'] === accountId) found.push(item);
      start = page.LastEvaluatedKey;
    } while (start);
    return found;
  });
  return perKey.flat();
}

/**
 * The odometer (km) at a day's first start and last stop, as the trip log shows them on the day's
 * first and last trip: `entries` are the unit's odometer entries, oldest first, with their counters
 * resolved (odometer.ts `resolvedOdometerEntries`). Null where the trip log shows none (a computed
 * counter without an entry before it).
 */
export function unitDayOdometers(
  day: Pick<UnitDay, 'firstStartTs' | 'lastStartTs' | 'startCounterM' | 'stopCounterM' | 'counterSource' | 'stopCounterSource'>,
  entries: readonly OdometerEntryItem[],
): Odometers {
  const start = odometersOf({ startTs: day.firstStartTs, startCounterM: day.startCounterM, stopCounterM: day.startCounterM, counterSource: day.counterSource }, entries);
  const stop = odometersOf({ startTs: day.lastStartTs, startCounterM: day.stopCounterM, stopCounterM: day.stopCounterM, counterSource: day.stopCounterSource }, entries);
  return { start: start.start, stop: stop.stop };
}
