/**
 * The trip-rollups table (docs/decisions/0032-fleet-overview.md): per account, what the fleet
 * overview sums without reading each unit's trips. Two kinds of item, each with one attribute per
 * unit (`u<imei>`) that had trips starting in it, and each split by the IMEI in QUARTER_SHARDS
 * or MONTH_SHARDS (`#<shard, 2 digits>` after the key; trip-rollup-reads.ts says why):
 *
 * - `q#<start ms, 13 digits>#<shard>`: a quarter hour, `[distance m, trips]`. Every time zone's
 *   offset is a whole number of quarter hours, so a local day or week in any zone is a key range.
 * - `m#<yyyy-MM>#<shard>`: a month in FLEET_MONTH_ZONE, `[trips, first local day, last local
 *   day]`, for the unattested months.
 *
 * A unit's entry is not counted up and down: after every trip write it is recomputed from the
 * trips table (one Query of the quarter hour, one of the month), so a retried or repeated refresh
 * writes the same value and a refresh after a write that lost its race heals what an earlier one
 * missed.
 */
import { QueryCommand, UpdateCommand, type QueryCommandOutput } from '@aws-sdk/lib-dynamodb';
import { addDays, localDayOf, monthDays, startOfLocalDay } from '../../shared/local-time';
import { FLEET_MONTH_ZONE } from '../../shared/schemas/fleet-overview';
import { dynamo, tableName } from '../platform/db';
import { monthKey, QUARTER_MS, quarterKey, quarterOf, rollupMonthOf, unitAttribute } from './trip-rollup-reads';

const DAY_S = 86_400;
/** Quarter hours are read for today and this week only; months for the past year. */
export const QUARTER_KEEP_DAYS = 35;
const MONTH_KEEP_DAYS = 400;

/** The starts (and distances) of the unit's trips in [fromMs, toMs), of this account only. */
async function tripStarts(accountId: string, imei: string, fromMs: number, toMs: number): Promise<{ startTs: number; distanceM: number }[]> {
  const found: { startTs: number; distanceM: number }[] = [];
  let start: QueryCommandOutput['LastEvaluatedKey'];
  do {
    const page: QueryCommandOutput = await dynamo().send(
      new QueryCommand({
        TableName: tableName('trips'),
        KeyConditionExpression: 'imei = :imei AND startTs BETWEEN :from AND :to',
        ExpressionAttributeValues: { ':imei': imei, ':from': fromMs, ':to': toMs - 1 },
        ProjectionExpression: 'startTs, distanceM, accountId',
        ConsistentRead: true,
        ExclusiveStartKey: start,
      }),
    );
    for (const item of page.Items ?? []) {
      // An IMEI outlives a registration: a previous owner's trips are not this account's.
      if (item['accountId'] === accountId) found.push({ startTs: Number(item['startTs']), distanceM: Number(item['distanceM'] ?? 0) });
    }
    start = page.LastEvaluatedKey;
  } while (start);
  return found;
}

async function setEntry(accountId: string, sk: string, imei: string, value: unknown[] | null, expiresAt: number): Promise<void> {
  await dynamo().send(
    new UpdateCommand({
      TableName: tableName('tripRollups'),
      Key: { accountId, sk },
      UpdateExpression: value ? 'SET #u = :v, expiresAt = :exp' : 'REMOVE #u SET expiresAt = :exp',
      ExpressionAttributeNames: { '#u': unitAttribute(imei) },
      ExpressionAttributeValues: { ':exp': expiresAt, ...(value ? { ':v': value } : {}) },
    }),
  );
}

async function refreshQuarter(accountId: string, imei: string, bucketMs: number): Promise<void> {
  const trips = await tripStarts(accountId, imei, bucketMs, bucketMs + QUARTER_MS);
  const distanceM = Math.round(trips.reduce((sum, t) => sum + t.distanceM, 0));
  const expiresAt = Math.floor(bucketMs / 1000) + QUARTER_KEEP_DAYS * DAY_S;
  await setEntry(accountId, quarterKey(bucketMs, imei), imei, trips.length ? [distanceM, trips.length] : null, expiresAt);
}

async function refreshMonth(accountId: string, imei: string, month: string): Promise<void> {
  const { first, last } = monthDays(month);
  const toMs = startOfLocalDay(addDays(last, 1), FLEET_MONTH_ZONE);
  const trips = await tripStarts(accountId, imei, startOfLocalDay(first, FLEET_MONTH_ZONE), toMs);
  const starts = trips.map((t) => t.startTs);
  const value = trips.length ? [trips.length, localDayOf(Math.min(...starts), FLEET_MONTH_ZONE), localDayOf(Math.max(...starts), FLEET_MONTH_ZONE)] : null;
  await setEntry(accountId, monthKey(month, imei), imei, value, Math.floor(toMs / 1000) + MONTH_KEEP_DAYS * DAY_S);
}

/**
 * Recomputes the unit's entries of the quarter hours and months in which trips start or started at
 * `starts` (after a trip was stored, replaced, deleted, merged or split there). `quartersFrom`
 * leaves out the quarter hours before it (the backfill's: those past their keeping).
 */
export async function refreshTripRollups(accountId: string, imei: string, starts: readonly number[], options: { quartersFrom?: number } = {}): Promise<void> {
  const quarters = new Set(starts.filter((ts) => ts >= (options.quartersFrom ?? -Infinity)).map(quarterOf));
  const months = new Set(starts.map(rollupMonthOf));
  await Promise.all([...[...quarters].map((q) => refreshQuarter(accountId, imei, q)), ...[...months].map((m) => refreshMonth(accountId, imei, m))]);
}
