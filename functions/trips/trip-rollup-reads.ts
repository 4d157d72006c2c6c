/**
 * Reading the trip-rollups table (its items are described in trip-rollups.ts, which writes them):
 * kept apart so that the fleet overview, which only reads them, is granted only that.
 */
import { QueryCommand, type QueryCommandOutput } from '@aws-sdk/lib-dynamodb';
import { localDayOf } from '../../shared/local-time';
import { FLEET_MONTH_ZONE } from '../../shared/schemas/fleet-overview';
import { dynamo, tableName } from '../platform/db';

export const QUARTER_MS = 900_000;
export const quarterKey = (bucketMs: number) => `q#${String(bucketMs).padStart(13, '0')}`;
export const monthKey = (month: string) => `m#${month}`;
export const unitAttribute = (imei: string) => `u${imei}`;
export const quarterOf = (ts: number) => Math.floor(ts / QUARTER_MS) * QUARTER_MS;
export const rollupMonthOf = (ts: number) => localDayOf(ts, FLEET_MONTH_ZONE).slice(0, 7);

async function rollupItems(accountId: string, lo: string, hi: string): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  let start: QueryCommandOutput['LastEvaluatedKey'];
  do {
    const page: QueryCommandOutput = await dynamo().send(
      new QueryCommand({
        TableName: tableName('tripRollups'),
        KeyConditionExpression: 'accountId = :a AND sk BETWEEN :lo AND :hi',
        ExpressionAttributeValues: { ':a': accountId, ':lo': lo, ':hi': hi },
        ExclusiveStartKey: start,
      }),
    );
    items.push(...(page.Items ?? []));
    start = page.LastEvaluatedKey;
  } while (start);
  return items;
}

function* unitEntries(item: Record<string, unknown>): Generator<[string, unknown[]]> {
  for (const [name, value] of Object.entries(item)) {
    if (name.startsWith('u') && name !== 'u' && Array.isArray(value)) yield [name.slice(1), value];
  }
}

export interface QuarterEntry {
  bucketMs: number;
  imei: string;
  distanceM: number;
  trips: number;
}

/** Every unit's entry of the quarter hours starting in [fromMs, toMs): one Query. */
export async function quarterEntries(accountId: string, fromMs: number, toMs: number): Promise<QuarterEntry[]> {
  const entries: QuarterEntry[] = [];
  for (const item of await rollupItems(accountId, quarterKey(quarterOf(fromMs)), quarterKey(toMs - 1))) {
    const bucketMs = Number(String(item['sk']).slice(2));
    for (const [imei, [distanceM, trips]] of unitEntries(item)) entries.push({ bucketMs, imei, distanceM: Number(distanceM), trips: Number(trips) });
  }
  return entries;
}

export interface MonthEntry {
  month: string;
  imei: string;
  trips: number;
  firstDay: string;
  lastDay: string;
}

/** Every unit's entry of the months fromMonth..toMonth (yyyy-MM): one Query. */
export async function monthEntries(accountId: string, fromMonth: string, toMonth: string): Promise<MonthEntry[]> {
  const entries: MonthEntry[] = [];
  for (const item of await rollupItems(accountId, monthKey(fromMonth), monthKey(toMonth))) {
    const month = String(item['sk']).slice(2);
    for (const [imei, [trips, firstDay, lastDay]] of unitEntries(item)) {
      entries.push({ month, imei, trips: Number(trips), firstDay: String(firstDay), lastDay: String(lastDay) });
    }
  }
  return entries;
}
