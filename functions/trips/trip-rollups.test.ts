/**
 * The fleet overview's trip rollups against DynamoDB Local: an account's units are kept in items
 * split by IMEI, so that no item grows with the fleet, and the reads put them together again;
 * the items written before the split are not read.
 */
import { randomUUID } from 'node:crypto';
import { DeleteCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { imeiFrom } from '../../shared/validators/imei';
import { useLocalTables } from '../../test/support/local-tables';
import { forEachLimit } from '../ingest/batch-write';
import { dynamo, tableName } from '../platform/db';
import { MONTH_SHARDS, monthEntries, QUARTER_MS, QUARTER_SHARDS, quarterEntries, quarterOf, rollupMonthOf, rollupShard, unitAttribute } from './trip-rollup-reads';
import { refreshTripRollups } from './trip-rollups';

const imeiOf = (n: number) => imeiFrom(`35291207${String(n).padStart(6, '0')}`);
/** A quarter hour of last week, 07:30 UTC. */
const BUCKET = quarterOf(Math.floor(Date.now() / 86_400_000 - 7) * 86_400_000 + 7.5 * 3_600_000);
const MONTH = rollupMonthOf(BUCKET);

const putTrip = (accountId: string, imei: string, startTs: number, distanceM: number) =>
  dynamo().send(new PutCommand({ TableName: tableName('trips'), Item: { imei, startTs, stopTs: startTs + 600_000, distanceM, accountId, type: 'business', v: 0 } }));

const itemsOf = async (accountId: string) =>
  (await dynamo().send(new QueryCommand({ TableName: tableName('tripRollups'), KeyConditionExpression: 'accountId = :a', ExpressionAttributeValues: { ':a': accountId }, ConsistentRead: true }))).Items ?? [];

beforeAll(async () => {
  await useLocalTables();
});

describe('the split of the rollup items', () => {
  it('spreads a large fleet evenly, so that no item nears 400 KB: months at half a million units, quarter hours with 100,000 starting at once', () => {
    const units = 50_000;
    /** The busiest item's share of the units. */
    const busiest = (shards: number) => {
      const counts = new Array<number>(shards).fill(0);
      for (let n = 0; n < units; n++) counts[rollupShard(imeiOf(n), shards)]! += 1;
      const mean = units / shards;
      expect(Math.min(...counts)).toBeGreaterThan(mean * 0.85);
      expect(Math.max(...counts)).toBeLessThan(mean * 1.15);
      return Math.max(...counts) / units;
    };
    // A month entry: `u` and 15 digits, a list of a count and two days, about 44 B; a quarter hour's a distance and a count, about 28 B.
    expect(busiest(MONTH_SHARDS) * 500_000 * 44).toBeLessThan(400_000);
    expect(busiest(QUARTER_SHARDS) * 100_000 * 28).toBeLessThan(400_000);
  });

  it('keeps each unit in the item of its shard, and the overview reads every unit back', async () => {
    const accountId = `acc-${randomUUID()}`;
    const imeis = Array.from({ length: 150 }, (_, n) => imeiOf(100_000 + n));
    await forEachLimit(imeis, 8, async (imei) => {
      const i = imeis.indexOf(imei);
      await putTrip(accountId, imei, BUCKET + i * 1_000, 1_000 + i);
      await refreshTripRollups(accountId, imei, [BUCKET + i * 1_000]);
    });

    const items = await itemsOf(accountId);
    const units = items.flatMap((item) => Object.keys(item).filter((k) => k.startsWith('u')).map((k) => ({ sk: String(item['sk']), imei: k.slice(1) })));
    expect(units).toHaveLength(2 * imeis.length);
    for (const { sk, imei } of units) expect(sk.endsWith(`#${String(rollupShard(imei, sk.startsWith('q#') ? QUARTER_SHARDS : MONTH_SHARDS)).padStart(2, '0')}`)).toBe(true);
    // All of the quarter hour's items and most of the month's.
    expect(items.filter((i) => String(i['sk']).startsWith('q#'))).toHaveLength(QUARTER_SHARDS);
    expect(items.filter((i) => String(i['sk']).startsWith('m#')).length).toBeGreaterThan(MONTH_SHARDS / 2);

    const quarters = await quarterEntries(accountId, BUCKET, BUCKET + QUARTER_MS);
    expect(quarters.map((q) => [q.imei, q.bucketMs, q.distanceM, q.trips]).sort()).toEqual(imeis.map((imei, i) => [imei, BUCKET, 1_000 + i, 1]).sort());
    const months = await monthEntries(accountId, MONTH, MONTH);
    expect(months.map((m) => [m.imei, m.month, m.trips]).sort()).toEqual(imeis.map((imei) => [imei, MONTH, 1]).sort());
  });

  it('reads a quarter hour that a period ends a millisecond into, and not the next', async () => {
    const accountId = `acc-${randomUUID()}`;
    const imei = imeiOf(200_001);
    await putTrip(accountId, imei, BUCKET, 5_000);
    await putTrip(accountId, imei, BUCKET + QUARTER_MS, 7_000);
    await refreshTripRollups(accountId, imei, [BUCKET, BUCKET + QUARTER_MS]);
    expect((await quarterEntries(accountId, BUCKET, BUCKET + 1)).map((q) => q.distanceM)).toEqual([5_000]);
    expect((await quarterEntries(accountId, BUCKET, BUCKET + QUARTER_MS + 1)).map((q) => q.distanceM)).toEqual([5_000, 7_000]);
  });

  it('takes a unit out when its last trip there is gone, and leaves the items from before the split unread', async () => {
    const accountId = `acc-${randomUUID()}`;
    const imei = imeiOf(200_002);
    await putTrip(accountId, imei, BUCKET, 5_000);
    await refreshTripRollups(accountId, imei, [BUCKET]);
    // Items as they were kept before the split: one per quarter hour and month.
    const old = imeiOf(200_003);
    const sk = [`q#${String(BUCKET).padStart(13, '0')}`, `m#${MONTH}`];
    for (const key of sk) await dynamo().send(new PutCommand({ TableName: tableName('tripRollups'), Item: { accountId, sk: key, [unitAttribute(old)]: key.startsWith('q') ? [9_000, 2] : [2, '2026-01-01', '2026-01-02'] } }));

    expect((await quarterEntries(accountId, BUCKET, BUCKET + QUARTER_MS)).map((q) => q.imei)).toEqual([imei]);
    expect((await monthEntries(accountId, MONTH, MONTH)).map((m) => m.imei)).toEqual([imei]);

    await dynamo().send(new DeleteCommand({ TableName: tableName('trips'), Key: { imei, startTs: BUCKET } }));
    await refreshTripRollups(accountId, imei, [BUCKET]);
    expect(await quarterEntries(accountId, BUCKET, BUCKET + QUARTER_MS)).toEqual([]);
    expect(await monthEntries(accountId, MONTH, MONTH)).toEqual([]);
  });
});
