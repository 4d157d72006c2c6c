/**
 * Trip detection for the driving journal (körjournal): a pure, deterministic state machine over a
 * unit's positions. The state it carries between batches is small and JSON-serialisable (it is
 * stored on the unit's item), and the machine is a left fold over the positions in time order, so
 * any split of a sequence into batches gives exactly the trips of one call with all of them.
 *
 * Two stages per position:
 *
 * 1. Location filter. A fix implying a speed above `maxPlausibleSpeedKmh` from the last good one
 *    (less a tolerance) is a GPS jump. A single fix that goes out and comes straight back (both
 *    legs over 100 m, the path through it more than twice the path past it) is a spike. Judging a
 *    spike needs the next fix, so the newest position waits in the state (`pending`) until the
 *    next one comes. A jump or spike keeps its time, ignition and odometer, but takes the last
 *    good coordinates and gives no movement and no distance (Traccar's `filter.maxSpeed` plus
 *    `coordinates.filter`).
 *
 * 2. Trip machine, on the filtered positions:
 *    - Distance: a counter of metres driven, advanced from an anchor point to a position when the
 *      position reports a moving speed or is beyond the jitter radius from the anchor (which then
 *      moves there). Jitter around a parked car never moves the anchor, so it adds nothing; slow
 *      crawling adds up once it leaves the radius, so no distance is lost.
 *    - Basis: ignition once the unit has reported ignition (sticky; a position without it keeps
 *      the last known value), movement otherwise.
 *    - Ignition basis: ignition on opens a trip at that position. Ignition off marks the stop
 *      candidate; ignition back on within time-till-parked cancels it (red light, fuel stop), the
 *      first position at least time-till-parked after it closes the trip there.
 *      Why the trip starts at ignition on rather than at the first movement: the tracker sends
 *      that record as an event when the key turns, at the spot where the car stood, so the start
 *      address is the parking place, the start time is when the journey began, and the start
 *      odometer equals the previous trip's stop odometer: the unbroken odometer chain a
 *      Skatteverket audit of a körjournal looks for. Warming up in the yard counts as trip time;
 *      ignition on without driving gives a trip under the minimum distance, which is dropped.
 *    - Movement basis: a movement flag, a speed of at least `movingSpeedKmh` or a displacement
 *      beyond the jitter radius opens a trip. It starts at the last parked position when that is
 *      less than time-till-parked older (where the car stood just before it moved; the first
 *      moving fix is already tens of metres down the road), else at the moving position. The last
 *      moving position is the stop candidate; the first position at least time-till-parked after
 *      it without movement closes the trip there.
 *    - Silence (no position for at least time-till-parked while a trip is open): with ignition
 *      seen off before it, the trip ends at the ignition off. Otherwise the trip goes on through
 *      the silence only when the next position shows the unit still active (ignition on, or its
 *      own movement flag or speed) and the unit covered the straight line across the silence at
 *      `movingSpeedKmh` or more on average (a tunnel, lost coverage). Anything else ends the trip
 *      at the last active position before the silence: the next position shows it parked, or it
 *      went nowhere in that time (an underground garage, where the fixes of its parking were
 *      lost); a unit found active again opens a new trip there. Distance across a silence that
 *      no trip covers still advances the counter, so the next trip's start counter shows the gap.
 *    - A trip shorter than `minTripDurationMs` or `minTripDistanceM` is dropped; the counter has
 *      advanced anyway.
 */
import { z } from 'zod';
import { distanceM } from '../../shared/geo';
import type { Position } from '../ingest/types';

export type DetectorPosition = Pick<Position, 'ts' | 'lat' | 'lon' | 'fix' | 'speed' | 'ignition' | 'movement' | 'odometer'>;

export interface TripSettings {
  /** A stop at least this long (no movement, or ignition off) ends a trip. Default 180_000 (3 min). */
  timeTillParkedMs: number;
  /** Shorter trips are not trips (GPS jitter while parked, moving the car in the yard). */
  minTripDistanceM: number;
  minTripDurationMs: number;
  /** Above this a position counts as moving (when the tracker reports no ignition/movement). */
  movingSpeedKmh: number;
  /** A fix implying a faster jump from the previous accepted one is a GPS jump: ignored for distance and movement. */
  maxPlausibleSpeedKmh: number;
  /**
   * Fixes of a standing unit wander this far (two fixes 80 m off either side of the true spot are
   * 160 m apart): a displacement beyond it is movement. Default 200 m.
   */
  jitterRadiusM?: number | undefined;
}

export const DEFAULT_TRIP_SETTINGS: TripSettings = Object.freeze({
  timeTillParkedMs: 180_000,
  // Moving the car in the yard or to the next parking space is not a journey; a drive to the
  // shop round the corner (300 m) is.
  minTripDistanceM: 200,
  minTripDurationMs: 60_000,
  // Teltonika's trip start speed and the GNSS movement source use 5 km/h; a parked car's GNSS
  // speed stays below it (0-4 km/h).
  movingSpeedKmh: 5,
  // No vehicle in a fleet goes faster; a fix implying more is a jump. The ingest filter's 350 km/h
  // (Teltonika's top speed) already dropped the wildest ones.
  maxPlausibleSpeedKmh: 250,
  jitterRadiusM: 200,
});

