/**
 * Trip detection at ingest, end to end against DynamoDB Local: tracker messages through
 * `ingestMessages` with the real stage and its effect senders, the trips read back from the table.
 * Hand-made tracks: ignition and movement based, a redelivered and a shuffled batch, a late
 * message inside a trip and one between trips, a late drive after newer positions (with and
 * without trips around it), each giving exactly the trips of the same track delivered in order.
 */
import { randomUUID } from 'node:crypto';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import type { IotRuleEvent } from '../../shared/iot-rules';
import { imeiFrom } from '../../shared/validators/imei';
import { useLocalTables } from '../../test/support/local-tables';
import { useWorkQueues } from '../../test/support/work-queues';
import type { LocalQueues } from '../../infra/local/queues';
import { ingestMessages } from '../ingest/ingest-message';
import type { IngestPorts } from '../ingest/transitions';
import { getPorts } from '../platform/container';
import { dynamo, tableName } from '../platform/db';
import { getUnitItem } from '../domain/unit/reads';
import type { UnitItem } from '../domain/unit/schema';
import type { Position, UnitState } from '../ingest/types';
import { testPosition } from '../../test/support/positions';
import { TRIP_CLOSED, TRIPS_REDETECT, tripStage, type TripStageState } from './stage';
import { unitTrips } from './trip-repository';

const ACCOUNT = `acc-${randomUUID()}`;
const MIN = 60_000;
let serial = 0;
const nextImei = () => imeiFrom(`35693809${String(900000 + serial++).padStart(6, '0')}`);
/** Each test drives on a day of its own. */
let day = Date.parse('2026-02-01T07:00:00.000Z');

let ports: IngestPorts;
let queues: LocalQueues;
beforeAll(async () => {
  await useLocalTables();
  // Re-detection and addresses run on their queues, with their real consumers.
  queues = await useWorkQueues(['trip-redetect', 'trip-addresses', 'unit-day-rollup']);
  const all = getPorts();
  ports = { live: { publish: async () => undefined }, clock: all.clock, geocoder: all.geocoder, alerts: all.alerts, queues: all.queues, devices: all.devices };
  // The offline geocoder loads its places on first use: here, rather than in the first test's time.
  await all.geocoder.reverse(59.3, 18.0, 'sv');
});

async function registerUnit(): Promise<string> {
  const imei = nextImei();
  await dynamo().send(
    new PutCommand({
      TableName: tableName('units'),
      Item: { imei, accountId: ACCOUNT, name: imei, vehicleType: 'car', protocol: 'native', createdAt: '2025-01-01T00:00:00.000Z' },
    }),
  );
  return imei;
}

interface Rec {
  ts: number;
  lat: number;
  lon: number;
  spd?: number;
  ign?: boolean;
}

/** Parked (ignition off) at a place: a fix every `every` minutes with a few metres of jitter. */
const parked = (from: number, minutes: number, lat: number, lon: number, every = 5, ign: boolean | undefined = false): Rec[] =>
  Array.from({ length: Math.floor(minutes / every) + 1 }, (_, i) => ({ ts: from + i * every * MIN, lat: lat + ((i % 3) - 1) * 0.00004, lon, spd: 0, ...(ign === undefined ? {} : { ign }) }));
/** Driving north at about 50 km/h, a fix every 30 s. */
const driving = (from: number, minutes: number, lat: number, lon: number, ign: boolean | undefined = true): Rec[] =>
  Array.from({ length: minutes * 2 }, (_, i) => ({ ts: from + (i + 1) * 30_000, lat: lat + (i + 1) * 0.0037, lon, spd: 50, ...(ign === undefined ? {} : { ign }) }));

