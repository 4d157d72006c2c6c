/**
 * The vehicle model in fast time (hours of driving in milliseconds): where it goes, how fast,
 * what its tracker reports, and that the ingest path would take every record as it is.
 */
import { describe, expect, it } from 'vitest';
import { decodeMessage } from '../../../functions/ingest/decode';
import { DEFAULT_FILTER } from '../../../functions/ingest/filter';
import { screenPositions } from '../../../functions/ingest/pipeline';
import { simulatedUnits } from '../seed';
import { bearingDeg, distanceM, projectOnSegment, turnDeg, type LatLon } from './geo';
import { RoadNetwork } from './network';
import { telemetryMessage } from './protocol';
import { trackerSeed } from './random';
import { sensorsFor } from './simulator';
import { stockholmBounds } from './stockholm';
import { DEFAULT_INTERVALS, SimulatedVehicle, type TrackerRecord } from './vehicle';

const network = new RoadNetwork();
const START = Date.UTC(2025, 2, 3, 7, 0, 0);
const HOURS = 4;
const FLEET = 20;

function vehicle(index: number, seed = 7, extra: Partial<ConstructorParameters<typeof SimulatedVehicle>[0]> = {}) {
  const unit = simulatedUnits(index + 1)[index];
  if (!unit) throw new Error('no such unit');
  return new SimulatedVehicle({
    index,
    imei: unit.imei,
    vehicleType: unit.vehicleType,
    seed: trackerSeed(seed, index),
    start: START,
    network,
    sensors: sensorsFor(index, unit.imei),
    ...extra,
  });
}

const fleet = Array.from({ length: FLEET }, (_, i) => {
  const v = vehicle(i);
  return { v, records: v.advanceTo(START + HOURS * 3_600_000) };
});
const drivers = fleet.filter((f) => f.v.cls !== 'machine');

function distanceToPolyline(p: LatLon, line: readonly LatLon[]): number {
  let best = Infinity;
  for (let i = 1; i < line.length; i++) best = Math.min(best, projectOnSegment(p, line[i - 1] as LatLon, line[i] as LatLon).distance);
  return best;
}

/** The roads plus the vehicle's own driveways between each stop and its parking spot there. */
function drivable(index: number): LatLon[][] {
  return [...network.polylines(), ...network.stops.map((s) => [network.places[s], network.parkingSpot(s, index)])];
}

const pairs = (records: readonly TrackerRecord[]) => records.slice(1).map((r, i) => [records[i] as TrackerRecord, r] as const);