const DEFAULT_JITTER_RADIUS_M = 200;
/** Fix noise allowed before a jump counts, so that 1 Hz jitter does not read as speed (as the ingest filter). */
const JUMP_TOLERANCE_M = 100;
/** Both legs of a spike are longer than this. */
const SPIKE_MIN_LEG_M = 100;
/**
 * A fix is a spike when going through it is this many times longer than going past it: the path
 * turns back by more than 120 degrees there. Real turns that sharp come with fixes close together
 * (trackers report on a heading change), so both legs are rarely over SPIKE_MIN_LEG_M.
 */
const SPIKE_DETOUR = 2;
/** A tracker odometer may run ahead of the GPS distance, but not faster than the plausible speed plus this. */
const ODOMETER_SLACK_M = 1_000;

/** The unit's settings: timeTillParkedMinutes from the unit item when set (1..1440), else defaults. */
export function tripSettingsOf(unit: { timeTillParkedMinutes?: number | undefined }): TripSettings {
  const minutes = unit.timeTillParkedMinutes;
  if (minutes === undefined || !Number.isInteger(minutes) || minutes < 1 || minutes > 1440) return DEFAULT_TRIP_SETTINGS;
  return { ...DEFAULT_TRIP_SETTINGS, timeTillParkedMs: minutes * 60_000 };
}

// ---------------------------------------------------------------------------------------------
// State

/** A point of the track where a trip may start or stop, with the counters there. */
export interface TrackPoint {
  ts: number;
  lat: number;
  lon: number;
  /** The computed distance counter at this point, metres (not rounded). */
  counterM: number;
  /** The tracker odometer at this point, metres, when known. */
  odometerM: number | null;
}

/** The newest position, waiting for the next one to tell whether it is a spike. */
export interface PendingPosition {
  ts: number;
  lat: number;
  lon: number;
  speed: number | null;
  ignition: boolean | null;
  movement: boolean | null;
  odometerM: number | null;
}

/** Small and JSON-serialisable (it is stored on the unit's DynamoDB item after every batch): no arrays that grow with the trip. */
export interface DetectorState {
  v: 1;
  /** The newest position time taken in, epoch ms; older or equal positions are ignored. */
  lastTs: number | null;
  basis: 'ignition' | 'movement';
  /** Last known ignition. */
  ignition: boolean | null;
  /** Computed cumulative distance, metres. */
  counterM: number;
  /** The last tracker odometer reading and the computed counter when it came: it holds for later points while the counter has not moved. */
  odometer: { m: number; atCounterM: number } | null;
  /** The last good fix: reference of the jump and spike checks, coordinates of a filtered one. */
  ref: { ts: number; lat: number; lon: number } | null;
  /** The last position through the filter (good or not): silence is measured from it; a trip may start there. */
  prev: TrackPoint | null;
  /** Where the distance counter last advanced to. */
  anchor: { ts: number; lat: number; lon: number } | null;
  pending: PendingPosition | null;
  trip: {
    start: TrackPoint;
    /** The last active position (ignition on, or moving). */
    last: TrackPoint;
    /** Ignition basis: the first ignition-off position after `last`, the stop candidate. */
    off: TrackPoint | null;
    maxSpeedKmh: number;
    /**
     * Time in motion and time standing with the ignition on, ms, since the start: up to the newest
     * position (`movingMs`, `idleMs`), and as they stood at `last` and at `off`, where the trip
     * may stop. Absent in states stored before they were kept: counted from then on.
     */
    movingMs?: number;
    idleMs?: number;
    lastMovingMs?: number;
    lastIdleMs?: number;
    offMovingMs?: number;
    offIdleMs?: number;
  } | null;
}

const num = z.number();
const nullableNum = num.nullable();
const timedPointSchema = z.object({ ts: num, lat: num, lon: num });
const trackPointSchema = z.object({ ts: num, lat: num, lon: num, counterM: num, odometerM: nullableNum });
const detectorStateSchema = z.object({
  v: z.literal(1),
  lastTs: nullableNum,
  basis: z.enum(['ignition', 'movement']),
  ignition: z.boolean().nullable(),
  counterM: num,
  odometer: z.object({ m: num, atCounterM: num }).nullable(),
  ref: timedPointSchema.nullable(),
  prev: trackPointSchema.nullable(),
  anchor: timedPointSchema.nullable(),
  pending: z
    .object({
      ts: num,
      lat: num,
      lon: num,
      speed: nullableNum,
      ignition: z.boolean().nullable(),
      movement: z.boolean().nullable(),
      odometerM: nullableNum,
    })
    .nullable(),
  trip: z
    .object({
      start: trackPointSchema,
      last: trackPointSchema,
      off: trackPointSchema.nullable(),
      maxSpeedKmh: num,
      movingMs: num.optional(),
      idleMs: num.optional(),
      lastMovingMs: num.optional(),
      lastIdleMs: num.optional(),
      offMovingMs: num.optional(),
      offIdleMs: num.optional(),
    })
    .nullable(),
}) satisfies z.ZodType<DetectorState>;

export function initialDetectorState(): DetectorState {
  return { v: 1, lastTs: null, basis: 'movement', ignition: null, counterM: 0, odometer: null, ref: null, prev: null, anchor: null, pending: null, trip: null };
}