/** Two trips with ignition: parked, 20 min driving, parked 40 min, 15 min driving, parked. */
function twoTrips(start: number, ign: boolean | undefined = true): Rec[] {
  const off = ign === undefined ? undefined : false;
  const a = parked(start, 20, 59.3, 18.0, 5, off);
  const t1 = driving(start + 20 * MIN, 20, 59.3, 18.0, ign);
  const end1 = t1[t1.length - 1]!;
  const b = parked(end1.ts + MIN, 40, end1.lat, 18.0, 5, off);
  const t2 = driving(end1.ts + 41 * MIN, 15, end1.lat, 18.0, ign);
  const end2 = t2[t2.length - 1]!;
  const c = parked(end2.ts + MIN, 30, end2.lat, 18.0, 5, off);
  return [...a, ...t1, ...b, ...t2, ...c];
}

const message = (imei: string, records: Rec[]): IotRuleEvent => ({
  payload: Buffer.from(JSON.stringify(records.length === 1 ? { ...records[0], sat: 9 } : { records: records.map((r) => ({ ...r, sat: 9 })) })).toString('base64'),
  topic: `trackers/${imei}/telemetry`,
  imei,
  receivedAt: records[records.length - 1]!.ts + 1000,
});

/** Buffered messages of `size` records, in order. */
const chunks = (records: Rec[], size: number): Rec[][] => Array.from({ length: Math.ceil(records.length / size) }, (_, i) => records.slice(i * size, (i + 1) * size));

/** Same trips: times exact, distances within 2 m (counters are sums of floats taken in another order). */
function expectSameTrips(actual: Awaited<ReturnType<typeof tripsOf>>, expected: Awaited<ReturnType<typeof tripsOf>>): void {
  expect(actual.map(({ startTs, stopTs }) => ({ startTs, stopTs }))).toEqual(expected.map(({ startTs, stopTs }) => ({ startTs, stopTs })));
  actual.forEach((trip, i) => expect(Math.abs(trip.distanceM - expected[i]!.distanceM)).toBeLessThanOrEqual(2));
}

async function deliver(imei: string, records: Rec[], size = 10): Promise<void> {
  for (const part of chunks(records, size)) await ingestMessages([message(imei, part)], ports);
}

async function tripsOf(imei: string) {
  await queues.drained();
  expect(queues.deadLetters('trip-redetect')).toEqual([]);
  const unit = (await getUnitItem(imei, { consistent: true }))!;
  const trips = await unitTrips(unit, 0, Number.MAX_SAFE_INTEGER, { consistent: true });
  return trips.map((t) => ({ startTs: t.startTs, stopTs: t.stopTs, distanceM: Math.round(t.distanceM) }));
}

/** The trips of a track delivered in order, ten records a message: what every other delivery must give. */
async function reference(records: Rec[]) {
  const imei = await registerUnit();
  await deliver(imei, records);
  return tripsOf(imei);
}

