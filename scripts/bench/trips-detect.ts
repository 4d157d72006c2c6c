/**
 * CPU per position of the trip detector (functions/trips/detect.ts), without I/O, over synthetic
 * days of a van: parked with GPS jitter, ignition on, drives with turns at one fix every 5 s,
 * short stops, ignition off. The target is well under 3 microseconds per position on top of the
 * ingest pipeline (scripts/bench/ingest-cpu.ts).
 *
 *   npx tsx scripts/bench/trips-detect.ts [positions=1000000] [--check]
 *
 * Rows: one call with every position; the positions in batches as the ingest handler hands them
 * over (the state through JSON and zod between batches, as stored on the unit item); the same
 * batches shuffled (the detector sorts them). `--check` exits 1 when a row is over the target.
 * Compare rows of the same run on a shared machine.
 */
import {
  DEFAULT_TRIP_SETTINGS,
  detectTrips,
  initialDetectorState,
  parseDetectorState,
  type DetectorPosition,
  type DetectorState,
} from '../../functions/trips/detect';

const TARGET_NS = 3_000;
const args = process.argv.slice(2);
const COUNT = Number(args.find((a) => /^\d+$/.test(a)) ?? 1_000_000);
const CHECK = args.includes('--check');
const BATCH = 25;

/** Seeded PRNG (mulberry32), so every run measures the same track. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function track(count: number): DetectorPosition[] {
  const rnd = prng(1);
  const out: DetectorPosition[] = [];
  let ts = Date.UTC(2025, 5, 2, 6);
  let lat = 59.3293;
  let lon = 18.0686;
  let odo = 12_345_000;
  let bearing = 90;
  const push = (speed: number, ignition: boolean, jitterM: number) => {
    const a = rnd() * 2 * Math.PI;
    const r = jitterM * rnd();
    out.push({
      ts,
      lat: lat + (r * Math.cos(a)) / 111_195,
      lon: lon + (r * Math.sin(a)) / 55_000,
      fix: rnd() > 0.01,
      speed,
      ignition,
      movement: speed > 0,
      odometer: Math.round(odo),
    });
  };
  while (out.length < count) {
    // Parked 5-60 minutes, a fix a minute with jitter.
    for (let n = 5 + Math.floor(rnd() * 55); n > 0 && out.length < count; n--) {
      ts += 60_000;
      push(Math.floor(rnd() * 4), false, 60);
    }
    // A drive of 2-40 minutes at one fix every 5 s, with a short stop now and then.
    ts += 5_000;
    push(0, true, 5);
    for (let n = 24 + Math.floor(rnd() * 456); n > 0 && out.length < count; n--) {
      ts += 5_000;
      const stopped = n % 97 < 8;
      const speed = stopped ? 0 : 30 + rnd() * 70;
      bearing += (rnd() - 0.5) * 30;
      const m = (speed * 5_000) / 3_600_000 * 1000;
      const b = (bearing * Math.PI) / 180;
      lat += (m * Math.cos(b)) / 111_195;
      lon += (m * Math.sin(b)) / 55_000;
      odo += m;
      push(Math.round(speed), true, 5);
    }
    ts += 5_000;
    push(0, false, 5);
  }
  return out;
}

function shuffled<T>(xs: readonly T[], rnd: () => number): T[] {
  const out = [...xs];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(rnd() * (i + 1));
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}

interface Row {
  name: string;
  nsPerPosition: number;
  trips: number;
}

function measure(name: string, go: () => number): Row {
  go(); // warm up the JIT
  const runs: Array<{ ns: number; trips: number }> = [];
  for (let r = 0; r < 3; r++) {
    const before = process.cpuUsage();
    const trips = go();
    const used = process.cpuUsage(before);
    runs.push({ ns: ((used.user + used.system) * 1000) / COUNT, trips });
  }
  runs.sort((a, b) => a.ns - b.ns);
  const median = runs[1] as { ns: number; trips: number };
  if (median.trips === 0) throw new Error(`${name}: no trip detected; the benchmark measures the wrong path`);
  return { name, nsPerPosition: median.ns, trips: median.trips };
}

const positions = track(COUNT);
const batches: DetectorPosition[][] = [];
for (let i = 0; i < positions.length; i += BATCH) batches.push(positions.slice(i, i + BATCH));
const rnd = prng(2);
const mixed = batches.map((b) => shuffled(b, rnd));

function inBatches(list: DetectorPosition[][]): number {
  let stored: unknown = undefined;
  let trips = 0;
  for (const batch of list) {
    const state: DetectorState = parseDetectorState(stored) ?? initialDetectorState();
    const res = detectTrips(state, batch, DEFAULT_TRIP_SETTINGS);
    trips += res.closed.length;
    stored = JSON.parse(JSON.stringify(res.state));
  }
  return trips;
}

const rows: Row[] = [
  measure('one call, all positions', () => detectTrips(initialDetectorState(), positions, DEFAULT_TRIP_SETTINGS).closed.length),
  measure(`batches of ${BATCH}, state via JSON + zod`, () => inBatches(batches)),
  measure(`batches of ${BATCH}, shuffled`, () => inBatches(mixed)),
];

console.log(`trip detection CPU per position, ${COUNT} positions, target ${TARGET_NS} ns`);
let over = false;
for (const r of rows) {
  const verdict = r.nsPerPosition <= TARGET_NS ? 'ok' : 'OVER TARGET';
  if (r.nsPerPosition > TARGET_NS) over = true;
  console.log(`  ${r.name.padEnd(40)} ${r.nsPerPosition.toFixed(0).padStart(6)} ns/position  ${String(r.trips).padStart(6)} trips  ${verdict}`);
}
if (CHECK && over) process.exit(1);
