/**
 * Reports end to end on the embedded runtime: hand-made drives are stored as the ingest stage
 * stores them (a merged trip, a private trip, an odometer entry, a gap in the odometer) and each
 * report's figures are checked against what was computed by hand; then the rules: the 12-month
 * period, another account's unit, a unit locked by someone else, a feature profile's report list,
 * a basic-only account, a kind that does not exist.
 *
 * Trips lie in the last weeks: DynamoDB Local deletes items past their retention expiry.
 */
import { PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dynamo, tableName } from '../../functions/platform/db';
import { addDays, localDayOf, startOfLocalDay } from '../../shared/local-time';
import type { ReportModel } from '../../shared/schemas/reports';
import { expectTotalsInEveryOutput, reportTotals, type ExportJob } from '../support/report-outputs';
import type { Trip } from '../../shared/schemas/trips';
import type { EmbeddedRuntime } from '../../infra/local/runtime';
import { DEMO_PASSWORD, demoImei, demoUsers } from '../../infra/local/seed';
import { callAs, callerFor, type Caller } from '../support/api-caller';
import { eventually } from '../support/eventually';
import { apiFetch } from '../support/http';
import { testPosition } from '../support/positions';
import { storePosition } from '../../functions/ingest/repository';
import { startRuntime } from '../support/runtime';
import { createTestUser } from '../support/sessions';
import { newReportUnit, storeDrive } from '../support/report-drives';

const STOCKHOLM = 'Europe/Stockholm';
const MIN = 60_000;
let rt: EmbeddedRuntime;
let admin: Caller;
let user: Caller;
let other: Caller;
let spare = 0;

const call = <T>(method: string, path: string, who: Caller | null, body?: unknown) => callAs<T>(rt.url, method, path, who, body, STOCKHOLM);
const report = (kind: string, params: Record<string, string>, who: Caller = admin) => call<ReportModel>('GET', `/api/v1/user/reports/${kind}?${new URLSearchParams(params)}`, who);

const daysAgo = (n: number) => localDayOf(Date.now() - n * 86_400_000, STOCKHOLM);
const at = (day: string, hhmm: string) => {
  const [h = 0, m = 0] = hhmm.split(':').map(Number);
  return startOfLocalDay(day, STOCKHOLM) + h * 3_600_000 + m * MIN;
};

const newUnit = (accountId: string, name: string): Promise<string> => newReportUnit(accountId, name, 600 + spare++);

async function setFeatures(accountId: string, features: Record<string, boolean>): Promise<void> {
  await dynamo().send(new UpdateCommand({ TableName: tableName('accounts'), Key: { accountId }, UpdateExpression: 'SET features = :f', ExpressionAttributeValues: { ':f': features } }));
}

let car: string;
let day: string;
let next: string;

beforeAll(async () => {
  rt = await startRuntime();
  admin = await callerFor(demoUsers.admin.username, DEMO_PASSWORD);
  user = await callerFor(demoUsers.user.username, DEMO_PASSWORD);
  const stranger = await createTestUser();
  other = await callerFor(stranger.username, stranger.password);

  // The hand-made drives: two business trips merged into one of 15 km, a private one of 8 km
  // that starts 5 km after the merged one ended (the odometer gap), and a business trip of 10 km
  // the next day after an odometer entry of 50,000 km.
  car = await newUnit(admin.accountId, 'Report car Åsa');
  day = daysAgo(20);
  next = addDays(day, 1);
  const a = await storeDrive(car, { at: at(day, '08:00'), minutes: 20, counterM: 100_000_000, distanceM: 12_000, movingS: 1_000, idleS: 120, maxSpeedKmh: 70 });
  const b = await storeDrive(car, { at: at(day, '08:30'), minutes: 10, counterM: 100_012_000, distanceM: 3_000, movingS: 500, idleS: 60, maxSpeedKmh: 90 });
  const c = await storeDrive(car, { at: at(day, '17:00'), minutes: 30, counterM: 100_020_000, distanceM: 8_000, movingS: 1_200, idleS: 0, maxSpeedKmh: 110 });
  await storeDrive(car, { at: at(next, '09:00'), minutes: 15, counterM: 100_028_000, distanceM: 10_000, movingS: 900, idleS: 30, maxSpeedKmh: 80 });
  expect((await call<Trip>('POST', '/api/v1/user/trips/merge', admin, { ids: [a, b] })).status).toBe(200);
  expect((await call<Trip>('PUT', `/api/v1/user/trips/${c}`, admin, { type: 'private', purpose: 'Ärende på stan' })).status).toBe(200);
  expect((await call('POST', `/api/v1/user/units/${car}/odometer-entries`, admin, { time: `${next}T08:00`, value: 50_000 })).status).toBe(201);
});

afterAll(async () => {
  await rt?.stop();
});