describe('trip detection at ingest', () => {
  it('stores the trips of an ignition-based track once, with start at ignition on and stop at ignition off', async () => {
    day += 86_400_000;
    const track = twoTrips(day);
    const imei = await registerUnit();
    await deliver(imei, track);
    const trips = await tripsOf(imei);
    expect(trips).toHaveLength(2);
    const firstDrive = track.find((r) => r.ign)!;
    expect(trips[0]!.startTs).toBe(firstDrive.ts);
    // 20 minutes at about 50 km/h.
    expect(trips[0]!.distanceM).toBeGreaterThan(15_500);
    expect(trips[0]!.distanceM).toBeLessThan(17_500);
    // Redelivered, whole and in part: nothing changes.
    await deliver(imei, track);
    await ingestMessages([message(imei, track.slice(40, 50))], ports);
    expect(await tripsOf(imei)).toEqual(trips);
  });

  it('detects movement-based trips for a tracker without ignition, and parked jitter is no trip', async () => {
    day += 86_400_000;
    const track = twoTrips(day, undefined);
    const imei = await registerUnit();
    await deliver(imei, track);
    const trips = await tripsOf(imei);
    expect(trips).toHaveLength(2);
    expect(trips.every((t) => t.distanceM > 5_000)).toBe(true);
  });

  it('gives the same trips for a batch delivered shuffled', async () => {
    day += 86_400_000;
    const track = twoTrips(day);
    const expected = await reference(track);
    const imei = await registerUnit();
    // One message with every record in a shuffled order (a tracker's buffer), then nothing else.
    const shuffled = [...track].sort((a, b) => ((a.ts * 7919) % 1000) - ((b.ts * 7919) % 1000));
    await ingestMessages([message(imei, shuffled)], ports);
    expectSameTrips(await tripsOf(imei), expected);
  });

  it('re-detects the trip a late message falls inside, and only that window', async () => {
    day += 86_400_000;
    // The first trip makes a detour east for a few minutes: a stretch whose records matter to its length.
    const plain = twoTrips(day);
    const firstDrive = plain.find((r) => r.ign)!.ts;
    const inDetour = (r: Rec) => r.ts > firstDrive + 5 * MIN && r.ts < firstDrive + 9 * MIN;
    const track = plain.map((r) => (inDetour(r) ? { ...r, lon: r.lon + 0.008 } : r));
    const expected = await reference(track);
    const imei = await registerUnit();
    // That stretch is held back and comes after everything else.
    const held = track.filter(inDetour);
    const rest = track.filter((r) => !held.includes(r));
    await deliver(imei, rest);
    const before = await tripsOf(imei);
    // Without the held records the first trip jumps across them: shorter than driven.
    expect(before[0]!.distanceM).toBeLessThan(expected[0]!.distanceM);
    const versions = async () => {
      const unit = (await getUnitItem(imei, { consistent: true }))!;
      return (await unitTrips(unit, 0, Number.MAX_SAFE_INTEGER, { consistent: true })).map((t) => t.v);
    };
    const [, secondBefore] = await versions();
    await deliver(imei, held);
    expectSameTrips(await tripsOf(imei), expected);
    // The second trip lies outside the late window: not written again.
    expect((await versions())[1]).toBe(secondBefore);
  });

  it('finds a whole trip that arrives late between two trips', async () => {
    day += 86_400_000;
    const start = day;
    const first = twoTrips(start);
    const lastTs = first[first.length - 1]!.ts;
    // A third trip after the two, with its records held back while the unit kept reporting parked.
    const t3 = driving(lastTs + 10 * MIN, 10, 59.5, 18.0);
    const after = parked(t3[t3.length - 1]!.ts + MIN, 60, t3[t3.length - 1]!.lat, 18.0);
    const expected = await reference([...first, ...parked(lastTs + 5 * MIN, 0, 59.5, 18.0), ...t3, ...after]);
    const imei = await registerUnit();
    await deliver(imei, [...first, ...parked(lastTs + 5 * MIN, 0, 59.5, 18.0), ...after]);
    expect(await tripsOf(imei)).toHaveLength(2);
    await deliver(imei, t3);
    // Found at once: the unit has been parked for longer than time-till-parked since.
    expectSameTrips(await tripsOf(imei), expected);
    // Trips after it are detected as usual.
    await deliver(imei, twoTrips(after[after.length - 1]!.ts + 10 * MIN).map((r) => ({ ...r, lat: r.lat + 0.3 })));
    const trips = await tripsOf(imei);
    expect(trips).toHaveLength(5);
    expectSameTrips(trips.slice(0, 3), expected.slice(0, 3));
  });
});

