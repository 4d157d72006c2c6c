/**
 * `npm run bench:trips`: the trip log at a year's scale, through the real parts. It
 *
 * 1. drives one unit for 12 months (about 8 trips a day, a fix every 30 s while driving, a
 *    heartbeat every 15 min while parked) and hands every message to ingest (`ingestMessages`,
 *    the stream's handler, with trip detection as a stage and its effects storing the trips) in
 *    buffered messages of 10 records, against DynamoDB Local;
 * 2. prints the trip detection's CPU per position: the detector alone, and the whole stage as
 *    ingest runs it per message (its stored state parsed, run, written back as JSON);
 * 3. times `GET /api/v1/user/trips` through the embedded HTTP server for a 12-month and a 1-month
 *    period (p50 and p95 of 40 requests each; target p95 at most 300 ms for 12 months).
 *
 *   npm run bench:trips -- [--days 365] [--requests 40]
 *
 * The ingest rate with trip detection on is `npm run bench:ingest` (the stage is in the pipeline).
 * Exit code 1 when a target is missed.
 */
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { ingestMessages } from '../../functions/ingest/ingest-message';
import type { Position } from '../../functions/ingest/types';
import { getPorts } from '../../functions/platform/container';
import { dynamo, tableName } from '../../functions/platform/db';
import { getUnitItem } from '../../functions/domain/unit/reads';
import { detectTrips, initialDetectorState, DEFAULT_TRIP_SETTINGS, type DetectorPosition } from '../../functions/trips/detect';
import { tripStage } from '../../functions/trips/stage';
import { unitTrips } from '../../functions/trips/trip-repository';
import { startEmbeddedRuntime } from '../../infra/local/runtime';
import { seededRandom } from '../../infra/local/simulator/random';
import { DEMO_PASSWORD, demoUsers } from '../../infra/local/seed';
import { imeiFrom } from '../../shared/validators/imei';
import { loginAs } from '../../test/support/sessions';

const TARGET = { p95Ms12Months: 300, detectUsPerPosition: 3 };
const { values: flags } = parseArgs({ options: { days: { type: 'string', default: '365' }, requests: { type: 'string', default: '40' } } });
const DAYS = Number(flags.days);
const REQUESTS = Number(flags.requests);
const MIN = 60_000;
const DAY = 86_400_000;

interface Rec {
  ts: number;
  lat: number;
  lon: number;
  spd: number;
  ign: boolean;
  odo: number;
}