describe('GET /api/v1/user/reports/{kind}: the figures', () => {
  it('trip log: every trip, totals per type, the odometer reconciliation with its gap, the changes', async () => {
    // Stored without addresses, as every trip is: the report looks them up within its time budget,
    // and the queue fills what the budget left for the next one (functions/trips/trip-addresses.ts).
    const hasAddresses = (m: ReportModel | undefined) => m?.units[0]?.rows.every((r) => typeof r['startAddress'] === 'string' && typeof r['stopAddress'] === 'string') === true;
    const res = await eventually(() => report('tripLog', { imeis: car, from: day, to: next }), (r) => hasAddresses(r.body.data), 'the trip log with its addresses');
    expect(res.status).toBe(200);
    const model = res.body.data as ReportModel;
    expect(model).toMatchObject({ kind: 'tripLog', from: day, to: next, layout: 'units', title: 'Trip log' });
    const unit = model.units[0];
    expect(unit?.rows.map((r) => [r['distance'], r['type'], r['startOdometer'], r['stopOdometer']])).toEqual([
      [15, 'business', 100_000, 100_015],
      [8, 'private', 100_020, 100_028],
      [10, 'business', 50_000, 50_010],
    ]);
    expect(unit?.rows[1]).toMatchObject({ purpose: 'Ärende på stan', typeLabel: 'Private', merged: false });
    expect(unit?.rows[0]).toMatchObject({ merged: true });
    expect(unit?.totals).toEqual({ trips: 3, distance: 33, businessDistance: 25, privateDistance: 8, otherDistance: 0, startOdometer: 100_000, stopOdometer: 50_010 });
    const gaps = unit?.tables.find((t) => t.key === 'gaps');
    expect(gaps?.rows.map((r) => r['gap'])).toEqual([5, -50_028]);
    expect(unit?.facts.find((f) => f.key === 'odometerGap')).toMatchObject({ value: -50_023, tone: 'alert' });
    expect(unit?.facts.find((f) => f.key === 'attestation')).toMatchObject({ value: 'Not attested', tone: 'warning' });
    expect(model.totals).toMatchObject({ trips: 3, distance: 33, businessDistance: 25, privateDistance: 8 });
    const changes = unit?.tables.find((t) => t.key === 'changes')?.rows.map((r) => [r['field'], r['oldValue'], r['newValue']]);
    expect(changes).toEqual(
      expect.arrayContaining([
        ['Merged', expect.stringMatching(new RegExp(`^${day} 08:00–08:20$`)), expect.stringMatching(new RegExp(`^${day} 08:30–08:40$`))],
        ['Type', 'Business', 'Private'],
        ['Purpose', null, 'Ärende på stan'],
      ]),
    );
    expect(unit?.tables.find((t) => t.key === 'changes')?.rows.every((r) => r['changedBy'] && r['changedBy'] !== admin.userId)).toBe(true);
  });

  it('summary and large summary: trips, distance by type, driving and idle time, top speed, odometers', async () => {
    const expected = { trips: 3, distance: 33, businessDistance: 25, privateDistance: 8, otherDistance: 0, drivingSeconds: 3_600, idleSeconds: 210, maxSpeed: 110 };
    // The day rollups follow the trip writes through their queue.
    const res = await eventually(
      () => report('summary', { imeis: car, from: day, to: next }),
      (r) => r.status !== 200 || Object.entries(expected).every(([k, v]) => r.body.data?.totals[k] === v),
      'the day rollups of the trip writes',
    );
    expect(res.status).toBe(200);
    const model = res.body.data as ReportModel;
    expect(model.layout).toBe('overview');
    expect(model.units[0]?.totals).toMatchObject({ ...expected, startOdometer: 100_000, stopOdometer: 50_010 });
    expect(model.units[0]?.rows).toEqual([expect.objectContaining({ unitName: 'Report car Åsa', ...expected })]);
    expect(model.totals).toMatchObject(expected);
    expect(JSON.stringify(model)).not.toContain('Address');

    const large = (await report('largeSummary', { imeis: car, from: day, to: next, groupBy: 'day' })).body.data as ReportModel;
    expect(large.units[0]?.rows.map((r) => [r['period'], r['trips'], r['distance'], r['drivingSeconds'], r['idleSeconds']])).toEqual([
      [day, 2, 23, 2_700, 180],
      [next, 1, 10, 900, 30],
    ]);
    const chart = large.charts[0];
    expect(chart?.labels).toEqual([day, next]);
    expect(chart?.series.map((s) => s.values)).toEqual([[15, 10], [8, 0], [0, 0]]);

    const private_ = (await report('summary', { imeis: car, from: day, to: next, type: 'private' })).body.data as ReportModel;
    expect(private_.totals).toMatchObject({ trips: 1, distance: 8, businessDistance: 0, drivingSeconds: 1_200 });
  });

  it('benefit value: private trips, occasions, distances and the minor private use verdict per year', async () => {
    const res = await report('benefitValue', { imeis: car, from: day, to: next });
    expect(res.status).toBe(200);
    const model = res.body.data as ReportModel;
    expect(model.units[0]?.rows).toEqual([
      expect.objectContaining({ year: day.slice(0, 4), privateTrips: 1, privateOccasions: 1, privateDistance: 8, businessDistance: 25, minorPrivateUse: true, warning: false }),
    ]);
    expect(model.notes[0]).toContain('each calendar day with at least one private trip');
    expect(model.charts.map((c) => c.limits[0]?.value)).toEqual([1000, 10]);
  });

  it('theft: the theft information, the last known position before it, and the route after it', async () => {
    const boat = await newUnit(admin.accountId, 'Stulen båt');
    await dynamo().send(
      new PutCommand({
        TableName: tableName('unitDetails'),
        Item: {
          imei: boat,
          accountId: admin.accountId,
          theft: { date: day, place: 'Hamnen', policeStation: 'Polisen City', reportNumber: 'K-123', claimNumber: '', ownerName: 'Åsa Ägare', ownerEmail: '', ownerPhone: '+46701234567', otherInfo: '' },
          objectDescription: { manufacturer: 'Yamaha', model: 'VX', year: 2020, hullNumber: 'H-1', motorNumber: '', chassisNumber: '', insuranceCompany: 'Försäkring AB', insuranceNumber: 'F-9', links: [] },
        },
      }),
    );
    const before = at(addDays(day, -1), '23:00');
    await storePosition(boat, testPosition(before, 59.1, 18.1, { speed: 0 }), before, 395);
    for (const [i, hhmm] of ['02:00', '02:10', '02:20'].entries()) await storePosition(boat, testPosition(at(day, hhmm), [59.2, 59.21, 59.22][i] as number, 18.2, { speed: 30 + i }), at(day, hhmm), 395);

    const model = (await report('theft', { imeis: boat, from: addDays(day, -1), to: day })).body.data as ReportModel;
    const unit = model.units[0];
    expect(unit?.rows.map((r) => [r['lat'], r['speed']])).toEqual([
      [59.2, 30],
      [59.21, 31],
      [59.22, 32],
    ]);
    expect(unit?.totals).toEqual({ positions: 3, events: 0 });
    const fact = (key: string) => unit?.facts.find((f) => f.key === key);
    expect(fact('theftDate')?.value).toBe(day);
    expect(fact('lastPosition')?.value).toBe('59.10000, 18.10000');
    expect(fact('ownerPhone')).toMatchObject({ label: "Owner's phone", value: '070-123 45 67' });
    expect(fact('policeStation')?.value).toBe('Polisen City');
    expect(unit?.tables.find((t) => t.key === 'description')?.rows).toEqual(expect.arrayContaining([{ field: 'Manufacturer', value: 'Yamaha' }]));
    expect(unit?.details).toMatchObject({ lastPositionBefore: { lat: 59.1, lon: 18.1 } });
    // Among all units the theft report covers those with a theft date only.
    const all = (await report('theft', { from: addDays(day, -1), to: day })).body.data as ReportModel;
    expect(all.units.map((u) => u.imei)).toContain(boat);
    expect(all.units.map((u) => u.imei)).not.toContain(car);
  });

  it('answers in the caller language with the texts of the report', async () => {
    await dynamo().send(new UpdateCommand({ TableName: tableName('users'), Key: { userId: other.userId }, UpdateExpression: 'SET lang = :l', ExpressionAttributeValues: { ':l': 'sv' } }));
    const unit = await newUnit(other.accountId, 'Svensk bil');
    const model = (await report('summary', { imeis: unit, from: day, to: day }, other)).body.data as ReportModel;
    expect(model.title).toBe('Sammanställning');
    expect(model.columns.find((c) => c.key === 'drivingSeconds')).toMatchObject({ label: 'Körtid', unit: 'h:mm' });
    // The language the page shows, when it names one.
    expect((await report('summary', { imeis: unit, from: day, to: day, lang: 'no' }, other)).body.data?.title).toBe('Sammendrag');
    expect((await report('summary', { imeis: unit, from: day, to: day, lang: 'xx' }, other)).body.errors).toEqual({ lang: ['InvalidReportLanguage'] });
  });
});

