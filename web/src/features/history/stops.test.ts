import { describe, expect, it } from 'vitest';
import type { Position } from '../../../../shared/schemas/tracking';
import { distanceM, findStops, isStill, STOP_RADIUS_M } from './stops';

const T0 = Date.parse('2026-05-04T08:00:00Z');
const MIN = 60_000;

/** A position `minutes` after T0, `north` metres north of a point in Stockholm (1 m ≈ 9e-6 degrees). */
function p(minutes: number, speed: number | null, options: { north?: number; ignition?: boolean | null } = {}): Position {
  return {
    ts: new Date(T0 + minutes * MIN).toISOString(),
    lat: 59.33 + (options.north ?? 0) * 8.993e-6,
    lon: 18.06,
    speed,
    heading: null,
    ignition: options.ignition === undefined ? true : options.ignition,
  };
}

/** Driving north at 30 km/h (500 m a minute) from minute `from` to `to`, starting `north` metres in. */
function drive(from: number, to: number, north: number): Position[] {
  return Array.from({ length: to - from + 1 }, (_, i) => p(from + i, 30, { north: north + i * 500 }));
}

const summary = (route: Position[], minStopMs?: number) =>
  findStops(route, minStopMs === undefined ? {} : { minStopMs }).map((s) => ({
    first: s.first,
    last: s.last,
    minutes: s.durationMs / MIN,
    fromStart: s.fromStart,
    toEnd: s.toEnd,
  }));

describe('standing still', () => {
  it('is a reported speed under 3 km/h; without a speed, ignition off', () => {
    expect(isStill({ speed: 0, ignition: true })).toBe(true);
    expect(isStill({ speed: 2.9, ignition: null })).toBe(true);
    expect(isStill({ speed: 3, ignition: false })).toBe(false);
    expect(isStill({ speed: null, ignition: false })).toBe(true);
    expect(isStill({ speed: null, ignition: true })).toBe(false);
    expect(isStill({ speed: null, ignition: null })).toBe(false);
  });

  it('measures great-circle distance', () => {
    expect(distanceM({ lat: 59.33, lon: 18.06 }, { lat: 59.33 + 8.993e-6 * 1000, lon: 18.06 })).toBeCloseTo(1000, -1);
    // Stockholm to Gothenburg, about 398 km.
    expect(distanceM({ lat: 59.3293, lon: 18.0686 }, { lat: 57.7089, lon: 11.9746 }) / 1000).toBeCloseTo(398, -1);
  });
});

