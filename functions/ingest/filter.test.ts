import { describe, expect, it } from 'vitest';
import { DEFAULT_FILTER, distanceM, filterPosition, type FilterLimits } from './filter';
import { screenPositions } from './pipeline';
import { nextState } from './state';
import type { Position, UnitState } from './types';

const NOW = Date.UTC(2025, 5, 1, 12);
const limits: FilterLimits = { now: NOW, maxAgeMs: 395 * 86_400_000, ...DEFAULT_FILTER };

function pos(over: Partial<Position> = {}): Position {
  return {
    ts: NOW - 60_000,
    lat: 59.3293,
    lon: 18.0686,
    fix: true,
    speed: undefined,
    heading: undefined,
    alt: undefined,
    sats: 9,
    hdop: undefined,
    ignition: undefined,
    movement: undefined,
    odometer: undefined,
    engineSeconds: undefined,
    extVolts: undefined,
    batVolts: undefined,
    din: undefined,
    dout: undefined,
    ble: undefined,
    rfid: undefined,
    eco: undefined,
    io: undefined,
    ...over,
  };
}

describe('distance', () => {
  it('measures great circles on the mean Earth radius', () => {
    // One degree of a meridian is 2 * pi * 6371.0088 km / 360.
    expect(distanceM(0, 0, 1, 0)).toBeCloseTo(111_195.08, 1);
    // A quarter of the equator.
    expect(distanceM(0, 0, 0, 90) / 1000).toBeCloseTo(10_007.54, 1);
    expect(distanceM(59.3293, 18.0686, 59.3293, 18.0686)).toBe(0);
  });
});

describe('filter rules', () => {
  it('accepts a good position, with and without a previous fix', () => {
    expect(filterPosition(pos(), undefined, limits)).toBeNull();
    expect(filterPosition(pos(), { ts: NOW - 120_000, lat: 59.33, lon: 18.07 }, limits)).toBeNull();
  });

  it.each([
    ['latitude above 90', { lat: 90.5 }],
    ['latitude below -90', { lat: -91 }],
    ['longitude above 180', { lon: 180.01 }],
    ['longitude below -180', { lon: -200 }],
    ['not a number', { lat: Number.NaN }],
  ])('Invalid: %s', (_name, over) => {
    expect(filterPosition(pos(over), undefined, limits)).toBe('Invalid');
  });

  it('Zero: exactly 0,0 (the Gulf of Guinea is where trackers without a fix say they are)', () => {
    expect(filterPosition(pos({ lat: 0, lon: 0 }), undefined, limits)).toBe('Zero');
    expect(filterPosition(pos({ lat: 0, lon: 9.5 }), undefined, limits)).toBeNull();
  });

  it('NoFix: the tracker says it has no fix', () => {
    expect(filterPosition(pos({ fix: false }), undefined, limits)).toBe('NoFix');
  });

  it('Future: more than five minutes ahead of the time the message arrived', () => {
    expect(filterPosition(pos({ ts: NOW + 4 * 60_000 }), undefined, limits)).toBeNull();
    expect(filterPosition(pos({ ts: NOW + 6 * 60_000 }), undefined, limits)).toBe('Future');
  });

  it("Past: older than the account's retention (and Teltonika's unsynced 2004 clock)", () => {
    expect(filterPosition(pos({ ts: NOW - 394 * 86_400_000 }), undefined, limits)).toBeNull();
    expect(filterPosition(pos({ ts: NOW - 396 * 86_400_000 }), undefined, limits)).toBe('Past');
    expect(filterPosition(pos({ ts: 1_072_915_236_000 }), undefined, limits)).toBe('Past');
  });

  it('MaxSpeed: a reported speed no unit reaches', () => {
    expect(filterPosition(pos({ speed: 349 }), undefined, limits)).toBeNull();
    expect(filterPosition(pos({ speed: 351 }), undefined, limits)).toBe('MaxSpeed');
  });

  it('Jump: a distance from the previous fix that would take an impossible speed', () => {
    const prev = { ts: NOW - 60_000, lat: 59.3293, lon: 18.0686 };
    // 30 km in one minute is 1800 km/h; 3 km in one minute is 180 km/h.
    expect(filterPosition(pos({ ts: NOW, lat: 59.3293 + 30 / 111.2 }), prev, limits)).toBe('Jump');
    expect(filterPosition(pos({ ts: NOW, lat: 59.3293 + 3 / 111.2 }), prev, limits)).toBeNull();
    // The same 30 km three hours later is a plain drive.
    expect(filterPosition(pos({ ts: NOW, lat: 59.3293 + 30 / 111.2 }), { ...prev, ts: NOW - 3 * 3_600_000 }, limits)).toBeNull();
    // A late position is measured against the newer fix just the same.
    expect(filterPosition(pos({ ts: NOW - 120_000, lat: 59.3293 + 30 / 111.2 }), prev, limits)).toBe('Jump');
  });

  it('Jump: fix jitter within the tolerance is not speed, even one second apart', () => {
    const prev = { ts: NOW - 1000, lat: 59.3293, lon: 18.0686 };
    expect(filterPosition(pos({ ts: NOW, lat: 59.3293 + 0.08 / 111.2 }), prev, limits)).toBeNull();
    expect(filterPosition(pos({ ts: NOW, lat: 59.3293 + 0.3 / 111.2 }), prev, limits)).toBe('Jump');
  });
});

