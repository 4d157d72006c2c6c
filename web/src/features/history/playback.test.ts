import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Position } from '../../../../shared/schemas/tracking';
import {
  advance,
  fromInputValue,
  isAtEnd,
  openPlayback,
  periodQuery,
  playbackReducer,
  pointAt,
  presetChoice,
  presetPeriod,
  routeBounds,
  seek,
  segmentWallMs,
  STOP_WALL_MS,
  toInputValue,
  type PlaybackState,
} from './playback';

// The period is taken in the browser's zone, which is the zone of the Date methods: pin it to one
// with daylight saving (Europe/Stockholm changed to summer time on 2025-03-30 at 02:00).
const originalTz = process.env['TZ'];
beforeAll(() => {
  process.env['TZ'] = 'Europe/Stockholm';
});
afterAll(() => {
  if (originalTz === undefined) delete process.env['TZ'];
  else process.env['TZ'] = originalTz;
});

const at = (iso: string) => new Date(iso);
const span = (p: { from: Date; to: Date }) => [p.from.toISOString(), p.to.toISOString()];

describe('period presets in the local time zone', () => {
  const now = at('2025-03-31T10:15:30.250+02:00');

  it('the last hour ends now to the millisecond', () => {
    expect(span(presetPeriod('lastHour', now))).toEqual(['2025-03-31T07:15:30.250Z', '2025-03-31T08:15:30.250Z']);
  });

  it('today starts at local midnight', () => {
    expect(span(presetPeriod('today', now))).toEqual(['2025-03-30T22:00:00.000Z', '2025-03-31T08:15:30.250Z']);
  });

  it('yesterday is the whole local day before, 23 hours on the day the clocks went forward', () => {
    // 2025-03-30 00:00 was still winter time (+01:00); 2025-03-31 00:00 is summer time (+02:00).
    expect(span(presetPeriod('yesterday', now))).toEqual(['2025-03-29T23:00:00.000Z', '2025-03-30T22:00:00.000Z']);
  });

  it('the last 7 days keep the wall-clock time across the change', () => {
    expect(span(presetPeriod('last7Days', now))).toEqual(['2025-03-24T09:15:30.250Z', '2025-03-31T08:15:30.250Z']);
  });

  it('a quick pick fills From and To to the minute', () => {
    expect(presetChoice('yesterday', now)).toEqual({ preset: 'yesterday', from: '2025-03-30T00:00', to: '2025-03-31T00:00' });
  });
});

describe('datetime-local values', () => {
  it('round-trip in local time', () => {
    const date = at('2025-07-01T06:05:00+02:00');
    expect(toInputValue(date)).toBe('2025-07-01T06:05');
    expect(fromInputValue('2025-07-01T06:05')?.toISOString()).toBe('2025-07-01T04:05:00.000Z');
    expect(fromInputValue('2025-07-01T06:05:09.5')?.toISOString()).toBe('2025-07-01T04:05:09.500Z');
  });

  it('name no instant when empty, malformed or on a day that does not exist', () => {
    expect(fromInputValue('')).toBeNull();
    expect(fromInputValue('yesterday')).toBeNull();
    expect(fromInputValue('2025-02-30T10:00')).toBeNull();
  });
});

describe('the period query, checked with the API schema', () => {
  const now = at('2025-06-10T12:00:00+02:00');

  it('sends a custom period as ISO instants', () => {
    expect(periodQuery({ preset: 'custom', from: '2025-06-01T08:00', to: '2025-06-01T17:30' }, now)).toEqual({
      query: { from: '2025-06-01T06:00:00.000Z', to: '2025-06-01T15:30:00.000Z' },
    });
  });

  it('takes a quick pick at the moment of loading, not from the fields', () => {
    expect(periodQuery({ preset: 'lastHour', from: '2020-01-01T00:00', to: '2020-01-01T00:01' }, now)).toEqual({
      query: { from: '2025-06-10T09:00:00.000Z', to: '2025-06-10T10:00:00.000Z' },
    });
  });

  it('answers with the message keys of the tracking module', () => {
    expect(periodQuery({ preset: 'custom', from: '2025-05-01T00:00', to: '2025-06-01T00:00' }, now)).toEqual({ errors: { to: 'HistoryPeriodTooLong' } });
    expect(periodQuery({ preset: 'custom', from: '2025-05-02T00:00', to: '2025-06-01T00:00' }, now)).toHaveProperty('query');
    expect(periodQuery({ preset: 'custom', from: '2025-06-01T10:00', to: '2025-06-01T10:00' }, now)).toEqual({ errors: { to: 'EndDateMustBeAfterStart' } });
    expect(periodQuery({ preset: 'custom', from: '', to: '2025-06-01T10:00' }, now)).toEqual({ errors: { from: 'InvalidDate' } });
  });
});

