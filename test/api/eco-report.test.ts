/**
 * Eco driving end to end on the embedded runtime: hand-made trips stored as the trip stage stores
 * them, eco events recorded through the event engine's effect sender (as ingest records them), and
 * the ecoDriving report's figures checked against what was computed by hand, per unit and per
 * driver; the day rollups summing the counts; the account's weights; the tracker's thresholds sent
 * once per change of the unit's eco sensitivity; the same totals in the PDF, the XLSX and the CSV.
 *
 * Trips lie in the last weeks: DynamoDB Local deletes items past their retention expiry.
 */
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getPorts } from '../../functions/platform/container';
import { dynamo, tableName } from '../../functions/platform/db';
import { getUnitItem } from '../../functions/domain/unit/reads';
import type { UnitItem, UnitRecord } from '../../functions/domain/unit/schema';
import { EVENT_EFFECT_SENDERS, EVENT_RAISED, eventEffect } from '../../functions/events/stage';
import { isoWeekOf } from '../../functions/reports/kinds/summary';
import { readUnitDays } from '../../functions/trips/unit-day-reads';
import type { EcoEventType } from '../../shared/eco';
import { addDays, localDayOf, startOfLocalDay } from '../../shared/local-time';
import type { Command } from '../../shared/schemas/commands';
import type { ReportModel } from '../../shared/schemas/reports';
import type { Trip } from '../../shared/schemas/trips';
import type { EmbeddedRuntime } from '../../infra/local/runtime';
import { DEMO_PASSWORD, demoImei, demoUsers } from '../../infra/local/seed';
import { callAs, callerFor, type Caller } from '../support/api-caller';
import { eventually } from '../support/eventually';
import { DEMO_REGISTERED_AT } from '../support/positions';
import { storeTestTrip } from '../support/stored-trips';
import { expectTotalsInEveryOutput } from '../support/report-outputs';
import { startRuntime } from '../support/runtime';

const STOCKHOLM = 'Europe/Stockholm';
const MIN = 60_000;
let rt: EmbeddedRuntime;
let admin: Caller;

const call = <T>(method: string, path: string, body?: unknown) => callAs<T>(rt.url, method, path, admin, body, STOCKHOLM);
const report = (params: Record<string, string>) => call<ReportModel>('GET', `/api/v1/user/reports/ecoDriving?${new URLSearchParams(params)}`);
const daysAgo = (n: number) => localDayOf(Date.now() - n * 86_400_000, STOCKHOLM);
const at = (day: string, hhmm: string) => {
  const [h = 0, m = 0] = hhmm.split(':').map(Number);
  return startOfLocalDay(day, STOCKHOLM) + h * 3_600_000 + m * MIN;
};

let car: string;
let dayA: string;
let dayB: string;

async function newUnit(name: string, imei: string, extra: Partial<UnitRecord & UnitItem> = {}): Promise<string> {
  const unit = { imei, accountId: admin.accountId, name, registrationNumber: 'ECO 123', vehicleType: 'car', protocol: 'native', createdAt: DEMO_REGISTERED_AT.toISOString(), ...extra };
  await dynamo().send(new PutCommand({ TableName: tableName('units'), Item: unit }));
  return imei;
}

const storeTrip = (imei: string, startTs: number, minutes: number, km: number, movingS: number, idleS: number) =>
  storeTestTrip(imei, startTs, { minutes, distanceM: km * 1000, counterStartM: 1_000_000_000 + startTs / 1000, source: 'tracker', movingS, idleS });

/** Records an eco event as the event engine's effect does (stored once, its days announced). */
async function recordEco(imei: string, type: EcoEventType, ts: number, details: Record<string, number | boolean>): Promise<void> {
  const unit = (await getUnitItem(imei)) as UnitItem;
  const effect = eventEffect({ type, ts, key: type === 'overspeedEpisode' ? 'speed' : type === 'idling' ? 'idle' : 'harsh', lat: 59.35, lon: 18.02, alarm: false, details });
  await EVENT_EFFECT_SENDERS[EVENT_RAISED]!({ ...effect, status: 'sending', at: Date.now() }, unit, getPorts());
}

