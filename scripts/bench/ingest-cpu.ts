/**
 * CPU per position of the pure ingest pipeline, without I/O: base64 payload to bytes, JSON parse,
 * decode, filter against the previous fix, the next latest state and the item to store in
 * DynamoDB's attribute values, as functions/ingest runs it per message and hands it to
 * BatchWriteItem. The target is at most 10 microseconds per position.
 * (The item's attribute values are counted since positions items are packed and written without
 * the document client's marshaller, functions/ingest/position-codec.ts: the item's form decides
 * how much of the work is ours and how much the SDK's, so only the two together compare the
 * forms. With the fields as attributes of their own, marshalled by the document client, the same
 * run took 23, 20 and 37 us per position on 2026-12-01; packed and marshalled by it, 10, 8 and 19.)
 *
 *   npx tsx scripts/bench/ingest-cpu.ts [records=200000] [--check]
 *
 * Then the event engine's stage (functions/events/stage.ts) over the same track, per message of 10
 * records as ingest runs it: its state read back from JSON and checked, five geofences per unit
 * (one with deactivation windows), an overspeed limit, battery, power and inputs, and eco driving
 * (a harsh braking every 250th record, overspeed episodes). Target: at most 3 microseconds per position.
 *
 * Last the unit-feature stages together (service intervals, RFID reads, BLE sensors, congestion
 * tax passages) over the same track with two service intervals, two sensors read in every record
 * and a card read every 500th record; the same target of 3 microseconds per position.
 *
 * `--check` exits 1 when a hand-written pipeline or the engine is over its target. The zod row (zod validates
 * each record before the decoder maps it) is for comparison only; on a shared machine compare rows
 * of the same run.
 */
import { decodeMessage } from '../../functions/ingest/decode';
import { decodeNativeRecord } from '../../functions/ingest/decode-native';
import { DEFAULT_FILTER } from '../../functions/ingest/filter';
import { nativeRecordSchema } from '../../functions/ingest/native-schema';
import { planUnit } from '../../functions/ingest/pipeline';
import { chunkAttributes, positionItem } from '../../functions/ingest/repository';
import type { Position, UnitState } from '../../functions/ingest/types';
import { eventStage } from '../../functions/events/stage';
import { rfidStage } from '../../functions/rfid/read-stage';
import { sensorStage } from '../../functions/sensors/stage';
import { serviceStage } from '../../functions/units/editor/service-stage';
import { passageStage } from '../../functions/congestion/passage-stage';
import type { IngestStage } from '../../functions/ingest/transitions';
import type { UnitItem, UnitZone } from '../../functions/domain/unit/schema';

const TARGET_US = 10;
const IMEI = '356938035643809';
const args = process.argv.slice(2);
const RECORDS = Number(args.find((a) => /^\d+$/.test(a)) ?? 200_000);
const CHECK = args.includes('--check');

const START = Date.UTC(2025, 5, 1, 6);
const STEP_MS = 10_000;

/** A van driving east out of Stockholm at about 50 km/h, one fix every 10 s, with its IO. */
function track(i: number) {
  return { ts: START + i * STEP_MS, lat: 59.3293 + (i % 5000) * 1e-5, lon: 18.0686 + (i % 5000) * 2.4e-3 * 0.5, i };
}

function nativeRecord(i: number) {
  const t = track(i);
  return { ts: t.ts, lat: t.lat, lon: t.lon, spd: 48 + (i % 7), hdg: 92, alt: 31, sat: 11, hdop: 0.9, ign: true, mov: true, odo: 1_250_000 + i * 140, hrs: 86_400 + i * 10, pwr: 13.9, bat: 4.1, din: { '2': i % 2 === 0, '3': false }, dout: { '1': false } };
}

