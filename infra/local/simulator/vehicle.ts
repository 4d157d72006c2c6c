/**
 * One simulated tracker and the vehicle it sits in, without any I/O: time goes in (`advanceTo`),
 * the records the tracker would send come out. Everything random comes from the tracker's seed,
 * so the same seed and the same start time give the same records.
 *
 * The vehicle parks at a place with the ignition off, starts, drives the fastest road to another
 * place (accelerating and braking like a driver: speed limits, bends, junctions, red lights),
 * parks there with its own spot, and so on. The odometer counts the metres driven and the engine
 * hours the seconds with the ignition on; the vehicle battery charges while the engine runs and
 * drains slowly while it is off. A machine (excavator) stays at its site and works in shifts.
 */
import { operatingModePeriods } from '../../../functions/platform/adapters/device-encoding';
import type { OperatingMode } from '../../../shared/schemas/commands';
import { HARSH_GAP_MS, harshInStep, harshnessOf, longIdleS, styleRandom, type HarshEvent } from './driving-style';
import { distanceM, offset, turnDeg, type LatLon } from './geo';
import { limitAt, pointAt, RoadNetwork, type Route } from './network';
import { seededRandom, type Random } from './random';
import { workSite, type PlaceId } from './stockholm';

export type VehicleClass = 'car' | 'van' | 'lorry' | 'bus' | 'trailer' | 'machine';

/** Top speed and acceleration (m/s², below and above 50 km/h) by kind of vehicle. */
export const CLASSES: Record<Exclude<VehicleClass, 'machine'>, { maxKmh: number; accel: [number, number] }> = {
  car: { maxKmh: 110, accel: [2.2, 1.1] },
  van: { maxKmh: 100, accel: [1.8, 0.9] },
  // Swedish limits for heavy vehicles and anything towing.
  lorry: { maxKmh: 80, accel: [1.1, 0.5] },
  bus: { maxKmh: 90, accel: [1.2, 0.6] },
  trailer: { maxKmh: 80, accel: [1.6, 0.8] },
};

export function vehicleClass(vehicleType: string): VehicleClass {
  switch (vehicleType.toLowerCase()) {
    case 'van':
      return 'van';
    case 'lorry':
    case 'truck':
      return 'lorry';
    case 'bus':
      return 'bus';
    case 'trailer':
      return 'trailer';
    case 'car':
      return 'car';
    default:
      return 'machine';
  }
}

/** Comfortable braking the driver plans with, and the hardest braking the model allows (m/s²). */
export const PLAN_BRAKE = 2.0;
export const MAX_BRAKE = 3.5;
/** Reports also go out when the heading turned this much since the last one (as trackers do in bends). */
const TURN_REPORT_DEG = 30;
const MIN_EVENT_GAP_MS = 5_000;

export type SensorKind = 'reefer' | 'cabin' | 'door';

export interface BleRecord {
  mac: string;
  temp?: number;
  hum?: number;
  door?: boolean;
  bat: number;
}

/** What the tracker reports, before a protocol encodes it. */
export interface TrackerRecord {
  ts: number;
  lat: number;
  lon: number;
  speedKmh: number;
  heading: number;
  alt: number;
  sats: number;
  hdop: number;
  ignition: boolean;
  moving: boolean;
  odometerM: number;
  engineS: number;
  /** Volts; undefined when the unit has no external power (a trailer off its car). */
  extVolts: number | undefined;
  batVolts: number;
  din: Record<'2' | '3', boolean>;
  dout: Record<'1' | '2' | '3', boolean>;
  ble: BleRecord[];
  /** A harsh acceleration, braking or cornering the tracker measured since its last record. */
  harsh?: HarshEvent;
  /** Why this record was sent now: its period, or an event. */
  cause: 'periodic' | 'ignition' | 'turn' | 'output' | 'door' | 'harsh';
}