beforeAll(async () => {
  rt = await startRuntime();
  admin = await callerFor(demoUsers.admin.username, DEMO_PASSWORD);
  car = await newUnit('Eco car', demoImei(700), { overspeedKmh: 90 });
  dayA = daysAgo(12);
  dayB = daysAgo(5);
  // Day A: a trip of 30 km and one of 10 km, driven by the admin; day B: 40 km without a driver.
  const t1 = await storeTrip(car, at(dayA, '08:00'), 40, 30, 2000, 400);
  const t2 = await storeTrip(car, at(dayA, '16:00'), 20, 10, 1100, 100);
  await storeTrip(car, at(dayB, '09:00'), 50, 40, 2700, 300);
  for (const id of [t1, t2]) expect((await call<Trip>('PUT', `/api/v1/user/trips/${id}`, { driverId: admin.userId })).status).toBe(200);

  await recordEco(car, 'harshBraking', at(dayA, '08:05'), { g: 0.45, ms: 700, speed: 60 });
  await recordEco(car, 'harshAcceleration', at(dayA, '08:10'), { g: 0.4, ms: 900, speed: 30 });
  await recordEco(car, 'overspeedEpisode', at(dayA, '08:20'), { seconds: 200, maxSpeed: 112, limit: 90 });
  await recordEco(car, 'idling', at(dayA, '08:30'), { seconds: 150, device: false });
  // Outside any trip: listed, not counted.
  await recordEco(car, 'harshAcceleration', at(dayA, '12:00'), { g: 0.5, ms: 400, speed: 20 });
  await recordEco(car, 'harshCornering', at(dayA, '16:05'), { g: 0.5, ms: 600, speed: 40 });
  await recordEco(car, 'harshBraking', at(dayB, '09:10'), { g: 0.41, ms: 500, speed: 70 });
  await recordEco(car, 'harshBraking', at(dayB, '09:20'), { g: 0.39, ms: 500, speed: 50 });
  await recordEco(car, 'overspeedEpisode', at(dayB, '09:30'), { seconds: 100, maxSpeed: 104, limit: 90 });
  // A redelivered effect records nothing twice.
  await recordEco(car, 'harshBraking', at(dayB, '09:20'), { g: 0.39, ms: 500, speed: 50 });
});

afterAll(async () => {
  await rt?.stop();
});

