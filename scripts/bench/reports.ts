/**
 * `npm run bench:reports`: the reports on an in-memory embedded runtime (its own DynamoDB Local,
 * the real HTTP server, handlers and export queue).
 *
 * 1. One account with an admin and 500 units registered 13 months ago, last month's trips for each
 *    (3 a day, 2 to 40 km, some private), and one more unit with 12 months of trips (about 3,000).
 *    Trips are written in the shape the trip log stores them (functions/trips/trip-item.ts) and
 *    every unit's day and month rollups are then computed by `recomputeUnitDaysAndMonths`, the
 *    rollup queue's own function, so the reports read what the real write path keeps.
 * 2. Times through HTTP as the admin: the summary of all units over last month (p95 of 20
 *    requests), the large summary of all units over 12 months by month (p95 of 5), the fuel
 *    consumption and environmental reports of all units over last month (day rollups, p95 of 5),
 *    the eco driving and congestion tax reports of 20 units (the most a report answers at once;
 *    trips, eco events and passages, two passages a trip written for them; p95 of 5), and the
 *    12-month trip log of the one unit as PDF and as XLSX through the export job (POST, then until
 *    the job is done), sampling this process's memory meanwhile (the runtime and the export share
 *    it here; on AWS the export is a function of its own).
 *
 *   npm run bench:reports -- [--units 500] [--requests 20]
 *
 * Targets (docs/decisions/0034-reports.md): summary p95 <= 1 s, large summary p95 <= 3 s, fuel
 * and environmental p95 <= 3 s, eco driving and congestion (20 units) p95 <= 1 s, trip log PDF
 * <= 5 s and at most 256 MB more memory than before it, XLSX <= 3 s. Exit code 1 when a target is
 * missed.
 */
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { addDays, localDayOf, startOfLocalDay } from '../../shared/local-time';
import type { ReportModel } from '../../shared/schemas/reports';
import { addMonthsToDay } from '../../shared/schemas/trips';
import { putPassage } from '../../functions/congestion/passage-repository';
import { mapLimited } from '../../functions/platform/concurrency';
import { CONTROL_POINTS } from '../../shared/congestion/control-points';
import { recomputeUnitDaysAndMonths } from '../../functions/trips/unit-days';
import { ROLLUP_ZONE } from '../../functions/trips/unit-day-item';
import { startEmbeddedRuntime } from '../../infra/local/runtime';
import { seededRandom } from '../../infra/local/simulator/random';
import { createTestUser, loginAs } from '../../test/support/sessions';
import { putAll, seedFleet } from './map-fleet';

const TARGET = { summaryP95Ms: 1000, largeP95Ms: 3000, fuelP95Ms: 3000, tripUnitsP95Ms: 1000, pdfMs: 5000, pdfMb: 256, xlsxMs: 3000 };
/** The most units a trip-based report answers at once (functions/reports/get-report.ts). */
const AT_ONCE_UNITS = 20;
const { values: flags } = parseArgs({ options: { units: { type: 'string', default: '500' }, requests: { type: 'string', default: '20' } } });
const UNITS = Number(flags.units);
const REQUESTS = Number(flags.requests);
const MIN = 60_000;
const DAY_MS = 86_400_000;
const ZONE = ROLLUP_ZONE;

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;

interface SeedTrip {
  imei: string;
  startTs: number;
  distanceM: number;
  private: boolean;
}

/** `perDay` trips a day of each unit from `first` to `last` (local days), between 06:00 and 21:00. */
function tripsOf(imeis: readonly string[], first: string, last: string, perDay: number, seed: number): SeedTrip[] {
  const random = seededRandom(seed);
  const trips: SeedTrip[] = [];
  const slot = Math.floor((15 * 60) / perDay);
  for (const imei of imeis) {
    for (let day = first; day <= last; day = addDays(day, 1)) {
      const dayStart = startOfLocalDay(day, ZONE);
      for (let i = 0; i < perDay; i++) {
        trips.push({ imei, startTs: dayStart + (6 * 60 + i * slot + random.int(0, Math.max(1, slot - 40))) * MIN, distanceM: random.int(2_000, 40_000), private: random.int(0, 9) === 0 });
      }
    }
  }
  return trips;
}

