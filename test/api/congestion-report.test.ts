/**
 * The congestion tax report end to end on the embedded runtime: hand-made drives through
 * Danvikstull and Liljeholmsbron go through ingest (the passage stage stores the passages), the
 * trips are stored as trip detection stores them, one of them made private; the report's amounts
 * are checked against the tariff by hand, the private passage listed apart, another account sees
 * nothing, and the PDF, XLSX and CSV show the screen's totals.
 *
 * The day is a charged weekday of the last weeks (positions expire after the retention), and the
 * times lie in bands whose amounts are the same in both of Stockholm's seasons: 06:00-06:29 15
 * SEK, 09:30-14:59 11 SEK, from 18:30 nothing.
 */
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exemptReason } from '../../shared/congestion/calendar';
import { reportsEn } from '../../shared/i18n/features/reports/en';
import type { ControlLine } from '../../shared/congestion/control-points';
import type { IotRuleEvent } from '../../shared/iot-rules';
import { localDayOf, startOfLocalDay } from '../../shared/local-time';
import type { ReportModel } from '../../shared/schemas/reports';
import type { Trip } from '../../shared/schemas/trips';
import { passageStage, PASSAGE_EFFECT_SENDERS } from '../../functions/congestion/passage-stage';
import { getUnitItem } from '../../functions/domain/unit/reads';
import type { UnitItem, UnitRecord } from '../../functions/domain/unit/schema';
import { ingestMessages } from '../../functions/ingest/ingest-message';
import type { IngestStage } from '../../functions/ingest/transitions';
import { getPorts } from '../../functions/platform/container';
import { dynamo, tableName } from '../../functions/platform/db';
import type { DetectedTrip } from '../../functions/trips/detect';
import { storeDetectedTrips } from '../../functions/trips/store-detected';
import type { EmbeddedRuntime } from '../../infra/local/runtime';
import { DEMO_PASSWORD, demoImei, demoUsers } from '../../infra/local/seed';
import { callAs, callerFor, type Caller } from '../support/api-caller';
import { lineOf, near } from '../support/congestion-track';
import { DEMO_REGISTERED_AT } from '../support/positions';
import { expectTotalsInEveryOutput } from '../support/report-outputs';
import { startRuntime } from '../support/runtime';
import { createTestUser } from '../support/sessions';

const STOCKHOLM = 'Europe/Stockholm';
const MIN = 60_000;
let rt: EmbeddedRuntime;
let admin: Caller;
let other: Caller;
let car: string;
let day: string;
let businessTrip: string;
let privateTrip: string;

const call = <T>(method: string, path: string, who: Caller, body?: unknown) => callAs<T>(rt.url, method, path, who, body, STOCKHOLM);
const report = (params: Record<string, string>, who: Caller = admin) => call<ReportModel>('GET', `/api/v1/user/reports/congestion?${new URLSearchParams(params)}`, who);

/** The latest weekday from three days back that the tax charges (not a weekend, holiday eve or July). */
function chargedDay(): string {
  for (let n = 3; n < 90; n++) {
    const d = localDayOf(Date.now() - n * 86_400_000, STOCKHOLM);
    if (!exemptReason(d, 'stockholm')) return d;
  }
  throw new Error('no charged day');
}
const at = (hhmm: string) => {
  const [h = 0, m = 0] = hhmm.split(':').map(Number);
  return startOfLocalDay(day, STOCKHOLM) + h * 3_600_000 + m * MIN;
};

/** Across a station's line at `ts`: 100 m before to 100 m after it, 20 s apart. */
const across = (line: ControlLine, direction: 'in' | 'out', ts: number) => {
  const sign = direction === 'in' ? 1 : -1;
  return [near(line, -100 * sign, ts - 10_000), near(line, 100 * sign, ts + 10_000)];
};

async function ingest(imei: string, records: ReturnType<typeof near>[]): Promise<void> {
  const event: IotRuleEvent = { payload: Buffer.from(JSON.stringify({ records })).toString('base64'), topic: `trackers/${imei}/telemetry`, imei, receivedAt: records[records.length - 1]!.ts + 1000 };
  await ingestMessages([event], getPorts(), { stages: [passageStage as IngestStage], senders: PASSAGE_EFFECT_SENDERS });
}

