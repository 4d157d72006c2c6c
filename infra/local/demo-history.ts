/**
 * Demo history: on the first start of the embedded runtime with simulated trackers, 30 days of
 * plausible driving for the demo fleet, sent through the real ingest path, so that a new user opens
 * a populated trip log and the reports have data.
 *
 * Two halves:
 * - `generateUnitHistory` (no I/O): a unit's days, from its personality (a commuter's two trips on
 *   weekdays, a service van's 4-8 jobs in working hours, a lorry's long tours, a machine's shifts
 *   at its site, a boat trailer's weekend outings, occasional private evening and weekend trips),
 *   driven on the simulator's road network with its vehicle physics, and reported as its tracker
 *   would: every `movingS` with the ignition on, an ignition record at each start and stop, sparse
 *   heartbeats with GPS jitter while parked. Everything random comes from the unit's seed and the
 *   calendar day, so the same inputs give the same records.
 * - `prepareDemoHistory` and `fillDemoHistory`: the start chooses the units and generates their
 *   records, the live simulator takes each unit up where its history ends, and then, behind the
 *   live fleet, the records go through the ingest path as the tracker would send what it buffered
 *   while offline: messages of up to 10 records, in time order per unit. They are older than the
 *   units' live state, so ingest stores them as late positions and trip detection re-detects their
 *   windows (functions/trips/stage.ts), as for any tracker that sends a buffer late. The runtime
 *   hands them to a stream of their own that gives way to the trackers' (infra/local/runtime.ts).
 *
 * A marker in DATA_DIR (`demo-history.json`) keeps the window, the units and the units done
 * across a crash: a restart generates the same records and sends those of the units not done
 * again (ingest stores each position once and re-detection ends in the same trips); once complete,
 * the fill never runs again for that data directory.
 */
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { BatchGetCommand, type BatchGetCommandOutput } from '@aws-sdk/lib-dynamodb';
import { dynamo, tableName } from '../../functions/platform/db';
import { offsetAt, wallToInstant } from '../../shared/local-time';
import type { DemoUnitSpec } from './seed';
import { HARSH_GAP_MS, harshInStep, harshnessOf, longIdleS, type HarshEvent } from './simulator/driving-style';
import { distanceM, offset, turnDeg, type LatLon } from './simulator/geo';
import { limitAt, pointAt, RoadNetwork, type Route } from './simulator/network';
import { telemetryMessage } from './simulator/protocol';
import { seededRandom, trackerSeed, type Random } from './simulator/random';
import { DEFAULT_SEED, sensorsFor } from './simulator/simulator';
import { workSite, type PlaceId } from './simulator/stockholm';
import { CLASSES, MAX_BRAKE, PLAN_BRAKE, vehicleClass, type BleRecord, type ResumeState, type SensorKind, type TrackerRecord, type VehicleClass } from './simulator/vehicle';

const SECOND = 1_000;
const MINUTE = 60_000;
const HOUR = 3_600_000;
const DAY = 86_400_000;

/** The demo fleet's days are lived in Stockholm time (daylight saving included). */
export const DEMO_HISTORY_ZONE = 'Europe/Stockholm';
export const DEMO_HISTORY_MARKER = 'demo-history.json';
/** Records per buffered message, as a tracker flushes its buffer. */
export const RECORDS_PER_MESSAGE = 10;

export interface HistoryIntervals {
  /** Seconds between records with the ignition on (driving, idling). */
  movingS: number;
  /** Seconds between heartbeats while parked: drawn anew each time in [min, max]. */
  parkedS: readonly [number, number];
  /** Seconds between records of a machine at work. */
  workingS: number;
}

/**
 * Chosen to fit the budget: the default fleet's 30 days (20 units, some 1,700 trips) come to about
 * 59,000 positions, which the ingest path stores on DynamoDB Local's disk in 90-95 s on two
 * otherwise quiet cores, trip detection included; at 30 s on the move it was 73,000 and 112 s
 * (docs/architecture.md, "Demo history"). A heartbeat every 45-60 min while parked is what real
 * trackers send with their one-hour stop period; a machine at work reports every 10 minutes.
 */
export const HISTORY_INTERVALS: HistoryIntervals = { movingS: 40, parkedS: [45 * 60, 60 * 60], workingS: 600 };

/**
 * The shortest parked stretch between two trips: longer than trip detection's 3 minutes until
 * parked, so two trips never read as one. Stops inside a trip (lights, a lorry's loading with the
 * engine running) stay well below it.
 */
export const MIN_PARK_MS = 8 * MINUTE;
/** A lorry's stops with the engine running between the legs of a tour. */
const TOUR_STOP_S: readonly [number, number] = [60, 150];

// ---------------------------------------------------------------------------------------------
// Personalities

export type Personality = 'commuter' | 'service' | 'lorry' | 'machine' | 'leisure';

export interface Profile {
  personality: Personality;
  /** Works on Saturdays and Sundays too (taxi, home care, bus). */
  worksWeekends: boolean;
  /** Chance of a private evening trip (there and back) on a working day. */
  eveningChance: number;
  /** Chance of a private trip (there and back) on a day off. */
  dayOffChance: number;
  /** Where the vehicle spends the night. */
  base: PlaceId;
  /** A commuter's workplace; the base for the others. */
  work: PlaceId;
}