/** The trips as the trip log stores them, each unit's tracker counter running on from trip to trip. */
function tripItems(accountId: string, trips: readonly SeedTrip[]): Record<string, unknown>[] {
  const counters = new Map<string, number>();
  return trips.map((t) => {
    const counter = counters.get(t.imei) ?? 10_000_000;
    counters.set(t.imei, counter + t.distanceM + 500);
    const minutes = Math.max(5, Math.round(t.distanceM / 700));
    return {
      imei: t.imei,
      startTs: t.startTs,
      accountId,
      stopTs: t.startTs + minutes * MIN,
      startLat: 59.33,
      startLon: 18.06,
      stopLat: 59.4,
      stopLon: 17.95,
      startAddress: 'Storgatan 1, 111 22 Stockholm',
      stopAddress: 'Kungsgatan 12, 111 35 Stockholm',
      distanceM: t.distanceM,
      startCounterM: counter,
      stopCounterM: counter + t.distanceM,
      counterSource: 'tracker',
      maxSpeedKmh: 50 + (t.distanceM % 60),
      movingS: minutes * 55,
      idleS: minutes * 5,
      basis: 'ignition',
      type: t.private ? 'private' : 'business',
      purpose: t.private ? undefined : 'Kundbesök',
      v: 0,
      expiresAt: Math.floor(t.startTs / 1000) + 395 * 86_400,
    };
  });
}

/** Every unit's days of the trips, and their months, recomputed by the rollup queue's function. */
async function rollUp(accountId: string, trips: readonly SeedTrip[]): Promise<number> {
  const days = new Map<string, Set<string>>();
  for (const t of trips) days.set(t.imei, (days.get(t.imei) ?? new Set()).add(localDayOf(t.startTs, ZONE)));
  await mapLimited([...days], 16, async ([imei, list]) => {
    const { overtaken } = await recomputeUnitDaysAndMonths(accountId, imei, [...list].sort());
    if (overtaken.length) throw new Error(`${imei}: ${overtaken.join(', ')} not written`);
  });
  return [...days.values()].reduce((n, list) => n + list.size, 0);
}