describe('a late drive (a tracker back from a garage sends its buffer after newer positions)', () => {
  /**
   * Parked, the buffered 14-minute drive with 15 minutes parked after it (a fix a minute), then
   * hours later the few positions the unit sent on coming back, which arrive first.
   */
  function garage(start: number, ign: boolean | undefined) {
    const off = ign === undefined ? undefined : false;
    const before = parked(start - 10 * MIN, 10, 59.3, 18.0, 5, off);
    const drive = driving(start, 14, 59.3, 18.0, ign);
    const end = drive[drive.length - 1]!;
    const after = parked(end.ts + MIN, 15, end.lat, 18.0, 1, off);
    const recent = parked(start + 3 * 60 * MIN - 10 * MIN, 4, end.lat, 18.0, 2, off);
    return { late: [...before, ...drive, ...after], recent };
  }

  async function versions(imei: string) {
    const unit = (await getUnitItem(imei, { consistent: true }))!;
    return (await unitTrips(unit, 0, Number.MAX_SAFE_INTEGER, { consistent: true })).map((t) => [t.startTs, t.v]);
  }

  describe.each([
    ['ignition', true],
    ['movement', undefined],
  ] as const)('%s based', (_, ign) => {
    it('becomes its trip with the batches that bring it when the unit has no trips before it, and once however often they come', async () => {
      day += 86_400_000;
      const { late, recent } = garage(day + 60 * MIN, ign);
      const expected = await reference([...late, ...recent]);
      expect(expected).toHaveLength(1);
      const imei = await registerUnit();
      await deliver(imei, recent);
      expect(await tripsOf(imei)).toEqual([]);
      await deliver(imei, late);
      expectSameTrips(await tripsOf(imei), expected);
      // Redelivered, whole and one batch of it: no second trip, nothing written again.
      const written = await versions(imei);
      await deliver(imei, late);
      await ingestMessages([message(imei, late.slice(10, 20))], ports);
      expect(await versions(imei)).toEqual(written);
    });

    it('becomes its trip between the trips before and after it', async () => {
      day += 86_400_000;
      const { late, recent } = garage(day + 3 * 60 * MIN, ign);
      // A trip in the morning before the drive, and one after the unit came back.
      const off = ign === undefined ? undefined : false;
      const out = driving(day + 20 * MIN, 20, 59.1, 18.0, ign);
      const morning = [...parked(day, 20, 59.1, 18.0, 5, off), ...out, ...parked(out[out.length - 1]!.ts + MIN, 40, 59.3, 18.0, 5, off)];
      const back = recent[recent.length - 1]!;
      const later = [...driving(back.ts, 10, back.lat, 18.0, ign), ...parked(back.ts + 11 * MIN, 20, back.lat + 20 * 0.0037, 18.0, 1, off)];
      const all = [...morning, ...late, ...recent, ...later];
      const expected = await reference(all);
      expect(expected).toHaveLength(3);
      const imei = await registerUnit();
      await deliver(imei, [...morning, ...recent, ...later]);
      expect(await tripsOf(imei)).toHaveLength(2);
      await deliver(imei, late);
      expectSameTrips(await tripsOf(imei), expected);
      const written = await versions(imei);
      await deliver(imei, late);
      expect(await versions(imei)).toEqual(written);
    });
  });
});