/** Who drives a demo unit, from its name and kind (infra/local/seed.ts). */
export function profileFor(unit: Pick<DemoUnitSpec, 'name' | 'vehicleType'>, index: number, network: RoadNetwork): Profile {
  const cls = vehicleClass(unit.vehicleType);
  const stops = network.stops;
  const base: PlaceId = stops.includes('depot') ? 'depot' : (stops[0] as PlaceId);
  const plain = { worksWeekends: false, eveningChance: 0, dayOffChance: 0, base, work: base };
  if (cls === 'machine') return { ...plain, personality: 'machine' };
  const others = stops.filter((s) => s !== base);
  const home = (others[(index * 3) % others.length] ?? base) as PlaceId;
  if (cls === 'trailer') return { ...plain, personality: 'leisure', base: home, work: home, dayOffChance: 0.4 };
  if (cls === 'lorry' || cls === 'bus') return { ...plain, personality: 'lorry', worksWeekends: cls === 'bus' };
  if (/taxi|home care/i.test(unit.name)) return { ...plain, personality: 'service', worksWeekends: true };
  if (cls === 'van' || /service|van|courier|plumber|electrician/i.test(unit.name)) return { ...plain, personality: 'service' };
  const workplaces = stops.filter((s) => s !== home);
  const work = (workplaces[(index * 5 + 2) % workplaces.length] ?? base) as PlaceId;
  return { ...plain, personality: 'commuter', base: home, work, eveningChance: 0.25, dayOffChance: 0.35 };
}

// ---------------------------------------------------------------------------------------------
// Local time

/** The wall clock in Stockholm at an instant, read as if it were UTC (to the second). */
const wallMs = (ms: number): number => Math.floor(ms / SECOND) * SECOND + offsetAt(ms, DEMO_HISTORY_ZONE);

/** The instant Stockholm's clocks show `wall` (epoch ms of that wall time read as UTC). */
const instantOf = (wall: number): number => wallToInstant(wall, DEMO_HISTORY_ZONE);

/** Start of the local day an instant falls in. */
export function localMidnight(ms: number): number {
  const wall = wallMs(ms);
  return instantOf(wall - (((wall % DAY) + DAY) % DAY));
}

/** yyyy-MM-dd, weekday (0 Sunday) and minutes since midnight of an instant, in Stockholm. */
export function localTime(ms: number): { day: string; weekday: number; minutes: number } {
  const wall = new Date(wallMs(ms));
  return { day: wall.toISOString().slice(0, 10), weekday: wall.getUTCDay(), minutes: wall.getUTCHours() * 60 + wall.getUTCMinutes() };
}

/** The instant of a local wall time (minutes after midnight) on the day starting at `dayStart`. */
function at(dayStart: number, minutes: number): number {
  return instantOf(wallMs(dayStart) + minutes * MINUTE);
}

// ---------------------------------------------------------------------------------------------
// Day plans

/** One trip of a day's plan: where to (one place, or the legs of a tour), and when. */
interface PlannedTrip {
  /** Earliest departure; otherwise `dwellMs` after arriving from the previous trip. */
  at?: number;
  dwellMs?: number;
  legs: PlaceId[];
  private: boolean;
  /** A machine's work block: this long at its site with the ignition on. */
  workMs?: number;
}

const minutesBetween = (rng: Random, from: number, to: number) => Math.round(rng.between(from, to));

function otherStop(rng: Random, network: RoadNetwork, not: readonly PlaceId[]): PlaceId {
  return rng.pick(network.stops.filter((s) => !not.includes(s)));
}

/** A stop near `here` more often than a far one (a tradesman's jobs cluster around the area he works in). */
function nearbyStop(rng: Random, network: RoadNetwork, here: PlaceId, not: readonly PlaceId[]): PlaceId {
  const choices = network.stops.filter((s) => s !== here && !not.includes(s));
  const weights = choices.map((s) => 1 / (distanceM(network.places[here], network.places[s]) / 1000 + 2) ** 2);
  let x = rng.next() * weights.reduce((a, b) => a + b, 0);
  for (let i = 0; i < choices.length; i++) {
    x -= weights[i] as number;
    if (x < 0) return choices[i] as PlaceId;
  }
  return choices[choices.length - 1] as PlaceId;
}