function teltonikaDoc(i: number) {
  const t = track(i);
  // The shape of a real FMC003 record (functions/ingest/decode-teltonika.test.ts): 33 IO elements.
  const reported: Record<string, unknown> = {
    '11': 893116211, '12': 275, '13': 217, '14': 1680671168, '15': 1000, '16': 10922 + i * 140, '17': 99, '18': 64573, '19': 65443,
    '21': 4, '24': 50, '66': 13950, '67': 4011, '68': 0, '69': 1, '80': 0, '113': 8, '181': 12, '182': 9, '199': 140, '200': 0,
    '206': 30, '237': 2, '238': 0, '239': 1, '240': 1, '241': 20416, '250': 0, '263': 1, '303': 0,
    '387': '1280798554619934317888870845341580615059254735744052019197396605377754331348087343', '449': 3600 + i * 10, '636': 94054964,
    latlng: `${t.lat.toFixed(7)},${t.lon.toFixed(7)}`, ts: t.ts, alt: '22', ang: '92', sat: '9', sp: '50',
  };
  return { state: { reported } };
}

const base64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64');

interface Row {
  name: string;
  positions: number;
  cpuUs: number;
  checked: boolean;
}

/** Runs the per-message pipeline over prepared rule payloads, carrying the state as the cache does. */
function run(name: string, payloads: string[], decode: (bytes: Buffer) => Position[], checked = true): Row {
  let prev: UnitState | undefined;
  let count = 0;
  let items = 0;
  const limits = { maxAgeMs: 395 * 86_400_000, ...DEFAULT_FILTER };
  const go = (n: number) => {
    for (let m = 0; m < n; m++) {
      const positions = decode(Buffer.from(payloads[m] as string, 'base64'));
      const receivedAt = (positions[positions.length - 1]?.ts ?? START) + 2000;
      const plan = planUnit(prev, limits, [{ result: { duplicates: 0, filtered: {} }, receivedAt, positions }]);
      // The items the handler hands to BatchWriteItem (the message's chunks), in DynamoDB's attribute values as it sends them.
      for (const item of chunkAttributes(plan.fresh.map((f) => positionItem(IMEI, f.p, f.receivedAt, 395)))) items += Object.keys(item).length;
      if (plan.state) prev = plan.state;
      count += plan.fresh.length + plan.late.length;
    }
  };
  // Warm up the JIT on a slice first, then measure whole runs from a fresh state; the median of
  // three keeps a garbage collection or a noisy neighbour from deciding the verdict.
  go(Math.min(payloads.length, 5000));
  const runs: Array<{ positions: number; cpuUs: number }> = [];
  for (let r = 0; r < 3; r++) {
    prev = undefined;
    count = 0;
    const before = process.cpuUsage();
    go(payloads.length);
    const used = process.cpuUsage(before);
    if (count === 0 || items === 0) throw new Error(`${name}: the filter accepted nothing; the benchmark measures the wrong path`);
    runs.push({ positions: count, cpuUs: used.user + used.system });
  }
  runs.sort((a, b) => a.cpuUs / a.positions - b.cpuUs / b.positions);
  return { name, ...(runs[1] as { positions: number; cpuUs: number }), checked };
}

function positionsOf(bytes: Buffer): Position[] {
  const d = decodeMessage(bytes);
  if (d.kind !== 'positions' || d.rejected.length) throw new Error(`benchmark input did not decode: ${JSON.stringify(d).slice(0, 200)}`);
  return d.positions;
}

/** The same pipeline with zod validating each record before the decoder maps it. */
function positionsViaZod(bytes: Buffer): Position[] {
  const message = JSON.parse(bytes.toString('utf8')) as { records?: unknown[] };
  const records = message.records ?? [message];
  return records.map((r) => decodeNativeRecord(nativeRecordSchema.parse(r)));
}

const BATCH = 10;
const single = Array.from({ length: RECORDS }, (_, i) => base64(nativeRecord(i)));
const batches = Array.from({ length: Math.ceil(RECORDS / BATCH) }, (_, b) =>
  base64({ records: Array.from({ length: BATCH }, (_, k) => nativeRecord(b * BATCH + k)) }),
);
const teltonika = Array.from({ length: RECORDS }, (_, i) => base64(teltonikaDoc(i)));