// The state as stored on the unit item: packed into lists (`v` 2), so that the points' attribute
// names are not stored over and over. DynamoDB bills every write of the units item, once per
// position's transition, by the whole item's size in 1 KB units, and counts each attribute name
// in it: packed, the demo fleet's trip state takes 315 bytes instead of 565, which keeps its units
// items under 1 KB (npm run cost). States stored as objects (`v` 1) are still read.

/** ts, lat, lon. */
type PackedTimed = [number, number, number];
/** ts, lat, lon, counterM, odometerM. */
type PackedTrack = [number, number, number, number, number | null];
/** ts, lat, lon, speed, ignition, movement, odometerM. */
type PackedPending = [number, number, number, number | null, boolean | null, boolean | null, number | null];
/** start, last, off, maxSpeedKmh, then movingMs, idleMs, lastMovingMs, lastIdleMs, offMovingMs, offIdleMs (null: not kept). */
type PackedTrip = [PackedTrack, PackedTrack, PackedTrack | null, number, ...Array<number | null>];

export interface PackedDetectorState {
  v: 2;
  /** lastTs, basis is ignition, ignition, counterM. */
  s: [number | null, boolean, boolean | null, number];
  /** The odometer: m, atCounterM. */
  o?: [number, number];
  r?: PackedTimed;
  p?: PackedTrack;
  a?: PackedTimed;
  q?: PackedPending;
  t?: PackedTrip;
}

const TRIP_TIMES = ['movingMs', 'idleMs', 'lastMovingMs', 'lastIdleMs', 'offMovingMs', 'offIdleMs'] as const;

const packTrack = (p: TrackPoint): PackedTrack => [p.ts, p.lat, p.lon, p.counterM, p.odometerM];
const unpackTrack = ([ts, lat, lon, counterM, odometerM]: PackedTrack): TrackPoint => ({ ts, lat, lon, counterM, odometerM });
const packTimed = (p: { ts: number; lat: number; lon: number }): PackedTimed => [p.ts, p.lat, p.lon];
const unpackTimed = ([ts, lat, lon]: PackedTimed) => ({ ts, lat, lon });

/** The state as the unit item keeps it (parseDetectorState reads it back as it was). */
export function packDetectorState(state: DetectorState): PackedDetectorState {
  const { trip, pending: q } = state;
  return {
    v: 2,
    s: [state.lastTs, state.basis === 'ignition', state.ignition, state.counterM],
    ...(state.odometer ? { o: [state.odometer.m, state.odometer.atCounterM] as [number, number] } : {}),
    ...(state.ref ? { r: packTimed(state.ref) } : {}),
    ...(state.prev ? { p: packTrack(state.prev) } : {}),
    ...(state.anchor ? { a: packTimed(state.anchor) } : {}),
    ...(q ? { q: [q.ts, q.lat, q.lon, q.speed, q.ignition, q.movement, q.odometerM] as PackedPending } : {}),
    ...(trip
      ? { t: [packTrack(trip.start), packTrack(trip.last), trip.off ? packTrack(trip.off) : null, trip.maxSpeedKmh, ...TRIP_TIMES.map((k) => trip[k] ?? null)] as PackedTrip }
      : {}),
  };
}

const orNull = <T extends z.ZodType>(schema: T) => schema.nullable();
const packedTrack = z.tuple([num, num, num, num, nullableNum]);
const packedTimed = z.tuple([num, num, num]);
const packedSchema = z.object({
  v: z.literal(2),
  s: z.tuple([nullableNum, z.boolean(), z.boolean().nullable(), num]),
  o: z.tuple([num, num]).optional(),
  r: packedTimed.optional(),
  p: packedTrack.optional(),
  a: packedTimed.optional(),
  q: z.tuple([num, num, num, nullableNum, z.boolean().nullable(), z.boolean().nullable(), nullableNum]).optional(),
  t: z.tuple([packedTrack, packedTrack, orNull(packedTrack), num], nullableNum).optional(),
});

function unpack(packed: z.infer<typeof packedSchema>): DetectorState {
  const [lastTs, ignitionBasis, ignition, counterM] = packed.s;
  const q = packed.q;
  const t = packed.t;
  let trip: DetectorState['trip'] = null;
  if (t) {
    const [start, last, off, maxSpeedKmh, ...times] = t;
    trip = { start: unpackTrack(start), last: unpackTrack(last), off: off ? unpackTrack(off) : null, maxSpeedKmh };
    TRIP_TIMES.forEach((key, i) => {
      const value = times[i];
      if (value !== undefined && value !== null) trip![key] = value;
    });
  }
  return {
    v: 1,
    lastTs,
    basis: ignitionBasis ? 'ignition' : 'movement',
    ignition,
    counterM,
    odometer: packed.o ? { m: packed.o[0], atCounterM: packed.o[1] } : null,
    ref: packed.r ? unpackTimed(packed.r) : null,
    prev: packed.p ? unpackTrack(packed.p) : null,
    anchor: packed.a ? unpackTimed(packed.a) : null,
    pending: q ? { ts: q[0], lat: q[1], lon: q[2], speed: q[3], ignition: q[4], movement: q[5], odometerM: q[6] } : null,
    trip,
  };
}