function planDay(profile: Profile, dayStart: number, weekday: number, rng: Random, network: RoadNetwork): PlannedTrip[] {
  const dayOff = (weekday === 0 || weekday === 6) && !profile.worksWeekends;
  const trips: PlannedTrip[] = [];
  const outing = (fromMin: number, toMin: number, dwell: readonly [number, number]) => {
    const to = otherStop(rng, network, [profile.base]);
    trips.push({ at: at(dayStart, minutesBetween(rng, fromMin, toMin)), legs: [to], private: true });
    trips.push({ dwellMs: minutesBetween(rng, dwell[0], dwell[1]) * MINUTE, legs: [profile.base], private: true });
  };
  switch (profile.personality) {
    case 'commuter':
      if (dayOff) {
        if (rng.chance(profile.dayOffChance)) outing(10 * 60, 15 * 60, [45, 180]);
        break;
      }
      trips.push({ at: at(dayStart, minutesBetween(rng, 6 * 60 + 45, 8 * 60 + 30)), legs: [profile.work], private: false });
      trips.push({ at: at(dayStart, minutesBetween(rng, 15 * 60 + 30, 17 * 60 + 45)), legs: [profile.base], private: false });
      if (rng.chance(profile.eveningChance)) outing(18 * 60 + 45, 20 * 60 + 30, [30, 120]);
      break;
    case 'service': {
      if (dayOff) break;
      const weekend = weekday === 0 || weekday === 6;
      const jobs = weekend ? rng.int(3, 5) : rng.int(4, 8);
      const start = minutesBetween(rng, 7 * 60, 8 * 60 + 15);
      const end = minutesBetween(rng, 15 * 60 + 30, 17 * 60);
      // The jobs fill the working day: the time left after some 15 minutes of driving each, shared
      // out unevenly (a quick look here, a long repair there).
      const dwell = Math.max(20, (end - start - jobs * 15) / (jobs - 1));
      const weights = Array.from({ length: jobs - 1 }, () => rng.between(0.5, 1.5));
      const mean = weights.reduce((a, b) => a + b, 0) / weights.length;
      let here = profile.base;
      for (let i = 0; i < jobs; i++) {
        const to = i === jobs - 1 ? profile.base : nearbyStop(rng, network, here, [profile.base]);
        const dwellMs = Math.round((dwell * (weights[i - 1] ?? 1)) / mean) * MINUTE;
        trips.push(i === 0 ? { at: at(dayStart, start), legs: [to], private: false } : { dwellMs, legs: [to], private: false });
        here = to;
      }
      break;
    }
    case 'lorry': {
      if (dayOff) break;
      const tours = rng.int(1, 2);
      let here = profile.base;
      for (let i = 0; i < tours; i++) {
        const legs: PlaceId[] = [];
        // Long trips: a single tour of the day calls at three or four places, two tours at two or three each.
        const count = tours === 1 ? rng.int(3, 4) : rng.int(2, 3);
        for (let k = 0; k < count; k++) {
          const last = i === tours - 1 && k === count - 1;
          const to = last ? profile.base : otherStop(rng, network, [here, profile.base]);
          legs.push(to);
          here = to;
        }
        trips.push(i === 0 ? { at: at(dayStart, minutesBetween(rng, 6 * 60, 7 * 60 + 30)), legs, private: false } : { dwellMs: minutesBetween(rng, 30, 75) * MINUTE, legs, private: false });
      }
      break;
    }
    case 'machine': {
      if (dayOff) break;
      let start = at(dayStart, minutesBetween(rng, 7 * 60, 7 * 60 + 30));
      const end = at(dayStart, 15 * 60 + 30);
      while (start < end) {
        const workMs = minutesBetween(rng, 60, 150) * MINUTE;
        trips.push({ at: start, legs: [], private: false, workMs });
        start += workMs + minutesBetween(rng, 15, 45) * MINUTE;
      }
      break;
    }
    case 'leisure':
      // A boat trailer is towed out on weekends only.
      if (dayOff && rng.chance(profile.dayOffChance)) outing(8 * 60, 11 * 60, [180, 360]);
      break;
  }
  return trips;
}

// ---------------------------------------------------------------------------------------------
// The generator

export interface HistoryOptions {
  unit: DemoUnitSpec;
  /** The unit's place in the simulated fleet (simulatedUnits): its parking spots and sensors. */
  index: number;
  /** Epoch ms; the first full local day from here on is generated, with a heartbeat at `from`. */
  from: number;
  /** Epoch ms; nothing is generated after it; a trip that would end later is left out. */
  to: number;
  seed?: number;
  intervals?: HistoryIntervals;
  network?: RoadNetwork;
}

/** A trip as generated: from the ignition-on record to the ignition-off record. */
export interface HistoryTrip {
  start: number;
  stop: number;
  from: PlaceId | 'site';
  to: PlaceId | 'site';
  /** Places passed on the way (a lorry's tour), the destination last. */
  legs: PlaceId[];
  distanceM: number;
  private: boolean;
  /** Seconds the engine was left running at the destination beyond the usual arrival (0 mostly). */
  idleS: number;
}

export interface UnitHistory {
  profile: Profile;
  records: TrackerRecord[];
  trips: HistoryTrip[];
}

interface Sim {
  t: number;
  lastTs: number;
  pos: LatLon;
  heading: number;
  place: PlaceId | null;
  ignition: boolean;
  offAt: number;
  odometerM: number;
  engineS: number;
  sats: number;
  nextBeat: number;
  doorOpenAt: number;
  doorCloseAt: number;
}

interface SensorSpec {
  mac: string;
  kind: SensorKind;
}

/** The seed of a unit's history: its tracker's, salted, so the live simulator's draws stay its own. */
const historySeed = (seed: number, index: number) => trackerSeed(seed ^ 0x5eed_d4b5, index);

function dayHash(day: string): number {
  let h = 2_166_136_261;
  for (let i = 0; i < day.length; i++) h = Math.imul(h ^ day.charCodeAt(i), 16_777_619);
  return h >>> 0;
}

const round = (value: number, decimals: number) => Math.round(value * 10 ** decimals) / 10 ** decimals;

class HistoryWriter {
  readonly records: TrackerRecord[] = [];
  readonly trips: HistoryTrip[] = [];
  /**
   * What only the readings draw from (GPS jitter, satellites, voltages, heartbeat spacing), apart
   * from what plans and drives the trips: a day's trips do not depend on how many heartbeats
   * came before it, so two windows over the same day give the same trips.
   */
  noise: Random;
  private readonly cls: VehicleClass;
  /**
   * The driver's style (simulator/driving-style.ts): harsh episodes and engines left running, drawn
   * from a generator of the day's own, so they change neither the trips nor the next days.
   */
  style: Random;
  private readonly harshness: number;
  private lastHarsh = -Infinity;
  private readonly sensors: readonly SensorSpec[];
  private readonly sensorBase: Array<{ temp: number; hum: number; bat: number }>;

  constructor(
    private sim: Sim,
    private readonly options: { index: number; vehicleType: string; imei: string; intervals: HistoryIntervals; network: RoadNetwork },
    rng: Random,
  ) {
    this.noise = rng;
    this.style = rng;
    this.cls = vehicleClass(options.vehicleType);
    this.harshness = harshnessOf(options.imei);
    this.sensors = sensorsFor(options.index, options.imei);
    this.sensorBase = this.sensors.map((s) => ({ temp: s.kind === 'reefer' ? -18 : rng.between(17, 22), hum: s.kind === 'reefer' ? rng.between(70, 80) : rng.between(35, 50), bat: rng.between(2.95, 3.05) }));
  }

  get state(): Sim {
    return this.sim;
  }