describe('GET /api/v1/user/reports/ecoDriving', () => {
  it('per unit: the counts, the breakdown and the score by hand, the trend per week, the worst trips and the events', async () => {
    const res = await report({ imeis: car, from: dayA, to: dayB });
    expect(res.status).toBe(200);
    const model = res.body.data as ReportModel;
    // 80 km, 5800 s driving, 800 s idling; 1 acceleration, 3 brakings, 1 cornering, 300 s over the limit.
    // Per 100 km: 1.25, 3.75, 1.25 at 2 points each: 12.5. Over the limit 300/5800 = 5.17 %: 5.17.
    // Idling 800/6600 = 12.12 % at 0.5: 6.06. 100 - 12.5 - 5.17 - 6.06 = 76.27: 76.
    const totals = { distance: 80, score: 76, harshAccelerations: 1, harshBrakings: 3, harshCornerings: 1, overspeedSeconds: 300, idleSeconds: 800, accelerationsPer100Km: 1.3, brakingsPer100Km: 3.8, corneringsPer100Km: 1.3, overspeedPercent: 5.2, idlePercent: 12.1 };
    expect(model.totals).toEqual(totals);
    const [unit] = model.units;
    expect(unit?.rows).toEqual([{ unitName: 'Eco car', registrationNumber: 'ECO 123', ...totals }]);

    // Week of day A: the admin's two trips (72, below); of day B: 81 (below); one row when both fall in one week.
    const weeks = unit?.tables.find((t) => t.key === 'weeks')?.rows.map((r) => [r['week'], r['trips'], r['distance'], r['score']]);
    expect(weeks).toEqual(isoWeekOf(dayA) === isoWeekOf(dayB) ? [[isoWeekOf(dayA), 3, 80, 76]] : [[isoWeekOf(dayA), 2, 40, 72], [isoWeekOf(dayB), 1, 40, 81]]);

    // Trips of 20 km or more, lowest first. The 30 km trip: 1 acceleration and 1 braking, 3.33 per 100 km
    // each: 13.33; 200/2000 s over the limit: 10; 400/2400 s idling: 8.33; 68. The 40 km trip: 2 brakings,
    // 5 per 100 km: 10; 100/2700: 3.7; 300/3000 = 10 %: 5; 81.3: 81. The 10 km trip has no score.
    const worst = unit?.tables.find((t) => t.key === 'worstTrips')?.rows.map((r) => [r['start'], r['distance'], r['score'], r['harshEvents'], r['overspeedSeconds'], r['driverName']]);
    expect(worst).toEqual([
      [expect.stringMatching(new RegExp(`^${dayA}T08:00`)), 30, 68, 2, 200, 'Alva Andersson'],
      [expect.stringMatching(new RegExp(`^${dayB}T09:00`)), 40, 81, 2, 100, 'No driver'],
    ]);

    const events = unit?.tables.find((t) => t.key === 'ecoEvents')?.rows ?? [];
    expect(events.map((e) => [String(e['time']).slice(0, 16), e['type'], e['value']])).toEqual([
      [`${dayA}T08:05`, 'harshBraking', '0.45 g'],
      [`${dayA}T08:10`, 'harshAcceleration', '0.40 g'],
      [`${dayA}T08:20`, 'overspeedEpisode', '112 km/h'],
      [`${dayA}T08:30`, 'idling', '0:03'],
      [`${dayA}T12:00`, 'harshAcceleration', '0.50 g'],
      [`${dayA}T16:05`, 'harshCornering', '0.50 g'],
      [`${dayB}T09:10`, 'harshBraking', '0.41 g'],
      [`${dayB}T09:20`, 'harshBraking', '0.39 g'],
      [`${dayB}T09:30`, 'overspeedEpisode', '104 km/h'],
    ]);
    expect(events[0]).toMatchObject({ event: 'Harsh braking', lat: 59.35, lon: 18.02 });
    expect(model.notes.join(' ')).toContain('loses 2 points per harsh acceleration per 100 km');
  });

  it('per driver: the trips and events of each driver; the trip filters', async () => {
    const model = (await report({ imeis: car, from: dayA, to: dayB, by: 'driver' })).body.data as ReportModel;
    // The admin: 40 km, 1 of each harsh kind (2.5 per 100 km each: 15), 200/3100 s over the limit (6.45),
    // 500/3600 s idling (13.89 %: 6.94): 71.6, 72. No driver: 40 km, 2 brakings (10), 3.7, 5: 81.
    expect(model.units.map((u) => [u.name, u.totals['distance'], u.totals['score'], u.totals['harshBrakings'], u.totals['overspeedSeconds']])).toEqual([
      ['Alva Andersson', 40, 72, 1, 200],
      ['No driver', 40, 81, 2, 100],
    ]);
    expect(model.units[0]?.tables.find((t) => t.key === 'ecoEvents')?.rows).toHaveLength(5);
    expect(model.totals).toMatchObject({ distance: 80, score: 76 });
    // The trip filters: the admin's trips of day A; none on day B, so no score.
    const own = (await report({ imeis: car, from: dayA, to: dayA, type: 'business', driverId: admin.userId })).body.data as ReportModel;
    expect(own.totals).toMatchObject({ distance: 40, score: 72 });
    // Only the events of the trips kept: not the one between them.
    expect(own.units[0]?.tables.find((t) => t.key === 'ecoEvents')?.rows.map((r) => r['type'])).toEqual(['harshBraking', 'harshAcceleration', 'overspeedEpisode', 'idling', 'harshCornering']);
    const none = await report({ imeis: car, from: dayB, to: dayB, by: 'driver', driverId: admin.userId });
    expect(none.body.data?.totals).toMatchObject({ distance: 0, score: null });
    expect(none.body.data?.units).toEqual([]);
    // Over more than a month it is made by a job, as every report from trips.
    expect((await report({ imeis: car, from: addDays(dayB, -40), to: dayB })).status).toBe(202);
  });

  it("the day rollups sum each day's counts of its trips", async () => {
    const days = await eventually(
      () => readUnitDays(admin.accountId, car, dayA, dayB),
      (list) => list.length === 2 && list[1]?.harshBrakings === 2,
      'the day rollups',
    );
    expect(days.map((d) => [d.day, d.harshAccelerations, d.harshBrakings, d.harshCornerings, d.overspeedS])).toEqual([
      [dayA, 1, 1, 1, 200],
      [dayB, 0, 2, 0, 100],
    ]);
  });

  it("takes the account's weights, which an admin sets within 0..20", async () => {
    const put = (ecoWeights: unknown) => call<{ ecoWeights: unknown }>('PUT', '/api/v1/administration/settings', { ecoWeights });
    const bad = await put({ acceleration: 25, braking: 2, cornering: 2, overspeed: 1, idle: 0.5 });
    expect(bad.status).toBe(422);
    expect(JSON.stringify(bad.body.errors)).toContain('InvalidEcoWeight');
    expect((await put({ acceleration: 2, braking: 2 })).status).toBe(422);
    // Braking only, 4 points per braking per 100 km: 3.75 x 4 = 15: 85.
    const saved = await put({ acceleration: 0, braking: 4, cornering: 0, overspeed: 0, idle: 0 });
    expect(saved.status).toBe(200);
    expect(saved.body.data?.ecoWeights).toEqual({ acceleration: 0, braking: 4, cornering: 0, overspeed: 0, idle: 0 });
    expect((await report({ imeis: car, from: dayA, to: dayB })).body.data?.totals['score']).toBe(85);
    expect((await put({ acceleration: 2, braking: 2, cornering: 2, overspeed: 1, idle: 0.5 })).status).toBe(200);
  });

  it('the same totals in the PDF, the XLSX and the CSV', async () => {
    const params = { imeis: car, from: dayA, to: dayB };
    await expectTotalsInEveryOutput(rt.url, admin, STOCKHOLM, (await report(params)).body.data as ReportModel, params);
  });
});