const runtime = await startEmbeddedRuntime({ port: 0, mqttPort: 0, dataDir: null, host: '127.0.0.1', seed: false });
const outcome = { failed: true };
try {
  const owner = await createTestUser();
  const { token } = await loginAs(owner.username, owner.password);
  const now = Date.now();
  const today = localDayOf(now, ZONE);
  const registeredAt = now - 400 * DAY_MS;

  let t0 = performance.now();
  const fleet = await seedFleet(owner.accountId, UNITS + 1, now, registeredAt);
  const [yearUnit = '', ...monthUnits] = fleet.imeis;
  // Last month (the page's default period) for the fleet; the year up to yesterday for one unit.
  const lastMonthFrom = `${addMonthsToDay(`${today.slice(0, 7)}-01`, -1).slice(0, 7)}-01`;
  const lastMonthTo = addDays(`${today.slice(0, 7)}-01`, -1);
  const lastDay = addDays(today, -1);
  const yearFrom = addDays(today, -365);
  const month = tripsOf(monthUnits, lastMonthFrom, lastMonthTo, 3, 7);
  const year = tripsOf([yearUnit], yearFrom, lastDay, 8, 8);
  await putAll('trips', tripItems(owner.accountId, [...month, ...year]));
  const tripsS = (performance.now() - t0) / 1000;
  t0 = performance.now();
  const unitDays = await rollUp(owner.accountId, [...month, ...year]);
  const rollupS = (performance.now() - t0) / 1000;
  // Two Stockholm passages a trip (in at the start, out before the stop) for the units of the trip-based reports.
  const stations = CONTROL_POINTS.filter((c) => c.city === 'stockholm' && c.kind === 'cordon');
  const tripUnits = monthUnits.slice(0, AT_ONCE_UNITS);
  const passageTrips = month.filter((t) => tripUnits.includes(t.imei));
  t0 = performance.now();
  await mapLimited(passageTrips, 16, async (t, i) => {
    const station = stations[i % stations.length];
    if (!station) return;
    for (const [time, direction] of [[t.startTs + 4 * MIN, 'in'], [t.startTs + Math.max(5, Math.round(t.distanceM / 700)) * MIN - 4 * MIN, 'out']] as const) {
      await putPassage(owner.accountId, t.imei, { stationId: station.id, city: 'stockholm', station: station.name, direction, time, uncertain: false });
    }
  });
  const passagesS = (performance.now() - t0) / 1000;

  const get = async (path: string): Promise<{ status: number; body: { data?: unknown } }> => {
    const res = await fetch(`${runtime.url}${path}`, { headers: { authorization: `Bearer ${token}`, timezone: ZONE } });
    return { status: res.status, body: (await res.json()) as { data?: unknown } };
  };
  const timed = async (path: string, count: number): Promise<{ p50: number; p95: number; model: ReportModel }> => {
    await get(path);
    const times: number[] = [];
    let model: ReportModel | undefined;
    for (let i = 0; i < count; i++) {
      const t = performance.now();
      const res = await get(path);
      times.push(performance.now() - t);
      if (res.status !== 200) throw new Error(`GET ${path} answered ${res.status}: ${JSON.stringify(res.body).slice(0, 300)}`);
      model = res.body.data as ReportModel;
    }
    times.sort((a, b) => a - b);
    return { p50: percentile(times, 50), p95: percentile(times, 95), model: model as ReportModel };
  };

  const summary = await timed(`/api/v1/user/reports/summary?from=${lastMonthFrom}&to=${lastMonthTo}`, REQUESTS);
  const few = Math.max(3, Math.round(REQUESTS / 4));
  const large = await timed(`/api/v1/user/reports/largeSummary?from=${yearFrom}&to=${lastDay}&groupBy=month`, few);
  const fuel = await timed(`/api/v1/user/reports/fuelConsumption?from=${lastMonthFrom}&to=${lastMonthTo}`, few);
  const environmental = await timed(`/api/v1/user/reports/environmental?from=${lastMonthFrom}&to=${lastMonthTo}`, few);
  const twenty = tripUnits.join(',');
  const eco = await timed(`/api/v1/user/reports/ecoDriving?imeis=${twenty}&from=${lastMonthFrom}&to=${lastMonthTo}`, few);
  const congestion = await timed(`/api/v1/user/reports/congestion?imeis=${twenty}&from=${lastMonthFrom}&to=${lastMonthTo}`, few);

  /** The 12-month trip log through its export job: the time until done, and this process's memory meanwhile. */
  const exportJob = async (format: 'pdf' | 'xlsx'): Promise<{ ms: number; peakMb: number; baseMb: number; bytes: number }> => {
    global.gc?.();
    const baseMb = process.memoryUsage().rss / 2 ** 20;
    let peakMb = baseMb;
    const sampler = setInterval(() => (peakMb = Math.max(peakMb, process.memoryUsage().rss / 2 ** 20)), 10);
    const t = performance.now();
    const posted = await fetch(`${runtime.url}/api/v1/user/reports/exports`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, timezone: ZONE, 'content-type': 'application/json' },
      body: JSON.stringify({ kind: 'tripLog', imeis: yearUnit, from: yearFrom, to: lastDay, format }),
    });
    const job = ((await posted.json()) as { data: { job: { id: string } } }).data.job;
    let status = 'queued';
    let url = '';
    while (status === 'queued' || status === 'running') {
      await new Promise((r) => setTimeout(r, 20));
      const answer = (await get(`/api/v1/user/reports/exports/${job.id}`)).body.data as { job: { status: string; url?: string } };
      status = answer.job.status;
      url = answer.job.url ?? '';
    }
    const ms = performance.now() - t;
    clearInterval(sampler);
    if (status !== 'done') throw new Error(`the ${format} export ${status}`);
    const link = await fetch(`${runtime.url}${url}`, { headers: { authorization: `Bearer ${token}` }, redirect: 'manual' });
    const file = await fetch(new URL(link.headers.get('location') as string, runtime.url));
    return { ms, peakMb, baseMb, bytes: (await file.arrayBuffer()).byteLength };
  };
  const pdf = await exportJob('pdf');
  const xlsx = await exportJob('xlsx');

  const missed = [
    summary.p95 > TARGET.summaryP95Ms && `summary p95 ${summary.p95.toFixed(0)} ms > ${TARGET.summaryP95Ms} ms`,
    large.p95 > TARGET.largeP95Ms && `large summary p95 ${large.p95.toFixed(0)} ms > ${TARGET.largeP95Ms} ms`,
    fuel.p95 > TARGET.fuelP95Ms && `fuel consumption p95 ${fuel.p95.toFixed(0)} ms > ${TARGET.fuelP95Ms} ms`,
    environmental.p95 > TARGET.fuelP95Ms && `environmental p95 ${environmental.p95.toFixed(0)} ms > ${TARGET.fuelP95Ms} ms`,
    eco.p95 > TARGET.tripUnitsP95Ms && `eco driving p95 ${eco.p95.toFixed(0)} ms > ${TARGET.tripUnitsP95Ms} ms`,
    congestion.p95 > TARGET.tripUnitsP95Ms && `congestion p95 ${congestion.p95.toFixed(0)} ms > ${TARGET.tripUnitsP95Ms} ms`,
    pdf.ms > TARGET.pdfMs && `PDF ${pdf.ms.toFixed(0)} ms > ${TARGET.pdfMs} ms`,
    pdf.peakMb - pdf.baseMb > TARGET.pdfMb && `PDF +${(pdf.peakMb - pdf.baseMb).toFixed(0)} MB > ${TARGET.pdfMb} MB`,
    xlsx.ms > TARGET.xlsxMs && `XLSX ${xlsx.ms.toFixed(0)} ms > ${TARGET.xlsxMs} ms`,
  ].filter((m): m is string => typeof m === 'string');
  outcome.failed = missed.length > 0;
  console.log(`
  bench:reports  ${UNITS} units with a month of trips (${month.length}) and one with 12 months (${year.length}); trips written in ${tripsS.toFixed(1)} s, ${unitDays} day rollups computed in ${rollupS.toFixed(1)} s, ${passageTrips.length * 2} passages in ${passagesS.toFixed(1)} s
    summary, ${UNITS} units x last month (${REQUESTS} requests)        p50 ${summary.p50.toFixed(0)} ms   p95 ${summary.p95.toFixed(0)} ms   target p95 <= ${TARGET.summaryP95Ms} ms   (${summary.model.totals['trips']} trips, ${summary.model.totals['distance']} km)
    large summary, ${UNITS} units x 12 months by month            p50 ${large.p50.toFixed(0)} ms   p95 ${large.p95.toFixed(0)} ms   target p95 <= ${TARGET.largeP95Ms} ms   (${large.model.units.reduce((n, u) => n + u.rows.length, 0)} rows)
    fuel consumption, ${UNITS} units x last month                 p50 ${fuel.p50.toFixed(0)} ms   p95 ${fuel.p95.toFixed(0)} ms   target p95 <= ${TARGET.fuelP95Ms} ms   (${fuel.model.totals['distance']} km)
    environmental, ${UNITS} units x last month                    p50 ${environmental.p50.toFixed(0)} ms   p95 ${environmental.p95.toFixed(0)} ms   target p95 <= ${TARGET.fuelP95Ms} ms   (${environmental.model.totals['distance']} km)
    eco driving, ${AT_ONCE_UNITS} units x last month                       p50 ${eco.p50.toFixed(0)} ms   p95 ${eco.p95.toFixed(0)} ms   target p95 <= ${TARGET.tripUnitsP95Ms} ms   (${eco.model.totals['distance']} km)
    congestion tax, ${AT_ONCE_UNITS} units x last month                    p50 ${congestion.p50.toFixed(0)} ms   p95 ${congestion.p95.toFixed(0)} ms   target p95 <= ${TARGET.tripUnitsP95Ms} ms   (${congestion.model.units.reduce((n, u) => n + u.rows.length, 0)} passages)
    trip log PDF, 1 unit x 12 months (export job)           ${pdf.ms.toFixed(0)} ms, ${(pdf.bytes / 1024).toFixed(0)} KB; memory ${pdf.baseMb.toFixed(0)} MB before, peak ${pdf.peakMb.toFixed(0)} MB   target <= ${TARGET.pdfMs} ms, <= +${TARGET.pdfMb} MB
    trip log XLSX, the same                                 ${xlsx.ms.toFixed(0)} ms, ${(xlsx.bytes / 1024).toFixed(0)} KB; memory ${xlsx.baseMb.toFixed(0)} MB before, peak ${xlsx.peakMb.toFixed(0)} MB   target <= ${TARGET.xlsxMs} ms
  ${missed.length ? `MISSED: ${missed.join('; ')}` : 'All targets met.'}
`);
} finally {
  await runtime.stop();
}
process.exit(outcome.failed ? 1 : 0);
