/**
 * `npm run bench:fleet`: the fleet overview (GET /api/v1/user/fleet-overview) at 1,000 units, on an
 * in-memory embedded runtime (its own DynamoDB Local, the real HTTP server and handler).
 *
 * 1. One account with an admin and N units whose items carry the state ingest would have stored
 *    (scripts/bench/map-fleet.ts), then a month of trips for every unit (3 a day, 2 to 40 km),
 *    written in batches as the trip log stores them, with their rollups (the quarter-hour and month
 *    items of functions/trips/trip-rollups.ts) written beside them in the same shape. A few units'
 *    rollups are then recomputed with `refreshTripRollups`, the trip writes' own function, and
 *    must come out unchanged: the bench measures what the real path keeps.
 * 2. Times N requests (after 3 warm-ups) through HTTP as the admin: p50, p99 and the slowest.
 * 3. Times the two large reads alone (the units, a week of quarter-hour rollups), and counts the DynamoDB calls one request makes (a middleware on the shared client; the least of
 *    5 requests, so that a scheduled job's call in between does not count), before the trips were
 *    written and after: the count must not grow with the trips, only with their size in 1 MB pages.
 *
 *   npm run bench:fleet -- [--units 1000] [--days 30] [--requests 50]
 *
 * Targets (docs/decisions/0032-fleet-overview.md): p99 under 1 s on this machine, at most 25
 * DynamoDB calls per request. Exit code 1 when a target is missed.
 */
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { addDays, localDayOf, startOfLocalDay } from '../../shared/local-time';
import { FLEET_MONTH_ZONE, type FleetOverview } from '../../shared/schemas/fleet-overview';
import { dynamo, tableName } from '../../functions/platform/db';
import { BACKFILL_MARKER } from '../../functions/trips/rollup-backfill';
import { refreshTripRollups } from '../../functions/trips/trip-rollups';
import { monthKey, quarterEntries, quarterKey, quarterOf, rollupMonthOf, unitAttribute } from '../../functions/trips/trip-rollup-reads';
import { listAccountUnits } from '../../functions/domain/unit/reads';
import { startEmbeddedRuntime } from '../../infra/local/runtime';
import { seededRandom } from '../../infra/local/simulator/random';
import { createTestUser, loginAs } from '../../test/support/sessions';
import { putAll, seedFleet } from './map-fleet';

const TARGET = { p99Ms: 1000, dynamoCalls: 25 };
const { values: flags } = parseArgs({ options: { units: { type: 'string', default: '1000' }, days: { type: 'string', default: '30' }, requests: { type: 'string', default: '50' } } });
const UNITS = Number(flags.units);
const DAYS = Number(flags.days);
const REQUESTS = Number(flags.requests);
const MIN = 60_000;
const DAY_S = 86_400;
const ZONE = 'Europe/Stockholm';

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;

/** The DynamoDB calls made through the shared client (the runtime's, once started), by command. */
const calls = new Map<string, number>();
const countCalls = () =>
  dynamo().middlewareStack.add(
    (next, context) => async (args) => {
      calls.set(context.commandName ?? '?', (calls.get(context.commandName ?? '?') ?? 0) + 1);
      return next(args);
    },
    { step: 'initialize', name: 'benchFleetCallCounter' },
  );
const totalCalls = () => [...calls.values()].reduce((a, b) => a + b, 0);

interface Trip {
  imei: string;
  startTs: number;
  distanceM: number;
}

/** Every unit's trips of the last `DAYS` days and today so far: 3 a day between 06:00 and 20:00 local. */
function monthOfTrips(imeis: readonly string[], now: number): Trip[] {
  const random = seededRandom(99);
  const trips: Trip[] = [];
  const today = localDayOf(now, ZONE);
  for (const imei of imeis) {
    for (let d = DAYS; d >= 0; d--) {
      const dayStart = startOfLocalDay(addDays(today, -d), ZONE);
      for (let i = 0; i < 3; i++) {
        const startTs = dayStart + (6 * 60 + i * 280 + random.int(0, 240)) * MIN;
        if (startTs + 30 * MIN < now) trips.push({ imei, startTs, distanceM: random.int(2_000, 40_000) });
      }
    }
  }
  return trips;
}

