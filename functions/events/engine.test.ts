import { describe, expect, it } from 'vitest';
import { testPosition } from '../../test/support/positions';
import type { Position } from '../ingest/types';
import type { UnitZone } from '../domain/unit/schema';
import { LOW_BATTERY_VOLTS, insidePolygon, lateEpisodeEvents, lateHarshEvents, runEngine, type EngineUnit, type EventEngineState } from './engine';
import { eventStage } from './stage';

const T0 = Date.parse('2026-06-01T10:00:00+02:00'); // a Monday
const S = 1000;
/** The yard: a 300 m circle in Stockholm. */
const YARD: UnitZone = { name: 'Yard', lat: 59.33, lon: 18.06, radius: 300, alarm: true, active: true, theftMode: false, off: [], timeZone: 'Europe/Stockholm' };
/** Metres north of the yard's centre, as a latitude. */
const north = (m: number) => YARD.lat + m / 111_195;
const at = (s: number, m: number, extra: Partial<Position> = {}) => testPosition(T0 + s * S, north(m), YARD.lon, extra);

function run(unit: EngineUnit, batches: Position[][], start?: EventEngineState) {
  let state = start;
  const events = [];
  let theft;
  for (const batch of batches) {
    const r = runEngine(unit, state, batch);
    state = r.state;
    events.push(...r.events);
    theft ??= r.theftModeFrom;
  }
  return { state, events, theft };
}

describe('geofences', () => {
  const unit: EngineUnit = { zones: { yard: YARD } };

  it('learns where the unit is first, then raises exit and enter once each', () => {
    const { events } = run(unit, [[at(0, 0), at(10, 100)], [at(20, 500), at(30, 600)], [at(40, 50)]]);
    expect(events.map((e) => [e.type, e.ts - T0, e.key, e.alarm])).toEqual([
      ['geofenceExit', 20 * S, 'yard', true],
      ['geofenceEnter', 40 * S, 'yard', true],
    ]);
    expect(events[0]!.details).toEqual({ geofenceId: 'yard', geofence: 'Yard' });
  });

  it('does not flap on GPS jitter across the border (a margin of 5 % of the radius, 15 m here)', () => {
    const { events } = run(unit, [[at(0, 290), at(10, 310), at(20, 295), at(30, 312), at(40, 299)]]);
    expect(events).toEqual([]);
    const out = run(unit, [[at(0, 290), at(10, 316)]]);
    expect(out.events.map((e) => e.type)).toEqual(['geofenceExit']);
  });

  it('ignores positions at or before the last one evaluated (redelivered or late)', () => {
    const first = run(unit, [[at(0, 0), at(20, 500)]]);
    expect(first.events).toHaveLength(1);
    const again = run(unit, [[at(0, 0), at(10, 100), at(20, 500)]], first.state);
    expect(again.events).toEqual([]);
  });

  it('records without an alarm inside a deactivation window and for a zone with the alarm off', () => {
    const nightsOff: UnitZone = { ...YARD, off: [{ days: [1], from: '09:00', to: '11:00' }] };
    const r = run({ zones: { yard: nightsOff } }, [[at(0, 0), at(10, 500)]]);
    expect(r.events.map((e) => [e.type, e.alarm])).toEqual([['geofenceExit', false]]);
    const silent = run({ zones: { yard: { ...YARD, alarm: false } } }, [[at(0, 0), at(10, 500)]]);
    expect(silent.events.map((e) => [e.type, e.alarm])).toEqual([['geofenceExit', false]]);
  });

  it('tracks nothing in an inactive zone and learns afresh when it is switched on again', () => {
    const inactive = run({ zones: { yard: { ...YARD, active: false } } }, [[at(0, 0), at(10, 500)]]);
    expect(inactive.events).toEqual([]);
    expect(inactive.state?.zones).toBeUndefined();
    const on = run(unit, [[at(20, 600), at(30, 0)]], inactive.state);
    expect(on.events.map((e) => e.type)).toEqual(['geofenceEnter']);
  });

  it('asks for theft mode when the unit leaves a theft-mode zone, unless it is in theft mode already', () => {
    const theftZone = { zones: { yard: { ...YARD, theftMode: true } } };
    expect(run(theftZone, [[at(0, 0), at(10, 500)]]).theft).toEqual({ ts: T0 + 10 * S, zoneId: 'yard' });
    expect(run({ ...theftZone, operatingMode: 'theft' }, [[at(0, 0), at(10, 500)]]).theft).toBeUndefined();
  });

  it('handles polygons', () => {
    const square: [number, number][] = [[18.0, 59.0], [18.1, 59.0], [18.1, 59.1], [18.0, 59.1]];
    expect(insidePolygon(59.05, 18.05, square)).toBe(true);
    expect(insidePolygon(59.05, 18.15, square)).toBe(false);
    const zone: UnitZone = { ...YARD, lat: 59.05, lon: 18.05, radius: 8000, polygon: square };
    const r = runEngine({ zones: { sq: zone } }, undefined, [testPosition(T0, 59.05, 18.05), testPosition(T0 + S, 59.05, 18.15)]);
    expect(r.events.map((e) => e.type)).toEqual(['geofenceExit']);
  });

  it('forgets a zone no longer assigned', () => {
    const r = run(unit, [[at(0, 0)]]);
    expect(r.state?.zones).toEqual({ yard: 1 });
    expect(runEngine({}, r.state, [at(10, 0)]).state.zones).toBeUndefined();
  });
});