describe('simulated vehicles', () => {
  it('report regularly over hours of driving', () => {
    for (const { records } of fleet) {
      expect(records.length).toBeGreaterThan((HOURS * 3600) / DEFAULT_INTERVALS.parkedS);
      for (const [a, b] of pairs(records)) expect(b.ts).toBeGreaterThan(a.ts);
    }
    // Most of the fleet is on the move a good part of the time: something to watch on the map.
    const moving = fleet.flatMap((f) => f.records).filter((r) => r.speedKmh > 0).length;
    expect(moving / fleet.flatMap((f) => f.records).length).toBeGreaterThan(0.3);
  });

  it('stay on the roads of the map (and their own parking spots), inside Stockholm', () => {
    for (const { v, records } of drivers) {
      const lines = drivable(v.index);
      for (const r of records) {
        const off = Math.min(...lines.map((line) => distanceToPolyline(r, line)));
        expect(off, `${v.imei} at ${r.lat},${r.lon}`).toBeLessThan(1);
        expect(r.lat).toBeGreaterThan(stockholmBounds.minLat);
        expect(r.lat).toBeLessThan(stockholmBounds.maxLat);
        expect(r.lon).toBeGreaterThan(stockholmBounds.minLon);
        expect(r.lon).toBeLessThan(stockholmBounds.maxLon);
      }
    }
  });

  it('drive at plausible speeds, accelerate and brake like vehicles, heading where the road goes', () => {
    // Recorded every second, so that no hard stop or jump hides between two records.
    const everySecond = drivers.map(({ v }) => {
      const fine = vehicle(v.index, 7, { intervals: { movingS: 1, parkedS: 1 } });
      return { v: fine, records: fine.advanceTo(START + 2 * 3_600_000) };
    });
    for (const { v, records } of everySecond) {
      const top = v.cls === 'car' ? 110 : 100;
      for (const r of records) expect(r.speedKmh).toBeLessThanOrEqual(top);
      for (const [a, b] of pairs(records)) {
        const seconds = (b.ts - a.ts) / 1000;
        expect((distanceM(a, b) / seconds) * 3.6).toBeLessThanOrEqual(top);
        expect(Math.abs(b.speedKmh - a.speedKmh) / 3.6 / seconds).toBeLessThanOrEqual(3.6);
        // The straight line between two records is never longer than the road driven.
        expect(b.odometerM - a.odometerM).toBeGreaterThanOrEqual(Math.floor(distanceM(a, b)) - 1);
      }
      // Motorways and city streets both: top speeds well apart from crawling.
      expect(Math.max(...records.map((r) => r.speedKmh))).toBeGreaterThan(60);
      // On the move, the heading is the direction of the road it is on.
      const lines = drivable(v.index);
      for (const r of records.filter((x) => x.speedKmh > 5)) {
        const along = lines.flatMap((line) =>
          line.slice(1).flatMap((b, i) => {
            const a = line[i] as LatLon;
            return projectOnSegment(r, a, b).distance < 1 ? [bearingDeg(a, b)] : [];
          }),
        );
        expect(along.some((bearing) => turnDeg(r.heading, bearing) <= 1 || turnDeg(r.heading, bearing + 180) <= 1), `${v.imei} heading ${r.heading}`).toBe(true);
      }
    }
  });

  it('are taken by the ingest decoder and filter as they are: no record dropped', () => {
    for (const { v, records } of fleet) {
      const protocol = simulatedUnits(FLEET)[v.index]?.protocol ?? 'native';
      const decoded = records.map((r) => decodeMessage(Buffer.from(telemetryMessage(protocol, v.imei, [r]).payload)));
      const positions = decoded.flatMap((d) => (d.kind === 'positions' ? d.positions : []));
      expect(positions).toHaveLength(records.length);
      const last = records[records.length - 1] as TrackerRecord;
      const screened = screenPositions(positions, undefined, { now: last.ts, maxAgeMs: 395 * 86_400_000, ...DEFAULT_FILTER });
      expect(screened.filtered).toEqual({});
      expect(screened.accepted).toHaveLength(records.length);
    }
  });

  it('have the ignition on whenever they move, and stop at their destinations with the ignition off', () => {
    for (const { v, records } of drivers) {
      for (const r of records) if (r.speedKmh > 0) expect(r.ignition).toBe(true);
      const stops: TrackerRecord[][] = [];
      let current: TrackerRecord[] = [];
      for (const r of records) {
        if (!r.ignition) current.push(r);
        else if (current.length) {
          stops.push(current);
          current = [];
        }
      }
      const complete = stops.filter((s) => s !== stops[0]);
      expect(complete.length, v.imei).toBeGreaterThan(0);
      const spots = network.stops.map((s) => network.parkingSpot(s, v.index));
      for (const stop of complete) {
        const first = stop[0] as TrackerRecord;
        // Parked on its own spot at one of the places, and not moving while parked.
        expect(Math.min(...spots.map((p) => distanceM(p, first)))).toBeLessThan(1);
        for (const r of stop) expect(distanceM(first, r)).toBeLessThan(0.5);
        expect(stop.every((r) => r.speedKmh === 0 && !r.moving)).toBe(true);
      }
      // Stops last minutes (5 to 25 by default): the records of a stop span most of that.
      expect(Math.max(...complete.map((s) => (s[s.length - 1] as TrackerRecord).ts - (s[0] as TrackerRecord).ts))).toBeGreaterThan(4 * 60_000);
    }
  });

  it('count odometer and engine hours only for what happened', () => {
    for (const { records } of fleet) {
      for (const [a, b] of pairs(records)) {
        expect(b.odometerM).toBeGreaterThanOrEqual(a.odometerM);
        expect(b.engineS).toBeGreaterThanOrEqual(a.engineS);
        const seconds = (b.ts - a.ts) / 1000;
        if (a.ignition && b.ignition) expect(b.engineS - a.engineS).toBeCloseTo(seconds, 0);
        if (!a.ignition && !b.ignition) {
          expect(b.engineS).toBe(a.engineS);
          expect(b.odometerM).toBe(a.odometerM);
        }
      }
    }
  });

  it('charge the battery while the engine runs and drain it slowly while parked', () => {
    for (const { v, records } of drivers) {
      for (const r of records) {
        expect(r.batVolts).toBeGreaterThanOrEqual(3.6);
        expect(r.batVolts).toBeLessThanOrEqual(4.2);
        if (r.extVolts !== undefined) {
          expect(r.extVolts).toBeGreaterThanOrEqual(11.8);
          expect(r.extVolts).toBeLessThanOrEqual(14.4);
        }
      }
      let offSince: number | null = null;
      let onSince: number | null = null;
      for (const [a, b] of pairs(records)) {
        offSince = b.ignition ? null : (offSince ?? b.ts);
        onSince = b.ignition ? (onSince ?? b.ts) : null;
        if (v.cls === 'trailer') {
          // A trailer's tracker has external power only while hooked to a running car.
          if (!b.ignition) expect(b.extVolts).toBeUndefined();
          continue;
        }
        if (offSince !== null && !a.ignition && b.ts - offSince > 10 * 60_000) expect(b.extVolts as number).toBeLessThanOrEqual(a.extVolts as number);
        if (onSince !== null && b.ts - onSince > 2 * 60_000) expect(b.extVolts as number).toBeGreaterThan(13.5);
      }
    }
    // A long stop takes the battery visibly down: over 6 h parked in one go.
    const parked = vehicle(1, 7, { initial: 'parked', stopMinutes: [720, 720] }).advanceTo(START + 24 * 3_600_000);
    const runs: TrackerRecord[][] = [[]];
    for (const r of parked) {
      if (!r.ignition) (runs[runs.length - 1] as TrackerRecord[]).push(r);
      else runs.push([]);
    }
    const night = runs.reduce((a, b) => (b.length > a.length ? b : a));
    const [first, last] = [night[2] as TrackerRecord, night[night.length - 1] as TrackerRecord];
    expect(last.ts - first.ts).toBeGreaterThan(6 * 3_600_000);
    expect((first.extVolts as number) - (last.extVolts as number)).toBeGreaterThan(0.1);
  });

  it('report every 15 s while driving and every 5 minutes parked, plus events', () => {
    for (const { records } of drivers) {
      for (const [a, b] of pairs(records)) {
        const gap = (b.ts - a.ts) / 1000;
        if (a.ignition) expect(gap).toBeLessThanOrEqual(DEFAULT_INTERVALS.movingS);
        else expect(gap).toBeLessThanOrEqual(DEFAULT_INTERVALS.parkedS);
      }
      expect(records.some((r) => r.cause === 'ignition')).toBe(true);
      expect(records.some((r) => r.cause === 'turn')).toBe(true);
    }
  });

  it('read their BLE sensors on a few units, within the sensors\' ranges', () => {
    const withSensors = fleet.filter((f) => sensorsFor(f.v.index, f.v.imei).length);
    expect(withSensors.length).toBeGreaterThanOrEqual(3);
    expect(withSensors.length).toBeLessThan(FLEET / 2);
    for (const { records } of withSensors) {
      for (const r of records) {
        expect(r.ble.length).toBeGreaterThan(0);
        for (const s of r.ble) {
          expect(s.mac).toMatch(/^[0-9A-F]{5}41[0-9A-F]{5}$/);
          if (s.temp !== undefined) {
            expect(s.temp).toBeGreaterThanOrEqual(-20);
            expect(s.temp).toBeLessThanOrEqual(60);
          }
          if (s.hum !== undefined) {
            expect(s.hum).toBeGreaterThanOrEqual(0);
            expect(s.hum).toBeLessThanOrEqual(100);
          }
          // A cargo door opens only at a stop.
          if (s.door) expect(r.ignition).toBe(false);
        }
      }
    }
    const reefer = fleet[2]?.records ?? [];
    expect(reefer.some((r) => r.ble.some((s) => s.door))).toBe(true);
    expect(Math.min(...reefer.map((r) => r.ble[0]?.temp ?? 0))).toBeLessThan(-15);
  });

  it('keep a machine at its site, working in shifts', () => {
    const machine = fleet.find((f) => f.v.cls === 'machine');
    expect(machine).toBeDefined();
    const records = machine?.records ?? [];
    const first = records[0] as TrackerRecord;
    for (const r of records) expect(distanceM(first, r)).toBe(0);
    expect(records.some((r) => r.ignition) && records.some((r) => !r.ignition)).toBe(true);
    expect((records[records.length - 1] as TrackerRecord).engineS).toBeGreaterThan(first.engineS + 1800);
  });

  it('are the same for the same seed and differ for another', () => {
    const again = vehicle(5).advanceTo(START + HOURS * 3_600_000);
    expect(again).toEqual(fleet[5]?.records);
    const other = vehicle(5, 8).advanceTo(START + HOURS * 3_600_000);
    expect(other).not.toEqual(fleet[5]?.records);
  });

  it('are the same whatever the clock\'s ticks (time in one jump or in many)', () => {
    const stepped = vehicle(6);
    const records: TrackerRecord[] = [];
    for (let t = START; t <= START + 3_600_000; t += 1_700) records.push(...stepped.advanceTo(t));
    records.push(...stepped.advanceTo(START + 3_600_000));
    expect(records).toEqual(vehicle(6).advanceTo(START + 3_600_000));
  });
});