  /** Heartbeats up to (not at) `until`, each a few metres off the parking spot, as a fix drifts. */
  parkUntil(until: number): void {
    const [min, max] = this.options.intervals.parkedS;
    while (this.sim.nextBeat < until) {
      this.sim.t = this.sim.nextBeat;
      this.emit('periodic', { jitter: true });
      this.sim.nextBeat = this.sim.t + Math.round(this.noise.between(min, max)) * SECOND;
    }
    this.sim.t = Math.max(this.sim.t, until);
  }

  /** A final heartbeat at `ts` unless the last record is that recent. */
  heartbeatAt(ts: number): void {
    if (this.sim.lastTs >= ts) return;
    this.sim.t = ts;
    this.emit('periodic', { jitter: true });
  }

  /**
   * One trip, tried on a copy: kept when it ends (parked, doors closed) at least MIN_PARK_MS before
   * `to`, so that the heartbeat at `to` shows it parked and trip detection closes it; dropped
   * otherwise. Returns whether it was kept.
   */
  trip(depart: number, plan: PlannedTrip, to: number, rng: Random): boolean {
    const saved = this.sim;
    const recordCount = this.records.length;
    this.sim = { ...saved, pos: { ...saved.pos } };
    const start = Math.ceil(depart / SECOND) * SECOND;
    const odometerAtStart = this.sim.odometerM;
    const from = this.sim.place ?? 'site';
    let idleS = 0;
    this.sim.t = start;
    this.sim.ignition = true;
    this.emit('ignition');
    if (plan.workMs !== undefined) {
      this.work(start + plan.workMs, rng);
    } else {
      this.idle(rng.int(20, 60) * SECOND);
      plan.legs.forEach((dest, i) => {
        this.drive(this.options.network.plan({ from: this.sim.place as PlaceId, spot: this.sim.pos }, dest, this.options.index, rng), rng);
        this.sim.place = dest;
        if (i < plan.legs.length - 1) this.idle(rng.int(TOUR_STOP_S[0], TOUR_STOP_S[1]) * SECOND);
      });
      // Arriving: into the spot, handbrake, then the key; now and then the engine is left running.
      const usualS = rng.int(10, 40);
      const longS = longIdleS(this.style, this.harshness);
      if (longS !== null) idleS = longS;
      this.idle((longS ?? usualS) * SECOND);
    }
    this.sim.ignition = false;
    this.sim.offAt = this.sim.t;
    this.emit('ignition');
    const stop = this.sim.t;
    // Deliveries: the cargo door opens a minute after the stop and closes a few minutes later.
    if (this.sensors.some((s) => s.kind === 'door') && !plan.private && plan.workMs === undefined) {
      this.sim.t += rng.int(30, 90) * SECOND;
      this.sim.doorOpenAt = this.sim.t;
      this.sim.doorCloseAt = this.sim.t + rng.int(120, 360) * SECOND;
      this.emit('door', { jitter: true });
      this.sim.t = this.sim.doorCloseAt;
      this.emit('door', { jitter: true });
    }
    const [min, max] = this.options.intervals.parkedS;
    this.sim.nextBeat = stop + Math.round(this.noise.between(min, max)) * SECOND;
    if (this.sim.t > to - MIN_PARK_MS) {
      this.sim = saved;
      this.records.length = recordCount;
      return false;
    }
    this.trips.push({
      start,
      stop,
      from,
      to: this.sim.place ?? 'site',
      legs: [...plan.legs],
      distanceM: Math.round(this.sim.odometerM - odometerAtStart),
      private: plan.private,
      idleS,
    });
    return true;
  }

  /** With the engine running and the vehicle still (warming up, a lorry loading): periodic records. */
  private idle(ms: number): void {
    const end = this.sim.t + ms;
    const every = this.options.intervals.movingS * SECOND;
    for (let next = Math.max(this.sim.lastTs + every, this.sim.t); next <= end; next = this.sim.lastTs + every) {
      this.sim.engineS += (next - this.sim.t) / SECOND;
      this.sim.t = next;
      this.emit('periodic');
    }
    this.sim.engineS += (end - this.sim.t) / SECOND;
    this.sim.t = end;
  }

  /** A machine at work: ignition on, moving about its site within a few metres. */
  private work(until: number, rng: Random): void {
    const every = this.options.intervals.workingS * SECOND;
    const site = this.sim.pos;
    for (let next = Math.max(this.sim.lastTs + every, this.sim.t); next < until; next = this.sim.lastTs + every) {
      this.sim.engineS += (next - this.sim.t) / SECOND;
      this.sim.t = next;
      this.sim.heading = rng.int(0, 359);
      this.emit('periodic', { at: offset(site, rng.between(0, 12), rng.between(0, 360)), speedKmh: round(rng.between(0, 4), 1), moving: true });
    }
    this.sim.engineS += (until - this.sim.t) / SECOND;
    this.sim.t = until;
  }