describe('the stage on its own: when late positions are re-detected', () => {
  const unit = { imei: '356938035643809', accountId: ACCOUNT } as unknown as UnitItem;
  const T = Date.parse('2026-03-01T12:00:00.000Z');
  const at = (r: Rec): Position => testPosition(r.ts, r.lat, r.lon, { speed: r.spd, ignition: r.ign });
  function run(previous: TripStageState | undefined, fresh: Rec[], late: Rec[] = []) {
    const out = tripStage.run({ unit, previous, before: undefined, after: {} as UnitState, positions: fresh.map(at), late: late.map(at), receivedAt: T });
    return { state: out.state!, effects: (out.effects ?? []).map((e) => [e.kind, e.payload['fromTs'], e.payload['toTs']]) };
  }

  it('re-detects a late drive of a unit without trips as soon as the unit has been parked time-till-parked after it', () => {
    const recent = parked(T, 4, 59.4, 18.0, 1);
    const seen = run(undefined, recent);
    expect(seen.effects).toEqual([]);
    const drive = driving(T - 60 * MIN, 14, 59.3, 18.0);
    const settled = recent[recent.length - 1]!.ts - 3 * MIN;
    const after = run(seen.state, [], drive);
    expect(after.effects).toEqual([[TRIPS_REDETECT, drive[0]!.ts, settled]]);
    expect(after.state).toMatchObject({ closedUntil: settled });
    expect(after.state.dirtyFrom).toBeUndefined();
  });

  it('waits for time-till-parked after positions that may still belong to a trip, then re-detects once', () => {
    const recent = parked(T, 1, 59.4, 18.0, 1);
    const seen = run(undefined, recent);
    // Moving until two minutes before the newest position: the trip may go on.
    const drive = driving(T - 8 * MIN, 7, 59.3, 18.0);
    const late = run(seen.state, [], drive);
    const unsettled = recent[recent.length - 1]!.ts - 3 * MIN;
    // Up to where it is settled now (nothing there yet), the rest stays dirty.
    expect(late.effects).toEqual([[TRIPS_REDETECT, drive[0]!.ts, unsettled]]);
    expect(late.state).toMatchObject({ dirtyFrom: unsettled + 1, dirtyTo: drive[drive.length - 1]!.ts });
    const more = parked(T + 3 * MIN, 5, 59.4, 18.0, 1);
    const next = run(late.state, more);
    const settled = more[more.length - 1]!.ts - 3 * MIN;
    expect(next.effects).toEqual([[TRIPS_REDETECT, unsettled + 1, settled]]);
    expect(next.state.dirtyFrom).toBeUndefined();
    expect(run(next.state, parked(T + 9 * MIN, 5, 59.4, 18.0, 1)).effects).toEqual([]);
  });

  it('re-detects at once the trips in a gap of a trip it holds open, when late positions fill the gap', () => {
    // Parked, then driving; the tracker goes quiet ten minutes into the drive and next reports,
    // parked with the ignition off, an hour later: the detector holds the trip open.
    const drive = driving(T - 80 * MIN, 20, 59.3, 18.0);
    const seen = run(undefined, [...parked(T - 90 * MIN, 10, 59.3, 18.0, 1), ...drive.slice(0, 20)]);
    const newest = parked(T, 0, 59.4, 18.0, 1);
    const jumped = run(seen.state, newest);
    expect(jumped.state.detector.trip).not.toBeNull();
    const openStart = jumped.state.detector.trip!.start.ts;
    // The gap's positions arrive after it: the rest of the drive and the unit parked after it.
    const end = drive[drive.length - 1]!;
    const gap = [...drive.slice(20), ...parked(end.ts + MIN, 30, end.lat, 18.0, 1)];
    const filled = run(jumped.state, [], gap);
    const quiet = newest[0]!.ts - 3 * MIN;
    expect(filled.effects).toContainEqual([TRIPS_REDETECT, openStart, gap[gap.length - 1]!.ts]);
    expect(filled.effects.flat().every((v) => typeof v === 'string' || (v as number) <= quiet)).toBe(true);
    // A trip under way with a fix late inside it is left to the detector (the next test).
  });

  it('re-detects a late drive before the trip the unit is on now at once, and the trip itself when it closes', () => {
    const now = driving(T, 10, 59.4, 18.0);
    const seen = run(undefined, [...parked(T - 5 * MIN, 5, 59.4, 18.0, 1), ...now]);
    expect(seen.state.detector.trip).not.toBeNull();
    const openStart = seen.state.detector.trip!.start.ts;
    // A drive an hour before, and one fix from inside the trip under way.
    const drive = driving(T - 60 * MIN, 14, 59.3, 18.0);
    const inside = { ...now[5]!, ts: now[5]!.ts + 10_000 };
    const late = run(seen.state, [], [...drive, inside]);
    expect(late.effects).toEqual([[TRIPS_REDETECT, drive[0]!.ts, openStart - 1]]);
    expect(late.state).toMatchObject({ closedUntil: openStart - 1, dirtyFrom: openStart, dirtyTo: inside.ts });
    // The trip closes: re-detected from its start, not stored as the detector saw it.
    const end = now[now.length - 1]!;
    const closing = run(late.state, parked(end.ts + MIN, 10, end.lat, 18.0, 1));
    expect(closing.effects.map(([kind]) => kind)).toEqual([TRIPS_REDETECT]);
    expect(closing.effects[0]!.slice(1)).toEqual([openStart, end.ts + MIN]);
    expect(closing.effects.map(([kind]) => kind)).not.toContain(TRIP_CLOSED);
    expect(closing.state.dirtyFrom).toBeUndefined();
  });
});
