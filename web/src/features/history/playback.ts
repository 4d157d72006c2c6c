/**
 * History playback as pure functions: the period the user picks (in the browser's time zone, which
 * is the zone of the Date methods used here) and a playback clock that walks a unit's positions.
 *
 * Speed is relative to real time between points: at 10× a minute of the recorded route plays in
 * six seconds, so the marker moves as the vehicle did, slowing in traffic and waiting at lights.
 * Points per second would make a tracker that reports every 5 s look twice as fast as one that
 * reports every 10 s. A long silence is a stop (trackers report at least every 5 minutes while
 * moving, hourly or daily when parked, spec section 9), and waiting for it in real time would stall
 * playback for minutes, so any gap over STOP_GAP_MS plays in at most STOP_WALL_MS.
 */
import { positionsQuerySchema, type Position } from '../../../../shared/schemas/tracking';

// ---------------------------------------------------------------------------------------------
// The period

export const periodPresets = ['lastHour', 'today', 'yesterday', 'last7Days', 'custom'] as const;
export type PeriodPreset = (typeof periodPresets)[number];
export type QuickPreset = Exclude<PeriodPreset, 'custom'>;

export interface Period {
  from: Date;
  to: Date;
}

/** What the period form holds: the chosen preset and the two `datetime-local` input values. */
export interface PeriodChoice {
  preset: PeriodPreset;
  from: string;
  to: string;
}

/** The GET positions query: ISO date-times. */
export interface PositionsQuery {
  from: string;
  to: string;
}

/** Message keys per field, from the browser's check or the server's 422. */
export type PeriodErrors = Partial<Record<keyof PositionsQuery, string>>;

function startOfDay(date: Date): Date {
  const d = new Date(date);
  d.setHours(0, 0, 0, 0);
  return d;
}

function daysBefore(date: Date, days: number): Date {
  const d = new Date(date);
  // Calendar days, so that a daylight-saving change inside the span keeps the wall-clock time.
  d.setDate(d.getDate() - days);
  return d;
}

/** The period a quick pick stands for at `now`. */
export function presetPeriod(preset: QuickPreset, now: Date): Period {
  switch (preset) {
    case 'lastHour':
      return { from: new Date(now.getTime() - 3_600_000), to: new Date(now) };
    case 'today':
      return { from: startOfDay(now), to: new Date(now) };
    case 'yesterday':
      return { from: daysBefore(startOfDay(now), 1), to: startOfDay(now) };
    case 'last7Days':
      return { from: daysBefore(now, 7), to: new Date(now) };
  }
}

const pad = (n: number) => String(n).padStart(2, '0');

/** A `datetime-local` input value (local time, minutes). */
export function toInputValue(date: Date): string {
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

const INPUT_VALUE = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3}))?)?$/;

/** The instant a `datetime-local` value names in local time, or null when it names none. */
export function fromInputValue(value: string): Date | null {
  const m = INPUT_VALUE.exec(value.trim());
  if (!m) return null;
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map((part) => Number(part ?? 0)) as [number, number, number, number, number, number];
  const date = new Date(year, month - 1, day, hour, minute, second, Number((m[7] ?? '0').padEnd(3, '0')));
  // Date rolls 2025-02-30 over into March; such a value names no day.
  if (date.getFullYear() !== year || date.getMonth() !== month - 1 || date.getDate() !== day) return null;
  return date;
}

/** The form's fields for a quick pick at `now`. */
export function presetChoice(preset: QuickPreset, now: Date): PeriodChoice {
  const period = presetPeriod(preset, now);
  return { preset, from: toInputValue(period.from), to: toInputValue(period.to) };
}

/**
 * The query for a choice, checked with the API's own schema: a quick pick is taken at `now` to the
 * millisecond (its fields show it to the minute), a custom period as typed.
 */
export function periodQuery(choice: PeriodChoice, now: Date): { query: PositionsQuery } | { errors: PeriodErrors } {
  let from: string;
  let to: string;
  if (choice.preset === 'custom') {
    // What does not parse goes to the schema as typed, which answers InvalidDate for it.
    from = fromInputValue(choice.from)?.toISOString() ?? choice.from;
    to = fromInputValue(choice.to)?.toISOString() ?? choice.to;
  } else {
    const period = presetPeriod(choice.preset, now);
    from = period.from.toISOString();
    to = period.to.toISOString();
  }
  return checkedQuery(from, to);
}