  /** A route at the simulator's physics (infra/local/simulator/vehicle.ts drive()), one step a second. */
  private drive(route: Route, rng: Random): void {
    const spec = CLASSES[this.cls as Exclude<VehicleClass, 'machine'>];
    const every = this.options.intervals.movingS * SECOND;
    const driver = rng.between(0.9, 1.04);
    let s = 0;
    let v = 0;
    let capIndex = 0;
    let hint = 1;
    // A guard against a route the model cannot finish: six hours is no trip of this city.
    for (let step = 0; step < 6 * 3600; step++) {
      this.sim.t += SECOND;
      this.sim.engineS += 1;
      const pace = driver * (1 + 0.04 * Math.sin(this.sim.t / 47_000 + this.options.index));
      let target = (Math.min(limitAt(route, s), spec.maxKmh) * pace) / 3.6;
      for (let i = capIndex; i < route.caps.length; i++) {
        const cap = route.caps[i] as Route['caps'][number];
        const ahead = cap.at - s;
        if (ahead > 600) break;
        target = Math.min(target, -PLAN_BRAKE + Math.sqrt(PLAN_BRAKE * PLAN_BRAKE + (cap.kmh / 3.6) ** 2 + 2 * PLAN_BRAKE * Math.max(0, ahead)));
      }
      const accel = v < 50 / 3.6 ? spec.accel[0] : spec.accel[1];
      const v1 = v < target ? Math.min(target, v + accel) : Math.max(target, v - MAX_BRAKE, 0);
      let s1 = s + v1;
      let stopped = false;
      let arrived = false;
      let waitS = 0;
      for (let i = capIndex; i < route.caps.length; i++) {
        const cap = route.caps[i] as Route['caps'][number];
        if (cap.at > s1 + 0.5) break;
        if (cap.kmh === 0) {
          s1 = Math.min(s1, cap.at);
          if (cap.at - s1 < 1) {
            s1 = cap.at;
            stopped = true;
            capIndex = i + 1;
            if (i === route.caps.length - 1) arrived = true;
            else waitS = cap.dwellS ?? 0;
          }
          break;
        }
        capIndex = i + 1;
      }
      const v0 = v;
      v = stopped ? 0 : v1;
      this.sim.odometerM += s1 - s;
      s = s1;
      const point = pointAt(route, s, hint);
      this.sim.pos = point.point;
      hint = point.index;
      const headingBefore = this.sim.heading;
      if (v > 0.5 || stopped) this.sim.heading = point.heading;
      const harsh = this.sim.t - this.lastHarsh >= HARSH_GAP_MS ? harshInStep(this.style, this.harshness, v0, v, turnDeg(headingBefore, this.sim.heading)) : null;
      if (harsh) {
        // The tracker sends the episode at once, as the green-driving scenario does.
        this.lastHarsh = this.sim.t;
        this.emit('harsh', { speedKmh: round(v * 3.6, 1), moving: v > 0.3, harsh });
      } else if (this.sim.t - this.sim.lastTs >= every) this.emit('periodic', { speedKmh: round(v * 3.6, 1), moving: v > 0.3 });
      if (arrived) return;
      if (waitS > 0) this.idle(waitS * SECOND);
    }
  }

  private emit(cause: TrackerRecord['cause'], o: { jitter?: boolean; at?: LatLon; speedKmh?: number; moving?: boolean; harsh?: HarshEvent } = {}): void {
    const sim = this.sim;
    const rng = this.noise;
    if (sim.t <= sim.lastTs) sim.t = sim.lastTs + SECOND;
    sim.lastTs = sim.t;
    sim.sats = Math.max(5, Math.min(16, sim.sats + rng.int(-1, 1)));
    const where = o.at ?? (o.jitter ? offset(sim.pos, rng.between(0.5, 4), rng.between(0, 360)) : sim.pos);
    const hoursOff = (sim.t - sim.offAt) / HOUR;
    const extVolts = sim.ignition ? 14.1 + rng.between(-0.1, 0.1) : Math.max(12.2, 12.7 - 0.02 * hoursOff) + rng.between(-0.03, 0.03);
    this.records.push({
      ts: sim.t,
      lat: round(where.lat, 6),
      lon: round(where.lon, 6),
      speedKmh: o.speedKmh ?? 0,
      heading: Math.round(sim.heading) % 360,
      alt: Math.round(20 + 15 * Math.sin(where.lat * 900) * Math.cos(where.lon * 700)),
      sats: sim.sats,
      hdop: round(0.6 + 6 / sim.sats / 2, 1),
      ignition: sim.ignition,
      moving: o.moving ?? false,
      odometerM: Math.round(sim.odometerM),
      engineS: Math.round(sim.engineS),
      extVolts: this.cls === 'trailer' && !sim.ignition ? undefined : round(extVolts, 2),
      batVolts: round(sim.ignition || extVolts > 12.4 ? 4.12 + rng.between(-0.03, 0.03) : 4.02 + rng.between(-0.03, 0.03), 2),
      din: { '2': false, '3': false },
      dout: { '1': false, '2': false, '3': false },
      ble: this.ble(),
      ...(o.harsh ? { harsh: o.harsh } : {}),
      cause,
    });
  }

  private ble(): BleRecord[] {
    const rng = this.noise;
    const { t, doorOpenAt, doorCloseAt, ignition } = this.sim;
    const open = t >= doorOpenAt && t < doorCloseAt;
    // The box warms towards +8 °C while the door stands open and cools back within the half hour after.
    const openedFor = (Math.min(t, doorCloseAt) - doorOpenAt) / MINUTE;
    const rise = t < doorOpenAt ? 0 : 26 * (1 - Math.exp(-openedFor / 12)) * (open ? 1 : Math.exp(-(t - doorCloseAt) / (8 * MINUTE)));
    return this.sensors.map((s, i) => {
      const b = this.sensorBase[i] as { temp: number; hum: number; bat: number };
      const temp = s.kind === 'reefer' ? b.temp + rise : ignition ? 21 : 15 + 3 * Math.sin(t / (6 * HOUR));
      return s.kind === 'door'
        ? { mac: s.mac, door: open, bat: round(b.bat, 2) }
        : { mac: s.mac, temp: round(temp + rng.between(-0.3, 0.3), 1), hum: Math.round(b.hum + rng.between(-3, 3)), bat: round(b.bat, 2) };
    });
  }
}

/**
 * A unit's history from `from` to `to`: what its tracker reported, oldest first (each device time
 * once), and the trips it drove. Deterministic: the same options give the same records.
 */