describe('stops on a route', () => {
  it('finds a stop between driving: arrival at the first still position, departure when moving again', () => {
    const route = [
      ...drive(0, 5, 0), // minutes 0-5, ends 2500 m north
      p(6, 0, { north: 3000 }),
      p(7, 0, { north: 3000 }),
      p(8, 1, { north: 3002 }),
      p(9, 0, { north: 3001 }),
      p(10, 0, { north: 3001, ignition: false }),
      ...drive(11, 15, 3100),
    ];
    const [stop, ...rest] = findStops(route);
    expect(rest).toEqual([]);
    expect(stop).toMatchObject({ first: 6, last: 11, fromStart: false, toEnd: false, lat: route[6]?.lat, lon: route[6]?.lon });
    expect(stop?.arrival).toBe(T0 + 6 * MIN);
    expect(stop?.departure).toBe(T0 + 11 * MIN);
    expect(stop?.durationMs).toBe(5 * MIN);
  });

  it('leaves out stops shorter than the time till parked, which can be set', () => {
    const route = [...drive(0, 3, 0), p(4, 0, { north: 2000 }), p(5, 0, { north: 2000 }), ...drive(6, 8, 2100)];
    // Standing from minute 4 until moving again at 6: two minutes, a red light.
    expect(summary(route)).toEqual([]);
    expect(summary(route, 2 * MIN)).toEqual([{ first: 4, last: 6, minutes: 2, fromStart: false, toEnd: false }]);
    // Exactly the threshold counts.
    expect(summary(route, 2 * MIN + 1)).toEqual([]);
  });

  it('counts a silence at one spot as standing, whatever speed the tracker sent last', () => {
    // A tracker in movement mode: its last record while driving, then nothing for 40 minutes, then
    // it reports again 10 m away as it drives off.
    const route = [...drive(0, 3, 0), p(4, 25, { north: 1600 }), p(44, 20, { north: 1610 }), ...drive(45, 47, 1700)];
    expect(summary(route)).toEqual([{ first: 4, last: 5, minutes: 40, fromStart: false, toEnd: false }]);
  });

  it('does not take a gap in coverage while driving for a stop', () => {
    // 10 minutes without positions, 5 km further on: 30 km/h on average.
    const route = [...drive(0, 3, 0), ...drive(13, 16, 6500)];
    expect(summary(route)).toEqual([]);
  });

  it('keeps one stop through GPS drift that reports a speed in the car park', () => {
    const route = [
      ...drive(0, 2, 0),
      p(3, 0, { north: 1500 }),
      p(4, 0, { north: 1500 }),
      p(5, 6, { north: 1520 }), // drift: 6 km/h, 20 m off
      p(6, 0, { north: 1505 }),
      p(7, 0, { north: 1505 }),
      ...drive(8, 10, 1600),
    ];
    expect(summary(route)).toEqual([{ first: 3, last: 8, minutes: 5, fromStart: false, toEnd: false }]);
  });

  it('keeps two stops apart when the unit drove off in between', () => {
    const route = [
      ...drive(0, 1, 0),
      p(2, 0, { north: 1000 }),
      p(6, 0, { north: 1000 }),
      p(7, 30, { north: 1000 + STOP_RADIUS_M + 450 }),
      p(8, 0, { north: 2000 }),
      p(12, 0, { north: 2000 }),
      ...drive(13, 14, 2100),
    ];
    expect(summary(route)).toEqual([
      { first: 2, last: 4, minutes: 5, fromStart: false, toEnd: false },
      { first: 5, last: 7, minutes: 5, fromStart: false, toEnd: false },
    ]);
  });

  it('marks a stop the route starts or ends in, cut by the period', () => {
    const route = [p(0, 0), p(30, 0), p(35, null, { ignition: false }), ...drive(36, 40, 100), p(41, 0, { north: 2700 }), p(50, 0, { north: 2700 })];
    expect(summary(route)).toEqual([
      { first: 0, last: 3, minutes: 36, fromStart: true, toEnd: false },
      { first: 8, last: 9, minutes: 9, fromStart: false, toEnd: true },
    ]);
  });

  it('ends a stop at the last position when the unit drove off with it', () => {
    const route = [...drive(0, 1, 0), p(2, 0, { north: 600 }), p(20, 0, { north: 600 }), p(21, 30, { north: 1100 })];
    expect(summary(route)).toEqual([{ first: 2, last: 4, minutes: 19, fromStart: false, toEnd: false }]);
  });

  it('has no stops without two positions, or while driving all the time', () => {
    expect(findStops([])).toEqual([]);
    expect(findStops([p(0, 0)])).toEqual([]);
    expect(findStops(drive(0, 30, 0))).toEqual([]);
  });

  it('is one stop for a unit parked all period, reporting hourly', () => {
    const route = Array.from({ length: 25 }, (_, h) => p(h * 60, 0, { ignition: false }));
    expect(summary(route)).toEqual([{ first: 0, last: 24, minutes: 24 * 60, fromStart: true, toEnd: true }]);
  });

  it('walks 40,000 positions (work that grew with their square would not end within the test time limit)', () => {
    const route = Array.from({ length: 40_000 }, (_, i) => p(i / 6, i % 600 < 60 ? 0 : 40, { north: i * 10 - (i % 600 < 60 ? i % 600 : 0) * 10 }));
    const stops = findStops(route);
    expect(stops.length).toBeGreaterThan(60);
  });
});
