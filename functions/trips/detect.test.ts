import { seededRandom } from '../../infra/local/simulator/random';
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_TRIP_SETTINGS,
  closeIfParked,
  detectTrips,
  detectWindow,
  initialDetectorState,
  openTripOf,
  packDetectorState,
  parseDetectorState,
  timingMarginMs,
  tripSettingsOf,
  tripTimesOf,
  type DetectedTrip,
  type DetectorPosition,
  type DetectorState,
  type TripSettings,
} from './detect';
import { distanceM } from '../../shared/geo';
import { itemSize } from '../../scripts/cost/dynamo-size';

const S = DEFAULT_TRIP_SETTINGS;
const T0 = Date.UTC(2025, 5, 2, 6, 0, 0);
const MIN = 60_000;
const HOME = { lat: 59.3293, lon: 18.0686 };
const M_PER_DEG = 111_195.08;

/** Seeded PRNG (the simulator's mulberry32): the same tracks on every run. */
const prng = (seed: number): (() => number) => seededRandom(seed).next;

function offset(lat: number, lon: number, northM: number, eastM: number): { lat: number; lon: number } {
  return { lat: lat + northM / M_PER_DEG, lon: lon + eastM / (M_PER_DEG * Math.cos((lat * Math.PI) / 180)) };
}

type Over = Partial<DetectorPosition>;

/**
 * Builds a track: a cursor (time, place, odometer) that stands or drives, emitting one position per
 * step. Every emitted position is after the step's time advance.
 */
class Track {
  readonly out: DetectorPosition[] = [];
  ts: number;
  lat: number;
  lon: number;
  /** The true distance driven, metres; reported as odometer when `odometer` is set. */
  odo = 12_345_000;
  constructor(
    private readonly opts: { odometer?: boolean; odometerFactor?: number } = {},
    start = { ts: T0, ...HOME },
  ) {
    this.ts = start.ts;
    this.lat = start.lat;
    this.lon = start.lon;
  }
  emit(over: Over = {}): DetectorPosition {
    const p: DetectorPosition = {
      ts: this.ts,
      lat: this.lat,
      lon: this.lon,
      fix: true,
      speed: 0,
      ignition: undefined,
      movement: undefined,
      odometer: this.opts.odometer ? Math.round(this.odo) : undefined,
      ...over,
    };
    this.out.push(p);
    return p;
  }
  /** One position `ms` later at the same place. */
  tick(ms: number, over: Over = {}): this {
    this.point(ms, over);
    return this;
  }
  /** The same, answering the position. */
  point(ms: number, over: Over = {}): DetectorPosition {
    this.ts += ms;
    return this.emit(over);
  }
  /** Stands for `ms`, one position every `every` ms; `jitter` moves each reported fix, not the car. */
  stand(ms: number, every: number, over: Over = {}, jitter?: (i: number) => { north: number; east: number; speed?: number }): this {
    for (let t = every, i = 0; t <= ms; t += every, i++) {
      this.ts += every;
      if (jitter) {
        const j = jitter(i);
        const at = offset(this.lat, this.lon, j.north, j.east);
        this.emit({ lat: at.lat, lon: at.lon, speed: j.speed ?? 0, ...over });
      } else {
        this.emit(over);
      }
    }
    return this;
  }
  /** Moves `metres` on a bearing without reporting. */
  move(metres: number, bearingDeg: number): this {
    const b = (bearingDeg * Math.PI) / 180;
    const at = offset(this.lat, this.lon, metres * Math.cos(b), metres * Math.sin(b));
    this.lat = at.lat;
    this.lon = at.lon;
    this.odo += metres * (this.opts.odometerFactor ?? 1);
    return this;
  }
  /** Drives at a steady speed for `ms`, one position every `every` ms. */
  drive(ms: number, every: number, kmh: number, bearingDeg: number, over: Over = {}): this {
    for (let t = every; t <= ms; t += every) {
      this.ts += every;
      this.move((kmh * every) / 3_600, bearingDeg);
      this.emit({ speed: kmh, ...over });
    }
    return this;
  }
  /** Time passes without a report (the car may move meanwhile with `move`). */
  silence(ms: number): this {
    this.ts += ms;
    return this;
  }
}

const ON = { ignition: true } as const;
const OFF = { ignition: false } as const;

function run(positions: readonly DetectorPosition[], settings: TripSettings = S): { state: DetectorState; closed: DetectedTrip[] } {
  return detectTrips(initialDetectorState(), positions, settings);
}

/** Stored and read back as the handler does (packed, JSON through DynamoDB). */
function stored(state: DetectorState): DetectorState {
  const back = parseDetectorState(JSON.parse(JSON.stringify(packDetectorState(state))));
  if (!back) throw new Error('state did not survive storage');
  return back;
}