describe('screening a message', () => {
  it('sorts by device time, drops repeats and filtered records, and names the newest accepted', () => {
    const positions = [pos({ ts: NOW - 10_000 }), pos({ ts: NOW - 30_000 }), pos({ ts: NOW - 20_000, lat: 0, lon: 0 }), pos({ ts: NOW - 30_000 }), pos({ ts: NOW - 5000, fix: false })];
    const s = screenPositions(positions, undefined, limits);
    expect(s.accepted.map((p) => p.ts)).toEqual([NOW - 30_000, NOW - 10_000]);
    expect(s.filtered).toEqual({ Zero: 1, NoFix: 1 });
    expect(s.repeated).toBe(1);
    expect(s.newest?.ts).toBe(NOW - 10_000);
  });

  it('measures each record against the newest accepted fix before it, so one outlier is dropped and the track goes on', () => {
    const far = 59.3293 + 50 / 111.2;
    const positions = [pos({ ts: NOW - 30_000 }), pos({ ts: NOW - 20_000, lat: far }), pos({ ts: NOW - 10_000, lat: 59.33 })];
    const s = screenPositions(positions, undefined, limits);
    expect(s.accepted.map((p) => p.ts)).toEqual([NOW - 30_000, NOW - 10_000]);
    expect(s.filtered).toEqual({ Jump: 1 });
  });

  it('offers no newest position when everything is older than the current state (a late batch)', () => {
    const s = screenPositions([pos({ ts: NOW - 50_000 }), pos({ ts: NOW - 40_000 })], { ts: NOW - 10_000, lat: 59.3293, lon: 18.0686 }, limits);
    expect(s.accepted).toHaveLength(2);
    expect(s.newest).toBeUndefined();
  });
});

describe('next state', () => {
  const prev: UnitState = {
    ts: NOW - 60_000,
    lat: 1,
    lon: 2,
    speed: 50,
    heading: 90,
    alt: 10,
    sats: 8,
    hdop: 1,
    ignition: true,
    movement: true,
    extVolts: 13.9,
    batVolts: 4.1,
    din: { '2': true, '3': false },
    dout: { '1': true },
    odometer: 1000,
    engineSeconds: 3600,
    lastSeen: NOW - 55_000,
  };

  it('takes position and motion from the record and carries unreported inputs, voltages and counters over', () => {
    const next = nextState(prev, pos({ ts: NOW, lat: 3, lon: 4, speed: 0, din: { '3': true } }), NOW + 500);
    expect(next).toEqual({
      ts: NOW,
      lat: 3,
      lon: 4,
      speed: 0,
      heading: undefined,
      alt: undefined,
      sats: 9,
      hdop: undefined,
      ignition: true,
      movement: true,
      extVolts: 13.9,
      batVolts: 4.1,
      din: { '2': true, '3': true },
      dout: { '1': true },
      odometer: 1000,
      engineSeconds: 3600,
      lastSeen: NOW + 500,
    });
  });

  it('lets reported values replace carried ones', () => {
    const next = nextState(prev, pos({ ts: NOW, ignition: false, odometer: 1500, extVolts: 12.1 }), NOW);
    expect(next).toMatchObject({ ignition: false, odometer: 1500, extVolts: 12.1, batVolts: 4.1 });
  });

  it('starts from nothing for a unit without a state', () => {
    expect(nextState(undefined, pos({ ts: NOW }), NOW)).toMatchObject({ ts: NOW, ignition: undefined, din: undefined, lastSeen: NOW });
  });
});
