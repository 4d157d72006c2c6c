/**
 * Report exports and schedules on the embedded runtime (docs/api.md Reports): the HTTP rules that
 * need no finished report. An export request is validated as GET /reports/{kind} is (the same keys
 * on the same fields, 12 months at most) and answered 202 with a queued job at once; another
 * account's or another user's job answers 404, also for its portal link; schedules are created,
 * listed, replaced and deleted by their owner only, with their recipients checked.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReportJob, ReportSchedule } from '../../shared/schemas/report-exports';
import type { EmbeddedRuntime } from '../../infra/local/runtime';
import { demoImei } from '../../infra/local/seed';
import { callAs, demoCallers, type Caller } from '../support/api-caller';
import { startRuntime } from '../support/runtime';

const EXPORTS = '/api/v1/user/reports/exports';
const SCHEDULES = '/api/v1/user/reports/schedules';
let rt: EmbeddedRuntime;
let admin: Caller;
let user: Caller;
let other: Caller;

const call = <T>(method: string, path: string, who: Caller | null, body?: unknown) => callAs<T>(rt.url, method, path, who, body);
const exportOf = (body: Record<string, unknown>, who: Caller = admin) => call<{ job: ReportJob }>('POST', EXPORTS, who, body);
const report = (kind: string, query: Record<string, string>, who: Caller = admin) => call('GET', `/api/v1/user/reports/${kind}?${new URLSearchParams(query)}`, who);
const DAY = { kind: 'tripLog', from: '2026-01-05', to: '2026-01-05', format: 'csv' };
const schedule = { kind: 'summary', format: 'xlsx', every: 'week', recipients: ['Fleet@Example.se', 'boss@example.se'], lang: 'sv', skipEmpty: true };

beforeAll(async () => {
  rt = await startRuntime();
  ({ admin, user, other } = await demoCallers());
}, 120_000);

afterAll(async () => {
  await rt?.stop();
});

describe('report exports', () => {
  it('refuses what GET /reports/{kind} refuses, with the same keys on the same fields', async () => {
    const cases: [Record<string, string>, string, string][] = [
      [{ from: '2026-01-10', to: '2026-01-09' }, 'to', 'EndDateMustBeAfterStart'],
      [{ from: '2025-01-01', to: '2026-01-01' }, 'to', 'TripPeriodTooLong'],
      [{ from: '2026-01-01', to: '2026-01-31', imeis: '123' }, 'imeis', 'InvalidImei'],
      [{ from: '2026-02-30', to: '2026-03-01' }, 'from', 'InvalidDate'],
      [{ from: '2026-01-01', to: '2026-01-31', groupBy: 'year' }, 'groupBy', 'InvalidGrouping'],
    ];
    for (const [query, field, key] of cases) {
      const exported = await exportOf({ kind: 'summary', format: 'pdf', ...query });
      expect(exported.status, JSON.stringify(query)).toBe(422);
      expect((exported.body.errors as Record<string, string[]>)[field]).toContain(key);
      const read = await report('summary', query);
      expect(read.status).toBe(422);
      expect((read.body.errors as Record<string, string[]>)[field]).toEqual((exported.body.errors as Record<string, string[]>)[field]);
    }
    const bad = await exportOf({ kind: 'weather', format: 'doc', lang: 'de', from: '2026-01-01', to: '2026-01-02' });
    expect(bad.status).toBe(422);
    expect(bad.body.errors).toMatchObject({ kind: ['InvalidReportKind'], format: ['InvalidReportFormat'], lang: ['InvalidReportLanguage'] });
  });

  it('answers 202 with the queued job at once, listed for its owner only, and 404 to anyone else', async () => {
    const started = await exportOf({ ...DAY, imeis: `${demoImei(1)},${demoImei(0)}` });
    expect(started.status).toBe(202);
    const job = started.body.data!.job;
    expect(job).toMatchObject({ kind: 'tripLog', format: 'csv', from: '2026-01-05', to: '2026-01-05', status: 'queued', progress: 0 });
    expect(job.url).toBeUndefined();
    // 30 days, to the second (the expiry is epoch seconds).
    expect(Math.abs(Date.parse(job.expiresAt) - Date.parse(job.createdAt) - 30 * 86_400_000)).toBeLessThan(1000);

    const own = await call<{ job: ReportJob }>('GET', `${EXPORTS}/${job.id}`, admin);
    expect(own.status).toBe(200);
    expect(own.body.data!.job.id).toBe(job.id);
    expect((await call<{ jobs: ReportJob[] }>('GET', EXPORTS, admin)).body.data!.jobs.map((j) => j.id)).toContain(job.id);

    for (const stranger of [other, user]) {
      expect((await call('GET', `${EXPORTS}/${job.id}`, stranger)).status).toBe(404);
      expect((await call('GET', `${EXPORTS}/${job.id}/download`, stranger)).status).toBe(404);
      expect((await call<{ jobs: ReportJob[] }>('GET', EXPORTS, stranger)).body.data!.jobs.map((j) => j.id)).not.toContain(job.id);
    }
    expect((await call('GET', `${EXPORTS}/${job.id}/download`, null)).status).toBe(401);
    expect((await call('GET', `${EXPORTS}/0000000000-unknown`, admin)).status).toBe(404);
    expect((await call('GET', `${EXPORTS}/..%2F..%2Fx`, admin)).status).toBe(404);
  });

  it('keeps the literal paths apart from the report kinds', async () => {
    expect((await call('GET', EXPORTS, admin)).status).toBe(200);
    expect((await call('GET', SCHEDULES, admin)).status).toBe(200);
  });
});

describe('report schedules', () => {
  it('are created, listed, replaced and deleted by their owner, and are 404 to anyone else', async () => {
    const created = await call<{ id: string }>('POST', SCHEDULES, admin, { ...schedule, imeis: demoImei(0) });
    expect(created.status).toBe(201);
    const id = created.body.data!.id;

    const listed = await call<{ schedules: ReportSchedule[] }>('GET', SCHEDULES, admin);
    const mine = listed.body.data!.schedules.find((s) => s.id === id)!;
    expect(mine).toMatchObject({ kind: 'summary', imeis: [demoImei(0)], format: 'xlsx', every: 'week', recipients: ['fleet@example.se', 'boss@example.se'], lang: 'sv', skipEmpty: true, timeZone: 'Europe/Stockholm' });
    // Weekly: next Monday at 06:00 local time.
    expect(mine.nextRunAt).toMatch(/T06:00:00\.000\+0[12]:00$/);
    expect(new Date(mine.nextRunAt).getUTCDay()).toBe(1);

    for (const stranger of [other, user]) {
      expect((await call<{ schedules: ReportSchedule[] }>('GET', SCHEDULES, stranger)).body.data!.schedules.map((s) => s.id)).not.toContain(id);
      expect((await call('PUT', `${SCHEDULES}/${id}`, stranger, schedule)).status).toBe(404);
      expect((await call('DELETE', `${SCHEDULES}/${id}`, stranger)).status).toBe(404);
    }

    const replaced = await call<ReportSchedule>('PUT', `${SCHEDULES}/${id}`, admin, { ...schedule, every: 'month', recipients: ['one@example.se'], lang: 'no', skipEmpty: false });
    expect(replaced.status).toBe(200);
    expect(replaced.body.data).toMatchObject({ id, every: 'month', recipients: ['one@example.se'], lang: 'no', skipEmpty: false });
    expect(replaced.body.data!.imeis).toBeUndefined();
    expect(replaced.body.data!.nextRunAt).toMatch(/-01T06:00:00\.000\+0[12]:00$/);

    expect((await call('DELETE', `${SCHEDULES}/${id}`, admin)).status).toBe(200);
    expect((await call('DELETE', `${SCHEDULES}/${id}`, admin)).status).toBe(404);
    expect((await call('PUT', `${SCHEDULES}/${id}`, admin, schedule)).status).toBe(404);
    expect((await call<{ schedules: ReportSchedule[] }>('GET', SCHEDULES, admin)).body.data!.schedules.map((s) => s.id)).not.toContain(id);
  });

  it('checks the recipients, the period and the flags with their keys', async () => {
    const refused = async (body: Record<string, unknown>) => {
      const reply = await call('POST', SCHEDULES, admin, { ...schedule, ...body });
      expect(reply.status, JSON.stringify(body)).toBe(422);
      return reply.body.errors as Record<string, string[]>;
    };
    expect((await refused({ recipients: [] })).recipients).toEqual(['ScheduleRecipientsRequired']);
    expect((await refused({ recipients: undefined })).recipients).toEqual(['ScheduleRecipientsRequired']);
    const many = Array.from({ length: 21 }, (_, i) => `r${i}@example.se`);
    expect((await refused({ recipients: many })).recipients).toEqual(['TooManyScheduleRecipients']);
    expect((await refused({ recipients: ['ok@example.se', 'not an address'] }))['recipients.1']).toEqual(['EnterValidEmail']);
    expect(await refused({ every: 'year', skipEmpty: 'yes', imeis: 'abc' })).toMatchObject({ every: ['InvalidScheduleEvery'], skipEmpty: ['InvalidSkipEmpty'], imeis: ['InvalidImei'] });
    // Twenty distinct recipients are fine; a repeated one counts once.
    const twenty = await call<{ id: string }>('POST', SCHEDULES, admin, { ...schedule, recipients: [...many.slice(0, 20), 'R0@example.se'] });
    expect(twenty.status).toBe(201);
    const saved = (await call<{ schedules: ReportSchedule[] }>('GET', SCHEDULES, admin)).body.data!.schedules.find((s) => s.id === twenty.body.data!.id)!;
    expect(saved.recipients).toHaveLength(20);
  });
});