describe('the playback clock', () => {
  // Points 10 s apart, then an hour parked, then 10 s more.
  const times = [0, 10_000, 20_000, 3_620_000, 3_630_000];

  it('plays driving at the speed factor times real time', () => {
    expect(segmentWallMs(60_000, 10)).toBe(6_000);
    expect(segmentWallMs(60_000, 1)).toBe(60_000);
  });

  it('plays a stop in at most a second at any speed', () => {
    expect(segmentWallMs(3_600_000, 10)).toBe(STOP_WALL_MS);
    expect(segmentWallMs(3_600_000, 500)).toBe(STOP_WALL_MS);
    expect(segmentWallMs(11 * 60_000, 1_000)).toBe(660);
  });

  it('steps through the points as wall time passes', () => {
    const start = seek(times, 0);
    expect(advance(times, start, 500, 10)).toEqual({ index: 0, time: 5_000 });
    expect(advance(times, start, 1_000, 10)).toEqual({ index: 1, time: 10_000 });
    expect(advance(times, start, 1_500, 10)).toEqual({ index: 1, time: 15_000 });
    // Twice the speed, twice as far.
    expect(advance(times, start, 500, 20)).toEqual({ index: 1, time: 10_000 });
  });

  it('crosses a stop in its shortened wall time', () => {
    const atStop = advance(times, seek(times, 0), 2_000, 10);
    expect(atStop).toEqual({ index: 2, time: 20_000 });
    expect(advance(times, atStop, STOP_WALL_MS / 2, 10)).toEqual({ index: 2, time: 20_000 + 1_800_000 });
    expect(advance(times, atStop, STOP_WALL_MS, 10)).toEqual({ index: 3, time: 3_620_000 });
  });

  it('stops at the end of the route', () => {
    const end = advance(times, seek(times, 0), 60_000, 10);
    expect(end).toEqual({ index: 4, time: 3_630_000 });
    expect(isAtEnd(times, end)).toBe(true);
    expect(isAtEnd(times, seek(times, 3))).toBe(false);
  });

  it('scrubs to a point, clamped to the route', () => {
    expect(seek(times, 2)).toEqual({ index: 2, time: 20_000 });
    expect(seek(times, -3)).toEqual({ index: 0, time: 0 });
    expect(seek(times, 99)).toEqual({ index: 4, time: 3_630_000 });
  });
});

const position = (ts: string, lat: number, lon: number, speed: number | null, heading: number | null): Position => ({
  ts,
  lat,
  lon,
  speed,
  heading,
  ignition: true,
});

const route: Position[] = [
  position('2025-06-10T10:00:00.000Z', 59.3, 18.0, 30, 90),
  position('2025-06-10T10:00:10.000Z', 59.4, 18.2, 50, 45),
  position('2025-06-10T10:00:20.000Z', 59.2, 18.1, null, null),
];
const routeTimes = route.map((p) => Date.parse(p.ts));