export interface ReportIntervals {
  /** Seconds between records while the ignition is on. */
  movingS: number;
  /** Seconds between records while parked. */
  parkedS: number;
}

/** Like a tracker in real-time tracking: every 15 s on the move, every 5 min parked. */
export const DEFAULT_INTERVALS: ReportIntervals = { movingS: 15, parkedS: 300 };

/** What a restarted simulator knows of a tracker from its last stored state. */
export interface ResumeState {
  lat: number;
  lon: number;
  odometer?: number;
  engineSeconds?: number;
  dout?: Record<string, boolean>;
}

export interface VehicleOptions {
  index: number;
  imei: string;
  vehicleType: string;
  seed: number;
  /** Epoch ms the vehicle's clock starts at. */
  start: number;
  network?: RoadNetwork;
  intervals?: ReportIntervals;
  /** How long a stop lasts, minutes. */
  stopMinutes?: readonly [number, number];
  /** Extra records on ignition, bends, outputs and doors. */
  eventReports?: boolean;
  /** Simulation step; records fall on step boundaries. */
  stepMs?: number;
  /** How the vehicle starts: on a trip, parked, or either (about 60 % on a trip). */
  initial?: 'random' | 'driving' | 'parked';
  resume?: ResumeState;
  sensors?: ReadonlyArray<{ mac: string; kind: SensorKind }>;
}

interface Sensor {
  mac: string;
  kind: SensorKind;
  temp: number;
  hum: number;
  bat: number;
}

type Phase =
  | { kind: 'parked'; until: number }
  | { kind: 'starting'; until: number }
  | { kind: 'driving' }
  | { kind: 'waiting'; until: number }
  | { kind: 'arriving'; until: number }
  | { kind: 'working'; until: number }
  | { kind: 'resting'; until: number };

export class SimulatedVehicle {
  readonly imei: string;
  readonly index: number;
  readonly cls: VehicleClass;
  private readonly rng: Random;
  /** The driver's style (driving-style.ts): its own draws, so it changes no trip. */
  private readonly style: Random;
  private readonly harshness: number;
  private lastHarsh = -Infinity;
  private pendingHarsh: HarshEvent | null = null;
  private readonly network: RoadNetwork;
  private readonly stepMs: number;
  private readonly stopMinutes: readonly [number, number];
  private intervals: ReportIntervals;
  private eventReports: boolean;
  private mode: OperatingMode | null = null;

  private t: number;
  private phase: Phase = { kind: 'parked', until: 0 };
  private place: PlaceId | null = null;
  private position: LatLon;
  private heading: number;
  private route: Route | null = null;
  private s = 0;
  private v = 0;
  private capIndex = 0;
  private pointHint = 1;
  private driverFactor = 1;

  private ignition = false;
  private odometerM: number;
  private engineS: number;
  private extVolts: number;
  private batVolts = 4.12;
  private sats: number;
  private readonly dout: Record<'1' | '2' | '3', boolean> = { '1': false, '2': false, '3': false };
  private readonly doutUntil: Partial<Record<'1' | '2' | '3', number>> = {};
  private doorOpenUntil = 0;
  private readonly sensors: Sensor[];

  private wasDoorOpen = false;
  private lastReport: number | null = null;
  private lastReportHeading = 0;
  private pendingEvent: TrackerRecord['cause'] | null = null;

