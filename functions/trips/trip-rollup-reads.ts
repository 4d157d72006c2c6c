/**
 * Reading the trip-rollups table (its items are described in trip-rollups.ts, which writes them):
 * kept apart so that the fleet overview, which only reads them, is granted only that.
 */
import { QueryCommand, type QueryCommandOutput } from '@aws-sdk/lib-dynamodb';
import { localDayOf } from '../../shared/local-time';
import { FLEET_MONTH_ZONE } from '../../shared/schemas/fleet-overview';
import { dynamo, tableName } from '../platform/db';

export const QUARTER_MS = 900_000;

/**
 * Items per quarter hour and per month of an account: a unit's entries go to one of them by its
 * IMEI. One item per month would grow with the fleet: a month entry is about 44 B, so one item
 * could not hold more than about 9,300 units (DynamoDB's 400 KB), and every trip write would
 * rewrite, and be billed for, the whole account's month. In 64 items, one holds about 1/64 of the
 * account's units (about 34 KB of a month at 50,000 units, far under the limit up to half a
 * million). A quarter hour holds only the units whose trips start in it, so 8 items take every unit
 * of a 100,000-unit account starting at once, and a week of them stays a few thousand items to
 * read for a fleet of a thousand (bench:fleet).
 */
export const MONTH_SHARDS = 64;
export const QUARTER_SHARDS = 8;

/** The unit's item among an account's `shards` of a quarter hour or month (FNV-1a of the IMEI; the counts are powers of two, so a unit's quarter shard is its month shard's remainder). */
export function rollupShard(imei: string, shards: number): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < imei.length; i++) hash = Math.imul(hash ^ imei.charCodeAt(i), 0x01000193);
  return (hash >>> 0) % shards;
}

const shardOf = (imei: string, shards: number) => `#${String(rollupShard(imei, shards)).padStart(2, '0')}`;
const quarterPrefix = (ms: number) => `q#${String(ms).padStart(13, '0')}`;
/** The unit's item of the quarter hour starting at `bucketMs`. */
export const quarterKey = (bucketMs: number, imei: string) => `${quarterPrefix(bucketMs)}${shardOf(imei, QUARTER_SHARDS)}`;
/** The unit's item of the month (yyyy-MM). */
export const monthKey = (month: string, imei: string) => `m#${month}${shardOf(imei, MONTH_SHARDS)}`;
/** Keys of the items before the split (`q#<ms>`, `m#<yyyy-MM>`), left to expire; the backfill wrote their entries again split. */
const QUARTER_KEY_LENGTH = quarterKey(0, '').length;
const MONTH_KEY_LENGTH = monthKey('1970-01', '').length;
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

/** Every unit's entry of the quarter hours starting in [fromMs, toMs): one Query over their items. */
export async function quarterEntries(accountId: string, fromMs: number, toMs: number): Promise<QuarterEntry[]> {
  const entries: QuarterEntry[] = [];
  // Every item of a quarter hour sorts after its prefix and before the prefix followed by '#~'.
  for (const item of await rollupItems(accountId, quarterPrefix(quarterOf(fromMs)), `${quarterPrefix(toMs - 1)}#~`)) {
    const sk = String(item['sk']);
    if (sk.length !== QUARTER_KEY_LENGTH) continue;
    const bucketMs = Number(sk.slice(2, 15));
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

/** Every unit's entry of the months fromMonth..toMonth (yyyy-MM): one Query over their items. */
export async function monthEntries(accountId: string, fromMonth: string, toMonth: string): Promise<MonthEntry[]> {
  const entries: MonthEntry[] = [];
  for (const item of await rollupItems(accountId, `m#${fromMonth}`, `m#${toMonth}#~`)) {
    const sk = String(item['sk']);
    if (sk.length !== MONTH_KEY_LENGTH) continue;
    const month = sk.slice(2, 9);
    for (const [imei, [trips, firstDay, lastDay]] of unitEntries(item)) {
      entries.push({ month, imei, trips: Number(trips), firstDay: String(firstDay), lastDay: String(lastDay) });
    }
  }
  return entries;
}
