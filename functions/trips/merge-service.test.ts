/**
 * Merge and split against DynamoDB Local when writers race: both merges are planned from the same
 * reads, and only the first to commit wins; the other is refused as a whole (409) and leaves
 * nothing half-done. A split racing an edit loses the same way.
 */
import { randomUUID } from 'node:crypto';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { imeiFrom } from '../../shared/validators/imei';
import { useLocalTables } from '../../test/support/local-tables';
import { dynamo, tableName } from '../platform/db';
import { ConflictError } from '../platform/errors';
import { mergeTrips, splitTrip } from './merge-service';
import type { TripItem } from './trip-item';
import { getTrip, updateTripFields } from './trip-repository';
import { mergedTrip } from './merge-rules';

const ACCOUNT = `acc-${randomUUID()}`;
// 09:00 UTC five days ago: the three hourly trips fall on one Stockholm date whenever the test runs
// (merging refuses trips on different dates).
const T0 = Math.floor((Date.now() - 5 * 86_400_000) / 86_400_000) * 86_400_000 + 9 * 3_600_000;
let serial = 0;

function trip(imei: string, startTs: number): TripItem {
  return {
    imei, startTs, accountId: ACCOUNT, stopTs: startTs + 600_000, startLat: 59.3, startLon: 18, stopLat: 59.4, stopLon: 18.1,
    startAddress: 'A', stopAddress: 'B', distanceM: 5_000, startCounterM: 0, stopCounterM: 5_000, counterSource: 'computed',
    maxSpeedKmh: 50, basis: 'ignition', type: 'business', purpose: undefined, note: undefined, driverId: undefined, passengers: undefined,
    project: undefined, edited: undefined, editedAt: undefined, editedBy: undefined, expiresAt: undefined, joined: undefined, attestationId: undefined, v: 0,
  };
}

async function threeTrips(): Promise<TripItem[]> {
  const imei = imeiFrom(`35693810${String(500000 + serial++).padStart(6, '0')}`);
  const trips = [0, 1, 2].map((h) => trip(imei, T0 + h * 3_600_000));
  for (const t of trips) await dynamo().send(new PutCommand({ TableName: tableName('trips'), Item: t }));
  return trips;
}

beforeAll(async () => {
  await useLocalTables();
});

describe('a merged trip', () => {
  it("adds up the parts' time in motion and idling, and knows neither when a part was detected without them", () => {
    const imei = imeiFrom('35693810999999');
    const a = { ...trip(imei, T0), movingS: 500, idleS: 60 };
    const b = { ...trip(imei, T0 + 3_600_000), movingS: 400, idleS: 30 };
    expect(mergedTrip(a, b)).toMatchObject({ movingS: 900, idleS: 90, distanceM: 10_000 });
    expect(mergedTrip(a, { ...b, movingS: undefined, idleS: undefined })).toMatchObject({ movingS: undefined, idleS: undefined });
  });
});

describe('merge and split races', () => {
  it('lets one of two merges planned from the same reads commit; the other fails whole with CouldNotSplitOrMerge', async () => {
    const [a, b, c] = (await threeTrips()) as [TripItem, TripItem, TripItem];
    const results = await Promise.allSettled([mergeTrips(a, b, 'Europe/Stockholm'), mergeTrips(b, c, 'Europe/Stockholm')]);
    const won = results.filter((r) => r.status === 'fulfilled');
    const lost = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    expect(won).toHaveLength(1);
    expect(lost.map((r) => [r.reason instanceof ConflictError, (r.reason as ConflictError).key])).toEqual([[true, 'CouldNotSplitOrMerge']]);
    // The loser wrote nothing: exactly the winner's two trips became one.
    const left = (await Promise.all([a, b, c].map((t) => getTrip(t.imei, t.startTs)))).filter((t) => t !== null);
    expect(left).toHaveLength(2);
    expect(left.filter((t) => t.joined)).toHaveLength(1);
  });

  it('refuses a merge planned before an edit of either trip', async () => {
    const [a, b] = (await threeTrips()) as [TripItem, TripItem];
    await updateTripFields(b, { purpose: 'Edited meanwhile' }, 'user', Date.now());
    await expect(mergeTrips(a, b, 'Europe/Stockholm')).rejects.toMatchObject({ key: 'CouldNotSplitOrMerge', status: 409 });
    const first = await getTrip(a.imei, a.startTs);
    expect([first?.joined, first?.v]).toEqual([undefined, 0]);
  });

  it('refuses a split planned before the merged trip changed, and one whose second start is taken', async () => {
    const [a, b] = (await threeTrips()) as [TripItem, TripItem];
    const merged = await mergeTrips(a, b, 'Europe/Stockholm');
    await updateTripFields(merged, { note: 'Edited meanwhile' }, 'user', Date.now());
    await expect(splitTrip(merged)).rejects.toMatchObject({ key: 'CouldNotSplitOrMerge' });

    const fresh = (await getTrip(a.imei, a.startTs)) as TripItem;
    await dynamo().send(new PutCommand({ TableName: tableName('trips'), Item: trip(a.imei, b.startTs) }));
    await expect(splitTrip(fresh)).rejects.toMatchObject({ key: 'CouldNotSplitOrMerge' });
    expect((await getTrip(a.imei, a.startTs))?.joined).toBeDefined();
  });
});