/** The year: each day 6-10 trips of 5-25 minutes between 06:00 and 20:00 local, parked between with heartbeats. */
function year(start: number): Rec[] {
  // Seeded (the simulator's generator), so every run drives the same year.
  const random = seededRandom(7).next;
  const out: Rec[] = [];
  let lat = 59.33;
  let lon = 18.06;
  let odo = 12_345_000;
  let t = start;
  const park = (until: number) => {
    for (; t < until; t += 15 * MIN) out.push({ ts: t, lat: lat + (random() - 0.5) * 1e-4, lon, spd: 0, ign: false, odo });
    t = until;
  };
  for (let d = 0; d < DAYS; d++) {
    const dayStart = start + d * DAY;
    const trips = 6 + Math.floor(random() * 5);
    let at = dayStart + 6 * 60 * MIN;
    for (let i = 0; i < trips; i++) {
      at += Math.round((20 + random() * 60) * MIN);
      park(at);
      const minutes = 5 + Math.floor(random() * 20);
      const heading = random() * 2 * Math.PI;
      // ~45 km/h: 375 m per 30 s.
      const dLat = (Math.cos(heading) * 375) / 111_320;
      const dLon = (Math.sin(heading) * 375) / (111_320 * Math.cos((lat * Math.PI) / 180));
      out.push({ ts: t, lat, lon, spd: 0, ign: true, odo });
      for (let s = 1; s <= minutes * 2; s++) {
        lat += dLat;
        lon += dLon;
        odo += 375;
        out.push({ ts: t + s * 30_000, lat, lon, spd: 45, ign: true, odo });
      }
      t += minutes * MIN + 30_000;
      out.push({ ts: t, lat, lon, spd: 0, ign: false, odo });
      at = t;
      // Drift back towards Stockholm so the year stays on the map.
      lat += (59.33 - lat) * 0.2;
      lon += (18.06 - lon) * 0.2;
    }
    park(dayStart + DAY);
  }
  return out;
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
const asPosition = (r: Rec): DetectorPosition => ({ ts: r.ts, lat: r.lat, lon: r.lon, fix: true, speed: r.spd, ignition: r.ign, movement: undefined, odometer: r.odo });

const runtime = await startEmbeddedRuntime({ port: 0, mqttPort: 0, dataDir: null, host: '127.0.0.1', seed: true });
const outcome = { failed: true };
try {
  const admin = await loginAs(demoUsers.admin.username, DEMO_PASSWORD);
  const accountId = String((await dynamo().send(new GetCommand({ TableName: tableName('users'), Key: { userId: admin.userId } }))).Item?.['accountId']);
  const imei = imeiFrom('35693803999999');
  const now = Date.now();
  const start = Math.floor((now - (DAYS + 1) * DAY) / DAY) * DAY;
  await dynamo().send(
    new PutCommand({
      TableName: tableName('units'),
      Item: { imei, accountId, name: 'Bench van', vehicleType: 'car', protocol: 'native', createdAt: new Date(start - DAY).toISOString() },
    }),
  );
  const records = year(start);

  // 2. CPU: the detector alone, then the stage per 10-record message with its state through JSON.
  const positions = records.map(asPosition);
  for (let warm = 0; warm < 2; warm++) detectTrips(initialDetectorState(), positions, DEFAULT_TRIP_SETTINGS);
  let t0 = performance.now();
  const alone = detectTrips(initialDetectorState(), positions, DEFAULT_TRIP_SETTINGS);
  const detectNs = ((performance.now() - t0) * 1e6) / positions.length;
  const unitForStage = (await getUnitItem(imei, { consistent: true }))!;
  const full = records.map((r) => ({ ...asPosition(r) }) as unknown as Position);
  const runStage = () => {
    let stored: string | undefined;
    for (let i = 0; i < full.length; i += 10) {
      const previous = tripStage.parse(stored === undefined ? undefined : JSON.parse(stored));
      const out = tripStage.run({ unit: unitForStage, previous, before: undefined, after: undefined as never, positions: full.slice(i, i + 10), late: [], receivedAt: 0 });
      stored = JSON.stringify(tripStage.store ? tripStage.store(out.state as never) : out.state);
    }
  };
  runStage();
  t0 = performance.now();
  runStage();
  const stageNs = ((performance.now() - t0) * 1e6) / full.length;

  // 1. Through ingest, in messages of 10 records, 50 messages per batch.
  const ports = { ...getPorts(), live: { publish: async () => undefined } };
  const message = (part: Rec[]) => ({
    payload: Buffer.from(JSON.stringify({ records: part.map((r) => ({ ...r, sat: 9 })) })).toString('base64'),
    topic: `trackers/${imei}/telemetry`,
    imei,
    receivedAt: part[part.length - 1]!.ts + 2000,
  });
  t0 = performance.now();
  for (let i = 0; i < records.length; i += 500) {
    const batch = [];
    for (let j = i; j < Math.min(i + 500, records.length); j += 10) batch.push(message(records.slice(j, Math.min(j + 10, i + 500, records.length))));
    await ingestMessages(batch, ports);
    if ((i / 500) % 40 === 0) process.stdout.write(`\r  ingesting the year: ${Math.round((i / records.length) * 100)} %   `);
  }
  const ingestS = (performance.now() - t0) / 1000;
  const unit = (await getUnitItem(imei, { consistent: true }))!;
  const trips = await unitTrips(unit, 0, Number.MAX_SAFE_INTEGER);
  process.stdout.write('\r');

  // 3. The trip log API.
  const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
  const timeList = async (from: string, to: string) => {
    const times: number[] = [];
    let count = 0;
    for (let i = 0; i < REQUESTS + 3; i++) {
      const t = performance.now();
      const res = await fetch(`${runtime.url}/api/v1/user/trips?imei=${imei}&from=${from}&to=${to}`, {
        headers: { authorization: `Bearer ${admin.token}`, timezone: 'Europe/Stockholm' },
      });
      const body = (await res.json()) as { data?: { trips: unknown[] } };
      if (res.status !== 200) throw new Error(`GET /trips answered ${res.status}: ${JSON.stringify(body).slice(0, 300)}`);
      count = body.data?.trips.length ?? 0;
      if (i >= 3) times.push(performance.now() - t);
    }
    times.sort((a, b) => a - b);
    return { count, p50: percentile(times, 50), p95: percentile(times, 95) };
  };
  const lastDay = now - DAY;
  const twelve = await timeList(day(lastDay - 364 * DAY), day(lastDay));
  const one = await timeList(day(lastDay - 29 * DAY), day(lastDay));

  const missed = [
    twelve.p95 > TARGET.p95Ms12Months && `12-month p95 ${twelve.p95.toFixed(0)} ms > ${TARGET.p95Ms12Months} ms`,
    stageNs / 1000 > TARGET.detectUsPerPosition && `stage ${(stageNs / 1000).toFixed(2)} us > ${TARGET.detectUsPerPosition} us per position`,
  ].filter((m): m is string => typeof m === 'string');
  outcome.failed = missed.length > 0;
  console.log(`
  bench:trips  one unit, ${DAYS} days, ${records.length} positions
    ingest (stage on, DynamoDB Local)  ${ingestS.toFixed(1)} s, ${(records.length / ingestS).toFixed(0)} positions/s; ${trips.length} trips stored (detector alone: ${alone.closed.length})
    detection CPU per position        detector ${(detectNs / 1000).toFixed(3)} us; stage per 10-record message with its state through JSON ${(stageNs / 1000).toFixed(3)} us   target <= ${TARGET.detectUsPerPosition} us
    GET /trips 12 months              ${twelve.count} trips   p50 ${twelve.p50.toFixed(0)} ms   p95 ${twelve.p95.toFixed(0)} ms   target p95 <= ${TARGET.p95Ms12Months} ms
    GET /trips 1 month                ${one.count} trips   p50 ${one.p50.toFixed(0)} ms   p95 ${one.p95.toFixed(0)} ms
  ${missed.length ? `MISSED: ${missed.join('; ')}` : 'All targets met.'}
`);
} finally {
  await runtime.stop();
}
process.exit(outcome.failed ? 1 : 0);