/** The query checked with the API's own schema, or the first message key on each field. */
function checkedQuery(from: string, to: string): { query: PositionsQuery } | { errors: PeriodErrors } {
  const parsed = positionsQuerySchema.safeParse({ from, to });
  if (parsed.success) return { query: parsed.data };
  const errors: PeriodErrors = {};
  for (const issue of parsed.error.issues) {
    const field = issue.path[0];
    if ((field === 'from' || field === 'to') && !errors[field]) errors[field] = issue.message;
  }
  return { errors };
}

/** A period a link names (history-url.ts): the instants as written, null where the link has none. */
export interface LinkedPeriod {
  from: string | null;
  to: string | null;
}

/** A `datetime-local` value for an instant, to the minute: rounded down, or up to include the instant. */
function minuteInputValue(instant: string | null, round: 'down' | 'up'): string {
  const ms = instant === null ? NaN : Date.parse(instant);
  if (!Number.isFinite(ms)) return '';
  const date = new Date(ms);
  if (round === 'up' && (date.getSeconds() > 0 || date.getMilliseconds() > 0)) date.setSeconds(60, 0);
  return toInputValue(date);
}

/**
 * The form's fields and query for a linked period: a custom period shown to the minute around it
 * (a trip from 10:03:27 to 10:41:05 shows 10:03 to 10:42), asked for exactly as linked.
 */
export function linkedPeriodQuery(linked: LinkedPeriod): { choice: PeriodChoice } & ({ query: PositionsQuery } | { errors: PeriodErrors }) {
  const choice: PeriodChoice = { preset: 'custom', from: minuteInputValue(linked.from, 'down'), to: minuteInputValue(linked.to, 'up') };
  return { choice, ...checkedQuery(linked.from ?? '', linked.to ?? '') };
}

// ---------------------------------------------------------------------------------------------
// The playback clock

export const SPEED_FACTORS = [1, 5, 10, 50, 100, 500] as const;
export type SpeedFactor = (typeof SPEED_FACTORS)[number];
export const DEFAULT_SPEED: SpeedFactor = 10;

/** A silence longer than this between two points is a stop, not driving. */
export const STOP_GAP_MS = 10 * 60_000;
/** The longest a stop takes to play, at any speed. */
export const STOP_WALL_MS = 1_000;

/** Where playback stands: the point reached and the clock (epoch ms), which lies between it and the next. */
export interface Cursor {
  index: number;
  time: number;
}

/** Wall-clock milliseconds that one segment of `durationMs` recorded time takes to play. */
export function segmentWallMs(durationMs: number, speed: number): number {
  const real = durationMs / speed;
  return durationMs > STOP_GAP_MS ? Math.min(real, STOP_WALL_MS) : real;
}

/** The cursor after `wallMs` of playback; it stops at the last point. */
export function advance(times: readonly number[], from: Cursor, wallMs: number, speed: number): Cursor {
  let { index, time } = from;
  let left = wallMs;
  while (index < times.length - 1 && left > 0) {
    const start = times[index] as number;
    const end = times[index + 1] as number;
    const duration = end - start;
    const wall = segmentWallMs(duration, speed);
    const remaining = duration > 0 ? wall * (1 - (time - start) / duration) : 0;
    if (left < remaining) {
      time += (left / wall) * duration;
      left = 0;
    } else {
      left -= remaining;
      index += 1;
      time = end;
    }
  }
  return { index, time };
}

export const isAtEnd = (times: readonly number[], cursor: Cursor): boolean => cursor.index >= times.length - 1;

/** The cursor at point `index`, clamped to the route. */
export function seek(times: readonly number[], index: number): Cursor {
  if (times.length === 0) return { index: 0, time: 0 };
  const i = Math.min(Math.max(Math.round(index), 0), times.length - 1);
  return { index: i, time: times[i] as number };
}

/** Where the marker is drawn: between the point reached and the next, in proportion to the clock. */
export interface PlaybackPoint {
  lat: number;
  lon: number;
  /** Degrees clockwise from north as the tracker reported it at the point reached; null when it did not. */
  heading: number | null;
  /** km/h at the point reached. */
  speed: number | null;
  /** The playback clock, epoch ms. */
  time: number;
}

export function pointAt(positions: readonly Position[], times: readonly number[], cursor: Cursor): PlaybackPoint | null {
  const a = positions[cursor.index];
  if (!a) return null;
  const b = positions[cursor.index + 1];
  const start = times[cursor.index] as number;
  const end = times[cursor.index + 1];
  const f = b && end !== undefined && end > start ? Math.min(Math.max((cursor.time - start) / (end - start), 0), 1) : 0;
  return {
    lat: b ? a.lat + (b.lat - a.lat) * f : a.lat,
    lon: b ? a.lon + (b.lon - a.lon) * f : a.lon,
    heading: a.heading,
    speed: a.speed,
    time: cursor.time,
  };
}