describe('overspeed', () => {
  const unit: EngineUnit = { overspeedKmh: 90, overspeedSeconds: 30 };

  it('raises once per episode after the minimum duration, with the top speed', () => {
    const r = run(unit, [[at(0, 0, { speed: 95 }), at(20, 0, { speed: 110 }), at(30, 0, { speed: 100 }), at(60, 0, { speed: 120 })]]);
    expect(r.events.map((e) => [e.type, e.ts - T0, e.details['speed']])).toEqual([['overspeed', 30 * S, 110]]);
  });

  it('does not raise for a short burst, and starts a new episode after slowing down', () => {
    const r = run(unit, [[at(0, 0, { speed: 95 }), at(20, 0, { speed: 80 }), at(30, 0, { speed: 95 }), at(45, 0, { speed: 95 }), at(60, 0, { speed: 96 })]]);
    expect(r.events.map((e) => e.ts - T0)).toEqual([60 * S]);
  });

  it('raises nothing without a limit', () => {
    expect(run({}, [[at(0, 0, { speed: 200 }), at(100, 0, { speed: 200 })]]).events).toEqual([]);
  });
});

describe('eco driving', () => {
  const harsh = (kind: 'acceleration' | 'braking' | 'cornering', g: number | undefined, byDevice = false) => ({ eco: { harsh: { kind, g, ms: 800, byDevice } } });

  it("records an overspeed episode at its end, from its start, with its duration and top speed", () => {
    const unit: EngineUnit = { overspeedKmh: 90, overspeedSeconds: 30 };
    const r = run(unit, [[at(0, 0, { speed: 80 }), at(10, 0, { speed: 95 }), at(30, 0, { speed: 112 })], [at(50, 0, { speed: 101 }), at(70, 0, { speed: 85 }), at(80, 0, { speed: 95 }), at(90, 0, { speed: 60 })]]);
    // 10 s to 70 s: 60 s, top 112 km/h. 80 s to 90 s is shorter than the 30 s minimum: not an episode.
    expect(r.events.filter((e) => e.type === 'overspeedEpisode').map((e) => [e.ts - T0, e.alarm, e.details])).toEqual([[10 * S, false, { seconds: 60, maxSpeed: 112, limit: 90 }]]);
  });

  it("counts a native harsh event from the unit's sensitivity's threshold up; a device's whatever its value", () => {
    const events = (unit: EngineUnit) =>
      run(unit, [[at(0, 0, harsh('braking', 0.37)), at(10, 0, harsh('braking', 0.38)), at(20, 0, harsh('acceleration', 0.3)), at(30, 0, harsh('cornering', undefined)), at(40, 0, harsh('cornering', 0.1, true))]]).events.map((e) => [e.type, e.ts - T0]);
    // Normal (the default): braking from 0.38 g, acceleration from 0.37 g.
    expect(events({})).toEqual([['harshBraking', 10 * S], ['harshCornering', 30 * S], ['harshCornering', 40 * S]]);
    expect(events({ ecoSensitivity: 'sensitive' })).toEqual([['harshBraking', 0], ['harshBraking', 10 * S], ['harshAcceleration', 20 * S], ['harshCornering', 30 * S], ['harshCornering', 40 * S]]);
    expect(events({ ecoSensitivity: 'insensitive' })).toEqual([['harshCornering', 30 * S], ['harshCornering', 40 * S]]);
    const [first] = run({}, [[at(0, 0, { speed: 54, ...harsh('braking', 0.41) })]]).events;
    expect(first).toMatchObject({ type: 'harshBraking', key: 'harsh', alarm: false, details: { g: 0.41, ms: 800, speed: 54 } });
    // Late (a buffer sent after newer records): recorded at its own time with the id a live run gives, the same threshold applied.
    const late = [at(0, 0, { speed: 54, ...harsh('braking', 0.41) }), at(10, 0, harsh('braking', 0.2)), at(20, 0)];
    expect(lateHarshEvents({}, late)).toEqual([first]);
    const live = eventStage.run({ unit: {} as never, previous: undefined, before: undefined, after: undefined as never, positions: [late[0]!], late: [], receivedAt: 0 }).effects ?? [];
    const fromLate = eventStage.run({ unit: {} as never, previous: { t: T0 + 60 * S }, before: undefined, after: undefined as never, positions: [], late, receivedAt: 0 });
    expect(fromLate.effects?.map((e) => e.id)).toEqual(live.map((e) => e.id));
    // With ignition reported, one more effect reads the stored positions around the buffer for its episodes.
    const withIgnition = eventStage.run({ unit: {} as never, previous: { t: T0 + 60 * S }, before: undefined, after: undefined as never, positions: [], late: late.map((p) => ({ ...p, ignition: true })), receivedAt: 0 });
    expect(withIgnition.effects?.map((e) => e.id)).toEqual([...live.map((e) => e.id), `lateEpisodes:${T0}:${T0 + 20 * S}`]);
    expect(fromLate.state).toEqual({ t: T0 + 60 * S });
  });

  it("records idling (ignition on, standing) from the sensitivity's idle time, at its start with its seconds", () => {
    const idle = (s: number, extra: Partial<Position> = {}) => at(s, 0, { ignition: true, speed: 0, ...extra });
    const track = [[idle(0), idle(60)], [idle(130), at(150, 0, { ignition: true, speed: 40 }), idle(200), idle(290), at(300, 0, { ignition: false, speed: 0 })]];
    // 0-150 s: 150 s. 200-300 s: 100 s, under normal's 120 s; sensitive counts it from 60 s.
    expect(run({}, track).events.map((e) => [e.type, e.ts - T0, e.details])).toEqual([['idling', 0, { seconds: 150, device: false }]]);
    expect(run({ ecoSensitivity: 'sensitive' }, track).events.map((e) => [e.ts - T0, e.details['seconds']])).toEqual([[0, 150], [200 * S, 100]]);
    expect(run({ ecoSensitivity: 'insensitive' }, track).events).toEqual([]);
  });

  it("finds a late buffer's episodes among the stored positions around it, not one cut at the first position read", () => {
    const idle = (s: number) => at(s, 0, { ignition: true, speed: 0 });
    const drive = (s: number, speed: number) => at(s, 0, { ignition: true, speed });
    // Stored around the buffer: idling 0-60 s (cut: it may have begun before), driving, idling
    // 400-600 s, speeding 700-760 s, idling again from 900 s into positions after the buffer.
    const stored = [idle(0), idle(60), drive(100, 50), idle(400), idle(500), idle(600), drive(650, 80), drive(700, 120), drive(730, 125), drive(760, 70), idle(900), idle(1100), drive(1200, 40)];
    const unit: EngineUnit = { overspeedKmh: 110, overspeedSeconds: 30, lowBatteryAlert: true };
    const found = (fromS: number, toS: number) => lateEpisodeEvents(unit, stored, T0 + fromS * S, T0 + toS * S).map((e) => [e.type, (e.ts - T0) / S, e.details['seconds'], e.alarm]);
    // The buffer 500-760 s: the idling that ends in it (at 650 s) and the speeding (700-760 s).
    expect(found(500, 760)).toEqual([
      ['idling', 400, 250, false],
      ['overspeedEpisode', 700, 60, false],
    ]);
    // Up to 730 s the speeding goes on at the buffer's end: left to its next piece.
    expect(found(500, 730)).toEqual([['idling', 400, 250, false]]);
    // A buffer holding only the first, cut idling: nothing. One from 1100 to 1200 s: the idling from 900 s.
    expect(found(0, 60)).toEqual([]);
    expect(found(1100, 1200)).toEqual([['idling', 900, 300, false]]);
    expect(lateEpisodeEvents(unit, [], T0, T0)).toEqual([]);
  });

  it("takes a device's idling flag (Teltonika IO 251) as the episode, whatever its length", () => {
    const r = run({}, [[at(0, 0, { ignition: true, speed: 0, eco: { idling: true } }), at(30, 0, { ignition: true, speed: 0 }), at(45, 0, { ignition: true, speed: 3, eco: { idling: false } })]]);
    expect(r.events.map((e) => [e.type, e.ts - T0, e.details])).toEqual([['idling', 0, { seconds: 45, device: true }]]);
  });

  it('decides nothing again for positions seen before (a redelivered batch)', () => {
    const unit: EngineUnit = { overspeedKmh: 90, overspeedSeconds: 0 };
    const batch = [at(0, 0, { ignition: true, speed: 100, ...harsh('braking', 0.5) }), at(10, 0, { ignition: true, speed: 0 }), at(200, 0, { ignition: false, speed: 0 })];
    const first = run(unit, [batch]);
    expect(first.events.map((e) => e.type)).toEqual(['overspeed', 'harshBraking', 'overspeedEpisode', 'idling']);
    expect(run(unit, [batch], first.state).events).toEqual([]);
  });
});