/** Parse stored state (unknown from DynamoDB, packed or as objects) with zod; undefined when absent or unreadable. */
export function parseDetectorState(stored: unknown): DetectorState | undefined {
  if (stored === undefined || stored === null) return undefined;
  const packed = packedSchema.safeParse(stored);
  if (packed.success) return unpack(packed.data);
  const parsed = detectorStateSchema.safeParse(stored);
  return parsed.success ? parsed.data : undefined;
}

// ---------------------------------------------------------------------------------------------
// Results

export interface DetectedTrip {
  startTs: number; stopTs: number;
  startLat: number; startLon: number; stopLat: number; stopLon: number;
  /** Metres driven: from the tracker's odometer when both ends have it, else the sum of filtered position distances. */
  distanceM: number;
  /** The unit's cumulative distance counter (metres) at start and stop: the tracker odometer when it reports one, else a computed counter carried in the state. Odometer entries made by users are applied later from these. */
  startCounterM: number; stopCounterM: number;
  counterSource: 'tracker' | 'computed';
  maxSpeedKmh: number;
  /**
   * Seconds in motion between start and stop, and seconds standing with the ignition on (idling);
   * a unit that reports no ignition has no idle time. Short silences count as what follows them.
   * Absent on a trip decided before they were kept (an effect stored by an earlier version).
   */
  movingS?: number;
  idleS?: number;
  /** Whether ignition decided start/stop (the unit reports ignition) or movement. */
  basis: 'ignition' | 'movement';
}
export interface OpenTrip {
  startTs: number;
  startLat: number;
  startLon: number;
  /** Metres up to the stop candidate (the last active position, or the ignition off). */
  distanceM: number;
  /** When the unit was last active (ignition off: when it went off): closeIfParked closes the trip from this plus time-till-parked on. */
  lastMovingTs: number;
}

// ---------------------------------------------------------------------------------------------
// The machine: the state in flat fields (NaN for an absent number) so that a position costs no
// allocation; built from the stored state once per call and written back once.

const UNKNOWN = -1;
const OFF = 0;
const ON = 1;
type Tri = typeof UNKNOWN | typeof OFF | typeof ON;

const triOf = (b: boolean | null | undefined): Tri => (b === true ? ON : b === false ? OFF : UNKNOWN);
const boolOf = (t: Tri): boolean | null => (t === ON ? true : t === OFF ? false : null);
const nanOf = (n: number | null): number => (n === null ? Number.NaN : n);
const nullOf = (n: number): number | null => (Number.isNaN(n) ? null : n);

class Machine {
  // settings
  readonly ttp: number;
  readonly minDist: number;
  readonly minDur: number;
  readonly vMove: number;
  /** metres per millisecond */
  readonly vMaxMs: number;
  readonly vMaxKmh: number;
  readonly jitter: number;

  lastTs: number;
  basisIgn: boolean;
  ign: Tri;
  counter: number;
  odo: number;
  odoAtCounter: number;

  hasRef: boolean;
  refTs: number;
  refLat: number;
  refLon: number;

  hasPrev: boolean;
  prevTs: number;
  prevLat: number;
  prevLon: number;
  prevCounter: number;
  prevOdo: number;

  hasAnchor: boolean;
  anchorTs: number;
  anchorLat: number;
  anchorLon: number;

  hasPend: boolean;
  pendTs: number;
  pendLat: number;
  pendLon: number;
  pendSpeed: number;
  pendIgn: Tri;
  pendMov: Tri;
  pendOdo: number;

  inTrip: boolean;
  startTs: number;
  startLat: number;
  startLon: number;
  startCounter: number;
  startOdo: number;
  lastActTs: number;
  lastActLat: number;
  lastActLon: number;
  lastActCounter: number;
  lastActOdo: number;
  hasOff: boolean;
  offTs: number;
  offLat: number;
  offLon: number;
  offCounter: number;
  offOdo: number;
  maxSpeed: number;
  moveMs: number;
  idleMs: number;
  lastMoveMs: number;
  lastIdleMs: number;
  offMoveMs: number;
  offIdleMs: number;

  readonly closed: DetectedTrip[] = [];

