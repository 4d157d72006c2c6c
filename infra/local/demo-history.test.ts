/**
 * Demo history: the generator on its own (deterministic, plausible days per personality, on the
 * roads at believable speeds, ignition and odometer matching the trips, what ingest accepts as it
 * is), the marker that makes it a first-start-only and resumable job, and the whole thing through
 * a started runtime: tracker messages over MQTT into the ingest path, positions and trips stored,
 * the live simulator resuming after it, nothing sent again on the next start.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GetCommand, QueryCommand, type QueryCommandOutput } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { decodeMessage } from '../../functions/ingest/decode';
import { DEFAULT_FILTER, type Fix } from '../../functions/ingest/filter';
import { screenPositions } from '../../functions/ingest/pipeline';
import { dynamo, tableName } from '../../functions/platform/db';
import { call } from '../../test/support/http';
import { startRuntime } from '../../test/support/runtime';
import { loginAs } from '../../test/support/sessions';
import {
  fillDemoHistory,
  bufferedMessages,
  DEMO_HISTORY_MARKER,
  generateUnitHistory,
  HISTORY_INTERVALS,
  localTime,
  MIN_PARK_MS,
  planDemoHistory,
  prepareDemoHistory,
  profileFor,
  readDemoHistoryMarker,
  RECORDS_PER_MESSAGE,
  type HistoryTrip,
  type UnitHistory,
} from './demo-history';
import { startEmbeddedRuntime, type EmbeddedRuntime } from './runtime';
import { DEMO_PASSWORD, demoUsers, simulatedUnits, type DemoUnitSpec } from './seed';
import { distanceM, offset, projectOnSegment, type LatLon } from './simulator/geo';
import { RoadNetwork } from './simulator/network';
import { telemetryMessage } from './simulator/protocol';
import { workSite } from './simulator/stockholm';
import { CLASSES, vehicleClass, type TrackerRecord } from './simulator/vehicle';
import { fileDynamo } from '../../test/support/file-dynamo';
import { positionsOfItem } from '../../functions/ingest/position-codec';

const network = new RoadNetwork();
const MINUTE = 60_000;
const HOUR = 3_600_000;
const DAY = 86_400_000;
const units = simulatedUnits(20);

// Five weeks from Monday 3 March 2025, 00:00 in Stockholm, across the change to summer time (30 March).
const FROM = Date.UTC(2025, 2, 2, 23, 0, 0);
const TO = Date.UTC(2025, 3, 6, 22, 0, 0);
const fleet: Array<{ index: number; history: UnitHistory }> = units.map((unit, index) => ({ index, history: generateUnitHistory({ unit, index, from: FROM, to: TO }) }));
const unitOf = (index: number) => units[index] as (typeof units)[number];

const pairs = <T>(list: readonly T[]) => list.slice(1).map((b, i) => [list[i] as T, b] as const);
const isWeekend = (ms: number) => [0, 6].includes(localTime(ms).weekday);
const minutesOf = (ms: number) => localTime(ms).minutes;

/** Each local day of the window with the trips that start on it. */
function days(history: UnitHistory): Array<{ day: string; weekend: boolean; trips: HistoryTrip[] }> {
  const out: Array<{ day: string; weekend: boolean; trips: HistoryTrip[] }> = [];
  for (let t = FROM + 12 * HOUR; t < TO; t += DAY) {
    const day = localTime(t).day;
    out.push({ day, weekend: isWeekend(t), trips: history.trips.filter((trip) => localTime(trip.start).day === day) });
  }
  return out;
}

function distanceToPolyline(p: LatLon, line: readonly LatLon[]): number {
  let best = Infinity;
  for (let i = 1; i < line.length; i++) best = Math.min(best, projectOnSegment(p, line[i - 1] as LatLon, line[i] as LatLon).distance);
  return best;
}