describe('battery, power and inputs', () => {
  it('raises low battery once, and again only after recovering 3 % above the threshold', () => {
    const v = (s: number, volts: number) => at(s, 0, { batVolts: volts });
    const r = run({}, [[v(0, 3.7), v(10, 3.45), v(20, 3.4), v(30, 3.55), v(40, 3.45), v(50, LOW_BATTERY_VOLTS * 1.03 + 0.001), v(60, 3.3)]]);
    expect(r.events.map((e) => [e.type, e.ts - T0])).toEqual([
      ['lowBattery', 10 * S],
      ['lowBattery', 60 * S],
    ]);
  });

  it('raises low battery on the first report when the battery is already low, unless the alert is off', () => {
    expect(run({}, [[at(0, 0, { batVolts: 3.2 })]]).events.map((e) => e.type)).toEqual(['lowBattery']);
    expect(run({ lowBatteryAlert: false }, [[at(0, 0, { batVolts: 3.2 })]]).events).toEqual([]);
  });

  it('raises a power cut only after power was present', () => {
    const p = (s: number, volts: number) => at(s, 0, { extVolts: volts });
    expect(run({}, [[p(0, 0), p(10, 0.5)]]).events).toEqual([]);
    const r = run({}, [[p(0, 12.4), p(10, 11.9), p(20, 0.2), p(30, 0), p(40, 12.5), p(50, 1)]]);
    expect(r.events.map((e) => [e.type, e.ts - T0])).toEqual([
      ['powerCut', 20 * S],
      ['powerCut', 50 * S],
    ]);
  });

  it('raises each change of a digital input, not its first report; an alarm only for the inputs the unit names', () => {
    const d = (s: number, din: Record<string, boolean>) => at(s, 0, { din });
    const r = run({ dinAlarms: { '2': true } }, [[d(0, { '1': false, '2': true }), d(10, { '1': true, '2': true })], [d(20, { '1': true, '2': false })]]);
    expect(r.events.map((e) => [e.type, e.key, e.alarm, e.details])).toEqual([
      ['dinChange', 'din1', false, { input: 1, on: true }],
      ['dinChange', 'din2', true, { input: 2, on: false }],
    ]);
  });
});