describe('a vehicle told to change', () => {
  it('switches an output, reports it at once and lets it fall back after its duration', () => {
    const v = vehicle(0, 7, { initial: 'driving' });
    v.advanceTo(START + 60_000);
    v.setOutput(1, true, 30);
    const next = v.advanceTo(START + 61_000);
    expect(next).toHaveLength(1);
    expect(next[0]).toMatchObject({ cause: 'output', dout: { '1': true, '2': false, '3': false } });
    const later = v.advanceTo(START + 120_000);
    const off = later.find((r) => r.cause === 'output');
    expect(off?.dout['1']).toBe(false);
    expect(off?.ts).toBe(START + 90_000);
  });

  it('keeps an output on without a duration until told otherwise', () => {
    const v = vehicle(0, 7, { initial: 'driving' });
    v.setOutput(2, true);
    const records = v.advanceTo(START + 3_600_000);
    expect(records.every((r) => r.dout['2'])).toBe(true);
  });

  it('reports at the periods of its operating mode', () => {
    const v = vehicle(0, 7, { initial: 'driving', stopMinutes: [240, 240] });
    v.setOperatingMode('realtime1min');
    const records = v.advanceTo(START + 20 * 60_000).filter((r) => r.ignition);
    const gaps = pairs(records).map(([a, b]) => (b.ts - a.ts) / 1000);
    expect(Math.max(...gaps)).toBe(60);
    v.setOperatingMode('fixed1h');
    const fixed = v.advanceTo(START + 6 * 3_600_000);
    expect(fixed.every((r) => r.cause === 'periodic')).toBe(true);
    expect(pairs(fixed).every(([a, b]) => b.ts - a.ts === 3_600_000)).toBe(true);
  });

  it('resumes where its unit was last seen, with its counters', () => {
    const seen = { lat: 59.3441, lon: 18.0553, odometer: 123_456_789, engineSeconds: 4_000_000, dout: { '3': true } };
    const v = vehicle(0, 7, { resume: seen });
    expect(v.distanceTo(seen)).toBe(0);
    const records = v.advanceTo(START + 30 * 60_000);
    const first = records[0] as TrackerRecord;
    expect(first).toMatchObject({ lat: seen.lat, lon: seen.lon, odometerM: seen.odometer, engineS: seen.engineSeconds, dout: { '3': true } });
    // It joins the nearest road (Sveavägen) and drives on from there.
    expect(records.some((r) => r.speedKmh > 20)).toBe(true);
    for (const [a, b] of pairs(records)) expect((distanceM(a, b) / ((b.ts - a.ts) / 1000)) * 3.6).toBeLessThan(110);
  });
});