  constructor(options: VehicleOptions) {
    this.imei = options.imei;
    this.index = options.index;
    this.cls = vehicleClass(options.vehicleType);
    this.rng = seededRandom(options.seed);
    this.style = styleRandom(options.imei, options.seed);
    this.harshness = harshnessOf(options.imei);
    this.network = options.network ?? new RoadNetwork();
    this.stepMs = options.stepMs ?? 1000;
    this.stopMinutes = options.stopMinutes ?? [5, 25];
    this.intervals = options.intervals ?? DEFAULT_INTERVALS;
    this.eventReports = options.eventReports ?? true;
    this.t = options.start;

    const km = this.rng.between(15_000, 180_000);
    this.odometerM = Math.round(options.resume?.odometer ?? km * 1000);
    // About 35 km/h on average over the vehicle's life, a little more for machines idling at work.
    this.engineS = Math.round(options.resume?.engineSeconds ?? (km / 35) * 3600);
    this.extVolts = this.rng.between(12.45, 12.75);
    this.sats = this.rng.int(7, 13);
    for (const o of ['1', '2', '3'] as const) if (options.resume?.dout?.[o] !== undefined) this.dout[o] = Boolean(options.resume.dout[o]);
    this.sensors = (options.sensors ?? []).map((s) => ({
      ...s,
      temp: s.kind === 'reefer' ? -18 + this.rng.between(-0.5, 0.5) : this.rng.between(17, 22),
      hum: s.kind === 'reefer' ? this.rng.between(70, 80) : this.rng.between(35, 50),
      bat: this.rng.between(2.95, 3.05),
    }));

    if (this.cls === 'machine') {
      this.position = offset(workSite, 15 * this.index, (this.index * 97) % 360);
      this.heading = this.rng.int(0, 359);
      this.phase = this.rng.chance(0.5) ? this.startWork() : { kind: 'resting', until: this.t + this.rng.between(0, 40) * 60_000 };
      return;
    }
    const initial = options.initial ?? 'random';
    if (options.resume) {
      this.position = { lat: options.resume.lat, lon: options.resume.lon };
      this.heading = 0;
      this.phase = { kind: 'parked', until: this.t + this.rng.between(0, 2) * 60_000 };
      return;
    }
    this.place = this.rng.pick(this.network.stops);
    this.position = this.network.parkingSpot(this.place, this.index);
    this.heading = this.rng.int(0, 359);
    if (initial === 'driving' || (initial === 'random' && this.rng.chance(0.6))) {
      this.beginTrip();
      // Somewhere along its first trip already, as a fleet is when one starts watching it.
      this.s = this.rng.between(0.05, 0.8) * (this.route as Route).length;
      while (this.capIndex < (this.route as Route).caps.length - 1 && ((this.route as Route).caps[this.capIndex]?.at ?? 0) < this.s) this.capIndex++;
      const at = pointAt(this.route as Route, this.s);
      this.position = at.point;
      this.heading = at.heading;
      this.pointHint = at.index;
    } else {
      const [min] = this.stopMinutes;
      this.phase = { kind: 'parked', until: this.t + this.rng.between(0, min) * 60_000 };
    }
  }

  /** The vehicle's clock. */
  get now(): number {
    return this.t;
  }

  get currentRoute(): Route | null {
    return this.route;
  }

  /** Runs the vehicle up to `time` and returns the records its tracker sent on the way, oldest first. */
  advanceTo(time: number): TrackerRecord[] {
    const out: TrackerRecord[] = [];
    while (this.t + this.stepMs <= time) {
      this.step(this.stepMs / 1000);
      const record = this.reportDue();
      if (record) out.push(record);
    }
    return out;
  }

  /** A record of the present state whatever the schedule (a position on request). */
  snapshot(cause: TrackerRecord['cause'] = 'periodic'): TrackerRecord {
    return this.record(cause);
  }

  /** Switches a digital output; with a duration it falls back after that many seconds. */
  setOutput(output: 1 | 2 | 3, on: boolean, durationSeconds?: number): void {
    const key = String(output) as '1' | '2' | '3';
    this.dout[key] = on;
    if (on && durationSeconds !== undefined) this.doutUntil[key] = this.t + durationSeconds * 1000;
    else delete this.doutUntil[key];
    this.event('output');
  }

  get outputs(): Readonly<Record<'1' | '2' | '3', boolean>> {
    return this.dout;
  }

  /** Whether a BLE sensor with this MAC (12 hex digits, any case) is in the vehicle, in the tracker's range. */
  hasSensor(mac: string): boolean {
    const wanted = mac.toUpperCase();
    return this.sensors.some((s) => s.mac.toUpperCase() === wanted);
  }