describe("a unit's eco sensitivity", () => {
  it('sends the tracker its thresholds once per change', async () => {
    const imei = await newUnit('Eco van', demoImei(701));
    const commands = async () => (await call<Command[]>('GET', `/api/v1/user/units/${imei}/commands`)).body.data?.filter((c) => c.type === 'ecoThresholds') ?? [];
    const save = (ecoSensitivity: string) => call('PUT', `/api/v1/user/units/${imei}`, { ecoSensitivity });
    expect((await save('normal')).status).toBe(200);
    expect(await commands()).toEqual([]);
    // Two saves of one change at once: one command.
    const both = await Promise.all([save('sensitive'), save('sensitive')]);
    expect(both.map((r) => r.status)).toEqual([200, 200]);
    expect((await commands()).map((c) => c.params)).toEqual([{ sensitivity: 'sensitive', accelerationG: 0.25, brakingG: 0.28, corneringG: 0.35 }]);
    expect((await save('sensitive')).status).toBe(200);
    expect(await commands()).toHaveLength(1);
    expect((await save('insensitive')).status).toBe(200);
    expect((await commands()).map((c) => [c.params, c.status])).toEqual([
      [{ sensitivity: 'insensitive', accelerationG: 0.45, brakingG: 0.45, corneringG: 0.45 }, 'pending'],
      [{ sensitivity: 'sensitive', accelerationG: 0.25, brakingG: 0.28, corneringG: 0.35 }, 'cancelled'],
    ]);
    expect((await save('wild')).status).toBe(422);
  });
});