describe('demo history generator', () => {
  it('is deterministic: the same unit, seed and window give the same records, another seed others', () => {
    const unit = unitOf(0);
    const again = generateUnitHistory({ unit, index: 0, from: FROM, to: TO });
    expect(again).toEqual(fleet[0]?.history);
    const other = generateUnitHistory({ unit, index: 0, from: FROM, to: TO, seed: 1 });
    expect(other.trips.map((t) => t.start)).not.toEqual(again.trips.map((t) => t.start));
  });

  it("gives a day the same trips wherever the window starts (heartbeats before it change nothing)", () => {
    for (const index of [0, 2, 9]) {
      const later = FROM + 9 * DAY;
      const whole = generateUnitHistory({ unit: unitOf(index), index, from: FROM, to: TO });
      const part = generateUnitHistory({ unit: unitOf(index), index, from: later, to: TO });
      const shape = (t: HistoryTrip) => ({ start: t.start, stop: t.stop, legs: t.legs, distanceM: t.distanceM });
      expect(part.trips.length).toBeGreaterThan(10);
      expect(part.trips.map(shape)).toEqual(whole.trips.filter((t) => t.start >= later).map(shape));
    }
  });

  it('gives each demo unit a personality that fits it', () => {
    const personality = (name: string) => {
      const index = units.findIndex((u) => u.name === name);
      return profileFor(unitOf(index), index, network);
    };
    expect(personality('Service van 1')).toMatchObject({ personality: 'service', worksWeekends: false });
    expect(personality('Taxi 12')).toMatchObject({ personality: 'service', worksWeekends: true });
    expect(personality('Delivery lorry')).toMatchObject({ personality: 'lorry', worksWeekends: false });
    expect(personality('City bus 4')).toMatchObject({ personality: 'lorry', worksWeekends: true });
    expect(personality('Excavator')).toMatchObject({ personality: 'machine' });
    expect(personality('Boat trailer')).toMatchObject({ personality: 'leisure' });
    const commuter = personality('Sales car 1');
    expect(commuter).toMatchObject({ personality: 'commuter' });
    expect(commuter.work).not.toBe(commuter.base);
    const kinds = new Set(fleet.map((f) => f.history.profile.personality));
    expect([...kinds].sort()).toEqual(['commuter', 'leisure', 'lorry', 'machine', 'service']);
  });

  it('plans the days each personality has: commutes, jobs in working hours, long tours, shifts, outings', () => {
    let evenings = 0;
    let outings = 0;
    for (const { index, history } of fleet) {
      const { profile } = history;
      const name = unitOf(index).name;
      for (const { day, weekend, trips } of days(history)) {
        const dayOff = weekend && !profile.worksWeekends;
        const where = `${name} on ${day}`;
        switch (profile.personality) {
          case 'commuter': {
            const work = trips.filter((t) => !t.private);
            const privateTrips = trips.filter((t) => t.private);
            expect(privateTrips.length % 2, where).toBe(0);
            if (dayOff) {
              expect(work, where).toEqual([]);
              outings += privateTrips.length / 2;
              break;
            }
            expect(work.map((t) => [t.from, t.to]), where).toEqual([
              [profile.base, profile.work],
              [profile.work, profile.base],
            ]);
            expect(minutesOf(work[0]?.start ?? 0), where).toBeGreaterThanOrEqual(6 * 60 + 45);
            expect(minutesOf(work[0]?.start ?? 0), where).toBeLessThanOrEqual(8 * 60 + 30);
            expect(minutesOf(work[1]?.start ?? 0), where).toBeGreaterThanOrEqual(15 * 60 + 30);
            for (const t of privateTrips) expect(minutesOf(t.start), where).toBeGreaterThanOrEqual(18 * 60 + 45);
            evenings += privateTrips.length / 2;
            break;
          }
          case 'service':
            if (dayOff) expect(trips, where).toEqual([]);
            else {
              expect(trips.length, where).toBeGreaterThanOrEqual(weekend ? 3 : 4);
              expect(trips.length, where).toBeLessThanOrEqual(weekend ? 5 : 8);
              expect(trips[0]?.from, where).toBe(profile.base);
              expect(trips[trips.length - 1]?.to, where).toBe(profile.base);
              for (const t of trips) {
                expect(minutesOf(t.start), where).toBeGreaterThanOrEqual(7 * 60);
                expect(minutesOf(t.stop), where).toBeLessThanOrEqual(19 * 60);
              }
            }
            break;
          case 'lorry':
            if (dayOff) expect(trips, where).toEqual([]);
            else {
              expect(trips.length, where).toBeGreaterThanOrEqual(1);
              expect(trips.length, where).toBeLessThanOrEqual(2);
              expect(trips.reduce((n, t) => n + t.legs.length, 0), where).toBeGreaterThanOrEqual(3);
              expect(trips[trips.length - 1]?.to, where).toBe(profile.base);
            }
            break;
          case 'machine':
            if (dayOff) expect(trips, where).toEqual([]);
            else {
              expect(trips.length, where).toBeGreaterThanOrEqual(2);
              for (const t of trips) expect([t.from, t.to, t.distanceM], where).toEqual(['site', 'site', 0]);
            }
            break;
          case 'leisure':
            expect(trips.length, where).toBe(weekend ? trips.length - (trips.length % 2) : 0);
            outings += trips.length / 2;
            break;
        }
      }
    }
    // Over five weeks some commuters go out in the evening, some units at weekends.
    expect(evenings).toBeGreaterThan(3);
    expect(outings).toBeGreaterThan(3);
    // Long trips: a lorry's tours average over half an hour and 20 km; a service van's jobs are nearer.
    const average = (personality: string, f: (t: HistoryTrip) => number) => {
      const trips = fleet.filter((x) => x.history.profile.personality === personality).flatMap((x) => x.history.trips);
      return trips.reduce((s, t) => s + f(t), 0) / trips.length;
    };
    expect(average('lorry', (t) => t.stop - t.start)).toBeGreaterThan(30 * MINUTE);
    expect(average('lorry', (t) => t.distanceM)).toBeGreaterThan(20_000);
    expect(average('service', (t) => t.distanceM)).toBeLessThan(average('lorry', (t) => t.distanceM) / 2);
  });

  it('reports in time order over the window, in buffered messages ingest takes whole', () => {
    for (const { index, history } of fleet) {
      const { records } = history;
      expect(records[0]?.ts).toBe(FROM);
      expect(records[records.length - 1]?.ts).toBe(TO);
      for (const [a, b] of pairs(records)) expect(b.ts, unitOf(index).name).toBeGreaterThan(a.ts);
    }
    // A native and a Teltonika unit: every buffered message decodes to its records, none filtered.
    for (const index of [0, 7]) {
      const unit = unitOf(index);
      const records = fleet[index]?.history.records ?? [];
      let prev: Fix | undefined;
      let accepted = 0;
      for (const chunk of bufferedMessages(records)) {
        expect(chunk.length).toBeLessThanOrEqual(RECORDS_PER_MESSAGE);
        const decoded = decodeMessage(Buffer.from(telemetryMessage(unit.protocol, unit.imei, chunk).payload));
        if (decoded.kind !== 'positions') throw new Error(`${unit.name}: ${decoded.kind}`);
        expect(decoded.rejected).toEqual([]);
        const screened = screenPositions(decoded.positions, prev, { ...DEFAULT_FILTER, now: TO, maxAgeMs: 395 * DAY });
        expect(screened.filtered, unit.name).toEqual({});
        accepted += screened.accepted.length;
        prev = screened.newest ?? prev;
      }
      expect(accepted).toBe(records.length);
    }
  });

  it('brakes, accelerates and corners harshly now and then (some drivers more than others) and leaves engines running at some stops', () => {
    const perUnit = fleet
      .filter(({ index }) => vehicleClass(unitOf(index).vehicleType) !== 'machine')
      .map(({ index, history }) => {
        const harsh = history.records.filter((r) => r.harsh);
        const km = history.trips.reduce((sum, t) => sum + t.distanceM, 0) / 1000;
        return { name: unitOf(index).name, harsh, per100Km: (harsh.length / km) * 100, longIdles: history.trips.filter((t) => t.idleS >= 300).length, trips: history.trips.length };
      });
    const all = perUnit.flatMap((u) => u.harsh);
    expect(new Set(all.map((r) => r.harsh?.kind))).toEqual(new Set(['acceleration', 'braking', 'cornering']));
    for (const r of all) {
      // Past the usual thresholds (0.25 g to 0.4 g), sent at once as the tracker's own record, while moving.
      expect(r.harsh?.g).toBeGreaterThanOrEqual(0.3);
      expect(r.harsh?.g).toBeLessThan(1);
      expect(r.harsh?.ms).toBeGreaterThan(0);
      expect(r.cause).toBe('harsh');
      expect(r.ignition).toBe(true);
    }
    // Rare on the whole, and a spread between drivers: the roughest far above the gentlest.
    const rates = perUnit.map((u) => u.per100Km).sort((a, b) => a - b);
    expect(rates.at(-1)).toBeGreaterThan(3 * (rates[0] as number) + 1);
    expect(all.length / perUnit.reduce((sum, u) => sum + u.trips, 0)).toBeLessThan(0.5);
    // Engines left running for five minutes or more: at some stops, not at most.
    const longIdles = perUnit.reduce((sum, u) => sum + u.longIdles, 0);
    expect(longIdles).toBeGreaterThan(0);
    expect(longIdles / perUnit.reduce((sum, u) => sum + u.trips, 0)).toBeLessThan(0.25);
  });

  it('drives the roads at believable speeds and never jumps', () => {
    for (const { index, history } of fleet) {
      const unit = unitOf(index);
      const cls = vehicleClass(unit.vehicleType);
      const name = unit.name;
      if (cls === 'machine') {
        // At its site all the time, moving about within a few metres.
        const site = offset(workSite, 15 * index, (index * 97) % 360);
        for (const r of history.records) expect(distanceM(r, site), name).toBeLessThan(20);
        continue;
      }
      const maxKmh = CLASSES[cls].maxKmh;
      const roads = [...network.polylines(), ...network.stops.map((s) => [network.places[s], network.parkingSpot(s, index)])];
      for (const r of history.records) {
        expect(r.speedKmh, name).toBeLessThanOrEqual(maxKmh * 1.1);
        if (r.speedKmh > 0) expect(Math.min(...roads.map((line) => distanceToPolyline(r, line))), `${name} at ${r.lat},${r.lon}`).toBeLessThan(1);
      }
      // Between any two records no faster than the vehicle can go, give or take a parked fix's jitter.
      for (const [a, b] of pairs(history.records)) {
        const seconds = (b.ts - a.ts) / 1000;
        expect(distanceM(a, b), `${name} ${new Date(a.ts).toISOString()}`).toBeLessThanOrEqual(10 + ((maxKmh * 1.1) / 3.6) * seconds);
      }
      for (const t of history.trips) {
        // Over the time on the way: an engine left running at the destination is no driving.
        const kmh = t.distanceM / 1000 / ((t.stop - t.start - t.idleS * 1000) / HOUR);
        expect(kmh, name).toBeGreaterThan(12);
        expect(kmh, name).toBeLessThan(80);
      }
    }
  });

  it('turns the ignition on at each start and off at each stop, and only then', () => {
    for (const { index, history } of fleet) {
      const name = unitOf(index).name;
      const { records, trips } = history;
      const at = (ts: number) => records.find((r) => r.ts === ts) as TrackerRecord;
      for (const t of trips) {
        expect(at(t.start), name).toMatchObject({ ignition: true, cause: 'ignition', speedKmh: 0 });
        expect(at(t.stop), name).toMatchObject({ ignition: false, cause: 'ignition', speedKmh: 0 });
      }
      for (const r of records) {
        const inTrip = trips.some((t) => r.ts >= t.start && r.ts < t.stop);
        expect(r.ignition, `${name} ${new Date(r.ts).toISOString()}`).toBe(inTrip);
        if (!r.ignition) expect(r.moving, name).toBe(false);
      }
      const starts = pairs(records).filter(([a, b]) => !a.ignition && b.ignition).length;
      expect(starts, name).toBe(trips.length);
      // Parked long enough between trips for detection to see two trips, never one.
      for (const [a, b] of pairs(trips)) expect(b.start - a.stop, name).toBeGreaterThanOrEqual(MIN_PARK_MS);
      if (trips.length) expect(TO - (trips[trips.length - 1] as HistoryTrip).stop).toBeGreaterThanOrEqual(MIN_PARK_MS);
    }
  });

  it('parks with sparse heartbeats a few metres around the spot', () => {
    const [, maxS] = HISTORY_INTERVALS.parkedS;
    for (const { index, history } of fleet) {
      const name = unitOf(index).name;
      const { records, trips } = history;
      let parkedAt: LatLon | null = index === 3 ? null : records[0] ?? null;
      let sparse = 0;
      for (const [a, b] of pairs(records)) {
        if (a.ignition || b.ignition) continue;
        if (a.cause === 'ignition') parkedAt = a;
        expect(b.ts - a.ts, name).toBeLessThanOrEqual(maxS * 1000);
        if (b.ts - a.ts >= 30 * MINUTE) sparse++;
        if (parkedAt && index !== 3) expect(distanceM(b, parkedAt), name).toBeLessThan(9);
      }
      expect(sparse, name).toBeGreaterThan(5 * 24);
      // Jitter: parked fixes are not all the same point.
      const parked = records.filter((r) => !r.ignition && r.cause === 'periodic');
      expect(new Set(parked.map((r) => `${r.lat},${r.lon}`)).size, name).toBeGreaterThan(parked.length / 2);
      expect(trips.length, name).toBeGreaterThan(0);
    }
  });

  it('advances the odometer by the distance driven and the engine hours by the time with the ignition on', () => {
    for (const { index, history } of fleet) {
      const name = unitOf(index).name;
      const { records, trips } = history;
      const at = (ts: number) => records.find((r) => r.ts === ts) as TrackerRecord;
      for (const [a, b] of pairs(records)) {
        expect(b.odometerM, name).toBeGreaterThanOrEqual(a.odometerM);
        if (!a.ignition && !b.ignition) expect(b.odometerM, name).toBe(a.odometerM);
        if (a.ignition) expect(b.engineS - a.engineS, name).toBeCloseTo((b.ts - a.ts) / 1000, -1);
        else expect(b.engineS, name).toBe(a.engineS);
      }
      for (const t of trips) {
        const driven = at(t.stop).odometerM - at(t.start).odometerM;
        expect(Math.abs(driven - t.distanceM), name).toBeLessThanOrEqual(1);
        if (index === 3) continue;
        // The straight lines between its records are a little shorter than the road.
        const inTrip = records.filter((r) => r.ts >= t.start && r.ts <= t.stop);
        const chords = pairs(inTrip).reduce((s, [a, b]) => s + distanceM(a, b), 0);
        expect(chords, name).toBeLessThanOrEqual(driven + 10);
        expect(chords, name).toBeGreaterThan(driven * 0.8);
      }
      // Only trips move it.
      const total = (records[records.length - 1]?.odometerM ?? 0) - (records[0]?.odometerM ?? 0);
      expect(Math.abs(total - trips.reduce((s, t) => s + t.distanceM, 0)), name).toBeLessThanOrEqual(trips.length);
      if (index === 3) expect(total, name).toBe(0);
      else expect(total, name).toBeGreaterThan(0);
    }
  });
});