async function storeTrip(imei: string, start: number, stop: number): Promise<string> {
  const trip: DetectedTrip = {
    startTs: start,
    stopTs: stop,
    startLat: 59.31,
    startLon: 18.1,
    stopLat: 59.31,
    stopLon: 18.03,
    distanceM: 9_000,
    startCounterM: 1_000_000,
    stopCounterM: 1_009_000,
    counterSource: 'tracker',
    maxSpeedKmh: 60,
    movingS: (stop - start) / 1000,
    idleS: 0,
    basis: 'ignition',
  };
  await storeDetectedTrips((await getUnitItem(imei)) as UnitItem, [trip], getPorts());
  return `${imei}-${start}`;
}

beforeAll(async () => {
  rt = await startRuntime();
  admin = await callerFor(demoUsers.admin.username, DEMO_PASSWORD);
  const stranger = await createTestUser();
  other = await callerFor(stranger.username, stranger.password);
  day = chargedDay();
  car = demoImei(680);
  const unit: UnitRecord = { imei: car, accountId: admin.accountId, name: 'Toll car', registrationNumber: 'TLL 123', vehicleType: 'car', protocol: 'native', createdAt: DEMO_REGISTERED_AT.toISOString() };
  await dynamo().send(new PutCommand({ TableName: tableName('units'), Item: unit }));

  const danvik = lineOf('sth-danvikstull');
  const liljeholm = lineOf('sth-liljeholmsbron');
  // A business trip 06:00-06:40 in at Danvikstull (06:10) and out at Liljeholmsbron (06:25): 15 + 15.
  await ingest(car, [near(danvik, -400, at('06:05')), ...across(danvik, 'in', at('06:10'))]);
  await ingest(car, [near(liljeholm, 400, at('06:20')), ...across(liljeholm, 'out', at('06:25'))]);
  // A private trip 10:00-10:30 in at Liljeholmsbron (10:05): 11.
  await ingest(car, [near(liljeholm, -400, at('10:00')), ...across(liljeholm, 'in', at('10:05'))]);
  // Out at Danvikstull at 19:00, on no trip: outside the charged hours.
  await ingest(car, [near(danvik, 400, at('18:55')), ...across(danvik, 'out', at('19:00'))]);
  businessTrip = await storeTrip(car, at('06:00'), at('06:40'));
  privateTrip = await storeTrip(car, at('10:00'), at('10:30'));
  expect((await call<Trip>('PUT', `/api/v1/user/trips/${businessTrip}`, admin, { type: 'business', driverId: admin.userId })).status).toBe(200);
  expect((await call<Trip>('PUT', `/api/v1/user/trips/${privateTrip}`, admin, { type: 'private', purpose: 'Ärende' })).status).toBe(200);
});

afterAll(async () => {
  await rt?.stop();
});