export function generateUnitHistory(options: HistoryOptions): UnitHistory {
  const network = options.network ?? new RoadNetwork();
  const intervals = options.intervals ?? HISTORY_INTERVALS;
  const seed = historySeed(options.seed ?? DEFAULT_SEED, options.index);
  const rng = seededRandom(seed);
  const profile = profileFor(options.unit, options.index, network);
  const machine = profile.personality === 'machine';
  const from = Math.ceil(options.from / SECOND) * SECOND;
  const to = Math.floor(options.to / SECOND) * SECOND;
  const km = rng.between(15_000, 180_000);
  const sim: Sim = {
    t: from,
    lastTs: -Infinity,
    pos: machine ? offset(workSite, 15 * options.index, (options.index * 97) % 360) : network.parkingSpot(profile.base, options.index),
    heading: rng.int(0, 359),
    place: machine ? null : profile.base,
    ignition: false,
    offAt: from - 10 * HOUR,
    odometerM: Math.round(km * 1000),
    engineS: Math.round((km / 35) * 3600),
    sats: rng.int(7, 13),
    nextBeat: from,
    doorOpenAt: -Infinity,
    doorCloseAt: -Infinity,
  };
  const writer = new HistoryWriter(sim, { index: options.index, vehicleType: options.unit.vehicleType, imei: options.unit.imei, intervals, network }, rng);
  if (to < from) return { profile, records: [], trips: [] };

  let dayStart = localMidnight(from);
  if (dayStart < from) dayStart = localMidnight(dayStart + DAY + 2 * HOUR);
  let finished = false;
  while (!finished && dayStart < to) {
    const local = localTime(dayStart);
    const daySeed = (seed ^ dayHash(local.day)) >>> 0;
    const driveRng = seededRandom((daySeed ^ 0x68e3_1da4) >>> 0);
    writer.noise = seededRandom((daySeed ^ 0xb529_7a4d) >>> 0);
    writer.style = seededRandom((daySeed ^ 0x3c6e_f372) >>> 0);
    for (const plan of planDay(profile, dayStart, local.weekday, seededRandom(daySeed), network)) {
      const arrival = writer.state.t;
      const depart = Math.max(plan.at ?? arrival + (plan.dwellMs ?? 0), arrival + MIN_PARK_MS);
      if (depart >= to) {
        finished = true;
        break;
      }
      writer.parkUntil(depart);
      if (!writer.trip(depart, plan, to, driveRng)) {
        finished = true;
        break;
      }
    }
    dayStart = localMidnight(dayStart + DAY + 2 * HOUR);
  }
  writer.parkUntil(to);
  writer.heartbeatAt(to);
  return { profile, records: writer.records, trips: writer.trips };
}

/** Records in buffered messages of up to `size`, in order. */
export function bufferedMessages<T>(records: readonly T[], size = RECORDS_PER_MESSAGE): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < records.length; i += size) out.push(records.slice(i, i + size));
  return out;
}

// ---------------------------------------------------------------------------------------------
// The window and the marker

export interface HistoryWindow {
  /** `days` days before `to`; the first generated day is the first full local day from here. */
  from: number;
  to: number;
  days: number;
}

export function historyWindow(now: number, days: number): HistoryWindow {
  const to = Math.floor(now / SECOND) * SECOND;
  return { from: to - days * DAY, to, days };
}

export interface DemoHistoryMarker extends HistoryWindow {
  version: 1;
  seed: number;
  /** The units being backfilled (null: not chosen yet). */
  imeis: string[] | null;
  /** Those of them whose whole history the ingest path has handled. */
  done: string[];
  complete: boolean;
  positions?: number;
}

export function readDemoHistoryMarker(dataDir: string | null): DemoHistoryMarker | null {
  if (!dataDir) return null;
  const file = join(dataDir, DEMO_HISTORY_MARKER);
  if (!existsSync(file)) return null;
  try {
    const m = JSON.parse(readFileSync(file, 'utf8')) as Partial<DemoHistoryMarker>;
    if (m.version !== 1 || typeof m.from !== 'number' || typeof m.to !== 'number' || typeof m.days !== 'number') return null;
    return {
      version: 1,
      from: m.from,
      to: m.to,
      days: m.days,
      seed: m.seed ?? DEFAULT_SEED,
      imeis: Array.isArray(m.imeis) ? m.imeis.map(String) : null,
      done: Array.isArray(m.done) ? m.done.map(String) : [],
      complete: m.complete === true,
    };
  } catch {
    return null;
  }
}

function writeMarker(dataDir: string | null, marker: DemoHistoryMarker): void {
  if (!dataDir) return;
  const file = join(dataDir, DEMO_HISTORY_MARKER);
  writeFileSync(`${file}.tmp`, `${JSON.stringify(marker, null, 2)}\n`);
  renameSync(`${file}.tmp`, file);
}

/** What a start has to backfill: nothing once a data directory's backfill completed. */
export interface DemoHistoryPlan extends HistoryWindow {
  seed: number;
  /** From an interrupted start's marker: these units, but those already `done`. */
  imeis: string[] | null;
  done: string[];
}

export function planDemoHistory(options: { dataDir: string | null; days: number; now?: number; seed?: number }): DemoHistoryPlan | null {
  if (options.days <= 0) return null;
  const marker = readDemoHistoryMarker(options.dataDir);
  if (marker?.complete) return null;
  if (marker) return { from: marker.from, to: marker.to, days: marker.days, seed: marker.seed, imeis: marker.imeis, done: marker.done };
  return { ...historyWindow(options.now ?? Date.now(), options.days), seed: options.seed ?? DEFAULT_SEED, imeis: null, done: [] };
}

// ---------------------------------------------------------------------------------------------
// Filling

interface StoredUnit {
  stateTs: number | null;
  registeredAt: number;
  accountId: string | null;
}