describe('the demo history marker', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'demo-history-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('plans a new window without one, the same window and units after a crash, nothing once complete', () => {
    const now = Date.UTC(2025, 5, 10, 12, 0, 0);
    expect(planDemoHistory({ dataDir: dir, days: 0, now })).toBeNull();
    expect(planDemoHistory({ dataDir: dir, days: 30, now })).toMatchObject({ from: now - 30 * DAY, to: now, days: 30, imeis: null, done: [] });
    const marker = { version: 1, from: now - 2 * DAY, to: now, days: 2, seed: 7, imeis: ['356938031000004', '356938031000012'], done: ['356938031000012'], complete: false };
    writeFileSync(join(dir, DEMO_HISTORY_MARKER), JSON.stringify(marker));
    expect(planDemoHistory({ dataDir: dir, days: 30, now: now + HOUR })).toEqual({ from: marker.from, to: now, days: 2, seed: 7, imeis: marker.imeis, done: marker.done });
    writeFileSync(join(dir, DEMO_HISTORY_MARKER), JSON.stringify({ ...marker, complete: true }));
    expect(planDemoHistory({ dataDir: dir, days: 30, now })).toBeNull();
    // Without a data directory every start is a first start (its data is in memory).
    expect(planDemoHistory({ dataDir: null, days: 30, now })).not.toBeNull();
  });
});