describe('the marker', () => {
  it('moves between the point reached and the next, with the reached point heading and speed', () => {
    const halfway = pointAt(route, routeTimes, { index: 0, time: routeTimes[0]! + 5_000 });
    expect(halfway?.lat).toBeCloseTo(59.35, 10);
    expect(halfway?.lon).toBeCloseTo(18.1, 10);
    expect(halfway).toMatchObject({ heading: 90, speed: 30, time: routeTimes[0]! + 5_000 });
  });

  it('stands on the last point at the end, and is absent without points', () => {
    expect(pointAt(route, routeTimes, seek(routeTimes, 2))).toEqual({ lat: 59.2, lon: 18.1, heading: null, speed: null, time: routeTimes[2] });
    expect(pointAt([], [], { index: 0, time: 0 })).toBeNull();
  });

  it('the map fits the bounds of the whole route', () => {
    expect(routeBounds(route)).toEqual([18.0, 59.2, 18.2, 59.4]);
    expect(routeBounds([])).toBeNull();
  });
});

describe('the playback state', () => {
  const now = at('2025-06-10T12:00:00+02:00');
  const IMEI = '356938031000007';
  const opened = (): PlaybackState => playbackReducer(openPlayback(IMEI, now), { type: 'loaded', times: routeTimes });

  it('opens on the last hour of the unit, asked for at once, and asks for nothing without a unit', () => {
    const state = openPlayback(IMEI, now);
    expect(state.choice.preset).toBe('lastHour');
    expect(state.request).toEqual({ from: '2025-06-10T09:00:00.000Z', to: '2025-06-10T10:00:00.000Z' });
    expect(openPlayback(null, now).request).toBeNull();
  });

  it('a new unit starts over but keeps the chosen speed', () => {
    let state = playbackReducer(opened(), { type: 'speed', speed: 50 });
    state = playbackReducer(state, { type: 'play', times: routeTimes });
    state = playbackReducer(state, { type: 'open', imei: '356938031000015', now });
    expect(state).toMatchObject({ imei: '356938031000015', playing: false, speed: 50, cursor: { index: 0, time: 0 } });
  });

  it('plays, pauses, and stops by itself at the end', () => {
    let state = playbackReducer(opened(), { type: 'play', times: routeTimes });
    expect(state.playing).toBe(true);
    state = playbackReducer(state, { type: 'tick', times: routeTimes, wallMs: 1_000 });
    expect(state.cursor).toEqual({ index: 1, time: routeTimes[1] });
    state = playbackReducer(state, { type: 'pause' });
    expect(playbackReducer(state, { type: 'tick', times: routeTimes, wallMs: 1_000 }).cursor).toEqual(state.cursor);
    state = playbackReducer(state, { type: 'play', times: routeTimes });
    state = playbackReducer(state, { type: 'tick', times: routeTimes, wallMs: 5_000 });
    expect(state).toMatchObject({ playing: false, cursor: { index: 2, time: routeTimes[2] } });
  });

  it('play at the end starts over; one point gives nothing to play', () => {
    const atEnd = playbackReducer(opened(), { type: 'seek', times: routeTimes, index: 2 });
    expect(playbackReducer(atEnd, { type: 'play', times: routeTimes })).toMatchObject({ playing: true, cursor: { index: 0, time: routeTimes[0] } });
    const single = [routeTimes[0]!];
    expect(playbackReducer(playbackReducer(opened(), { type: 'loaded', times: single }), { type: 'play', times: single }).playing).toBe(false);
  });

  it('speed changes how far a tick goes', () => {
    let state = playbackReducer(opened(), { type: 'speed', speed: 5 });
    state = playbackReducer(state, { type: 'play', times: routeTimes });
    state = playbackReducer(state, { type: 'tick', times: routeTimes, wallMs: 1_000 });
    expect(state.cursor).toEqual({ index: 0, time: routeTimes[0]! + 5_000 });
  });

  it('scrubbing while playing goes on from the new point', () => {
    let state = playbackReducer(opened(), { type: 'play', times: routeTimes });
    state = playbackReducer(state, { type: 'seek', times: routeTimes, index: 1 });
    state = playbackReducer(state, { type: 'tick', times: routeTimes, wallMs: 500 });
    expect(state).toMatchObject({ playing: true, cursor: { index: 1, time: routeTimes[1]! + 5_000 } });
  });

  it('typing a date makes the period custom and clears that field only', () => {
    let state = playbackReducer(opened(), { type: 'edit', field: 'from', value: '' });
    state = playbackReducer(state, { type: 'edit', field: 'to', value: '' });
    const request = state.request;
    state = playbackReducer(state, { type: 'load', now });
    expect(state.errors).toEqual({ from: 'InvalidDate', to: 'InvalidDate' });
    // A rejected period keeps the route that is shown.
    expect(state.request).toBe(request);
    state = playbackReducer(state, { type: 'edit', field: 'from', value: '2025-06-09T08:00' });
    expect(state.choice).toEqual({ preset: 'custom', from: '2025-06-09T08:00', to: '' });
    expect(state.errors).toEqual({ to: 'InvalidDate' });
    state = playbackReducer(state, { type: 'edit', field: 'to', value: '2025-06-09T18:00' });
    state = playbackReducer(state, { type: 'load', now });
    expect(state).toMatchObject({ errors: {}, request: { from: '2025-06-09T06:00:00.000Z', to: '2025-06-09T16:00:00.000Z' } });
  });

  it('a quick pick loads the period at the moment of loading and shows it', () => {
    let state = playbackReducer(opened(), { type: 'preset', preset: 'today', now });
    const later = at('2025-06-10T15:30:00+02:00');
    state = playbackReducer(state, { type: 'load', now: later });
    expect(state.request).toEqual({ from: '2025-06-09T22:00:00.000Z', to: '2025-06-10T13:30:00.000Z' });
    expect(state.choice).toEqual({ preset: 'today', from: '2025-06-10T00:00', to: '2025-06-10T15:30' });
    // Custom keeps the dates on show, ready to be changed.
    expect(playbackReducer(state, { type: 'preset', preset: 'custom', now }).choice).toEqual({ ...state.choice, preset: 'custom' });
  });
});

