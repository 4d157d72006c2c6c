/**
 * Autoplan mileage reporting end to end on the embedded runtime (docs/api.md Reports: Autoplan; spec
 * sections 5, 8 and 9): the window of days 1 to 4 in the account's zone with the clock port moved,
 * the month's figures from its rollup, validation keys, another account's 404, two requests at once
 * (one report, one AutoplanMonthAlreadyReported, one outbox entry), Autoplan's refusals mapped to
 * their keys with the claim given back, the admin-only setting, and the job `autoplan-reports` run
 * twice at once and again: each vehicle reported once and each admin e-mailed once.
 */
import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AutoplanReport } from '../../shared/schemas/autoplan';
import { handler as autoplanJob } from '../../functions/jobs/autoplan-reports';
import { getPorts, overridePorts } from '../../functions/platform/container';
import { dynamo, tableName } from '../../functions/platform/db';
import type { UnitRecord } from '../../functions/domain/unit/schema';
import { AutoplanNoResponseError, type Autoplan, type AutoplanOutcome } from '../../functions/platform/ports';
import type { EmbeddedRuntime } from '../../infra/local/runtime';
import { demoImei, demoUsers } from '../../infra/local/seed';
import { callAs, demoCallers, type Caller } from '../support/api-caller';
import { DEMO_REGISTERED_AT } from '../support/positions';
import { startRuntime } from '../support/runtime';

const PATH = '/api/v1/user/reports/autoplan';
const SETTINGS = '/api/v1/administration/autoplan';
let rt: EmbeddedRuntime;
let admin: Caller;
let user: Caller;
let other: Caller;
/** The clock port: the wall clock unless a test moves it (sessions stay valid: every moved time is in the past). */
let fixedNow: number | null = null;
let outboxAutoplan: Autoplan;

const call = <T>(method: string, path: string, who: Caller | null, body?: unknown) => callAs<T>(rt.url, method, path, who, body);
const report = (imei: string, month: string, who: Caller = admin) => call<AutoplanReport>('POST', PATH, who, { imei, month });
const outbox = async (to: string, kind: 'autoplan' | 'email') =>
  (await call<{ subject?: string; text: string }[]>('GET', `/api/dev/outbox?to=${encodeURIComponent(to)}&kind=${kind}`, null)).body.data ?? [];

/** 1 October 2026, 00:30 in Stockholm (still 30 September in UTC): the window is open for September. */
const OCT_1 = Date.parse('2026-09-30T22:30:00Z');

let spare = 0;
async function newUnit(fields: Partial<UnitRecord> = {}, accountId = admin.accountId): Promise<{ imei: string; plate: string }> {
  const imei = demoImei(600 + spare++);
  const plate = `AP${String(100 + spare).slice(-3)}X`;
  const unit: UnitRecord = { imei, accountId, name: `Leased car ${spare}`, vehicleType: 'car', protocol: 'native', createdAt: DEMO_REGISTERED_AT.toISOString(), registrationNumber: plate, ...fields };
  await dynamo().send(new PutCommand({ TableName: tableName('units'), Item: unit }));
  return { imei, plate };
}

/** A month rollup as the unit-day-rollup consumer writes it: tracker counters, so the odometers are the counters. */
async function monthRollup(accountId: string, imei: string, month: string): Promise<void> {
  const first = Date.parse(`${month}-02T06:00:00Z`);
  await dynamo().send(
    new PutCommand({
      TableName: tableName('unitDays'),
      Item: {
        unit: `${accountId}#${imei}`, day: month, accountId, imei, trips: 12, distanceM: 1_234_567,
        byType: { business: { trips: 9, distanceM: 1_000_000 }, private: { trips: 2, distanceM: 200_500 }, other: { trips: 1, distanceM: 34_067 } },
        movingS: 50_000, idleS: 3_000, figuresMissing: 0, maxSpeedKmh: 110,
        firstStartTs: first, lastStartTs: first + 20 * 86_400_000, lastStopTs: first + 20 * 86_400_000 + 3_600_000,
        startCounterM: 12_000_500, counterSource: 'tracker', stopCounterM: 13_235_067, stopCounterSource: 'tracker', daily: [],
      },
    }),
  );
}

/** Autoplan answering as a test tells it, in place of the outbox adapter. */
function scripted(answer: () => Promise<AutoplanOutcome>): void {
  overridePorts({ autoplan: { report: answer } });
}

beforeAll(async () => {
  rt = await startRuntime();
  ({ admin, user, other } = await demoCallers());
  outboxAutoplan = getPorts().autoplan;
  overridePorts({ clock: { now: () => new Date(fixedNow ?? Date.now()) } });
}, 120_000);

afterAll(async () => {
  await rt?.stop();
});