type Item = Record<string, unknown>;

async function queryAll(table: 'positions' | 'trips', imei: string): Promise<Item[]> {
  const items: Item[] = [];
  let key: Record<string, unknown> | undefined;
  do {
    const out: QueryCommandOutput = await dynamo().send(
      new QueryCommand({ TableName: tableName(table), KeyConditionExpression: 'imei = :i', ExpressionAttributeValues: { ':i': imei }, ExclusiveStartKey: key, ConsistentRead: true }),
    );
    // Positions read as every reader of the table reads them (functions/ingest/position-codec.ts).
    items.push(...(out.Items ?? []).flatMap((item) => (table === 'positions' ? positionsOfItem(item) : [item])));
    key = out.LastEvaluatedKey;
  } while (key);
  return items;
}

const stateTs = async (imei: string) =>
  ((await dynamo().send(new GetCommand({ TableName: tableName('units'), Key: { imei }, ConsistentRead: true }))).Item?.['state'] as { ts?: number } | undefined)?.ts;

describe('demo history through a started runtime', () => {
  const TRACKERS = 2;
  // Five days hold at least two full working days, whatever day the test runs on.
  const DAYS = 5;
  const prefix = `t${randomBytes(4).toString('hex')}-`;
  let dir: string;
  let rt: EmbeddedRuntime | undefined;
  const start = () =>
    startEmbeddedRuntime({ port: 0, mqttPort: 0, dataDir: dir, host: '127.0.0.1', dynamo: fileDynamo(), tablePrefix: prefix, simulatedTrackers: TRACKERS, demoHistoryDays: DAYS });

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'demo-history-rt-'));
    rt = await start();
  });
  afterAll(async () => {
    await rt?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('drives live at once and fills every position and trip through ingest behind it', async () => {
    const filling = rt?.demoHistory;
    expect(filling).toMatchObject({ days: DAYS, units: TRACKERS });
    const marker = readDemoHistoryMarker(dir);
    expect(marker).toMatchObject({ days: DAYS, imeis: simulatedUnits(TRACKERS).map((u) => u.imei) });
    const { from, to } = marker as NonNullable<typeof marker>;
    const expected = simulatedUnits(TRACKERS).map((unit, index) => ({ unit, history: generateUnitHistory({ unit, index, from, to }) }));
    const total = expected.reduce((n, e) => n + e.history.records.length, 0);
    expect(filling?.positions).toBe(total);
    // The live fleet does not wait for the history: each unit drives on from where its history ends.
    await vi.waitFor(
      async () => {
        for (const { unit } of expected) expect(await stateTs(unit.imei)).toBeGreaterThan(to);
      },
      { timeout: 20_000, interval: 200 },
    );
    const result = await filling?.filled;
    expect(result).toMatchObject({ units: TRACKERS, positions: total, messages: expected.reduce((n, e) => n + Math.ceil(e.history.records.length / RECORDS_PER_MESSAGE), 0) });
    expect(readDemoHistoryMarker(dir)).toMatchObject({ complete: true });
    // Trip detection re-detects the late windows on the trip-redetect queue.
    await rt?.queues.drained();

    for (const { unit, history } of expected) {
      const stored = (await queryAll('positions', unit.imei)).sort((a, b) => (a['ts'] as number) - (b['ts'] as number));
      const backfilled = stored.filter((p) => (p['ts'] as number) <= to);
      expect(backfilled.map((p) => [p['ts'], p['lat'], p['lon'], p['odometer'], p['ignition']])).toEqual(
        history.records.map((r) => [r.ts, r.lat, r.lon, r.odometerM, r.ignition]),
      );
      // The live odometer goes on from the history's last one.
      const firstLive = stored.find((p) => (p['ts'] as number) > to);
      expect(firstLive?.['odometer']).toBeGreaterThanOrEqual(history.records[history.records.length - 1]?.odometerM ?? Infinity);
      // The trip log: one trip per generated trip, starting at its ignition on.
      const trips = (await queryAll('trips', unit.imei)).filter((t) => (t['startTs'] as number) <= to);
      expect(history.trips.length).toBeGreaterThanOrEqual(8);
      expect(trips.map((t) => t['startTs']).sort()).toEqual(history.trips.map((t) => t.start).sort());
    }
    // The owner sees it all: the units count as registered before their history.
    const { token } = await loginAs(demoUsers.admin.username, DEMO_PASSWORD);
    for (const { unit, history } of expected) {
      const period = new URLSearchParams({ imei: unit.imei, from: localTime(from).day, to: localTime(to).day });
      const trips = await call<{ data: { trips: Array<{ startTime: string }> } }>(rt?.url ?? '', 'GET', `/api/v1/user/trips?${period}`, undefined, { token });
      expect(trips.status).toBe(200);
      expect(trips.body.data.trips.map((t) => Date.parse(t.startTime)).filter((t) => t <= to)).toEqual(history.trips.map((t) => t.start));
      const span = new URLSearchParams({ from: new Date(from).toISOString(), to: new Date(to).toISOString() });
      const positions = await call<{ data: Array<{ ts: string }> }>(rt?.url ?? '', 'GET', `/api/v1/user/units/${unit.imei}/positions?${span}`, undefined, { token });
      expect(positions.status).toBe(200);
      expect(positions.body.data.length).toBe(history.records.length);
    }
  });

  it('sends nothing again on the next start', async () => {
    const before = await Promise.all(simulatedUnits(TRACKERS).map(async (u) => (await queryAll('positions', u.imei)).length));
    await rt?.stop();
    rt = undefined;
    rt = await start();
    expect(rt.demoHistory).toBeNull();
    const marker = readDemoHistoryMarker(dir);
    const after = await Promise.all(simulatedUnits(TRACKERS).map(async (u) => (await queryAll('positions', u.imei)).filter((p) => (p['ts'] as number) <= (marker?.to ?? 0)).length));
    const backfilled = simulatedUnits(TRACKERS).map((unit, index) => generateUnitHistory({ unit, index, from: marker?.from ?? 0, to: marker?.to ?? 0 }).records.length);
    expect(after).toEqual(backfilled);
    expect(before.every((n, i) => n >= (backfilled[i] ?? Infinity))).toBe(true);
  });
});