describe('settings', () => {
  it('takes time-till-parked from the unit when it is 1..1440 minutes, else the default of 3 minutes', () => {
    expect(DEFAULT_TRIP_SETTINGS.timeTillParkedMs).toBe(180_000);
    expect(tripSettingsOf({}).timeTillParkedMs).toBe(180_000);
    expect(tripSettingsOf({ timeTillParkedMinutes: 10 })).toEqual({ ...DEFAULT_TRIP_SETTINGS, timeTillParkedMs: 600_000 });
    expect(tripSettingsOf({ timeTillParkedMinutes: 1 }).timeTillParkedMs).toBe(60_000);
    expect(tripSettingsOf({ timeTillParkedMinutes: 1440 }).timeTillParkedMs).toBe(86_400_000);
    for (const bad of [0, 1441, -5, 2.5, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(tripSettingsOf({ timeTillParkedMinutes: bad }).timeTillParkedMs).toBe(180_000);
    }
  });
});

describe('state', () => {
  it('survives JSON and zod, and reads garbage or absence as undefined', () => {
    const t = new Track().stand(5 * MIN, MIN, OFF).tick(10_000, ON).drive(5 * MIN, 10_000, 50, 90, ON);
    const { state } = run(t.out);
    expect(state.trip).not.toBeNull();
    expect(state.pending).not.toBeNull();
    // Packed as the unit item keeps it, and as objects, as states were stored before.
    expect(parseDetectorState(JSON.parse(JSON.stringify(packDetectorState(state))))).toEqual(state);
    expect(parseDetectorState(JSON.parse(JSON.stringify(state)))).toEqual(state);
    expect(parseDetectorState(packDetectorState(initialDetectorState()))).toEqual(initialDetectorState());
    expect(parseDetectorState(initialDetectorState())).toEqual(initialDetectorState());
    expect(parseDetectorState({ ...packDetectorState(state), s: [null, true, null, '12'] })).toBeUndefined();
    expect(parseDetectorState(undefined)).toBeUndefined();
    expect(parseDetectorState(null)).toBeUndefined();
    expect(parseDetectorState({ v: 2 })).toBeUndefined();
    expect(parseDetectorState({ ...state, counterM: '12' })).toBeUndefined();
    expect(parseDetectorState('{}')).toBeUndefined();
  });

  it('packs into lists: every field of every point back as it was, in about half the bytes DynamoDB bills', () => {
    // A trip stopped at an ignition off (its times at the off kept), then a state from before the times were kept.
    const t = new Track().stand(5 * MIN, MIN, OFF).tick(10_000, ON).drive(5 * MIN, 10_000, 50, 90, ON).tick(10_000, OFF).stand(MIN, 10_000, OFF);
    const { state } = run(t.out);
    expect(state.trip?.off).not.toBeNull();
    expect(state.trip?.offMovingMs).toBeDefined();
    expect(stored(state)).toEqual(state);
    const legacy: DetectorState = { ...state, trip: state.trip && { start: state.trip.start, last: state.trip.last, off: null, maxSpeedKmh: state.trip.maxSpeedKmh } };
    expect(stored(legacy)).toEqual(legacy);
    expect(itemSize({ detector: packDetectorState(state) })).toBeLessThan(itemSize({ detector: state }) * 0.6);
  });

  it('stays small: nothing in it grows with the trip', () => {
    const t = new Track().tick(10_000, ON).drive(3 * 3_600_000, 1_000, 90, 45, ON);
    const short = new Track().tick(10_000, ON).drive(MIN, 1_000, 90, 45, ON);
    const long = JSON.stringify(run(t.out).state);
    expect(itemSize({ detector: packDetectorState(run(t.out).state) })).toBeLessThan(400);
    expect(long.length).toBeLessThan(1_200);
    // Ten thousand positions more do not make it longer than a few digits.
    expect(Math.abs(long.length - JSON.stringify(run(short.out).state).length)).toBeLessThan(40);
  });
});

describe('ignition-based trip', () => {
  it('starts at ignition on, stops at ignition off, measures the drive', () => {
    const t = new Track();
    t.stand(10 * MIN, MIN, OFF);
    const on = t.point(15_000, { ...ON, speed: 0 });
    t.drive(10 * MIN, 10_000, 50, 90, ON);
    const off = t.point(10_000, { ...OFF, speed: 0 });
    t.stand(10 * MIN, MIN, OFF);

    const { closed, state } = run(t.out);
    expect(closed).toHaveLength(1);
    const trip = closed[0] as DetectedTrip;
    expect(trip.basis).toBe('ignition');
    expect(trip.startTs).toBe(on.ts);
    expect([trip.startLat, trip.startLon]).toEqual([on.lat, on.lon]);
    expect(trip.stopTs).toBe(off.ts);
    expect([trip.stopLat, trip.stopLon]).toEqual([off.lat, off.lon]);
    // 50 km/h for 10 minutes.
    expect(trip.distanceM).toBeGreaterThan(8_250);
    expect(trip.distanceM).toBeLessThan(8_420);
    expect(trip.counterSource).toBe('computed');
    expect(trip.stopCounterM - trip.startCounterM).toBe(trip.distanceM);
    expect(trip.maxSpeedKmh).toBe(50);
    expect(state.trip).toBeNull();
    expect(detectWindow(t.out, S)).toEqual(closed);
  });

  it('times the drive: in motion, and idling with the ignition on while standing, the same in batches and in a window', () => {
    const t = new Track();
    t.stand(10 * MIN, MIN, OFF);
    t.point(15_000, { ...ON, speed: 0 });
    // Warming up 2 minutes, 10 minutes on the road, a minute at a red light, 5 more minutes, then off.
    t.stand(2 * MIN, 30_000, ON).drive(10 * MIN, 10_000, 50, 90, ON).stand(MIN, 30_000, ON).drive(5 * MIN, 10_000, 50, 90, ON);
    t.point(10_000, { ...OFF, speed: 0 });
    t.stand(10 * MIN, MIN, OFF);

    const { closed } = run(t.out);
    expect(closed.map((trip) => [trip.movingS, trip.idleS])).toEqual([[15 * 60, 3 * 60]]);
    // Fed in batches of 7 with the state stored between them, and re-detected as a window: the same figures.
    let state = initialDetectorState();
    const batched: DetectedTrip[] = [];
    for (let i = 0; i < t.out.length; i += 7) {
      const step = detectTrips(stored(state), t.out.slice(i, i + 7), S);
      state = step.state;
      batched.push(...step.closed);
    }
    expect(batched).toEqual(closed);
    expect(detectWindow(t.out, S)).toEqual(closed);
  });

  it('a unit without ignition has its time in motion and no idle time', () => {
    const t = new Track();
    t.stand(10 * MIN, MIN);
    t.drive(10 * MIN, 10_000, 50, 90).stand(MIN, 30_000).drive(5 * MIN, 10_000, 50, 90);
    t.stand(10 * MIN, MIN);
    const [trip] = run(t.out).closed;
    expect(trip?.basis).toBe('movement');
    // From the parked position it left (the trip's start) to the last moving one, without the minute it stood.
    expect([trip?.movingS, trip?.idleS]).toEqual([15 * 60, 0]);
  });

  it('ignores movement while the ignition is off: a towed car makes no trip', () => {
    const t = new Track().stand(10 * MIN, MIN, OFF).drive(10 * MIN, 10_000, 40, 0, { ...OFF, movement: true }).stand(10 * MIN, MIN, OFF);
    expect(detectWindow(t.out, S)).toEqual([]);
    // The counter still advanced by the tow.
    expect(run(t.out).state.counterM).toBeGreaterThan(6_000);
  });

  it('keeps the last known ignition for positions that do not report it', () => {
    const t = new Track().stand(5 * MIN, MIN, OFF);
    const on = t.point(10_000, ON);
    t.drive(10 * MIN, 10_000, 50, 90); // ignition not in these records
    const off = t.point(10_000, OFF);
    t.stand(10 * MIN, MIN);
    const trips = detectWindow(t.out, S);
    expect(trips.map((x) => [x.startTs, x.stopTs, x.basis])).toEqual([[on.ts, off.ts, 'ignition']]);
  });
});

describe('movement-based trip', () => {
  it('starts where the car stood just before it moved and stops at the last moving position', () => {
    const t = new Track();
    t.stand(10 * MIN, 30_000, { movement: false });
    const parked = t.out[t.out.length - 1] as DetectorPosition;
    t.drive(8 * MIN, 10_000, 40, 180, { movement: true });
    const last = t.out[t.out.length - 1] as DetectorPosition;
    t.stand(10 * MIN, 30_000, { movement: false });

    const trips = detectWindow(t.out, S);
    expect(trips).toHaveLength(1);
    const trip = trips[0] as DetectedTrip;
    expect(trip.basis).toBe('movement');
    expect([trip.startTs, trip.startLat, trip.startLon]).toEqual([parked.ts, parked.lat, parked.lon]);
    expect([trip.stopTs, trip.stopLat, trip.stopLon]).toEqual([last.ts, last.lat, last.lon]);
    expect(trip.distanceM).toBeGreaterThan(5_250);
    expect(trip.distanceM).toBeLessThan(5_400);
    expect(trip.maxSpeedKmh).toBe(40);
  });

  it('starts at the first moving position when the last parked one is older than time-till-parked', () => {
    const t = new Track().stand(60 * MIN, 20 * MIN, { movement: false }).silence(10 * MIN);
    const first = t.point(0, { movement: true, speed: 30 });
    t.drive(5 * MIN, 10_000, 30, 0, { movement: true }).stand(10 * MIN, MIN, { movement: false });
    const trips = detectWindow(t.out, S);
    expect(trips.map((x) => x.startTs)).toEqual([first.ts]);
  });

  it('detects movement by displacement when the tracker reports neither speed nor a movement flag', () => {
    const t = new Track();
    t.stand(10 * MIN, MIN, { speed: undefined });
    t.drive(6 * MIN, 30_000, 36, 90, { speed: undefined });
    const last = t.out[t.out.length - 1] as DetectorPosition;
    t.stand(10 * MIN, MIN, { speed: undefined });
    const trips = detectWindow(t.out, S);
    expect(trips).toHaveLength(1);
    expect((trips[0] as DetectedTrip).stopTs).toBe(last.ts);
    expect((trips[0] as DetectedTrip).distanceM).toBeCloseTo(3_600, -1);
    // From the fixes: 300 m every 30 s.
    expect((trips[0] as DetectedTrip).maxSpeedKmh).toBeCloseTo(36, 0);
  });
});

describe('jitter while parked', () => {
  /** Six hours parked: fixes 20-80 m around the spot at 0-4 km/h, a single 300-1000 m spike now and then. */
  function parkedNight(seed: number, every: number, over: Over): DetectorPosition[] {
    const rnd = prng(seed);
    const t = new Track();
    t.stand(6 * 3_600_000, every, over, (i) => {
      const spike = i % 47 === 23;
      const r = spike ? 300 + rnd() * 700 : 20 + rnd() * 60;
      const a = rnd() * 2 * Math.PI;
      return { north: r * Math.cos(a), east: r * Math.sin(a), speed: Math.floor(rnd() * 5) };
    });
    return t.out;
  }

  it.each([
    ['movement basis, fix every minute', 60_000, {}],
    ['movement basis with a movement flag that stays false', 60_000, { movement: false }],
    ['ignition basis, ignition off', 60_000, OFF],
    ['fix every 10 seconds', 10_000, {}],
    ['fix every 5 minutes', 300_000, {}],
  ] as const)('makes no trip and drives no metre: %s', (_name, every, over) => {
    for (const seed of [1, 2, 3]) {
      const positions = parkedNight(seed, every, over);
      expect(positions.length).toBeGreaterThan(70);
      expect(detectWindow(positions, S)).toEqual([]);
      const { state } = run(positions);
      expect(state.counterM).toBe(0);
      expect(openTripOf(state)).toBeUndefined();
    }
  });

  it('a car that really left makes a trip in the same jitter', () => {
    // The control for the test above: the same night with a real 2 km drive in the middle.
    const rnd = prng(7);
    const jitter = () => {
      const r = 20 + rnd() * 60;
      const a = rnd() * 2 * Math.PI;
      return { north: r * Math.cos(a), east: r * Math.sin(a), speed: Math.floor(rnd() * 5) };
    };
    const t = new Track().stand(2 * 3_600_000, MIN, {}, jitter).drive(4 * MIN, 10_000, 30, 270).stand(2 * 3_600_000, MIN, {}, jitter);
    const trips = detectWindow(t.out, S);
    expect(trips).toHaveLength(1);
    expect((trips[0] as DetectedTrip).distanceM).toBeGreaterThan(1_800);
    expect((trips[0] as DetectedTrip).distanceM).toBeLessThan(2_200);
  });
});

describe('stops inside a trip', () => {
  it('a 2-minute ignition-off stop (fuel) does not split the trip', () => {
    const t = new Track();
    const on = t.point(MIN, ON);
    t.drive(5 * MIN, 10_000, 60, 0, ON).tick(10_000, { ...OFF, speed: 0 });
    t.stand(2 * MIN, 30_000, OFF).tick(10_000, ON).drive(5 * MIN, 10_000, 60, 0, ON);
    const off = t.point(10_000, OFF);
    t.stand(10 * MIN, MIN, OFF);
    const trips = detectWindow(t.out, S);
    expect(trips.map((x) => [x.startTs, x.stopTs])).toEqual([[on.ts, off.ts]]);
    expect((trips[0] as DetectedTrip).distanceM).toBeGreaterThan(9_900);
  });

  it('a 2-minute standstill (red light, queue) does not split a movement trip', () => {
    const t = new Track().stand(5 * MIN, MIN, { movement: false });
    t.drive(5 * MIN, 10_000, 60, 0, { movement: true }).stand(2 * MIN + 50_000, 10_000, { movement: false });
    t.drive(5 * MIN, 10_000, 60, 0, { movement: true });
    const last = t.out[t.out.length - 1] as DetectorPosition;
    t.stand(10 * MIN, MIN, { movement: false });
    const trips = detectWindow(t.out, S);
    expect(trips.map((x) => x.stopTs)).toEqual([last.ts]);
  });

  it('an ignition-off stop longer than time-till-parked splits it in two at the ignition off and on', () => {
    const t = new Track();
    const on1 = t.point(MIN, ON);
    t.drive(5 * MIN, 10_000, 60, 0, ON);
    const off1 = t.point(10_000, { ...OFF, speed: 0 });
    t.stand(3 * MIN + 30_000, 30_000, OFF);
    const on2 = t.point(10_000, ON);
    t.drive(5 * MIN, 10_000, 60, 0, ON);
    const off2 = t.point(10_000, OFF);
    t.stand(10 * MIN, MIN, OFF);
    const trips = detectWindow(t.out, S);
    expect(trips.map((x) => [x.startTs, x.stopTs])).toEqual([
      [on1.ts, off1.ts],
      [on2.ts, off2.ts],
    ]);
    // The odometer chain is unbroken: the car did not move between the trips.
    expect((trips[1] as DetectedTrip).startCounterM).toBe((trips[0] as DetectedTrip).stopCounterM);
  });

  it('a movement stop longer than time-till-parked splits it in two', () => {
    const t = new Track();
    t.drive(5 * MIN, 10_000, 60, 0, { movement: true });
    const last1 = t.out[t.out.length - 1] as DetectorPosition;
    t.stand(4 * MIN, 30_000, { movement: false });
    const parked = t.out[t.out.length - 1] as DetectorPosition;
    t.drive(5 * MIN, 10_000, 60, 0, { movement: true }).stand(10 * MIN, MIN, { movement: false });
    const trips = detectWindow(t.out, S);
    expect(trips).toHaveLength(2);
    expect((trips[0] as DetectedTrip).stopTs).toBe(last1.ts);
    expect((trips[1] as DetectedTrip).startTs).toBe(parked.ts);
  });
});

describe('a gap in reporting while driving', () => {
  it('continues the trip when the next position is still driving at a believable average speed (tunnel)', () => {
    const t = new Track();
    const on = t.point(MIN, ON);
    t.drive(5 * MIN, 10_000, 70, 90, ON);
    // Eight minutes without a fix, still driving: 9 km further on.
    t.silence(8 * MIN).move(9_000, 90);
    t.tick(0, { ...ON, speed: 70 });
    t.drive(5 * MIN, 10_000, 70, 90, ON);
    const off = t.point(10_000, OFF);
    t.stand(10 * MIN, MIN, OFF);
    const trips = detectWindow(t.out, S);
    expect(trips.map((x) => [x.startTs, x.stopTs])).toEqual([[on.ts, off.ts]]);
    // The gap's straight line counts.
    expect((trips[0] as DetectedTrip).distanceM).toBeGreaterThan(5_800 + 9_000 + 5_700);
  });

  it('ends the trip at the last position before the gap when the next one shows it parked far away', () => {
    const t = new Track();
    t.tick(MIN, ON).drive(5 * MIN, 10_000, 70, 90, ON);
    const beforeGap = t.out[t.out.length - 1] as DetectorPosition;
    t.silence(20 * MIN).move(3_000, 90);
    t.tick(0, OFF);
    t.stand(10 * MIN, MIN, OFF);
    const run1 = run(t.out);
    expect(run1.closed.map((x) => [x.stopTs, x.stopLat, x.stopLon])).toEqual([[beforeGap.ts, beforeGap.lat, beforeGap.lon]]);
    // The 3 km are on the counter all the same: the next trip's start counter shows them.
    expect(run1.state.counterM - (run1.closed[0] as DetectedTrip).stopCounterM).toBeGreaterThan(2_950);
  });

  it('the same with the movement basis: the next position reports no movement', () => {
    const t = new Track();
    t.drive(5 * MIN, 10_000, 70, 90, { movement: true });
    const beforeGap = t.out[t.out.length - 1] as DetectorPosition;
    t.silence(20 * MIN).move(3_000, 90).tick(0, { movement: false }).stand(10 * MIN, MIN, { movement: false });
    expect(detectWindow(t.out, S).map((x) => x.stopTs)).toEqual([beforeGap.ts]);
  });

  it('splits when the unit went nowhere during a long gap (underground garage, its parking fixes lost)', () => {
    const t = new Track();
    const on1 = t.point(MIN, ON);
    t.drive(6 * MIN, 10_000, 50, 90, ON);
    const entrance = t.out[t.out.length - 1] as DetectorPosition;
    // Two hours in the garage: ignition off and on without a fix, so not a single position.
    t.silence(2 * 3_600_000).move(60, 270);
    const exit = t.point(0, { ...ON, speed: 15 });
    t.drive(6 * MIN, 10_000, 50, 0, ON);
    const off = t.point(10_000, OFF);
    t.stand(10 * MIN, MIN, OFF);
    expect(detectWindow(t.out, S).map((x) => [x.startTs, x.stopTs])).toEqual([
      [on1.ts, entrance.ts],
      [exit.ts, off.ts],
    ]);
  });
});

describe('batches', () => {
  function day(): DetectorPosition[] {
    const t = new Track({ odometer: true });
    t.stand(30 * MIN, MIN, OFF).tick(10_000, ON).drive(12 * MIN, 10_000, 60, 30, ON).tick(10_000, OFF);
    t.stand(45 * MIN, MIN, OFF).tick(10_000, ON).drive(20 * MIN, 5_000, 80, 200, ON).tick(10_000, OFF).stand(30 * MIN, MIN, OFF);
    return t.out;
  }

  it('redelivery of a batch changes nothing', () => {
    const all = day();
    const first = all.slice(0, 60);
    const second = all.slice(60);
    const a = detectTrips(initialDetectorState(), first, S);
    const again = detectTrips(stored(a.state), first, S);
    expect(again.closed).toEqual([]);
    expect(again.state).toEqual(a.state);
    // A redelivery that overlaps the next batch: only the new part counts.
    const overlap = detectTrips(again.state, all.slice(40, 90), S);
    const rest = detectTrips(stored(overlap.state), all.slice(90), S);
    const once = detectTrips(stored(a.state), second, S);
    expect([...a.closed, ...overlap.closed, ...rest.closed]).toEqual([...a.closed, ...once.closed]);
    expect(rest.state).toEqual(once.state);
    expect(once.closed.length + a.closed.length).toBe(2);
  });

  it('a shuffled batch gives the trips of the ordered one', () => {
    const all = day();
    const rnd = prng(42);
    const shuffled = [...all];
    for (let i = shuffled.length - 1; i > 0; i--) {
      const j = Math.floor(rnd() * (i + 1));
      [shuffled[i], shuffled[j]] = [shuffled[j] as DetectorPosition, shuffled[i] as DetectorPosition];
    }
    expect(shuffled.map((p) => p.ts)).not.toEqual(all.map((p) => p.ts));
    const ordered = run(all);
    const mixed = run(shuffled);
    expect(ordered.closed).toHaveLength(2);
    expect(mixed).toEqual(ordered);
    // The caller's array is left as it was.
    expect(shuffled.map((p) => p.ts)).not.toEqual(all.map((p) => p.ts));
  });

  it('positions without a fix are ignored', () => {
    const t = new Track().stand(5 * MIN, MIN, OFF);
    const noFix = t.point(10_000, { ...ON, fix: false });
    t.stand(5 * MIN, MIN, { ...OFF, fix: false, lat: 0, lon: 0 });
    expect(detectWindow(t.out, S)).toEqual([]);
    expect(run(t.out).state.ignition).toBe(false);
    expect(noFix.ignition).toBe(true);
  });
});

describe('GPS jumps and spikes', () => {
  function trackWith(replace: (p: DetectorPosition, i: number) => DetectorPosition): DetectorPosition[] {
    const t = new Track();
    t.stand(5 * MIN, MIN, OFF).tick(10_000, ON).drive(10 * MIN, 10_000, 60, 45, ON).tick(10_000, OFF).stand(10 * MIN, MIN, OFF);
    return t.out.map(replace);
  }
  const clean = trackWith((p) => p);
  const cleanTrip = detectWindow(clean, S)[0] as DetectedTrip;

  it('a fix 40 km off (implausible speed) is skipped for distance and speed', () => {
    const jumped = trackWith((p, i) => (i === 30 ? { ...p, lat: p.lat + 0.36, speed: 60 } : p));
    const trips = detectWindow(jumped, S);
    expect(trips).toHaveLength(1);
    expect(Math.abs((trips[0] as DetectedTrip).distanceM - cleanTrip.distanceM)).toBeLessThanOrEqual(1);
    expect((trips[0] as DetectedTrip).maxSpeedKmh).toBe(60);
  });

  it('a run of jumps is skipped too, and the first good fix after them is taken', () => {
    const jumped = trackWith((p, i) => (i >= 30 && i < 34 ? { ...p, lat: p.lat - 0.5 } : p));
    const trips = detectWindow(jumped, S);
    expect(Math.abs((trips[0] as DetectedTrip).distanceM - cleanTrip.distanceM)).toBeLessThanOrEqual(1);
  });

  it('a single spike 400 m off the road (believable speed) is skipped too', () => {
    const spiked = trackWith((p, i) => (i === 30 ? { ...p, ...offset(p.lat, p.lon, 280, -280) } : p));
    const trips = detectWindow(spiked, S);
    expect(Math.abs((trips[0] as DetectedTrip).distanceM - cleanTrip.distanceM)).toBeLessThanOrEqual(1);
  });

  it('a spike at the stop does not move the stop address', () => {
    const t = new Track();
    t.tick(MIN, ON).drive(5 * MIN, 10_000, 60, 45, ON);
    const off = t.point(10_000, OFF);
    t.tick(MIN, { ...OFF, ...offset(t.lat, t.lon, 500, 0) });
    t.stand(10 * MIN, MIN, OFF);
    const trip = detectWindow(t.out, S)[0] as DetectedTrip;
    expect([trip.stopLat, trip.stopLon]).toEqual([off.lat, off.lon]);
    expect(Math.round(run(t.out).state.counterM)).toBe(trip.stopCounterM);
  });
});

describe('odometer', () => {
  function twoTrips(opts: { odometer?: boolean; odometerFactor?: number }): { t: Track; trips: DetectedTrip[] } {
    const t = new Track(opts);
    t.stand(5 * MIN, MIN, OFF).tick(10_000, ON).drive(10 * MIN, 10_000, 60, 0, ON).tick(10_000, OFF).stand(10 * MIN, MIN, OFF);
    t.tick(10_000, ON).drive(10 * MIN, 10_000, 60, 90, ON).tick(10_000, OFF).stand(10 * MIN, MIN, OFF);
    return { t, trips: detectWindow(t.out, S) };
  }

  it("takes distance and counters from the tracker's odometer when both ends have one", () => {
    // The wheel odometer reads 3 % more than the GPS distance.
    const { trips } = twoTrips({ odometer: true, odometerFactor: 1.03 });
    expect(trips).toHaveLength(2);
    for (const trip of trips) {
      expect(trip.counterSource).toBe('tracker');
      expect(trip.distanceM).toBe(trip.stopCounterM - trip.startCounterM);
      expect(trip.distanceM).toBeGreaterThan(10_250);
      expect(trip.distanceM).toBeLessThan(10_350);
    }
    expect((trips[0] as DetectedTrip).startCounterM).toBe(12_345_000);
    expect((trips[1] as DetectedTrip).startCounterM).toBe((trips[0] as DetectedTrip).stopCounterM);
  });

  it('computes distance and a counter carried in the state without one', () => {
    const { trips } = twoTrips({});
    expect(trips).toHaveLength(2);
    for (const trip of trips) {
      expect(trip.counterSource).toBe('computed');
      expect(trip.distanceM).toBeGreaterThan(9_950);
      expect(trip.distanceM).toBeLessThan(10_050);
    }
    expect((trips[0] as DetectedTrip).startCounterM).toBe(0);
    expect((trips[1] as DetectedTrip).startCounterM).toBe((trips[0] as DetectedTrip).stopCounterM);
  });

  it('falls back to the computed counter when the odometer went backwards (reset, new tracker)', () => {
    const t = new Track({ odometer: true });
    t.tick(MIN, ON).drive(10 * MIN, 10_000, 60, 0, ON);
    t.odo = 500;
    t.tick(10_000, OFF);
    t.stand(10 * MIN, MIN, OFF);
    const trip = detectWindow(t.out, S)[0] as DetectedTrip;
    expect(trip.counterSource).toBe('computed');
    expect(trip.distanceM).toBeGreaterThan(9_900);
  });

  it('uses an earlier reading for the start when the car has not moved since', () => {
    const t = new Track({ odometer: true });
    t.stand(5 * MIN, MIN, OFF);
    const on = t.point(10_000, { ...ON, odometer: undefined });
    t.drive(10 * MIN, 10_000, 60, 0, ON).tick(10_000, OFF).stand(10 * MIN, MIN, OFF);
    const trip = detectWindow(t.out, S)[0] as DetectedTrip;
    expect(on.odometer).toBeUndefined();
    expect(trip.counterSource).toBe('tracker');
    expect(trip.startCounterM).toBe(12_345_000);
  });
});

describe('custom time-till-parked', () => {
  function fiveMinuteStop(): DetectorPosition[] {
    const t = new Track();
    t.tick(MIN, ON).drive(5 * MIN, 10_000, 60, 0, ON).tick(10_000, OFF).stand(5 * MIN, MIN, OFF);
    t.tick(10_000, ON).drive(5 * MIN, 10_000, 60, 0, ON).tick(10_000, OFF).stand(15 * MIN, MIN, OFF);
    return t.out;
  }

  it('a 5-minute stop splits with 3 minutes and does not with 10', () => {
    expect(detectWindow(fiveMinuteStop(), tripSettingsOf({}))).toHaveLength(2);
    expect(detectWindow(fiveMinuteStop(), tripSettingsOf({ timeTillParkedMinutes: 10 }))).toHaveLength(1);
    expect(detectWindow(fiveMinuteStop(), tripSettingsOf({ timeTillParkedMinutes: 4 }))).toHaveLength(2);
    expect(detectWindow(fiveMinuteStop(), tripSettingsOf({ timeTillParkedMinutes: 6 }))).toHaveLength(1);
  });
});

describe('minimum trips', () => {
  it('drops a yard move and a short hop, but the counter advances', () => {
    const t = new Track();
    // 150 m in the yard over 2 minutes.
    t.tick(MIN, ON).drive(2 * MIN, 10_000, 4.5, 0, { ...ON, speed: 6 }).tick(10_000, OFF).stand(10 * MIN, MIN, OFF);
    // 400 m in 40 seconds.
    t.tick(10_000, ON).drive(40_000, 10_000, 36, 0, ON).tick(10_000, OFF).stand(10 * MIN, MIN, OFF);
    const { state, closed } = run(t.out);
    expect(closed).toEqual([]);
    expect(state.counterM).toBeGreaterThan(500);
    const lenient = { ...S, minTripDistanceM: 100, minTripDurationMs: 30_000 };
    expect(detectWindow(t.out, lenient)).toHaveLength(2);
  });
});

describe('closeIfParked', () => {
  it('closes the trip of a tracker that went silent at its last movement, not before time-till-parked', () => {
    const t = new Track();
    const on = t.point(MIN, ON);
    t.drive(10 * MIN, 10_000, 50, 90, ON);
    const off = t.point(10_000, OFF); // and then nothing: the tracker sleeps
    const { state, closed } = run(t.out);
    expect(closed).toEqual([]);
    expect(openTripOf(state)).toMatchObject({ startTs: on.ts, lastMovingTs: off.ts });
    expect((openTripOf(state)?.distanceM ?? 0)).toBeGreaterThan(8_000);

    const early = closeIfParked(state, off.ts + 3 * MIN - 1, S);
    expect(early.closed).toEqual([]);
    expect(early.state).toBe(state);

    const due = closeIfParked(stored(state), off.ts + 3 * MIN, S);
    expect(due.closed.map((x) => [x.startTs, x.stopTs])).toEqual([[on.ts, off.ts]]);
    expect(openTripOf(due.state)).toBeUndefined();
    expect(closeIfParked(due.state, off.ts + 60 * MIN, S).closed).toEqual([]);

    // The next morning's positions make the next trip, and the closed one does not come again.
    const next = new Track({}, { ts: off.ts + 12 * 3_600_000, lat: off.lat, lon: off.lon });
    const on2 = next.tick(0, OFF).point(MIN, ON);
    next.drive(10 * MIN, 10_000, 50, 270, ON).tick(10_000, OFF).stand(10 * MIN, MIN, OFF);
    const later = detectTrips(due.state, next.out, S);
    expect(later.closed.map((x) => x.startTs)).toEqual([on2.ts]);
  });

  it('closes a silent movement trip at the last moving position, with the custom time-till-parked', () => {
    const t = new Track();
    t.drive(10 * MIN, 10_000, 50, 90, { movement: true });
    const last = t.out[t.out.length - 1] as DetectorPosition;
    const ten = tripSettingsOf({ timeTillParkedMinutes: 10 });
    const { state } = run(t.out, ten);
    expect(closeIfParked(state, last.ts + 9 * MIN, ten).closed).toEqual([]);
    expect(closeIfParked(state, last.ts + 10 * MIN, ten).closed.map((x) => x.stopTs)).toEqual([last.ts]);
  });
});

// ---------------------------------------------------------------------------------------------
// The incremental property: random tracks, random batches.

/** A random day of one unit: parking with jitter and spikes, drives, short and long stops, gaps, jumps, lost fixes, duplicates. */
function randomTrack(rnd: () => number): DetectorPosition[] {
  const ignition = rnd() < 0.5;
  const movementFlag = rnd() < 0.5;
  const speedKnown = rnd() < 0.85;
  const odometer = rnd() < 0.4;
  const t = new Track({ odometer, odometerFactor: 1 + rnd() * 0.05 }, { ts: T0 + Math.floor(rnd() * 3_600_000), ...HOME });
  const pick = <T,>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)] as T;
  const flags = (moving: boolean): Over => ({
    ignition: ignition ? (rnd() < 0.1 ? undefined : moving) : undefined,
    movement: movementFlag ? moving : undefined,
  });
  const maybe = (p: DetectorPosition): void => {
    if (!speedKnown) p.speed = undefined;
    const r = rnd();
    if (r < 0.01) Object.assign(p, offset(p.lat, p.lon, 20_000 + rnd() * 50_000, 0)); // jump
    else if (r < 0.02) Object.assign(p, offset(p.lat, p.lon, 150 + rnd() * 600, 150)); // spike
    else if (r < 0.04) p.fix = false;
  };
  let bearing = rnd() * 360;
  const segments = 6 + Math.floor(rnd() * 14);
  for (let s = 0; s < segments; s++) {
    const kind = pick(['park', 'drive', 'drive', 'stop', 'gap'] as const);
    const from = t.out.length;
    if (kind === 'park') {
      const every = pick([10_000, 60_000, 300_000]);
      t.stand(MIN + rnd() * 90 * MIN, every, flags(false), () => {
        const r = 20 + rnd() * 60;
        const a = rnd() * 2 * Math.PI;
        return { north: r * Math.cos(a), east: r * Math.sin(a), speed: Math.floor(rnd() * 5) };
      });
    } else if (kind === 'drive') {
      const every = pick([1_000, 5_000, 10_000, 30_000]);
      const legs = 1 + Math.floor(rnd() * 4);
      for (let l = 0; l < legs; l++) {
        bearing += (rnd() - 0.5) * 120;
        t.drive(20_000 + rnd() * 8 * MIN, every, 10 + rnd() * 110, bearing, flags(true));
      }
    } else if (kind === 'stop') {
      // Around time-till-parked, so that both sides of it come up.
      t.stand(30_000 + rnd() * 5 * MIN, pick([10_000, 30_000, 60_000]), flags(false));
    } else {
      const ms = rnd() * 40 * MIN;
      t.silence(ms);
      if (rnd() < 0.5) t.move((ms / 3_600) * (rnd() * 80), bearing);
    }
    for (let i = from; i < t.out.length; i++) maybe(t.out[i] as DetectorPosition);
    if (rnd() < 0.3 && t.out.length > 0) t.out.push({ ...(t.out[t.out.length - 1] as DetectorPosition) }); // duplicate
  }
  return t.out;
}