describe('Autoplan: the window and the figures', () => {
  it('reports the previous month on days 1 to 4 in the account zone, with the figures of its rollup', async () => {
    const { imei, plate } = await newUnit();
    await monthRollup(admin.accountId, imei, '2026-09');
    fixedNow = OCT_1;
    const reply = await report(imei, '2026-09');
    expect(reply.status).toBe(200);
    expect(reply.body.message).toBe('AutoplanReported');
    const { reportedAt, reference, ...figures } = reply.body.data!;
    expect(figures).toEqual({
      imei, month: '2026-09', registrationNumber: plate, odometerStart: 12_000.5, odometerEnd: 13_235.067,
      trips: 12, distanceKm: 1234.567, businessKm: 1000, privateKm: 200.5, otherKm: 34.067,
    });
    expect(reportedAt).toBe(new Date(OCT_1).toISOString());
    // The embedded adapter: the report in the outbox under the registration number, its id the receipt.
    const sent = await outbox(plate, 'autoplan');
    expect(sent).toHaveLength(1);
    expect(sent[0]!.text).toContain('businessKm: 1000');
    expect(reference).toBe((sent[0] as { id?: string }).id);
  });

  it('refuses outside days 1 to 4 (AutoplanWrongDay) and any month but the previous one (AutoplanWrongMonth)', async () => {
    const { imei } = await newUnit();
    const cases: [string, string, number, string | null][] = [
      ['2026-09', '5 October, 00:00 local', Date.parse('2026-10-04T22:00:00Z'), 'AutoplanWrongDay'],
      ['2026-08', '30 September, 23:59 local', Date.parse('2026-09-30T21:59:00Z'), 'AutoplanWrongDay'],
      ['2026-08', '1 October', OCT_1, 'AutoplanWrongMonth'],
      ['2026-10', '1 October', OCT_1, 'AutoplanWrongMonth'],
    ];
    for (const [month, when, at, key] of cases) {
      fixedNow = at;
      const reply = await report(imei, month);
      expect(reply.status, when).toBe(422);
      expect(reply.body.message, when).toBe(key);
      expect(reply.body.errors, when).toEqual({ month: [key] });
    }
    // 4 October, 23:59 local: the last minute of the window; a month without trips reports zeros.
    fixedNow = Date.parse('2026-10-04T21:59:00Z');
    const last = await report(imei, '2026-09');
    expect(last.status).toBe(200);
    expect(last.body.data).toMatchObject({ trips: 0, distanceKm: 0, odometerStart: null, odometerEnd: null });
  });

  it("reads the day in the account's zone (its alert zone), not the caller's", async () => {
    const { imei } = await newUnit();
    const zone = (value: string | null) =>
      dynamo().send(
        new UpdateCommand({
          TableName: tableName('accounts'),
          Key: { accountId: admin.accountId },
          UpdateExpression: value ? 'SET alertTimeZone = :z' : 'REMOVE alertTimeZone',
          ...(value ? { ExpressionAttributeValues: { ':z': value } } : {}),
        }),
      );
    fixedNow = OCT_1;
    await zone('Europe/London');
    try {
      // 23:30 on 30 September in London.
      expect((await report(imei, '2026-09')).body.message).toBe('AutoplanWrongDay');
    } finally {
      await zone(null);
    }
    expect((await report(imei, '2026-09')).status).toBe(200);
  });

  it('validates imei and month with their keys', async () => {
    fixedNow = OCT_1;
    const bad = await call('POST', PATH, admin, { imei: '123', month: '2026-13' });
    expect(bad.status).toBe(422);
    expect(bad.body.errors).toEqual({ imei: ['InvalidImei'], month: ['InvalidMonth'] });
    expect((await call('POST', PATH, admin, {})).body.errors).toEqual({ imei: ['FieldRequired'], month: ['FieldRequired'] });
    const { imei } = await newUnit({ registrationNumber: '' });
    const unnamed = await report(imei, '2026-09');
    expect(unnamed.status).toBe(422);
    expect(unnamed.body.errors).toEqual({ imei: ['AutoplanRegistrationNumberMissing'] });
  });

  it("answers 404 for another account's unit and for a unit an ordinary user was not given, 401 without a session", async () => {
    fixedNow = OCT_1;
    const { imei, plate } = await newUnit();
    for (const who of [other, user]) {
      const reply = await report(imei, '2026-09', who);
      expect(reply.status).toBe(404);
      expect(reply.body.message).toBe('NotFound');
    }
    expect((await report(imei, '2026-09', { ...admin, token: 'nope' })).status).toBe(401);
    expect(await outbox(plate, 'autoplan')).toEqual([]);
  });
});