describe('demo history after a crash half-way', () => {
  let rt: EmbeddedRuntime;
  let dir: string;
  beforeAll(async () => {
    rt = await startRuntime();
    dir = mkdtempSync(join(tmpdir(), 'demo-history-crash-'));
  });
  afterAll(async () => {
    await rt?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('sends the units not done again and ends with the same positions, none twice', async () => {
    // Two named demo units (registered long before) with live states: their week is late.
    const fleetOfThree = simulatedUnits(3);
    const [first, second] = [fleetOfThree[1], fleetOfThree[2]] as [DemoUnitSpec, DemoUnitSpec];
    const planned = planDemoHistory({ dataDir: dir, days: 7 });
    if (!planned) throw new Error('no plan');
    const plan = { ...planned, imeis: [first.imei, second.imei] };
    const records = (index: number) => generateUnitHistory({ unit: unitOf(index), index, from: plan.from, to: plan.to }).records;
    expect(records(2).length).toBeGreaterThan(400);
    const quiet = () => undefined;

    // The "crash": the first run stops after the first unit is done and 20 messages of the second.
    const crash = new AbortController();
    let sent = 0;
    const firstRun = await prepareDemoHistory({ units: fleetOfThree, plan, dataDir: dir });
    const firstUnitMessages = Math.ceil(records(1).length / RECORDS_PER_MESSAGE);
    await expect(
      fillDemoHistory(firstRun, {
        dataDir: dir,
        concurrency: 1,
        signal: crash.signal,
        log: quiet,
        ingest: async (topic, payload) => {
          if (++sent === firstUnitMessages + 20) crash.abort();
          await rt.ingestHistory(topic, payload);
        },
      }),
    ).rejects.toThrow(/aborted/);
    await vi.waitFor(async () => expect(readDemoHistoryMarker(dir)).toMatchObject({ complete: false, done: [first.imei] }), { timeout: 20_000, interval: 100 });

    const resumed = planDemoHistory({ dataDir: dir, days: 7 });
    expect(resumed).toMatchObject({ from: plan.from, to: plan.to, imeis: [first.imei, second.imei], done: [first.imei] });
    const prepared = await prepareDemoHistory({ units: fleetOfThree, plan: resumed as NonNullable<typeof resumed>, dataDir: dir });
    expect(prepared.units.map((u) => u.unit.imei)).toEqual([second.imei]);
    const result = await fillDemoHistory(prepared, { dataDir: dir, log: quiet, ingest: (topic, payload) => rt.ingestHistory(topic, payload) });
    expect(result).toMatchObject({ units: 1, positions: records(2).length });

    for (const [unit, index] of [[first, 1], [second, 2]] as const) {
      const stored = (await queryAll('positions', unit.imei)).filter((p) => (p['ts'] as number) >= plan.from && (p['ts'] as number) <= plan.to);
      expect(stored.map((p) => p['ts']).sort((a, b) => (a as number) - (b as number))).toEqual(records(index).map((r) => r.ts));
    }
    expect(readDemoHistoryMarker(dir)).toMatchObject({ complete: true, done: [first.imei, second.imei] });
    expect(planDemoHistory({ dataDir: dir, days: 7 })).toBeNull();
  });

  it('ends with its error when a stop closes the stream under it, every message in flight handled', async () => {
    // As at Ctrl-C: the messages in flight fail when the stream closes, while the next waits for a
    // slot; none of those failures may go unhandled (it stopped the runtime half-way).
    const other = mkdtempSync(join(tmpdir(), 'demo-history-stop-'));
    const plan = planDemoHistory({ dataDir: other, days: 7 });
    if (!plan) throw new Error('no plan');
    const prepared = await prepareDemoHistory({ units: simulatedUnits(3), plan, dataDir: other });
    const stop = new AbortController();
    const inFlight: Array<(error: Error) => void> = [];
    const filled = fillDemoHistory(prepared, {
      dataDir: other,
      concurrency: 2,
      maxInFlight: 2,
      signal: stop.signal,
      log: () => undefined,
      ingest: () => new Promise<void>((_resolve, reject) => inFlight.push(reject)),
    });
    await vi.waitFor(() => expect(inFlight).toHaveLength(2));
    stop.abort();
    for (const reject of inFlight.splice(0)) reject(new Error('ingest stream: closed'));
    await expect(filled).rejects.toThrow(/closed|aborted/);
    expect(inFlight).toEqual([]);
    rmSync(other, { recursive: true, force: true });
  });
});