function shuffle<T>(xs: T[], rnd: () => number): T[] {
  const out = [...xs];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(rnd() * (i + 1));
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}

describe('tripTimesOf (property, seeded)', () => {
  it("times a stored trip from its own positions as the detector timed it over the whole track", () => {
    let trips = 0;
    let timed = 0;
    let exact = 0;
    for (let c = 0; c < 300; c++) {
      const rnd = prng(5_000 + c);
      const all = randomTrack(rnd).sort((a, b) => a.ts - b.ts);
      const settings = rnd() < 0.2 ? tripSettingsOf({ timeTillParkedMinutes: 1 + Math.floor(rnd() * 15) }) : S;
      const margin = timingMarginMs(settings);
      for (const trip of detectWindow(all, settings)) {
        trips++;
        const around = all.filter((p) => p.ts >= trip.startTs - margin && p.ts <= trip.stopTs + margin);
        const times = tripTimesOf(around, trip, settings);
        if (times === undefined) continue;
        timed++;
        const off = Math.abs(times.movingS - trip.movingS!) + Math.abs(times.idleS - trip.idleS!);
        if (off === 0) exact++;
        // Where the anchor before the trip differs, a position near its start may count otherwise.
        expect(off, `case ${c}`).toBeLessThanOrEqual(0.02 * ((trip.stopTs - trip.startTs) / 1000));
      }
    }
    expect(trips).toBeGreaterThan(500);
    // Nearly every trip is found again from its own stretch of positions, and timed to the second.
    expect(timed / trips).toBeGreaterThan(0.95);
    expect(exact / timed).toBeGreaterThan(0.99);
  });

  it('finds nothing for a trip its positions do not show', () => {
    expect(tripTimesOf([], { startTs: T0, stopTs: T0 + MIN }, S)).toBeUndefined();
  });
});

