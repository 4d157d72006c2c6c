/**
 * The day rollups against DynamoDB Local, through the real unit-day-rollup queue consumer: a day's
 * figures from its trips (local day in Stockholm, this account's trips only), a redelivered message
 * writes the same item, a recomputation that read the trips before a later write never overwrites
 * the later result, a day whose trips all went away reads as no day, and the odometers at a day's
 * ends are the trip log's.
 */
import { randomUUID } from 'node:crypto';
import { DeleteCommand, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { imeiFrom } from '../../shared/validators/imei';
import type { LocalQueues } from '../../infra/local/queues';
import { useLocalTables } from '../../test/support/local-tables';
import { useWorkQueues } from '../../test/support/work-queues';
import { getPorts } from '../platform/container';
import { dynamo, tableName } from '../platform/db';
import type { OdometerEntryItem } from './odometer';
import type { TripItem } from './trip-item';
import { unitDayKey, type UnitDay } from './unit-day-item';
import { readAccountMonths, readUnitDays, unitDayOdometers } from './unit-day-reads';
import { recomputeUnitDays } from './unit-day-rollup';
import { ecoEventRecorded, readUnitDay, readUnitMonth, tripsChanged, writeUnitDay, writeUnitMonth } from './unit-days';
import { eventSortKey } from '../events/event-item';

const ACCOUNT = `acc-${randomUUID()}`;
const OTHER = `acc-${randomUUID()}`;
let serial = 0;
const nextImei = () => imeiFrom(`35693811${String(600000 + serial++).padStart(6, '0')}`);
const H = 3_600_000;
/** 2025-06-02 in Stockholm (UTC+2) runs from 2025-06-01T22:00Z to 2025-06-02T22:00Z. */
const DAY = '2025-06-02';
const DAY_START = Date.parse('2025-06-01T22:00:00.000Z');

function trip(imei: string, startTs: number, fields: Partial<TripItem> = {}): TripItem {
  return {
    imei, startTs, accountId: ACCOUNT, stopTs: startTs + 20 * 60_000, startLat: 59.3, startLon: 18, stopLat: 59.4, stopLon: 18.1,
    distanceM: 10_000, startCounterM: 100_000, stopCounterM: 110_000, counterSource: 'tracker', maxSpeedKmh: 70, movingS: 1_000, idleS: 100,
    basis: 'ignition', type: 'business', expiresAt: 2_000_000_000, v: 0, ...fields,
  };
}

const put = (t: TripItem) => dynamo().send(new PutCommand({ TableName: tableName('trips'), Item: t }));
const rawDay = async (imei: string, day = DAY) =>
  (await dynamo().send(new GetCommand({ TableName: tableName('unitDays'), Key: { unit: unitDayKey(ACCOUNT, imei), day }, ConsistentRead: true }))).Item;

/** An eco event as the event engine stores it (functions/events/record-event.ts). */
async function ecoEvent(imei: string, type: string, ts: number, details: Record<string, number | boolean> = {}, accountId = ACCOUNT): Promise<void> {
  await dynamo().send(
    new PutCommand({
      TableName: tableName('events'),
      Item: { imei, sk: eventSortKey(ts, type, type === 'overspeedEpisode' ? 'speed' : 'harsh'), accountId, unitName: 'Van', type, ts, lat: 59.3, lon: 18, alarm: false, details, expiresAt: 2_000_000_000 },
    }),
  );
}

let queues: LocalQueues;
beforeAll(async () => {
  await useLocalTables();
  queues = await useWorkQueues(['unit-day-rollup']);
});

/** Three trips of the day (one just after local midnight, which is the previous day in UTC), one the next day, one of another account. */
async function dayOfTrips(imei: string): Promise<TripItem[]> {
  const trips = [
    trip(imei, DAY_START + 30 * 60_000, { driverId: 'd1', project: 'Bridge', startCounterM: 50_000, stopCounterM: 58_000, distanceM: 8_000, maxSpeedKmh: 90 }),
    trip(imei, DAY_START + 8 * H, { driverId: 'd1', type: 'private', startCounterM: 60_000, stopCounterM: 63_000, distanceM: 3_000 }),
    // Detected before trips were timed: no movingS/idleS, no top speed.
    trip(imei, DAY_START + 20 * H, { type: 'other', movingS: undefined, idleS: undefined, maxSpeedKmh: undefined, project: 'Bridge', startCounterM: 70_000, stopCounterM: 72_500, distanceM: 2_500, counterSource: 'computed' }),
  ];
  for (const t of trips) await put(t);
  await put(trip(imei, DAY_START + 24 * H + 60_000));
  await put(trip(imei, DAY_START + 10 * H, { accountId: OTHER }));
  return trips;
}

describe('a day rollup', () => {
  it("sums the trips starting on the local day, of the account only, per type, driver and project", async () => {
    const imei = nextImei();
    const trips = await dayOfTrips(imei);
    // Eco events: a harsh braking in the first trip, a harsh acceleration in the second, a speeding
    // episode from 2 minutes before the first trip for 5 minutes (3 of them in the trip); a harsh
    // cornering outside the trips and another account's harsh braking in one count for nothing.
    await ecoEvent(imei, 'harshBraking', DAY_START + 35 * 60_000, { g: 0.5 });
    await ecoEvent(imei, 'harshAcceleration', DAY_START + 8 * H + 60_000, { g: 0.4 });
    await ecoEvent(imei, 'overspeedEpisode', DAY_START + 28 * 60_000, { seconds: 300, maxSpeed: 104, limit: 90 });
    await ecoEvent(imei, 'harshCornering', DAY_START + 15 * H);
    await ecoEvent(imei, 'harshBraking', DAY_START + 8 * H + 2 * 60_000, {}, OTHER);
    await tripsChanged(getPorts(), ACCOUNT, imei, trips.map((t) => t.startTs));
    await queues.drained();
    const expected: UnitDay = {
      accountId: ACCOUNT,
      imei,
      day: DAY,
      trips: 3,
      distanceM: 13_500,
      byType: { business: { trips: 1, distanceM: 8_000 }, private: { trips: 1, distanceM: 3_000 }, other: { trips: 1, distanceM: 2_500 } },
      movingS: 2_000,
      idleS: 200,
      figuresMissing: 1,
      maxSpeedKmh: 90,
      firstStartTs: DAY_START + 30 * 60_000,
      lastStartTs: DAY_START + 20 * H,
      lastStopTs: DAY_START + 20 * H + 20 * 60_000,
      startCounterM: 50_000,
      counterSource: 'tracker',
      stopCounterM: 72_500,
      stopCounterSource: 'computed',
      drivers: {
        d1: { trips: 2, distanceM: 11_000, businessM: 8_000, privateM: 3_000, otherM: 0, movingS: 2_000, idleS: 200 },
        '': { trips: 1, distanceM: 2_500, businessM: 0, privateM: 0, otherM: 2_500, movingS: 0, idleS: 0 },
      },
      projects: { Bridge: 10_500 },
      harshAccelerations: 1,
      harshBrakings: 1,
      harshCornerings: 0,
      overspeedS: 180,
    };
    expect(await readUnitDays(ACCOUNT, imei, '2025-06-01', '2025-06-02')).toEqual([expected]);
    // The next day holds the one trip starting there; the other account sees nothing of this unit's.
    expect((await readUnitDays(ACCOUNT, imei, '2025-06-03', '2025-06-03')).map((d) => d.trips)).toEqual([]);
    expect(await readUnitDays(OTHER, imei, DAY, DAY)).toEqual([]);
    expect(await readUnitDays(ACCOUNT, imei, '2025-06-03', '2025-06-01')).toEqual([]);
  });

  it('counts an eco event recorded after its day was summed: the event announces its days and queues them', async () => {
    const imei = nextImei();
    const trips = await dayOfTrips(imei);
    await tripsChanged(getPorts(), ACCOUNT, imei, trips.map((t) => t.startTs));
    await queues.drained();
    expect(await readUnitDays(ACCOUNT, imei, DAY, DAY)).toMatchObject([{ harshBrakings: 0 }]);
    const ts = DAY_START + 8 * H + 5 * 60_000;
    await ecoEvent(imei, 'harshBraking', ts, { g: 0.5 });
    await ecoEventRecorded(getPorts(), ACCOUNT, imei, ts);
    await queues.drained();
    expect(await readUnitDays(ACCOUNT, imei, DAY, DAY)).toMatchObject([{ harshBrakings: 1, harshAccelerations: 0 }]);
    // The month sums its days' counts.
    const [month] = await readAccountMonths(ACCOUNT, ['2025-06']).then((all) => all.filter((m) => m.imei === imei));
    expect(month).toMatchObject({ harshBrakings: 1, overspeedS: 0 });
  });

  it('is written the same by a redelivered message', async () => {
    const imei = nextImei();
    const trips = await dayOfTrips(imei);
    await tripsChanged(getPorts(), ACCOUNT, imei, trips.map((t) => t.startTs));
    await queues.drained();
    const first = await rawDay(imei);
    expect(first?.['trips']).toBe(3);
    await recomputeUnitDays({ accountId: ACCOUNT, imei, days: [DAY] });
    expect(await rawDay(imei)).toEqual(first);
  });

  it('is never overwritten by a recomputation that read the trips before a later write', async () => {
    const imei = nextImei();
    const trips = await dayOfTrips(imei);
    const sent: unknown[] = [];
    const recording = { queues: { send: async (_queue: string, message: unknown) => void sent.push(message) } };
    await tripsChanged(recording, ACCOUNT, imei, trips.map((t) => t.startTs));
    // The older recomputation reads, then a trip is written and announced, and a newer one runs whole.
    const older = await readUnitDay(ACCOUNT, imei, DAY);
    expect(older.trips).toHaveLength(3);
    const added = trip(imei, DAY_START + 12 * H, { distanceM: 1_000 });
    await put(added);
    await tripsChanged(recording, ACCOUNT, imei, [added.startTs]);
    expect(sent).toEqual([
      { accountId: ACCOUNT, imei, days: [DAY] },
      { accountId: ACCOUNT, imei, days: [DAY] },
    ]);
    const newer = await readUnitDay(ACCOUNT, imei, DAY);
    expect(await writeUnitDay(newer)).toBe(true);
    // The older one finishes last: refused, the newer figures stay.
    expect(await writeUnitDay(older)).toBe(false);
    expect(await readUnitDays(ACCOUNT, imei, DAY, DAY)).toMatchObject([{ trips: 4, distanceM: 14_500 }]);
    // And when the older one reads before the later write's announcement but writes after it, the same.
    const stale = await readUnitDay(ACCOUNT, imei, DAY);
    await dynamo().send(new DeleteCommand({ TableName: tableName('trips'), Key: { imei, startTs: added.startTs } }));
    await tripsChanged(recording, ACCOUNT, imei, [added.startTs]);
    expect(await writeUnitDay(stale)).toBe(false);
    expect(await writeUnitDay(await readUnitDay(ACCOUNT, imei, DAY))).toBe(true);
    expect(await readUnitDays(ACCOUNT, imei, DAY, DAY)).toMatchObject([{ trips: 3, distanceM: 13_500 }]);
  });

  it('reads as no day once all its trips went away', async () => {
    const imei = nextImei();
    const trips = await dayOfTrips(imei);
    await tripsChanged(getPorts(), ACCOUNT, imei, trips.map((t) => t.startTs));
    await queues.drained();
    expect(await readUnitDays(ACCOUNT, imei, DAY, DAY)).toHaveLength(1);
    for (const t of trips) await dynamo().send(new DeleteCommand({ TableName: tableName('trips'), Key: { imei, startTs: t.startTs } }));
    await tripsChanged(getPorts(), ACCOUNT, imei, trips.map((t) => t.startTs));
    await queues.drained();
    expect(await readUnitDays(ACCOUNT, imei, DAY, DAY)).toEqual([]);
    // The item stays with its generation, so that the guard never starts over.
    expect(await rawDay(imei)).toMatchObject({ trips: 0, gen: 2 });
  });
});

describe('a month rollup', () => {
  const rawMonth = async (imei: string, month = DAY.slice(0, 7)) => rawDay(imei, month);

  it("sums the month's days, with each day's distance by type, after the days of a message", async () => {
    const imei = nextImei();
    await dayOfTrips(imei);
    await recomputeUnitDays({ accountId: ACCOUNT, imei, days: [DAY, '2025-06-03'] });
    const [month] = await readAccountMonths(ACCOUNT, ['2025-06']).then((all) => all.filter((m) => m.imei === imei));
    expect(month).toMatchObject({ month: '2025-06', trips: 4, distanceM: 23_500, movingS: 3_000, idleS: 300, figuresMissing: 1, maxSpeedKmh: 90 });
    expect(month?.byType).toEqual({ business: { trips: 2, distanceM: 18_000 }, private: { trips: 1, distanceM: 3_000 }, other: { trips: 1, distanceM: 2_500 } });
    expect(month?.daily).toEqual([
      { day: DAY, businessM: 8_000, privateM: 3_000, otherM: 2_500 },
      { day: '2025-06-03', businessM: 10_000, privateM: 0, otherM: 0 },
    ]);
    // Not a day: the day reader leaves it out.
    expect((await readUnitDays(ACCOUNT, imei, '2025-05-01', '2025-07-01')).map((d) => d.day)).toEqual([DAY, '2025-06-03']);
  });

  it('is never overwritten by a recomputation that read the days before a later one', async () => {
    const imei = nextImei();
    await dayOfTrips(imei);
    await recomputeUnitDays({ accountId: ACCOUNT, imei, days: [DAY] });
    const early = await readUnitMonth(ACCOUNT, imei, '2025-06');
    // Meanwhile another day gets its trip and its own recomputation writes the month.
    await recomputeUnitDays({ accountId: ACCOUNT, imei, days: ['2025-06-03'] });
    expect(await writeUnitMonth(early)).toBe(false);
    expect((await rawMonth(imei))?.['trips']).toBe(4);
  });
});

describe('the odometers of a day', () => {
  const day = { firstStartTs: 1_000, lastStartTs: 5_000, startCounterM: 50_000, stopCounterM: 72_500, counterSource: 'tracker', stopCounterSource: 'tracker' } as const;
  const entry = (atTs: number, valueKm: number, counterAtEntryM: number, counterSource: 'tracker' | 'computed' = 'tracker'): OdometerEntryItem => ({
    imei: '356938110000000', atTs, accountId: ACCOUNT, valueKm, counterAtEntryM, counterSource, createdBy: 'u', createdAt: atTs,
  });

  it("are the tracker's counters without an entry, and counted from the entry in force at the first start and at the last trip's start", () => {
    expect(unitDayOdometers(day, [])).toEqual({ start: 50, stop: 72.5 });
    expect(unitDayOdometers(day, [entry(500, 1_000, 40_000)])).toEqual({ start: 1_010, stop: 1_032.5 });
    // An entry between the day's first and last trip corrects the stop only.
    expect(unitDayOdometers(day, [entry(500, 1_000, 40_000), entry(3_000, 2_000, 60_000)])).toEqual({ start: 1_010, stop: 2_012.5 });
  });

  it('are null for a computed counter without an entry of its source', () => {
    const computed = { ...day, counterSource: 'computed', stopCounterSource: 'computed' } as const;
    expect(unitDayOdometers(computed, [entry(500, 1_000, 40_000)])).toEqual({ start: null, stop: null });
    expect(unitDayOdometers(computed, [entry(500, 1_000, 40_000, 'computed')])).toEqual({ start: 1_010, stop: 1_032.5 });
  });
});