/** The trips as the trip log stores them (functions/trips/trip-item.ts). */
function tripItems(accountId: string, trips: readonly Trip[]): Record<string, unknown>[] {
  return trips.map((t) => ({
    imei: t.imei,
    startTs: t.startTs,
    accountId,
    stopTs: t.startTs + 25 * MIN,
    startLat: 59.33,
    startLon: 18.06,
    stopLat: 59.4,
    stopLon: 17.95,
    distanceM: t.distanceM,
    startCounterM: 0,
    stopCounterM: t.distanceM,
    counterSource: 'computed',
    type: 'business',
    v: 0,
    expiresAt: Math.floor(t.startTs / 1000) + 395 * DAY_S,
  }));
}

/** Their rollup items, as refreshTripRollups keeps them: per quarter hour [distance, trips], per month [trips, first day, last day]. */
function rollupItems(accountId: string, trips: readonly Trip[]): Record<string, unknown>[] {
  const items = new Map<string, Record<string, unknown>>();
  const item = (sk: string, expiresAt: number) => {
    const found = items.get(sk) ?? { accountId, sk, expiresAt };
    items.set(sk, found);
    return found;
  };
  const months = new Map<string, Trip[]>();
  for (const t of trips) {
    const bucket = quarterOf(t.startTs);
    const q = item(quarterKey(bucket, t.imei), Math.floor(bucket / 1000) + 35 * DAY_S);
    const [m = 0, n = 0] = (q[unitAttribute(t.imei)] as number[] | undefined) ?? [];
    q[unitAttribute(t.imei)] = [m + t.distanceM, n + 1];
    const key = `${rollupMonthOf(t.startTs)}|${t.imei}`;
    months.set(key, [...(months.get(key) ?? []), t]);
  }
  for (const [key, list] of months) {
    const [month = '', imei = ''] = key.split('|');
    const [y = 1970, m = 1] = month.split('-').map(Number);
    const nextMonth = new Date(Date.UTC(y, m, 1)).toISOString().slice(0, 10);
    const starts = list.map((t) => t.startTs);
    const entry = item(monthKey(month, imei), Math.floor(startOfLocalDay(nextMonth, FLEET_MONTH_ZONE) / 1000) + 400 * DAY_S);
    entry[unitAttribute(imei)] = [list.length, localDayOf(Math.min(...starts), FLEET_MONTH_ZONE), localDayOf(Math.max(...starts), FLEET_MONTH_ZONE)];
  }
  return [...items.values()];
}

const rollupsOf = async (accountId: string) => {
  const out: Record<string, unknown>[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const page = await dynamo().send(new QueryCommand({ TableName: tableName('tripRollups'), KeyConditionExpression: 'accountId = :a', ExpressionAttributeValues: { ':a': accountId }, ConsistentRead: true, ExclusiveStartKey: start }));
    out.push(...(page.Items ?? []));
    start = page.LastEvaluatedKey;
  } while (start);
  return out;
};

/** Items as text whatever the order of their attributes. */
const canonical = (items: readonly Record<string, unknown>[]) =>
  JSON.stringify(items.map((item) => Object.fromEntries(Object.entries(item).sort(([a], [b]) => a.localeCompare(b)))));