  /** An operating mode sets the record periods (spec section 9); only real-time modes send events. */
  setOperatingMode(mode: OperatingMode): void {
    const periods = operatingModePeriods[mode];
    this.mode = mode;
    this.intervals = { movingS: periods.moving, parkedS: periods.stop };
    this.eventReports = mode === 'realtime1min' || mode === 'realtime5min';
    if (!this.eventReports) this.pendingEvent = null;
  }

  /** Record periods set one by one (a Teltonika `setparam`), outside any named mode. */
  setReportIntervals(intervals: ReportIntervals): void {
    this.mode = null;
    this.intervals = intervals;
  }

  get operatingMode(): OperatingMode | null {
    return this.mode;
  }

  get reportIntervals(): ReportIntervals {
    return this.intervals;
  }

  private event(cause: TrackerRecord['cause']): void {
    if (this.eventReports && this.pendingEvent === null) this.pendingEvent = cause;
  }

  private startWork(): Phase {
    this.setIgnition(true);
    return { kind: 'working', until: this.t + this.rng.between(30, 120) * 60_000 };
  }

  private setIgnition(on: boolean): void {
    if (this.ignition === on) return;
    this.ignition = on;
    this.event('ignition');
  }

  private beginTrip(): void {
    const from = this.place;
    const choices = this.network.stops.filter((p) => p !== from);
    const to = this.rng.pick(choices);
    this.route = from
      ? this.network.plan({ from, spot: this.position }, to, this.index, this.rng)
      : this.network.plan({ point: this.position }, to, this.index, this.rng);
    this.place = null;
    this.s = 0;
    this.v = 0;
    this.capIndex = 0;
    this.pointHint = 1;
    this.driverFactor = this.rng.between(0.9, 1.04);
    this.setIgnition(true);
    this.phase = { kind: 'driving' };
  }

  private step(dt: number): void {
    this.t += dt * 1000;
    const phase = this.phase;
    switch (phase.kind) {
      case 'parked':
        if (this.t >= phase.until) {
          this.setIgnition(true);
          this.phase = { kind: 'starting', until: this.t + this.rng.between(20, 60) * 1000 };
        }
        break;
      case 'starting':
        if (this.t >= phase.until) {
          this.beginTrip();
          // beginTrip set the ignition already; the trip starts from standstill.
        }
        break;
      case 'driving':
        this.drive(dt);
        break;
      case 'waiting':
        if (this.t >= phase.until) this.phase = { kind: 'driving' };
        break;
      case 'arriving':
        if (this.t >= phase.until) {
          this.setIgnition(false);
          const [min, max] = this.stopMinutes;
          const parkedMs = this.rng.between(min, max) * 60_000;
          this.phase = { kind: 'parked', until: this.t + parkedMs };
          // Deliveries: the cargo door stands open for the first minutes of a stop, closed before leaving.
          if (this.sensors.some((s) => s.kind === 'door')) this.doorOpenUntil = this.t + Math.min(this.rng.between(2, 6) * 60_000, parkedMs * 0.7);
        }
        break;
      case 'working':
        if (this.t >= phase.until) {
          this.setIgnition(false);
          this.phase = { kind: 'resting', until: this.t + this.rng.between(10, 60) * 60_000 };
        }
        break;
      case 'resting':
        if (this.t >= phase.until) this.phase = this.startWork();
        break;
    }
    if (this.ignition) this.engineS += dt;
    this.updatePower(dt);
    this.updateOutputs();
    this.updateSensors(dt);
    if (this.rng.chance(0.05)) this.sats = Math.max(5, Math.min(16, this.sats + this.rng.int(-1, 1)));
  }