  constructor(s: DetectorState, settings: TripSettings) {
    this.ttp = settings.timeTillParkedMs;
    this.minDist = settings.minTripDistanceM;
    this.minDur = settings.minTripDurationMs;
    this.vMove = settings.movingSpeedKmh;
    this.vMaxKmh = settings.maxPlausibleSpeedKmh;
    this.vMaxMs = settings.maxPlausibleSpeedKmh / 3_600;
    this.jitter = settings.jitterRadiusM ?? DEFAULT_JITTER_RADIUS_M;

    this.lastTs = s.lastTs ?? Number.NEGATIVE_INFINITY;
    this.basisIgn = s.basis === 'ignition';
    this.ign = triOf(s.ignition);
    this.counter = s.counterM;
    this.odo = s.odometer ? s.odometer.m : Number.NaN;
    this.odoAtCounter = s.odometer ? s.odometer.atCounterM : Number.NaN;

    const ref = s.ref;
    this.hasRef = ref !== null;
    this.refTs = ref ? ref.ts : 0;
    this.refLat = ref ? ref.lat : 0;
    this.refLon = ref ? ref.lon : 0;

    const prev = s.prev;
    this.hasPrev = prev !== null;
    this.prevTs = prev ? prev.ts : 0;
    this.prevLat = prev ? prev.lat : 0;
    this.prevLon = prev ? prev.lon : 0;
    this.prevCounter = prev ? prev.counterM : 0;
    this.prevOdo = prev ? nanOf(prev.odometerM) : Number.NaN;

    const anchor = s.anchor;
    this.hasAnchor = anchor !== null;
    this.anchorTs = anchor ? anchor.ts : 0;
    this.anchorLat = anchor ? anchor.lat : 0;
    this.anchorLon = anchor ? anchor.lon : 0;

    const pend = s.pending;
    this.hasPend = pend !== null;
    this.pendTs = pend ? pend.ts : 0;
    this.pendLat = pend ? pend.lat : 0;
    this.pendLon = pend ? pend.lon : 0;
    this.pendSpeed = pend ? nanOf(pend.speed) : Number.NaN;
    this.pendIgn = pend ? triOf(pend.ignition) : UNKNOWN;
    this.pendMov = pend ? triOf(pend.movement) : UNKNOWN;
    this.pendOdo = pend ? nanOf(pend.odometerM) : Number.NaN;

    const trip = s.trip;
    this.inTrip = trip !== null;
    this.startTs = trip ? trip.start.ts : 0;
    this.startLat = trip ? trip.start.lat : 0;
    this.startLon = trip ? trip.start.lon : 0;
    this.startCounter = trip ? trip.start.counterM : 0;
    this.startOdo = trip ? nanOf(trip.start.odometerM) : Number.NaN;
    this.lastActTs = trip ? trip.last.ts : 0;
    this.lastActLat = trip ? trip.last.lat : 0;
    this.lastActLon = trip ? trip.last.lon : 0;
    this.lastActCounter = trip ? trip.last.counterM : 0;
    this.lastActOdo = trip ? nanOf(trip.last.odometerM) : Number.NaN;
    const off = trip ? trip.off : null;
    this.hasOff = off !== null;
    this.offTs = off ? off.ts : 0;
    this.offLat = off ? off.lat : 0;
    this.offLon = off ? off.lon : 0;
    this.offCounter = off ? off.counterM : 0;
    this.offOdo = off ? nanOf(off.odometerM) : Number.NaN;
    this.maxSpeed = trip ? trip.maxSpeedKmh : 0;
    this.moveMs = trip?.movingMs ?? 0;
    this.idleMs = trip?.idleMs ?? 0;
    this.lastMoveMs = trip?.lastMovingMs ?? 0;
    this.lastIdleMs = trip?.lastIdleMs ?? 0;
    this.offMoveMs = trip?.offMovingMs ?? 0;
    this.offIdleMs = trip?.offIdleMs ?? 0;
  }

  toState(): DetectorState {
    const point = (ts: number, lat: number, lon: number, counterM: number, odo: number): TrackPoint => ({ ts, lat, lon, counterM, odometerM: nullOf(odo) });
    return {
      v: 1,
      lastTs: Number.isFinite(this.lastTs) ? this.lastTs : null,
      basis: this.basisIgn ? 'ignition' : 'movement',
      ignition: boolOf(this.ign),
      counterM: this.counter,
      odometer: Number.isNaN(this.odo) ? null : { m: this.odo, atCounterM: this.odoAtCounter },
      ref: this.hasRef ? { ts: this.refTs, lat: this.refLat, lon: this.refLon } : null,
      prev: this.hasPrev ? point(this.prevTs, this.prevLat, this.prevLon, this.prevCounter, this.prevOdo) : null,
      anchor: this.hasAnchor ? { ts: this.anchorTs, lat: this.anchorLat, lon: this.anchorLon } : null,
      pending: this.hasPend
        ? {
            ts: this.pendTs,
            lat: this.pendLat,
            lon: this.pendLon,
            speed: nullOf(this.pendSpeed),
            ignition: boolOf(this.pendIgn),
            movement: boolOf(this.pendMov),
            odometerM: nullOf(this.pendOdo),
          }
        : null,
      trip: this.inTrip
        ? {
            start: point(this.startTs, this.startLat, this.startLon, this.startCounter, this.startOdo),
            last: point(this.lastActTs, this.lastActLat, this.lastActLon, this.lastActCounter, this.lastActOdo),
            off: this.hasOff ? point(this.offTs, this.offLat, this.offLon, this.offCounter, this.offOdo) : null,
            maxSpeedKmh: this.maxSpeed,
            movingMs: this.moveMs,
            idleMs: this.idleMs,
            lastMovingMs: this.lastMoveMs,
            lastIdleMs: this.lastIdleMs,
            // Only with an ignition off to stop at: a value left from an earlier one means nothing.
            ...(this.hasOff ? { offMovingMs: this.offMoveMs, offIdleMs: this.offIdleMs } : {}),
          }
        : null,
    };
  }

  /** Whether going from a to b in dt ms is faster than plausible. */
  private isJump(metres: number, dt: number): boolean {
    return metres - JUMP_TOLERANCE_M > this.vMaxMs * dt;
  }