const rows: Row[] = [
  run('native, one record per message', single, positionsOf),
  run(`native, batches of ${BATCH}`, batches, positionsOf),
  run('teltonika, one record per message', teltonika, positionsOf),
  run('native via zod (comparison)', single, positionsViaZod, false),
];

console.log(`ingest CPU per position (decode + filter + state + item as attribute values), ${RECORDS} records, target ${TARGET_US} us`);
let over = false;
for (const r of rows) {
  const per = r.cpuUs / r.positions;
  const verdict = !r.checked ? '' : per <= TARGET_US ? 'ok' : 'OVER TARGET';
  if (r.checked && per > TARGET_US) over = true;
  console.log(`  ${r.name.padEnd(36)} ${per.toFixed(2).padStart(7)} us/position  ${verdict}`);
}

// The event engine: five zones along and beside the track, the unit crossing some of them.
const ENGINE_TARGET_US = 3;
const zone = (name: string, lat: number, lon: number, radius: number, off: UnitZone['off'] = []): UnitZone => ({
  name, lat, lon, radius, alarm: true, active: true, theftMode: false, off, timeZone: 'Europe/Stockholm',
});
const unit = {
  imei: IMEI, accountId: 'acc', name: 'Van', vehicleType: 'van', protocol: 'native',
  zones: {
    depot: zone('Depot', 59.3293, 18.0686, 500),
    site: zone('Site', 59.36, 18.9, 2000, [{ days: [1, 2, 3, 4, 5], from: '07:00', to: '17:00' }]),
    yard: zone('Yard', 59.35, 19.4, 1500),
    harbour: zone('Harbour', 59.2, 18.3, 800),
    north: zone('North', 59.6, 18.0, 3000),
  },
  overspeedKmh: 52, overspeedSeconds: 20,
} as unknown as UnitItem;
const enginePositions = Array.from({ length: RECORDS }, (_, i) => {
  const r = nativeRecord(i);
  return { ts: r.ts, lat: r.lat, lon: r.lon, fix: true, speed: r.spd, heading: r.hdg, alt: r.alt, sats: r.sat, hdop: r.hdop, ignition: r.ign, movement: r.mov, odometer: r.odo, engineSeconds: r.hrs, extVolts: r.pwr, batVolts: 3.4 + (i % 400) * 0.001, din: { '2': Math.floor(i / 60) % 2 === 0, '3': false }, dout: r.dout, ble: undefined, rfid: undefined, eco: i % 250 === 0 ? { harsh: { kind: 'braking', g: 0.45, ms: 1200, byDevice: false } } : undefined, io: undefined } satisfies Position;
});
function engineRun(): { positions: number; cpuUs: number; events: number } {
  let stored: string | undefined;
  let events = 0;
  const before = process.cpuUsage();
  for (let i = 0; i < enginePositions.length; i += BATCH) {
    const previous = eventStage.parse(stored === undefined ? undefined : JSON.parse(stored));
    const result = eventStage.run({ unit, previous, before: undefined, after: undefined as never, positions: enginePositions.slice(i, i + BATCH), late: [], receivedAt: 0 });
    events += result.effects?.length ?? 0;
    stored = JSON.stringify(result.state);
  }
  const used = process.cpuUsage(before);
  return { positions: enginePositions.length, cpuUs: used.user + used.system, events };
}
engineRun();
const engineRuns = [engineRun(), engineRun(), engineRun()].sort((a, b) => a.cpuUs - b.cpuUs);
const engine = engineRuns[1]!;
const enginePer = engine.cpuUs / engine.positions;
console.log(
  `event engine per position (5 geofences, overspeed, battery, power, inputs, eco driving; state through JSON per message of ${BATCH}), ${engine.events} events raised, target ${ENGINE_TARGET_US} us\n  ${'stage per position'.padEnd(36)} ${enginePer.toFixed(2).padStart(7)} us/position  ${enginePer <= ENGINE_TARGET_US ? 'ok' : 'OVER TARGET'}`,
);
if (engine.events === 0) throw new Error('the event engine raised nothing: the benchmark measures the wrong path');