describe('theft mode', () => {
  it('raises movement once per movement episode while in theft mode', () => {
    const m = (s: number, moving: boolean) => at(s, 0, { movement: moving });
    const r = run({ operatingMode: 'theft' }, [[m(0, false), m(10, true), m(20, true), m(30, false), m(40, true)]]);
    expect(r.events.map((e) => [e.type, e.ts - T0])).toEqual([
      ['theftMovement', 10 * S],
      ['theftMovement', 40 * S],
    ]);
    expect(run({ operatingMode: 'realtime1min' }, [[m(0, true)]]).events).toEqual([]);
  });

  it('counts speed as movement when the tracker reports no movement flag', () => {
    const r = run({ operatingMode: 'theft' }, [[at(0, 0, { speed: 2 }), at(10, 0, { speed: 30 })]]);
    expect(r.events.map((e) => e.type)).toEqual(['theftMovement']);
  });
});

it('gives the same events however the positions are split into batches', () => {
  const unit: EngineUnit = { zones: { yard: YARD }, overspeedKmh: 50, overspeedSeconds: 10 };
  const track = Array.from({ length: 60 }, (_, i) => at(i * 5, Math.abs(Math.sin(i / 6)) * 900, { speed: 30 + (i % 17) * 3, batVolts: 3.6 - (i % 20) * 0.01 }));
  const whole = run(unit, [track]).events;
  for (const size of [1, 2, 7, 13]) {
    const batches: Position[][] = [];
    for (let i = 0; i < track.length; i += size) batches.push(track.slice(i, i + size));
    expect(run(unit, batches).events).toEqual(whole);
  }
  expect(whole.length).toBeGreaterThan(2);
});