  private drive(dt: number): void {
    const route = this.route as Route;
    const cls = CLASSES[this.cls as Exclude<VehicleClass, 'machine'>];
    // Traffic: the pace swings a little around the driver's usual one.
    const pace = this.driverFactor * (1 + 0.04 * Math.sin(this.t / 47_000 + this.index));
    let target = (Math.min(limitAt(route, this.s), cls.maxKmh) * pace) / 3.6;
    for (let i = this.capIndex; i < route.caps.length; i++) {
      const cap = route.caps[i] as Route['caps'][number];
      const ahead = cap.at - this.s;
      if (ahead > 600) break;
      // The speed from which, after this step's travel, braking still makes the cap: v² + 2·b·dt·v ≤ vc² + 2·b·d.
      const bdt = PLAN_BRAKE * dt;
      target = Math.min(target, -bdt + Math.sqrt(bdt * bdt + (cap.kmh / 3.6) ** 2 + 2 * PLAN_BRAKE * Math.max(0, ahead)));
    }
    const accel = this.v < 50 / 3.6 ? cls.accel[0] : cls.accel[1];
    const v0 = this.v;
    const v1 = v0 < target ? Math.min(target, v0 + accel * dt) : Math.max(target, v0 - MAX_BRAKE * dt, 0);
    // Semi-implicit Euler: the step is driven at its end speed, which is what the braking plan assumed.
    let s = this.s + v1 * dt;

    // Never roll through a point where the vehicle must stop (a red light, the destination).
    let stopped = false;
    for (let i = this.capIndex; i < route.caps.length; i++) {
      const cap = route.caps[i] as Route['caps'][number];
      if (cap.at > s + 0.5) break;
      if (cap.kmh === 0) {
        s = Math.min(s, cap.at);
        if (cap.at - s < 1) {
          s = cap.at;
          stopped = true;
          this.capIndex = i + 1;
          if (i === route.caps.length - 1) this.arrive();
          else this.phase = { kind: 'waiting', until: this.t + (cap.dwellS ?? 0) * 1000 };
        }
        break;
      }
      this.capIndex = i + 1;
    }
    this.v = stopped ? 0 : v1;
    this.odometerM += s - this.s;
    this.s = s;
    const at = pointAt(route, s, this.pointHint);
    this.position = at.point;
    this.pointHint = at.index;
    const headingBefore = this.heading;
    if (this.v > 0.5 || stopped) this.heading = at.heading;
    if (this.t - this.lastHarsh >= HARSH_GAP_MS) {
      const harsh = harshInStep(this.style, this.harshness, v0, v0 + (this.v - v0) / dt, turnDeg(headingBefore, this.heading) / dt);
      if (harsh) {
        this.lastHarsh = this.t;
        this.pendingHarsh = harsh;
        this.event('harsh');
      }
    }
    if (this.v > 2 && turnDeg(this.heading, this.lastReportHeading) >= TURN_REPORT_DEG && this.t - (this.lastReport ?? 0) >= MIN_EVENT_GAP_MS) {
      this.event('turn');
    }
  }

  private arrive(): void {
    const route = this.route as Route;
    this.place = route.to;
    this.v = 0;
    // Into the spot, handbrake, then the key; now and then the engine is left running for minutes.
    const usualS = this.rng.between(10, 40);
    this.phase = { kind: 'arriving', until: this.t + (longIdleS(this.style, this.harshness) ?? usualS) * 1000 };
  }

  private updatePower(dt: number): void {
    const hours = dt / 3600;
    if (this.ignition) {
      // The alternator holds the system at about 14.1 V.
      this.extVolts += (14.1 - this.extVolts) * Math.min(1, dt / 30);
    } else if (this.extVolts > 12.8) {
      // The surface charge is gone within minutes of the engine stopping.
      this.extVolts += (12.7 - this.extVolts) * Math.min(1, dt / 120);
    } else {
      this.extVolts = Math.max(11.8, this.extVolts - 0.02 * hours);
    }
    // The tracker's own cell charges from the vehicle and drains when the vehicle battery is low.
    this.batVolts = this.extVolts > 12 ? Math.min(4.18, this.batVolts + 0.05 * hours) : Math.max(3.6, this.batVolts - 0.005 * hours);
  }