describe('GET /api/v1/user/reports/{kind}: the rules', () => {
  it('refuses a period over 12 months on `to`, and bad filters with their keys', async () => {
    const long = await report('summary', { imeis: car, from: '2025-01-01', to: '2026-01-01' });
    expect(long.status).toBe(422);
    expect(long.body.errors).toEqual({ to: ['TripPeriodTooLong'] });
    expect((await report('summary', { imeis: 'abc', from: day, to: day })).body.errors).toEqual({ imeis: ['InvalidImei'] });
    expect((await report('largeSummary', { from: day, to: day, groupBy: 'year' })).body.errors).toEqual({ groupBy: ['InvalidGrouping'] });
  });

  it("answers another account's unit 404 and a kind that does not exist 422; 401 without a token", async () => {
    expect((await report('tripLog', { imeis: car, from: day, to: day }, other)).status).toBe(404);
    const unknown = await call('GET', `/api/v1/user/reports/fuel?from=${day}&to=${day}`, admin);
    expect(unknown.status).toBe(422);
    expect((await call('GET', `/api/v1/user/reports/summary?from=${day}&to=${day}`, null)).status).toBe(401);
  });

  it('a unit locked by someone else gives others only the benefit value and summary reports', async () => {
    const locked = demoImei(0);
    expect((await call('POST', `/api/v1/user/units/${locked}/lock`, user)).status).toBe(200);
    try {
      const refused = await report('tripLog', { imeis: locked, from: day, to: day });
      expect(refused.status).toBe(403);
      expect(refused.body.message).toBe('ReportNotAllowed');
      expect((await report('summary', { imeis: locked, from: day, to: day })).status).toBe(200);
      expect((await report('benefitValue', { imeis: locked, from: day, to: day })).status).toBe(200);
      // Among all units the locked one is left out, and the report says so.
      const all = (await report('tripLog', { from: day, to: day })).body.data as ReportModel;
      expect(all.units.map((u) => u.imei)).not.toContain(locked);
      expect(all.notes).toContain('One unit locked by someone else is left out of this report.');
      // The locker runs every report on it.
      expect((await report('tripLog', { imeis: locked, from: day, to: day }, user)).status).toBe(200);
    } finally {
      await call('POST', `/api/v1/user/units/${locked}/unlock`, user);
    }
  });

  it("enforces the feature profile's report list and the basic-only subscription", async () => {
    const profiles = '/api/v1/administration/feature-profiles';
    const created = await call<{ id: string }>('POST', profiles, admin, { name: 'Summary only', features: ['tripLog'], reports: ['summary'] });
    const id = created.body.data?.id as string;
    expect((await call('PUT', `${profiles}/${id}/users`, admin, { userIds: [user.userId] })).status).toBe(200);
    try {
      expect((await report('tripLog', { imeis: demoImei(0), from: day, to: day }, user)).status).toBe(403);
      expect((await report('summary', { imeis: demoImei(0), from: day, to: day }, user)).status).toBe(200);
    } finally {
      await call('DELETE', `${profiles}/${id}`, admin);
    }

    await setFeatures(other.accountId, { realtimeMap: true, carBooking: false, rfid: false, safeReturnHome: false, basicOnly: true });
    expect((await report('summary', { from: day, to: day }, other)).status).toBe(403);
    expect((await report('tripLog', { from: day, to: day }, other)).status).toBe(200);
  });
});