/** [west, south, east, north] of the route, or null without points. */
export function routeBounds(positions: readonly Position[]): [number, number, number, number] | null {
  if (positions.length === 0) return null;
  let west = Infinity;
  let south = Infinity;
  let east = -Infinity;
  let north = -Infinity;
  for (const p of positions) {
    west = Math.min(west, p.lon);
    east = Math.max(east, p.lon);
    south = Math.min(south, p.lat);
    north = Math.max(north, p.lat);
  }
  return [west, south, east, north];
}

// ---------------------------------------------------------------------------------------------
// The whole playback state, one reducer (useHistoryPlayback drives it)

export interface PlaybackState {
  imei: string | null;
  choice: PeriodChoice;
  /** The browser's own check of the period; the server's 422 comes with the query instead. */
  errors: PeriodErrors;
  /** The period asked for, null before the first load. */
  request: PositionsQuery | null;
  cursor: Cursor;
  playing: boolean;
  speed: SpeedFactor;
}

export type PlaybackAction =
  | { type: 'open'; imei: string | null; now: Date; linked?: LinkedPeriod | null }
  | { type: 'preset'; preset: PeriodPreset; now: Date }
  | { type: 'edit'; field: keyof PositionsQuery; value: string }
  | { type: 'load'; now: Date }
  /** New positions arrived: back to the start. */
  | { type: 'loaded'; times: readonly number[] }
  | { type: 'play'; times: readonly number[] }
  | { type: 'pause' }
  | { type: 'tick'; times: readonly number[]; wallMs: number }
  | { type: 'seek'; times: readonly number[]; index: number }
  | { type: 'speed'; speed: SpeedFactor };

/**
 * Playback of a unit opened at `now`: the last hour, asked for at once (the issue: "replays its last
 * hour"); opened from a link with a period, that period, asked for at once when the API would take
 * it and otherwise shown in the form with the reasons.
 */
export function openPlayback(imei: string | null, now: Date, speed: SpeedFactor = DEFAULT_SPEED, linked?: LinkedPeriod | null): PlaybackState {
  let choice: PeriodChoice;
  let result: { query: PositionsQuery } | { errors: PeriodErrors };
  if (linked && (linked.from !== null || linked.to !== null)) {
    const opened = linkedPeriodQuery(linked);
    choice = opened.choice;
    result = 'query' in opened ? { query: opened.query } : { errors: opened.errors };
  } else {
    choice = presetChoice('lastHour', now);
    result = periodQuery(choice, now);
  }
  return {
    imei,
    choice,
    errors: imei && 'errors' in result ? result.errors : {},
    request: imei && 'query' in result ? result.query : null,
    cursor: { index: 0, time: 0 },
    playing: false,
    speed,
  };
}

export function playbackReducer(state: PlaybackState, action: PlaybackAction): PlaybackState {
  switch (action.type) {
    case 'open':
      return openPlayback(action.imei, action.now, state.speed, action.linked);
    case 'preset':
      // Custom keeps the dates shown, ready to be changed.
      return action.preset === 'custom'
        ? { ...state, choice: { ...state.choice, preset: 'custom' } }
        : { ...state, choice: presetChoice(action.preset, action.now), errors: {} };
    case 'edit': {
      const { [action.field]: _cleared, ...errors } = state.errors;
      return { ...state, choice: { ...state.choice, preset: 'custom', [action.field]: action.value }, errors };
    }
    case 'load': {
      const result = periodQuery(state.choice, action.now);
      if ('errors' in result) return { ...state, errors: result.errors };
      // A quick pick shows the period it was taken at.
      const choice = state.choice.preset === 'custom' ? state.choice : presetChoice(state.choice.preset, action.now);
      return { ...state, choice, errors: {}, request: result.query, playing: false };
    }
    case 'loaded':
      return { ...state, cursor: seek(action.times, 0), playing: false };
    case 'play': {
      if (action.times.length < 2) return state;
      // Play at the end starts over.
      const cursor = isAtEnd(action.times, state.cursor) ? seek(action.times, 0) : state.cursor;
      return { ...state, cursor, playing: true };
    }
    case 'pause':
      return state.playing ? { ...state, playing: false } : state;
    case 'tick': {
      if (!state.playing) return state;
      const cursor = advance(action.times, state.cursor, action.wallMs, state.speed);
      return { ...state, cursor, playing: !isAtEnd(action.times, cursor) };
    }
    case 'seek':
      return { ...state, cursor: seek(action.times, action.index) };
    case 'speed':
      return { ...state, speed: action.speed };
  }
}