describe('GET /api/v1/user/reports/congestion', () => {
  it('prices each passage, lists the private one apart, and sums the day after its rules', async () => {
    const res = await report({ imeis: car, from: day, to: day });
    expect(res.status).toBe(200);
    const model = res.body.data as ReportModel;
    expect(model).toMatchObject({ kind: 'congestion', layout: 'units', title: 'Congestion tax' });
    const unit = model.units[0]!;
    const time = (hhmm: string) => expect.stringMatching(new RegExp(`^${day}T${hhmm}:00(\\.000)?[+-]\\d\\d:\\d\\d$`));
    expect(unit.rows).toEqual([
      expect.objectContaining({ time: time('06:10'), city: 'stockholm', station: 'Danvikstull', direction: 'in', amount: 15, reason: null, uncertain: false, tripType: 'business', driverId: admin.userId }),
      expect.objectContaining({ time: time('06:25'), station: 'Liljeholmsbron', direction: 'out', amount: 15, tripType: 'business' }),
      expect.objectContaining({ time: time('19:00'), station: 'Danvikstull', direction: 'out', amount: 0, reason: 'free-hours', reasonLabel: 'Outside the charged hours', tripType: null }),
    ]);
    expect(unit.rows[0]?.['driverName']).toEqual(expect.any(String));
    const privately = unit.tables.find((t) => t.key === 'privatePassages');
    expect(privately?.rows).toEqual([expect.objectContaining({ time: time('10:05'), station: 'Liljeholmsbron', direction: 'in', amount: 11, tripType: 'private' })]);
    expect(unit.totals).toMatchObject({ amount: 30, privateAmount: 11, total: 41, passages: 4 });
    expect(unit.details).toMatchObject({ days: [{ date: day, amount: 41 }], total: 41 });
    expect((unit.details?.['passages'] as unknown[]).length).toBe(4);
    expect(unit.tables.find((t) => t.key === 'months')?.rows).toEqual([{ month: day.slice(0, 7), amount: 41 }]);
    expect(model.totals).toMatchObject({ amount: 30, privateAmount: 11, total: 41 });
    // Swedish texts.
    const sv = (await call<ReportModel>('GET', `/api/v1/user/reports/congestion?${new URLSearchParams({ imeis: car, from: day, to: day, lang: 'sv' })}`, admin)).body.data as ReportModel;
    expect(sv.title).toBe('Trängselskatt');
    expect(sv.units[0]?.rows[2]?.['reasonLabel']).toBe('Utanför skattetid');
  });

  it('lists only private passages when asked for private trips; the day stays the vehicle’s', async () => {
    const model = (await report({ imeis: car, from: day, to: day, type: 'private' })).body.data as ReportModel;
    expect(model.units[0]?.rows).toEqual([]);
    expect(model.units[0]?.totals).toMatchObject({ amount: 0, privateAmount: 11, total: 41 });
  });

  it('shows another account nothing of the unit', async () => {
    expect((await report({ imeis: car, from: day, to: day }, other)).status).toBe(404);
    const own = await report({ from: day, to: day }, other);
    expect(own.status).toBe(200);
    expect((own.body.data as ReportModel).units.map((u) => u.imei)).not.toContain(car);
  });

  it('exports the same totals in the PDF, the XLSX and the CSV', async () => {
    const params = { imeis: car, from: day, to: day };
    const model = (await report(params)).body.data as ReportModel;
    await expectTotalsInEveryOutput(rt.url, admin, STOCKHOLM, model, params);
  });
});

describe('one cordon crossing seen at two stations close together', () => {
  it('charges Johanneshovsbron and lists Skanstullsbron, crossed 22 s later the same way, at 0 SEK; counts one passage', async () => {
    const bus = demoImei(681);
    const unit: UnitRecord = { imei: bus, accountId: admin.accountId, name: 'Bridge bus', registrationNumber: 'BRG 456', vehicleType: 'bus', protocol: 'native', createdAt: DEMO_REGISTERED_AT.toISOString() };
    await dynamo().send(new PutCommand({ TableName: tableName('units'), Item: unit }));
    const johanneshov = lineOf('sth-johanneshovsbron');
    const skanstull = lineOf('sth-skanstullsbron');
    // Northbound (in) at 11:00: 100 m south of Johanneshovsbron's line, then one step to 100 m north of Skanstullsbron's.
    await ingest(bus, [near(johanneshov, -100, at('11:00') - 10_000), near(skanstull, 100, at('11:00') + 30_000)]);
    const model = (await report({ imeis: bus, from: day, to: day })).body.data as ReportModel;
    const u = model.units[0]!;
    expect(u.rows.map((r) => [r['station'], r['direction'], r['amount'], r['reason']])).toEqual([
      ['Johanneshovsbron', 'in', 11, null],
      ['Skanstullsbron', 'in', 0, 'same-crossing'],
    ]);
    expect(u.totals).toMatchObject({ total: 11, passages: 1 });
    expect(u.notes).toContain(reportsEn.ReportNote_congestionSameCrossing);
  });
});

describe('GET /api/v1/user/trips/{id}/passages', () => {
  it("answers a trip's passages priced with their day; a private trip's are not shown; another account's trip is 404", async () => {
    const res = await call<{ time: string; station: string; direction: string; amount: number; reason: string | null }[]>('GET', `/api/v1/user/trips/${encodeURIComponent(businessTrip)}/passages`, admin);
    expect(res.status).toBe(200);
    expect(res.body.data?.map((p) => [p.time.slice(11, 16), p.station, p.direction, p.amount, p.reason])).toEqual([
      ['06:10', 'Danvikstull', 'in', 15, null],
      ['06:25', 'Liljeholmsbron', 'out', 15, null],
    ]);
    const hidden = await call('GET', `/api/v1/user/trips/${encodeURIComponent(privateTrip)}/passages`, admin);
    expect([hidden.status, hidden.body.message]).toEqual([422, 'RoutePrivateTrip']);
    expect((await call('GET', `/api/v1/user/trips/${encodeURIComponent(businessTrip)}/passages`, other)).status).toBe(404);
  });
});