describe('a report too large to answer at once', () => {
  it('is made by a job whose file is the model: a trip log over more than 31 days', async () => {
    const from = addDays(day, -40);
    const res = await report('tripLog', { imeis: car, from, to: next });
    expect(res.status).toBe(202);
    const job = (res.body.data as unknown as { job: ExportJob }).job;
    expect(job).toMatchObject({ kind: 'tripLog', format: 'json', from, to: next });
    const done = await eventually(
      () => call<{ job: ExportJob }>('GET', `/api/v1/user/reports/exports/${job.id}`, admin),
      (r) => r.body.data?.job.status === 'done' || r.body.data?.job.status === 'failed',
      'the report job',
    );
    const link = await apiFetch(`${rt.url}${done.body.data?.job.url}`, { headers: { authorization: `Bearer ${admin.token}` }, redirect: 'manual' });
    const model = (await (await apiFetch(new URL(link.headers.get('location') as string, rt.url))).json()) as ReportModel;
    expect(model).toMatchObject({ kind: 'tripLog', from, to: next });
    expect(model.units[0]?.totals).toMatchObject({ trips: 3, distance: 33 });
    // Refused at once when it could not run, rather than by a failed job.
    expect((await report('tripLog', { imeis: car, from, to: next }, other)).status).toBe(404);
  });
});

describe('exports: the same figures on screen, in the PDF, the XLSX and the CSV', () => {
  it.each(['tripLog', 'summary', 'largeSummary', 'benefitValue', 'theft'])('%s', async (kind) => {
    const params = { imeis: car, from: day, to: next };
    const model = (await report(kind, params)).body.data as ReportModel;
    if (kind !== 'theft') expect(reportTotals(model).length).toBeGreaterThan(0);
    await expectTotalsInEveryOutput(rt.url, admin, STOCKHOLM, model, params);
  });
});