describe('playback opened from a link', () => {
  const IMEI = '356307042441013';
  const now = at('2026-05-04T12:00:00+02:00');

  it('asks for the linked period exactly and shows it to the minute around it', () => {
    const state = openPlayback(IMEI, now, 10, { from: '2026-05-04T08:03:27.250Z', to: '2026-05-04T08:41:05.000Z' });
    expect(state.request).toEqual({ from: '2026-05-04T08:03:27.250Z', to: '2026-05-04T08:41:05.000Z' });
    expect(state.choice).toEqual({ preset: 'custom', from: '2026-05-04T10:03', to: '2026-05-04T10:42' });
    expect(state.errors).toEqual({});
    // A whole minute stays as it is.
    expect(openPlayback(IMEI, now, 10, { from: '2026-05-04T08:03:00Z', to: '2026-05-04T08:41:00Z' }).choice.to).toBe('2026-05-04T10:41');
  });

  it('opens the form with the reasons for a period the API would refuse', () => {
    const tooLong = openPlayback(IMEI, now, 10, { from: '2026-03-01T00:00:00Z', to: '2026-05-04T00:00:00Z' });
    expect(tooLong).toMatchObject({ request: null, errors: { to: 'HistoryPeriodTooLong' }, choice: { preset: 'custom', from: '2026-03-01T01:00' } });
    const garbled = openPlayback(IMEI, now, 10, { from: 'soon', to: null });
    expect(garbled).toMatchObject({ request: null, errors: { from: 'InvalidDate', to: 'InvalidDate' }, choice: { from: '', to: '' } });
  });

  it('opens the last hour for a link without a period, and through the reducer keeps the speed', () => {
    expect(openPlayback(IMEI, now, 10, { from: null, to: null }).choice.preset).toBe('lastHour');
    const state = playbackReducer(
      { ...openPlayback(null, now), speed: 50 },
      { type: 'open', imei: IMEI, now, linked: { from: '2026-05-04T08:00:00Z', to: '2026-05-04T09:00:00Z' } },
    );
    expect(state).toMatchObject({ imei: IMEI, speed: 50, request: { from: '2026-05-04T08:00:00Z', to: '2026-05-04T09:00:00Z' } });
  });
});
