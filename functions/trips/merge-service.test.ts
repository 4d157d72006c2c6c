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
import { useWorkQueues } from '../../test/support/work-queues';
import type { LocalQueues } from '../../infra/local/queues';
import { getPorts } from '../platform/container';
import { dynamo, tableName } from '../platform/db';
import { ConflictError } from '../platform/errors';
import { mergeTrips, splitTrip } from './merge-service';
import type { TripItem } from './trip-item';
import { getTrip, setCheckedInDriver, updateTripFields } from './trip-repository';
import { mergedTrip } from './merge-rules';
import { readUnitDays } from './unit-day-reads';
import { localDayOf } from '../../shared/local-time';
import { ROLLUP_ZONE } from './unit-day-item';

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

let queues: LocalQueues;
beforeAll(async () => {
  await useLocalTables();
  queues = await useWorkQueues(['unit-day-rollup']);
});

const actor = { by: 'user-9', at: Date.now() };
const merge = (a: TripItem, b: TripItem) => mergeTrips(a, b, 'Europe/Stockholm', actor, getPorts());
const split = (t: TripItem) => splitTrip(t, actor, getPorts());
const span = (t: TripItem) => `${new Date(t.startTs).toISOString()}/${new Date(t.stopTs).toISOString()}`;

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
    const results = await Promise.allSettled([merge(a, b), merge(b, c)]);
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
    await expect(merge(a, b)).rejects.toMatchObject({ key: 'CouldNotSplitOrMerge', status: 409 });
    const first = await getTrip(a.imei, a.startTs);
    expect([first?.joined, first?.v]).toEqual([undefined, 0]);
  });

  it('refuses a split planned before the merged trip changed, and one whose second start is taken', async () => {
    const [a, b] = (await threeTrips()) as [TripItem, TripItem];
    const merged = await merge(a, b);
    await updateTripFields(merged, { note: 'Edited meanwhile' }, 'user', Date.now());
    await expect(split(merged)).rejects.toMatchObject({ key: 'CouldNotSplitOrMerge' });

    const fresh = (await getTrip(a.imei, a.startTs)) as TripItem;
    await dynamo().send(new PutCommand({ TableName: tableName('trips'), Item: trip(a.imei, b.startTs) }));
    await expect(split(fresh)).rejects.toMatchObject({ key: 'CouldNotSplitOrMerge' });
    expect((await getTrip(a.imei, a.startTs))?.joined).toBeDefined();
  });
});

describe('the change log and the day rollups of a merge and a split', () => {
  it("keeps each trip's log through a merge and a split, adds the merge and the split, and keeps the day's figures", async () => {
    const [a, b] = (await threeTrips()) as [TripItem, TripItem];
    const edited = (await updateTripFields(b, { purpose: 'Visit', type: 'business' }, 'user-2', T0 + 5 * 3_600_000)) as TripItem;
    // Only what changed is logged: the type was business already.
    expect(edited.changes).toEqual([{ at: T0 + 5 * 3_600_000, by: 'user-2', field: 'purpose', from: null, to: 'Visit' }]);

    const merged = await merge(a, edited);
    const stored = (await getTrip(a.imei, a.startTs)) as TripItem;
    expect(stored.changes).toEqual([...edited.changes!, { at: actor.at, by: 'user-9', field: 'merged', from: span(a), to: span(b) }]);
    expect(stored.joined?.[1].changes).toEqual(edited.changes);
    await queues.drained();
    const day = localDayOf(a.startTs, ROLLUP_ZONE);
    const [rollup] = await readUnitDays(ACCOUNT, a.imei, day, day);
    // The three trips of threeTrips() start that day; two of them are one now.
    expect(rollup).toMatchObject({ day, trips: 2, distanceM: 15_000, firstStartTs: a.startTs, lastStartTs: T0 + 2 * 3_600_000 });

    const [first, second] = await split(merged);
    const splitEntry = (part: TripItem) => ({ at: actor.at, by: 'user-9', field: 'split', from: span(merged), to: span(part) });
    expect((await getTrip(a.imei, a.startTs))?.changes).toEqual([splitEntry(first)]);
    expect((await getTrip(b.imei, b.startTs))?.changes).toEqual([...edited.changes!, splitEntry(second)]);
    await queues.drained();
    expect(await readUnitDays(ACCOUNT, a.imei, day, day)).toMatchObject([{ day, trips: 3, distanceM: 15_000 }]);
  });
});

describe('the change log of edits and check-ins', () => {
  it('logs two edits made at once from the same read each with the value it replaced', async () => {
    const [a] = (await threeTrips()) as [TripItem];
    const results = await Promise.all([updateTripFields(a, { purpose: 'One' }, 'user-1', 1_000), updateTripFields(a, { purpose: 'Two' }, 'user-2', 2_000)]);
    expect(results.every((r) => r !== null)).toBe(true);
    const stored = (await getTrip(a.imei, a.startTs)) as TripItem;
    const log = stored.changes!;
    expect(log).toHaveLength(2);
    // Whichever came second replaced the first one's value, not the value both read.
    const [first, second] = [...log].sort((x, y) => (x.from === null ? -1 : y.from === null ? 1 : 0));
    expect(first).toMatchObject({ field: 'purpose', from: null });
    expect(second).toMatchObject({ field: 'purpose', from: first!.to, to: stored.purpose });
    expect(stored.v).toBe(2);
  });

  it("logs a check-in's driver by who checked in, but changes no driver a user set", async () => {
    const [a, b] = (await threeTrips()) as [TripItem, TripItem];
    expect(await setCheckedInDriver(a, 'driver-1', 'user-5', 3_000)).toBe(true);
    expect((await getTrip(a.imei, a.startTs))?.changes).toEqual([{ at: 3_000, by: 'user-5', field: 'driverId', from: null, to: 'driver-1' }]);
    // The same driver again changes and logs nothing.
    expect(await setCheckedInDriver(a, 'driver-1', 'user-5', 4_000)).toBe(false);
    const edited = (await updateTripFields(b, { driverId: 'driver-2' }, 'user-6', 5_000)) as TripItem;
    expect(await setCheckedInDriver(b, 'driver-1', 'user-5', 6_000)).toBe(false);
    expect((await getTrip(b.imei, b.startTs))?.changes).toEqual(edited.changes);
  });

  it('keeps the newest 100 entries', async () => {
    const [a] = (await threeTrips()) as [TripItem];
    let trip = a;
    for (let i = 0; i < 105; i++) trip = (await updateTripFields(trip, { note: `Note ${i}` }, 'user-1', 10_000 + i)) as TripItem;
    expect(trip.changes).toHaveLength(100);
    expect([trip.changes![0]!.to, trip.changes![99]!.to]).toEqual(['Note 5', 'Note 104']);
  });
});