  /** Stage 1: one position in time order, newer than lastTs, with a fix. */
  take(p: DetectorPosition): void {
    const ts = p.ts;
    const lat = p.lat;
    const lon = p.lon;
    const s = p.speed;
    const speed = s !== undefined && s >= 0 && s <= this.vMaxKmh ? s : Number.NaN;
    const ign = triOf(p.ignition);
    const mov = triOf(p.movement);
    const o = p.odometer;
    const odo = o !== undefined && o >= 0 && Number.isFinite(o) ? o : Number.NaN;
    this.lastTs = ts;

    if (this.hasPend) {
      const dbc = distanceM(this.pendLat, this.pendLon, lat, lon);
      if (this.isJump(dbc, ts - this.pendTs)) {
        if (this.hasRef && !this.isJump(distanceM(this.refLat, this.refLon, lat, lon), ts - this.refTs)) {
          // The new fix agrees with the last good one: the pending one was the outlier.
          this.commitPending(false);
          this.setPending(ts, lat, lon, speed, ign, mov, odo);
        } else {
          this.commitPending(true);
          this.commit(ts, this.refLat, this.refLon, false, Number.NaN, ign, UNKNOWN, odo);
        }
        return;
      }
      let spike = false;
      if (this.hasRef && dbc > SPIKE_MIN_LEG_M) {
        const dab = distanceM(this.refLat, this.refLon, this.pendLat, this.pendLon);
        if (dab > SPIKE_MIN_LEG_M) spike = dab + dbc > SPIKE_DETOUR * distanceM(this.refLat, this.refLon, lat, lon);
      }
      this.commitPending(!spike);
      this.setPending(ts, lat, lon, speed, ign, mov, odo);
    } else if (this.hasRef && this.isJump(distanceM(this.refLat, this.refLon, lat, lon), ts - this.refTs)) {
      this.commit(ts, this.refLat, this.refLon, false, Number.NaN, ign, UNKNOWN, odo);
    } else {
      this.setPending(ts, lat, lon, speed, ign, mov, odo);
    }
  }

  private setPending(ts: number, lat: number, lon: number, speed: number, ign: Tri, mov: Tri, odo: number): void {
    this.hasPend = true;
    this.pendTs = ts;
    this.pendLat = lat;
    this.pendLon = lon;
    this.pendSpeed = speed;
    this.pendIgn = ign;
    this.pendMov = mov;
    this.pendOdo = odo;
  }

  /** Commits the pending position, good (it becomes the reference) or filtered (it takes the reference's coordinates). */
  commitPending(good: boolean): void {
    if (!this.hasPend) return;
    this.hasPend = false;
    if (good) {
      this.hasRef = true;
      this.refTs = this.pendTs;
      this.refLat = this.pendLat;
      this.refLon = this.pendLon;
      this.commit(this.pendTs, this.pendLat, this.pendLon, true, this.pendSpeed, this.pendIgn, this.pendMov, this.pendOdo);
    } else {
      this.commit(this.pendTs, this.refLat, this.refLon, false, Number.NaN, this.pendIgn, UNKNOWN, this.pendOdo);
    }
  }

  /** Stage 2: the trip machine on one filtered position (coordinates already replaced when not good). */
  private commit(ts: number, lat: number, lon: number, good: boolean, speed: number, ign: Tri, mov: Tri, odoIn: number): void {
    if (ign !== UNKNOWN) {
      this.basisIgn = true;
      this.ign = ign;
    }

    // Distance: from the anchor when the position moves beyond jitter.
    let moved = false;
    let segSpeed = Number.NaN;
    if (good) {
      if (!this.hasAnchor) {
        this.hasAnchor = true;
        this.anchorTs = ts;
        this.anchorLat = lat;
        this.anchorLon = lon;
      } else {
        const d = distanceM(this.anchorLat, this.anchorLon, lat, lon);
        if (d > this.jitter || speed >= this.vMove) {
          moved = true;
          this.counter += d;
          if (ts > this.anchorTs) segSpeed = (d / (ts - this.anchorTs)) * 3_600;
          // Fix noise over a short step can read as more than any vehicle does.
          if (segSpeed > this.vMaxKmh) segSpeed = Number.NaN;
          this.anchorTs = ts;
          this.anchorLat = lat;
          this.anchorLon = lon;
        }
      }
    }
    const counter = this.counter;
    let odo = odoIn;
    if (odoIn === odoIn) {
      this.odo = odoIn;
      this.odoAtCounter = counter;
    } else if (this.odoAtCounter === counter) {
      odo = this.odo;
    }

    const own = good && (mov === ON || speed >= this.vMove);
    const active = this.basisIgn ? this.ign === ON : moved || own;

    if (this.inTrip) {
      if (this.hasPrev && ts - this.prevTs >= this.ttp) {
        // Silence of at least time-till-parked.
        if (this.basisIgn && this.hasOff) {
          this.closeAtOff();
        } else {
          const ownActive = this.basisIgn ? this.ign === ON : own;
          const fast = distanceM(this.prevLat, this.prevLon, lat, lon) * 3_600 >= this.vMove * (ts - this.prevTs);
          if (!(ownActive && fast)) this.closeAtLast();
        }
      } else if (this.basisIgn) {
        if (this.hasOff && ts - this.offTs >= this.ttp) this.closeAtOff();
      } else if (!active && ts - this.lastActTs >= this.ttp) {
        this.closeAtLast();
      }
    }

    const pointSpeed = good ? (speed === speed ? speed : segSpeed) : Number.NaN;
    if (this.inTrip) {
      // The time since the previous position is what this one shows: in motion, or standing with the ignition on.
      const dt = this.hasPrev ? ts - this.prevTs : 0;
      if (dt > 0 && dt < this.ttp) {
        if (moved || own) this.moveMs += dt;
        else if (this.basisIgn && this.ign === ON) this.idleMs += dt;
      }
      if (active) {
        this.setLast(ts, lat, lon, counter, odo);
        this.hasOff = false;
        if (pointSpeed > this.maxSpeed) this.maxSpeed = pointSpeed;
      } else if (this.basisIgn && !this.hasOff) {
        this.hasOff = true;
        this.offTs = ts;
        this.offLat = lat;
        this.offLon = lon;
        this.offCounter = counter;
        this.offOdo = odo;
        this.offMoveMs = this.moveMs;
        this.offIdleMs = this.idleMs;
      }
    } else if (active) {
      this.inTrip = true;
      if (!this.basisIgn && this.hasPrev && ts - this.prevTs < this.ttp) {
        this.startTs = this.prevTs;
        this.startLat = this.prevLat;
        this.startLon = this.prevLon;
        this.startCounter = this.prevCounter;
        this.startOdo = this.prevOdo;
        // From the previous position on, the unit was on its way.
        this.moveMs = ts - this.prevTs;
      } else {
        this.moveMs = 0;
        this.startTs = ts;
        this.startLat = lat;
        this.startLon = lon;
        this.startCounter = counter;
        this.startOdo = odo;
      }
      this.idleMs = 0;
      this.setLast(ts, lat, lon, counter, odo);
      this.hasOff = false;
      this.maxSpeed = pointSpeed === pointSpeed ? pointSpeed : 0;
    }

    this.hasPrev = true;
    this.prevTs = ts;
    this.prevLat = lat;
    this.prevLon = lon;
    this.prevCounter = counter;
    this.prevOdo = odo;
  }