  private updateOutputs(): void {
    for (const key of ['1', '2', '3'] as const) {
      const until = this.doutUntil[key];
      if (until !== undefined && this.t >= until) {
        this.dout[key] = false;
        delete this.doutUntil[key];
        this.event('output');
      }
    }
  }

  private updateSensors(dt: number): void {
    const doorOpen = this.t < this.doorOpenUntil;
    for (const s of this.sensors) {
      if (s.kind === 'reefer') {
        const goal = doorOpen ? 8 : -18;
        s.temp += (goal - s.temp) * Math.min(1, dt / (doorOpen ? 360 : 900)) + this.rng.between(-0.02, 0.02);
      } else if (s.kind === 'cabin') {
        const goal = this.ignition ? 21 : 14 + 4 * Math.sin(this.t / 3_600_000);
        s.temp += (goal - s.temp) * Math.min(1, dt / 600) + this.rng.between(-0.02, 0.02);
      }
      s.hum = Math.max(0, Math.min(100, s.hum + this.rng.between(-0.05, 0.05)));
      s.bat = Math.max(2.5, s.bat - dt * 1e-8);
    }
    if (this.sensors.some((s) => s.kind === 'door') && doorOpen !== this.wasDoorOpen) {
      this.wasDoorOpen = doorOpen;
      this.event('door');
    }
  }

  private reportDue(): TrackerRecord | null {
    const interval = (this.ignition ? this.intervals.movingS : this.intervals.parkedS) * 1000;
    const cause = this.pendingEvent;
    if (this.lastReport !== null && this.t - this.lastReport < interval && cause === null) return null;
    // Device time is the identity of a record: two in the same instant would be one.
    if (this.lastReport !== null && this.t <= this.lastReport) return null;
    this.pendingEvent = null;
    return this.record(cause ?? 'periodic');
  }

  private record(cause: TrackerRecord['cause']): TrackerRecord {
    this.lastReport = this.t;
    this.lastReportHeading = this.heading;
    const doorOpen = this.t < this.doorOpenUntil;
    const moving = this.v > 0.3 || (this.cls === 'machine' && this.ignition);
    const harsh = this.pendingHarsh;
    this.pendingHarsh = null;
    return {
      ts: this.t,
      lat: round(this.position.lat, 6),
      lon: round(this.position.lon, 6),
      speedKmh: round(this.v * 3.6, 1),
      heading: Math.round(this.heading) % 360,
      // Stockholm's streets lie between sea level and some 50 m; enough for a plausible altitude.
      alt: Math.round(20 + 15 * Math.sin(this.position.lat * 900) * Math.cos(this.position.lon * 700)),
      sats: this.sats,
      hdop: round(0.6 + 6 / this.sats / 2, 1),
      ignition: this.ignition,
      moving,
      odometerM: Math.round(this.odometerM),
      engineS: Math.round(this.engineS),
      extVolts: this.cls === 'trailer' && !this.ignition ? undefined : round(this.extVolts, 2),
      batVolts: round(this.batVolts, 2),
      din: { '2': false, '3': false },
      dout: { ...this.dout },
      ble: this.sensors.map((s) => ({
        mac: s.mac,
        ...(s.kind === 'door' ? { door: doorOpen } : { temp: round(s.temp, 1), hum: Math.round(s.hum) }),
        bat: round(s.bat, 2),
      })),
      ...(harsh ? { harsh } : {}),
      cause,
    };
  }

  /** Metres from the current position to a point (for tests and resume). */
  distanceTo(p: LatLon): number {
    return distanceM(this.position, p);
  }
}

function round(value: number, decimals: number): number {
  const f = 10 ** decimals;
  return Math.round(value * f) / f;
}