describe('Autoplan: once per vehicle and month', () => {
  it('answers two requests at once with one report and one AutoplanMonthAlreadyReported, and sends one', async () => {
    fixedNow = OCT_1;
    const { imei, plate } = await newUnit();
    const replies = await Promise.all([report(imei, '2026-09'), report(imei, '2026-09')]);
    expect(replies.map((r) => r.status).sort()).toEqual([200, 422]);
    const refused = replies.find((r) => r.status === 422)!;
    expect(refused.body.errors).toEqual({ month: ['AutoplanMonthAlreadyReported'] });
    expect(await outbox(plate, 'autoplan')).toHaveLength(1);
    // And later as well.
    expect((await report(imei, '2026-09')).body.message).toBe('AutoplanMonthAlreadyReported');
  });

  it("maps Autoplan's refusals and silence to their keys, and gives the month back so that it can be sent again", async () => {
    fixedNow = OCT_1;
    const { imei, plate } = await newUnit();
    const cases: [() => Promise<AutoplanOutcome>, number, string, string][] = [
      [async () => ({ status: 'noLicencePlateMatch' }), 422, 'AutoplanNoLicencePlateMatch', 'imei'],
      [async () => ({ status: 'serviceCar' }), 422, 'AutoplanServiceCarNoReport', 'imei'],
      [() => Promise.reject(new AutoplanNoResponseError('time-out')), 504, 'AutoplanNoResponse', ''],
    ];
    try {
      for (const [answer, status, key, field] of cases) {
        scripted(answer);
        const reply = await report(imei, '2026-09');
        expect(reply.status, key).toBe(status);
        expect(reply.body.message, key).toBe(key);
        expect(reply.body.errors, key).toEqual(field ? { [field]: [key] } : key);
      }
    } finally {
      overridePorts({ autoplan: outboxAutoplan });
    }
    expect((await report(imei, '2026-09')).status).toBe(200);
    expect(await outbox(plate, 'autoplan')).toHaveLength(1);
  });
});

describe('Autoplan: automatic reporting', () => {
  it('is an admin setting, validated', async () => {
    expect((await call('GET', SETTINGS, admin)).body.data).toEqual({ automatic: false });
    expect((await call('PUT', SETTINGS, user, { automatic: true })).status).toBe(403);
    const bad = await call('PUT', SETTINGS, admin, { automatic: 'yes' });
    expect(bad.status).toBe(422);
    expect(bad.body.errors).toEqual({ automatic: ['InvalidAutoplanAutomatic'] });
    const saved = await call('PUT', SETTINGS, admin, { automatic: true });
    expect(saved.status).toBe(200);
    expect(saved.body.message).toBe('AutoplanSettingsSaved');
    expect((await call('GET', SETTINGS, admin)).body.data).toEqual({ automatic: true });
    expect((await call('GET', SETTINGS, other)).body.data).toEqual({ automatic: false });
  });

  it('reports every vehicle of an opted-in account once and e-mails its admins once, also when the job runs twice at once and again', async () => {
    const adminEmail = String((await dynamo().send(new GetCommand({ TableName: tableName('users'), Key: { userId: admin.userId } }))).Item?.['email']);
    expect(adminEmail).toBe(demoUsers.admin.email);
    const { imei, plate } = await newUnit({ vehicleType: 'van' });
    await monthRollup(admin.accountId, imei, '2026-10');
    // A vehicle reported by hand before the job: listed as reported, not sent again.
    fixedNow = Date.parse('2026-11-01T05:00:00Z');
    const { plate: byHand, imei: byHandImei } = await newUnit();
    expect((await report(byHandImei, '2026-10')).status).toBe(200);
    try {
      const runs = await Promise.all([autoplanJob({ job: 'autoplan-reports' }), autoplanJob({ job: 'autoplan-reports' })]);
      expect(runs.map((r) => r.accounts).sort()).toEqual([0, 1]);
      const again = await autoplanJob({ job: 'autoplan-reports' });
      expect(again).toMatchObject({ accounts: 0, mails: 0, done: true });
    } finally {
      await call('PUT', SETTINGS, admin, { automatic: false });
    }
    expect(await outbox(plate, 'autoplan')).toHaveLength(1);
    expect(await outbox(byHand, 'autoplan')).toHaveLength(1);
    // The demo fleet's cars and lorry (ABC123, DEF456, GHI789) are vehicles; the excavator is not.
    for (const demoPlate of ['ABC123', 'GHI789']) expect(await outbox(demoPlate, 'autoplan'), demoPlate).toHaveLength(1);
    expect(await outbox('JKL012', 'autoplan')).toEqual([]);
    const mails = (await outbox(adminEmail, 'email')).filter((m) => m.subject?.includes('Autoplan'));
    expect(mails).toHaveLength(1);
    expect(mails[0]!.text).toContain(`Leased car ${spare - 1}`);
    expect(mails[0]!.text).toMatch(/1[\s,.]?234[.,]6 km/);
    // The ordinary user is no admin: no e-mail.
    expect((await outbox(demoUsers.user.email, 'email')).filter((m) => m.subject?.includes('Autoplan'))).toEqual([]);
  });
});