  private setLast(ts: number, lat: number, lon: number, counter: number, odo: number): void {
    this.lastMoveMs = this.moveMs;
    this.lastIdleMs = this.idleMs;
    this.lastActTs = ts;
    this.lastActLat = lat;
    this.lastActLon = lon;
    this.lastActCounter = counter;
    this.lastActOdo = odo;
  }

  /** The stop candidate's time: the ignition off when seen, else the last active position. */
  stopCandidateTs(): number {
    return this.hasOff ? this.offTs : this.lastActTs;
  }

  closeAtStopCandidate(): void {
    if (this.hasOff) this.closeAtOff();
    else this.closeAtLast();
  }

  private closeAtOff(): void {
    this.close(this.offTs, this.offLat, this.offLon, this.offCounter, this.offOdo, this.offMoveMs, this.offIdleMs);
  }

  private closeAtLast(): void {
    this.close(this.lastActTs, this.lastActLat, this.lastActLon, this.lastActCounter, this.lastActOdo, this.lastMoveMs, this.lastIdleMs);
  }

  /** The trip from the start to this stop (whether long enough or not). */
  tripTo(stopTs: number, stopLat: number, stopLon: number, stopCounter: number, stopOdo: number, movingMs: number, idleMs: number): DetectedTrip {
    const duration = stopTs - this.startTs;
    const a = this.startOdo;
    const b = stopOdo;
    // The tracker's odometer when both ends have one and it ran forward no faster than plausible
    // (a reset or a swapped tracker falls back to the computed counter).
    const tracker = a === a && b === b && b >= a && b - a <= this.vMaxMs * duration + ODOMETER_SLACK_M;
    const startCounterM = tracker ? a : Math.round(this.startCounter);
    const stopCounterM = tracker ? b : Math.round(stopCounter);
    return {
      startTs: this.startTs,
      stopTs,
      startLat: this.startLat,
      startLon: this.startLon,
      stopLat,
      stopLon,
      distanceM: stopCounterM - startCounterM,
      startCounterM,
      stopCounterM,
      counterSource: tracker ? 'tracker' : 'computed',
      maxSpeedKmh: Math.round(this.maxSpeed * 10) / 10,
      movingS: Math.round(movingMs / 1000),
      idleS: Math.round(idleMs / 1000),
      basis: this.basisIgn ? 'ignition' : 'movement',
    };
  }

  private close(stopTs: number, stopLat: number, stopLon: number, stopCounter: number, stopOdo: number, movingMs: number, idleMs: number): void {
    const trip = this.tripTo(stopTs, stopLat, stopLon, stopCounter, stopOdo, movingMs, idleMs);
    if (trip.stopTs - trip.startTs >= this.minDur && trip.distanceM >= this.minDist) this.closed.push(trip);
    this.inTrip = false;
    this.hasOff = false;
  }