const runtime = await startEmbeddedRuntime({ port: 0, mqttPort: 0, dataDir: null, host: '127.0.0.1', seed: false });
const outcome = { failed: true };
try {
  countCalls();
  const owner = await createTestUser();
  const { token } = await loginAs(owner.username, owner.password);
  const now = Date.now();
  let t0 = performance.now();
  const fleet = await seedFleet(owner.accountId, UNITS, now);
  const unitsS = (performance.now() - t0) / 1000;

  const overview = async (): Promise<FleetOverview> => {
    const res = await fetch(`${runtime.url}/api/v1/user/fleet-overview`, { headers: { authorization: `Bearer ${token}`, timezone: ZONE } });
    const body = (await res.json()) as { data?: FleetOverview };
    if (res.status !== 200 || !body.data) throw new Error(`GET /fleet-overview answered ${res.status}: ${JSON.stringify(body).slice(0, 300)}`);
    return body.data;
  };
  const callsPerRequest = async () => {
    let least = Infinity;
    for (let i = 0; i < 5; i++) {
      const before = totalCalls();
      await overview();
      least = Math.min(least, totalCalls() - before);
    }
    return least;
  };
  await overview();
  const callsWithoutTrips = await callsPerRequest();

  // 1. A month of trips and their rollups. Written with them, so the runtime's backfill job is told
  // it has nothing to do (it would otherwise recompute them while they are being written).
  await dynamo().send(new PutCommand({ TableName: tableName('tripRollups'), Item: { ...BACKFILL_MARKER, doneAt: now } }));
  t0 = performance.now();
  const trips = monthOfTrips(fleet.imeis, now);
  await putAll('trips', tripItems(owner.accountId, trips));
  const rollups = rollupItems(owner.accountId, trips);
  await putAll('tripRollups', rollups);
  const tripsS = (performance.now() - t0) / 1000;
  // What the real path keeps for a few units must be what was written.
  const before = canonical(await rollupsOf(owner.accountId));
  for (const imei of fleet.imeis.slice(0, 5)) await refreshTripRollups(owner.accountId, imei, trips.filter((t) => t.imei === imei).map((t) => t.startTs));
  if (canonical(await rollupsOf(owner.accountId)) !== before) throw new Error('the rollups written differ from what refreshTripRollups keeps');

  // 2. Latency.
  for (let i = 0; i < 3; i++) await overview();
  const times: number[] = [];
  let last: FleetOverview | undefined;
  for (let i = 0; i < REQUESTS; i++) {
    const t = performance.now();
    last = await overview();
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  const [p50, p99, slowest] = [percentile(times, 50), percentile(times, 99), times[times.length - 1] ?? NaN];

  // Where the time goes: the two large reads alone (medians of 10), the units and the week's quarter hours.
  const median = async (fn: () => Promise<unknown>) => {
    const ts: number[] = [];
    for (let i = 0; i < 10; i++) {
      const t = performance.now();
      await fn();
      ts.push(performance.now() - t);
    }
    return percentile(ts.sort((a, b) => a - b), 50);
  };
  const unitsMs = await median(() => listAccountUnits(owner.accountId));
  const weekStart = startOfLocalDay(addDays(localDayOf(now, ZONE), -7), ZONE);
  const weekEntries = (await quarterEntries(owner.accountId, weekStart, now)).length;
  const quartersMs = await median(() => quarterEntries(owner.accountId, weekStart, now));

  // 3. DynamoDB calls of one request, with the month of trips.
  calls.clear();
  const callsWithTrips = await callsPerRequest();
  calls.clear();
  await overview();
  const byCommand = [...calls.entries()].map(([name, n]) => `${name.replace(/Command$/, '')} ${n}`).join(', ');

  const missed = [
    p99 > TARGET.p99Ms && `p99 ${p99.toFixed(0)} ms > ${TARGET.p99Ms} ms`,
    callsWithTrips > TARGET.dynamoCalls && `${callsWithTrips} DynamoDB calls > ${TARGET.dynamoCalls}`,
  ].filter((m): m is string => typeof m === 'string');
  outcome.failed = missed.length > 0;
  console.log(`
  bench:fleet  ${UNITS} units, ${DAYS} days of trips (${trips.length} trips, ${rollups.length} rollup items); written in ${unitsS.toFixed(1)} s (units) and ${tripsS.toFixed(1)} s (trips and rollups)
    GET /fleet-overview (${REQUESTS} requests)  p50 ${p50.toFixed(0)} ms   p99 ${p99.toFixed(0)} ms   slowest ${slowest.toFixed(0)} ms   target p99 < ${TARGET.p99Ms} ms
    of which, read alone (medians)      the units ${unitsMs.toFixed(0)} ms; 7 days of quarter-hour rollups (${weekEntries} unit entries) ${quartersMs.toFixed(0)} ms
    DynamoDB calls per request         ${callsWithTrips} with the trips (${byCommand}); ${callsWithoutTrips} before any trip   target <= ${TARGET.dynamoCalls}
    figures                            units ${last?.units}, ${JSON.stringify(last?.status)}, today ${last?.today?.trips} trips ${last?.today?.distance} km, week ${last?.week?.trips} trips ${last?.week?.distance} km
  ${missed.length ? `MISSED: ${missed.join('; ')}` : 'All targets met.'}
`);
} finally {
  await runtime.stop();
}
process.exit(outcome.failed ? 1 : 0);