describe('incremental exactness (property, seeded)', () => {
  it('any split into batches, shuffled and redelivered, gives the trips of one window', () => {
    const cases = 400;
    let trips = 0;
    let ignitionTrips = 0;
    let trackerTrips = 0;
    let multiBatch = 0;
    for (let c = 0; c < cases; c++) {
      const rnd = prng(1_000 + c);
      const all = randomTrack(rnd);
      const settings = rnd() < 0.2 ? tripSettingsOf({ timeTillParkedMinutes: 1 + Math.floor(rnd() * 15) }) : S;
      const window = detectWindow(all, settings);

      // One call with everything, then closed as if parked.
      const whole = detectTrips(initialDetectorState(), all, settings);
      const wholeEnd = closeIfParked(whole.state, Number.POSITIVE_INFINITY, settings);
      expect([...whole.closed, ...wholeEnd.closed], `case ${c}: one call`).toEqual(window);

      // Random consecutive batches, each stored and read back, shuffled, some delivered twice.
      let state = initialDetectorState();
      const got: DetectedTrip[] = [];
      let i = 0;
      let batches = 0;
      while (i < all.length) {
        const size = rnd() < 0.2 ? 1 : 1 + Math.floor(rnd() * rnd() * 200);
        const batch = all.slice(i, i + size);
        i += size;
        batches++;
        const res = detectTrips(stored(state), rnd() < 0.5 ? shuffle(batch, rnd) : batch, settings);
        got.push(...res.closed);
        state = res.state;
        if (rnd() < 0.2) {
          const again = detectTrips(stored(state), shuffle(batch, rnd), settings);
          expect(again.closed, `case ${c}: redelivery`).toEqual([]);
          expect(again.state).toEqual(state);
        }
        // A closeIfParked that does not close leaves the state as it was.
        const probe = closeIfParked(state, state.lastTs ?? 0, settings);
        if (probe.closed.length === 0) expect(probe.state).toBe(state);
      }
      expect(state, `case ${c}: final state`).toEqual(whole.state);
      const end = closeIfParked(stored(state), Number.POSITIVE_INFINITY, settings);
      got.push(...end.closed);
      expect(got, `case ${c}: batches`).toEqual(window);

      // Sanity of what came out: ordered, not overlapping, above the minimums, counters moving forward.
      for (let k = 0; k < window.length; k++) {
        const trip = window[k] as DetectedTrip;
        expect(trip.stopTs - trip.startTs).toBeGreaterThanOrEqual(settings.minTripDurationMs);
        expect(trip.distanceM).toBeGreaterThanOrEqual(settings.minTripDistanceM);
        expect(trip.stopCounterM - trip.startCounterM).toBe(trip.distanceM);
        expect(trip.maxSpeedKmh).toBeLessThanOrEqual(settings.maxPlausibleSpeedKmh);
        const before = window[k - 1];
        if (before) {
          expect(trip.startTs).toBeGreaterThanOrEqual(before.stopTs);
          if (before.counterSource === 'computed' && trip.counterSource === 'computed') expect(trip.startCounterM).toBeGreaterThanOrEqual(before.stopCounterM);
        }
      }
      trips += window.length;
      ignitionTrips += window.filter((x) => x.basis === 'ignition').length;
      trackerTrips += window.filter((x) => x.counterSource === 'tracker').length;
      if (batches > 3) multiBatch++;
    }
    // The generator exercises what it should: many trips of both bases, both sources, real splits.
    expect(trips).toBeGreaterThan(cases);
    expect(ignitionTrips).toBeGreaterThan(cases / 4);
    expect(trips - ignitionTrips).toBeGreaterThan(cases / 4);
    expect(trackerTrips).toBeGreaterThan(cases / 10);
    expect(multiBatch).toBeGreaterThan(cases / 2);
  });

  it('the property check catches a detector that forgets: dropping the waiting position between batches changes the trips', () => {
    // Proof that the comparison above has teeth: a state that loses its pending position breaks it.
    let differs = 0;
    for (let c = 0; c < 30; c++) {
      const rnd = prng(5_000 + c);
      const all = randomTrack(rnd);
      const window = detectWindow(all, S);
      let state = initialDetectorState();
      const got: DetectedTrip[] = [];
      for (let i = 0; i < all.length; i += 7) {
        const res = detectTrips({ ...state, pending: null }, all.slice(i, i + 7), S);
        got.push(...res.closed);
        state = res.state;
      }
      got.push(...closeIfParked(state, Number.POSITIVE_INFINITY, S).closed);
      if (JSON.stringify(got) !== JSON.stringify(window)) differs++;
    }
    expect(differs).toBeGreaterThan(0);
  });
});

describe('geometry', () => {
  it('measures great circles', () => {
    expect(distanceM(0, 0, 1, 0)).toBeCloseTo(111_195.08, 1);
    expect(distanceM(59.3293, 18.0686, 59.3293, 18.0686)).toBe(0);
    const b = offset(HOME.lat, HOME.lon, 300, 400);
    expect(distanceM(HOME.lat, HOME.lon, b.lat, b.lon)).toBeCloseTo(500, 0);
  });
});