  openTrip(): OpenTrip | undefined {
    if (!this.inTrip) return undefined;
    const t = this.hasOff
      ? this.tripTo(this.offTs, this.offLat, this.offLon, this.offCounter, this.offOdo, this.offMoveMs, this.offIdleMs)
      : this.tripTo(this.lastActTs, this.lastActLat, this.lastActLon, this.lastActCounter, this.lastActOdo, this.lastMoveMs, this.lastIdleMs);
    return { startTs: t.startTs, startLat: t.startLat, startLon: t.startLon, distanceM: t.distanceM, lastMovingTs: t.stopTs };
  }
}

// ---------------------------------------------------------------------------------------------
// API

const usable = (p: DetectorPosition): boolean =>
  p.fix === true &&
  Number.isFinite(p.ts) &&
  p.lat >= -90 && p.lat <= 90 && p.lon >= -180 && p.lon <= 180 &&
  // (0, 0) is what a tracker without a fix sends; the ingest filter drops it too.
  !(p.lat === 0 && p.lon === 0);

/**
 * Runs positions through the state machine. `positions` are in any order; the function sorts them
 * and ignores any with ts <= the state's last processed ts (duplicates, redelivery) and any without
 * a fix. Returns the new state and the trips that closed, oldest first.
 *
 * The newest position waits in the state for the next one (the spike check), so a trip shows and
 * closes one position later than the raw data would allow; closeIfParked and detectWindow take it
 * in without waiting. Two positions of one batch with the same ts are one position (the unit and
 * ts identify it): the first in time order is kept.
 */
export function detectTrips(state: DetectorState, positions: readonly DetectorPosition[], settings: TripSettings): { state: DetectorState; closed: DetectedTrip[] } {
  const m = new Machine(state, settings);
  const ordered = isSorted(positions) ? positions : [...positions].sort((a, b) => a.ts - b.ts);
  for (let i = 0; i < ordered.length; i++) {
    const p = ordered[i] as DetectorPosition;
    if (p.ts > m.lastTs && usable(p)) m.take(p);
  }
  return { state: m.toState(), closed: m.closed };
}

function isSorted(positions: readonly DetectorPosition[]): boolean {
  for (let i = 1; i < positions.length; i++) {
    if ((positions[i] as DetectorPosition).ts < (positions[i - 1] as DetectorPosition).ts) return false;
  }
  return true;
}

/**
 * Closes the open trip when `nowTs` is at least timeTillParked after its last movement (a tracker
 * that went silent when parked). The waiting newest position is taken in first; when nothing
 * closes, the state comes back unchanged (the position keeps waiting for its spike check).
 */
export function closeIfParked(state: DetectorState, nowTs: number, settings: TripSettings): { state: DetectorState; closed: DetectedTrip[] } {
  if (state.trip === null && state.pending === null) return { state, closed: [] };
  const m = new Machine(state, settings);
  m.commitPending(true);
  // The waiting position may itself have closed a trip (it came time-till-parked after the stop).
  const due = m.inTrip && nowTs - m.stopCandidateTs() >= m.ttp;
  if (!due && m.closed.length === 0) return { state, closed: [] };
  if (due) m.closeAtStopCandidate();
  return { state: m.toState(), closed: m.closed };
}

/**
 * The trip in progress, if any, including the newest position still waiting in the state. Taking
 * that position in may close or split a trip after time-till-parked, so a unit with its own
 * setting passes its settings (an optional parameter beyond the agreed interface).
 */
export function openTripOf(state: DetectorState, settings: TripSettings = DEFAULT_TRIP_SETTINGS): OpenTrip | undefined {
  if (state.trip === null && state.pending === null) return undefined;
  const m = new Machine(state, settings);
  m.commitPending(true);
  return m.openTrip();
}

/**
 * Trips of a closed window of stored positions (used to re-detect after late data): starts parked,
 * runs all, then closes what is open at the end as if parked. Equal to detectTrips over the
 * positions in any batches followed by closeIfParked(state, +Infinity).
 */
export function detectWindow(positions: readonly DetectorPosition[], settings: TripSettings): DetectedTrip[] {
  const run = detectTrips(initialDetectorState(), positions, settings);
  const end = closeIfParked(run.state, Number.POSITIVE_INFINITY, settings);
  return run.closed.concat(end.closed);
}

/**
 * How far around a stored trip `tripTimesOf` wants positions: five times time-till-parked before
 * its start and after its stop. The detector's distance anchor before the trip decides what counts
 * as motion near its start; with this much before it, a run over random tracks with jitter, jumps
 * and gaps times 99 % of the trips it finds to the second, the rest within 2 % (detect.test.ts).
 */
export const timingMarginMs = (settings: TripSettings): number => 5 * settings.timeTillParkedMs;

/**
 * The time in motion and idling of a trip stored without them (detected before they were kept),
 * by the detector itself: `detectWindow` over the unit's positions from `timingMarginMs` before
 * the trip's start to as long after its stop, and the times of the trip found there with the same
 * start and stop. Undefined when none is (its positions are gone or tell another story now).
 */
export function tripTimesOf(positions: readonly DetectorPosition[], trip: { startTs: number; stopTs: number }, settings: TripSettings): { movingS: number; idleS: number } | undefined {
  const found = detectWindow(positions, settings).find((t) => t.startTs === trip.startTs && t.stopTs === trip.stopTs);
  return found?.movingS !== undefined && found.idleS !== undefined ? { movingS: found.movingS, idleS: found.idleS } : undefined;
}