// The unit-feature stages: service intervals (counted from an odometer and an hours reading),
// RFID reads and two BLE sensors with thresholds.
const featureUnit = {
  ...unit,
  odometerCorrection: { atTs: 0, valueKm: 80_000, counterM: 0, source: 'tracker' },
  hoursCorrection: { atTs: 0, valueHours: 1_200, counterS: 0 },
  serviceIntervals: {
    oil: { name: 'Oil', kind: 'distance', every: 15_000, lastService: 0, order: 0 },
    inspection: { name: 'Inspection', kind: 'date', every: 12, lastService: '2024-07-01', order: 1 },
  },
  sensors: {
    s1: { mac: 'AC23F41D0950', name: 'Cold room', kind: 'temperature', createdAt: 1, thresholds: { tempMin: 2, tempMax: 8, lowBattery: true } },
    s2: { mac: 'AC23F41D0951', name: 'Rear door', kind: 'door', createdAt: 2, thresholds: { doorOpen: true } },
  },
} as unknown as UnitItem;
const featurePositions = enginePositions.map((p, i) => ({
  ...p,
  ble: [
    { mac: 'AC23F41D0950', temp: 5 + Math.sin(i / 300) * 4.5, bat: 3 },
    { mac: 'AC23F41D0951', door: Math.floor(i / 700) % 2 === 0 },
  ],
  rfid: i % 500 === 0 ? `C0FFEE${i % 3}` : undefined,
})) as unknown as Position[];
const featureStages = [serviceStage, rfidStage, sensorStage, passageStage] as unknown as IngestStage[];
function featureRun(): { positions: number; cpuUs: number; effects: number } {
  const stored = new Map<string, string | undefined>();
  let effects = 0;
  const before = process.cpuUsage();
  for (let i = 0; i < featurePositions.length; i += BATCH) {
    const positions = featurePositions.slice(i, i + BATCH);
    const after = positions[positions.length - 1] as unknown as UnitState;
    for (const stage of featureStages) {
      const raw = stored.get(stage.name);
      const previous = stage.parse(raw === undefined ? undefined : JSON.parse(raw));
      const result = stage.run({ unit: featureUnit, previous, before: undefined, after, positions, late: [], receivedAt: 0 });
      effects += result.effects?.length ?? 0;
      stored.set(stage.name, result.state === undefined ? undefined : JSON.stringify(result.state));
    }
  }
  const used = process.cpuUsage(before);
  return { positions: featurePositions.length, cpuUs: used.user + used.system, effects };
}
featureRun();
const featureRuns = [featureRun(), featureRun(), featureRun()].sort((a, b) => a.cpuUs - b.cpuUs);
const feature = featureRuns[1]!;
const featurePer = feature.cpuUs / feature.positions;
console.log(
  `unit-feature stages per position (2 service intervals from readings, RFID, 2 BLE sensors read in every record, congestion tax passages; state through JSON per message of ${BATCH}), ${feature.effects} effects, target ${ENGINE_TARGET_US} us\n  ${'stages per position'.padEnd(36)} ${featurePer.toFixed(2).padStart(7)} us/position  ${featurePer <= ENGINE_TARGET_US ? 'ok' : 'OVER TARGET'}`,
);
if (feature.effects === 0) throw new Error('the unit-feature stages decided nothing: the benchmark measures the wrong path');
if (CHECK && (over || enginePer > ENGINE_TARGET_US || featurePer > ENGINE_TARGET_US)) process.exit(1);