async function readUnits(imeis: readonly string[]): Promise<Map<string, StoredUnit>> {
  const found = new Map<string, StoredUnit>();
  const table = tableName('units');
  for (let i = 0; i < imeis.length; i += 100) {
    let keys: Array<Record<string, unknown>> | undefined = imeis.slice(i, i + 100).map((imei) => ({ imei }));
    while (keys?.length) {
      const res: BatchGetCommandOutput = await dynamo().send(
        new BatchGetCommand({
          RequestItems: { [table]: { Keys: keys, ConsistentRead: true, ProjectionExpression: 'imei, accountId, createdAt, #s.ts', ExpressionAttributeNames: { '#s': 'state' } } },
        }),
      );
      for (const item of res.Responses?.[table] ?? []) {
        const ts = (item['state'] as { ts?: unknown } | undefined)?.ts;
        const created = typeof item['createdAt'] === 'string' ? Date.parse(item['createdAt']) : NaN;
        found.set(String(item['imei']), {
          stateTs: typeof ts === 'number' ? ts : null,
          registeredAt: Number.isNaN(created) ? -Infinity : created,
          accountId: typeof item['accountId'] === 'string' ? item['accountId'] : null,
        });
      }
      keys = res.UnprocessedKeys?.[table]?.Keys;
    }
  }
  return found;
}

/** One unit's part of the fill: its generated records, all of which go through ingest. */
export interface HistoryUnit {
  unit: DemoUnitSpec;
  index: number;
  records: TrackerRecord[];
}

/** A start's demo history, generated before anything is sent. */
export interface PreparedHistory {
  plan: DemoHistoryPlan;
  units: HistoryUnit[];
  positions: number;
  /** The accounts those units belong to, whose users are told while it fills. */
  accountIds: string[];
  /**
   * Where the live simulator takes up each unit nothing was stored for yet: its last generated
   * record (place, odometer, engine hours), so that live driving goes on from the history's end.
   */
  resume: Map<string, ResumeState>;
}

export interface GenerateRequest {
  units: readonly DemoUnitSpec[];
  /** Indexes into `units` (their place in the simulated fleet) to generate. */
  indexes: readonly number[];
  from: number;
  to: number;
  seed: number;
  intervals: HistoryIntervals;
}

/** The records of each requested unit, by IMEI. */
export function generateHistories(request: GenerateRequest): Record<string, TrackerRecord[]> {
  const network = new RoadNetwork();
  const out: Record<string, TrackerRecord[]> = {};
  for (const index of request.indexes) {
    const unit = request.units[index] as DemoUnitSpec;
    out[unit.imei] = generateUnitHistory({ unit, index, from: request.from, to: request.to, seed: request.seed, intervals: request.intervals, network }).records;
  }
  return out;
}

/**
 * `generateHistories` on a worker thread (demo-history-worker.ts): about a second of CPU for the
 * default fleet that would otherwise hold up everything else the runtime does at start. Where no
 * worker can load the TypeScript source (a test runner's transform), on this thread.
 */
export function generateHistoriesOffThread(request: GenerateRequest): Promise<Record<string, TrackerRecord[]>> {
  return new Promise((resolve) => {
    let settled = false;
    const fallback = () => {
      if (settled) return;
      settled = true;
      resolve(generateHistories(request));
    };
    let worker: Worker;
    try {
      worker = new Worker(new URL('./demo-history-worker.ts', import.meta.url), { workerData: request });
      // A start that fails meanwhile is not held up by it.
      worker.unref();
    } catch {
      return fallback();
    }
    worker.once('message', (result: Record<string, TrackerRecord[]>) => {
      settled = true;
      resolve(result);
      void worker.terminate();
    });
    worker.once('error', fallback);
    worker.once('exit', fallback);
  });
}

/** The fleet's units a plan may fill: the interrupted fill's, or all. */
function plannedIndexes(units: readonly DemoUnitSpec[], plan: DemoHistoryPlan): number[] {
  return units.flatMap((unit, index) => (!plan.imeis || plan.imeis.includes(unit.imei)) && !plan.done.includes(unit.imei) ? [index] : []);
}

/** Starts generating the history a plan may need, before anything is known about the stored units. */
export function generateForPlan(units: readonly DemoUnitSpec[], plan: DemoHistoryPlan, intervals: HistoryIntervals = HISTORY_INTERVALS): Promise<Record<string, TrackerRecord[]>> {
  return generateHistoriesOffThread({ units, indexes: plannedIndexes(units, plan), from: plan.from, to: plan.to, seed: plan.seed, intervals });
}

/**
 * Chooses the units and takes their generated history (`generateForPlan`, started early).
 * First start: the units nothing was ever stored for (a unit with a state has its history).
 * After an interrupted fill: the marker's units that are not done, their whole history again (what
 * was stored already is counted as duplicates by ingest and changes nothing). The marker is
 * written before anything is sent.
 */
export async function prepareDemoHistory(options: {
  units: readonly DemoUnitSpec[];
  plan: DemoHistoryPlan;
  dataDir: string | null;
  /** generateForPlan's, when it was started earlier. */
  generated?: Promise<Record<string, TrackerRecord[]>>;
}): Promise<PreparedHistory> {
  const { plan } = options;
  const generating = options.generated ?? generateForPlan(options.units, plan);
  const stored = await readUnits(options.units.map((u) => u.imei));
  const indexed = options.units.map((unit, index) => ({ unit, index }));
  const chosen = plan.imeis ? indexed.filter(({ unit }) => plan.imeis?.includes(unit.imei)) : indexed.filter(({ unit }) => stored.get(unit.imei)?.stateTs == null);
  writeMarker(options.dataDir, { version: 1, from: plan.from, to: plan.to, days: plan.days, seed: plan.seed, imeis: chosen.map(({ unit }) => unit.imei), done: plan.done, complete: false });
  const generated = await generating;
  const units: HistoryUnit[] = [];
  const resume = new Map<string, ResumeState>();
  for (const { unit, index } of chosen) {
    if (plan.done.includes(unit.imei)) continue;
    const known = stored.get(unit.imei);
    // A unit registered after the window began has no history from before its registration.
    const registeredAt = known?.registeredAt ?? -Infinity;
    const records = (generated[unit.imei] ?? []).filter((r) => r.ts >= registeredAt);
    const last = records[records.length - 1];
    if (last && known?.stateTs == null) resume.set(unit.imei, { lat: last.lat, lon: last.lon, odometer: last.odometerM, engineSeconds: last.engineS });
    units.push({ unit, index, records });
  }
  const accountIds = [...new Set(units.map((u) => stored.get(u.unit.imei)?.accountId).filter((id): id is string => Boolean(id)))];
  return { plan, units, positions: units.reduce((n, u) => n + u.records.length, 0), accountIds, resume };
}

export interface FillOptions {
  dataDir: string | null;
  /**
   * Hands one tracker message (topic, payload) to the ingest path and resolves once it is handled
   * (the runtime: the rule bridge's output on the history stream, infra/local/runtime.ts).
   */
  ingest(topic: string, payload: string): Promise<void>;
  /** Messages sent and not yet handled that the fill keeps going at most. */
  maxInFlight?: number;
  /** Units filled at once (each strictly in time order). */
  concurrency?: number;
  log?: (message: string) => void;
  /** Called as positions are handled, with the share done (0-1). */
  onProgress?: (done: number) => void;
  /** Stops the fill between messages; the marker stays incomplete. */
  signal?: AbortSignal;
}

export interface BackfillResult {
  days: number;
  units: number;
  positions: number;
  messages: number;
  ms: number;
}

/**
 * Messages sent and not yet handled: enough for each history lane to take big batches (one lookup
 * and one transition per unit and batch), few enough that stopping drops little.
 */
export const DEFAULT_MAX_IN_FLIGHT = 400;

/**
 * Sends the prepared history through ingest, each unit's messages in time order, buffered as its
 * tracker would send them; prints the progress every 10 %; marks each unit done once all of its
 * messages are handled, and the data directory's fill complete at the end.
 */
export async function fillDemoHistory(prepared: PreparedHistory, options: FillOptions): Promise<BackfillResult> {
  const started = Date.now();
  const log = options.log ?? ((m: string) => console.log(m));
  const { plan } = prepared;
  const total = prepared.positions;
  const done = [...plan.done];
  const marker = (complete: boolean, positions?: number): DemoHistoryMarker => ({
    version: 1,
    from: plan.from,
    to: plan.to,
    days: plan.days,
    seed: plan.seed,
    imeis: [...new Set([...done, ...prepared.units.map((u) => u.unit.imei)])],
    done,
    complete,
    ...(positions !== undefined ? { positions } : {}),
  });
  const result: BackfillResult = { days: plan.days, units: prepared.units.length, positions: 0, messages: 0, ms: 0 };
  const maxInFlight = options.maxInFlight ?? DEFAULT_MAX_IN_FLIGHT;
  let inFlight = 0;
  const waiting: Array<() => void> = [];
  let shownTenth = 0;
  const seconds = () => `${((Date.now() - started) / 1000).toFixed(0)} s`;
  if (total) log(`Demo history: filling ${plan.days} days (${total.toLocaleString('en-US')} positions of ${prepared.units.length} units) behind the live fleet...`);
  options.onProgress?.(0);

  const handled = (positions: number) => {
    inFlight--;
    result.positions += positions;
    result.messages++;
    options.onProgress?.(total ? result.positions / total : 1);
    const tenth = Math.floor((result.positions / total) * 10);
    if (tenth > shownTenth && tenth < 10) {
      shownTenth = tenth;
      log(`Demo history: ${tenth * 10} % (${result.positions.toLocaleString('en-US')} positions, ${seconds()})`);
    }
    for (const wake of waiting.splice(0)) wake();
  };

  /** A message that failed (the stream closed at a stop): its slot is free again, and the unit's Promise.all reports it. */
  const failed = () => {
    inFlight--;
    for (const wake of waiting.splice(0)) wake();
  };

  const sendUnit = async ({ unit, records }: HistoryUnit) => {
    const sent: Promise<void>[] = [];
    for (const chunk of bufferedMessages(records)) {
      while (inFlight >= maxInFlight && !options.signal?.aborted) await new Promise<void>((r) => waiting.push(r));
      if (options.signal?.aborted) break;
      const { topic, payload } = telemetryMessage(unit.protocol, unit.imei, chunk);
      inFlight++;
      const sending = options.ingest(topic, payload).then(() => handled(chunk.length), (error: unknown) => {
        failed();
        throw error;
      });
      // Handled at once: a message that fails while later ones wait for a slot would otherwise be an
      // unhandled rejection (a stop closes the stream under the fill); Promise.all below reports it.
      sending.catch(() => undefined);
      sent.push(sending);
    }
    await Promise.all(sent);
    if (options.signal?.aborted) throw new Error('demo history fill aborted');
    done.push(unit.imei);
    writeMarker(options.dataDir, marker(false));
  };

  const queue = [...prepared.units];
  await Promise.all(
    Array.from({ length: Math.min(options.concurrency ?? 4, queue.length) }, async () => {
      for (let next = queue.shift(); next; next = queue.shift()) await sendUnit(next);
    }),
  );
  result.ms = Date.now() - started;
  writeMarker(options.dataDir, marker(true, result.positions));
  options.onProgress?.(1);
  if (total) {
    log(`Demo history: filled ${plan.days} days, ${prepared.units.length} units, ${result.positions.toLocaleString('en-US')} positions in ${(result.ms / 1000).toFixed(1)} s`);
  }
  return result;
}
