/**
 * Report schedules against DynamoDB Local: when they run and what period they cover (daylight
 * saving included), and the job `report-schedules` run twice at once with the clock moved, its
 * exports made by the queue's work with a small real producer: each recipient gets one e-mail per
 * period in the schedule's language and brand, none when the report is empty and skipEmpty is set.
 */
import { randomUUID } from 'node:crypto';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import type { AuthContext } from '../platform/auth-context';
import { getPorts, overridePorts } from '../platform/container';
import { dynamo, tableName } from '../platform/db';
import type { EmailMessage } from '../platform/ports';
import { createLocalFileStore } from '../platform/adapters/embedded/file-store';
import { useLocalTables } from '../../test/support/local-tables';
import { reportScheduleRequestSchema } from '../../shared/schemas/report-exports';
import { handler as reportSchedulesJob } from '../jobs/report-schedules';
import { exportMessageSchema, runExport, type ExportProducer } from './export-run';
import { getJob } from './export-repository';
import { lastCompletePeriod, nextRunAfter } from './schedule-periods';
import { createSchedule, listSchedules } from './schedule-service';

// In the future (2037 has 2026's calendar): DynamoDB Local deletes items whose TTL attribute has passed.
let now = Date.parse('2037-03-04T10:00:00Z');
const queued: unknown[] = [];
const mails: EmailMessage[] = [];

beforeAll(async () => {
  await useLocalTables();
  overridePorts({
    clock: { now: () => new Date(now) },
    files: createLocalFileStore({ secret: 's'.repeat(48), dir: null, now: () => new Date(now) }),
    queues: { send: async (_queue, message) => void queued.push(message) },
    mailer: { send: async (message) => void mails.push(message) },
  });
});

describe('schedule periods', () => {
  const zone = 'Europe/Stockholm';
  it('runs daily at 06:00, weekly on Mondays and monthly on the 1st, local time across daylight saving', () => {
    // 29 March 2037 begins summer time: 06:00 is 04:00 UTC from then on.
    expect(new Date(nextRunAfter('day', zone, Date.parse('2037-03-28T12:00:00Z'))).toISOString()).toBe('2037-03-29T04:00:00.000Z');
    expect(new Date(nextRunAfter('day', zone, Date.parse('2037-03-28T04:59:00Z'))).toISOString()).toBe('2037-03-28T05:00:00.000Z');
    expect(new Date(nextRunAfter('week', zone, Date.parse('2037-03-04T10:00:00Z'))).toISOString()).toBe('2037-03-09T05:00:00.000Z');
    expect(new Date(nextRunAfter('month', zone, Date.parse('2037-03-04T10:00:00Z'))).toISOString()).toBe('2037-04-01T04:00:00.000Z');
    expect(new Date(nextRunAfter('month', zone, Date.parse('2037-12-01T05:00:00Z'))).toISOString()).toBe('2038-01-01T05:00:00.000Z');
  });

  it('covers yesterday, last week Monday to Sunday, or last month, in the zone', () => {
    const monday = Date.parse('2037-03-09T05:00:00Z');
    expect(lastCompletePeriod('day', zone, monday)).toEqual({ from: '2037-03-08', to: '2037-03-08' });
    expect(lastCompletePeriod('week', zone, monday)).toEqual({ from: '2037-03-02', to: '2037-03-08' });
    // 23:30 UTC on Sunday 8 March is already Monday in Stockholm; 22:30 is still Sunday.
    expect(lastCompletePeriod('week', zone, Date.parse('2037-03-08T23:30:00Z'))).toEqual({ from: '2037-03-02', to: '2037-03-08' });
    expect(lastCompletePeriod('week', zone, Date.parse('2037-03-08T22:30:00Z'))).toEqual({ from: '2037-02-23', to: '2037-03-01' });
    expect(lastCompletePeriod('month', zone, Date.parse('2037-03-01T05:00:00Z'))).toEqual({ from: '2037-02-01', to: '2037-02-28' });
    expect(lastCompletePeriod('month', zone, Date.parse('2037-01-01T05:00:00Z'))).toEqual({ from: '2036-12-01', to: '2036-12-31' });
    // 23:30 UTC on 31 March is already 1 April in Stockholm.
    expect(lastCompletePeriod('month', zone, Date.parse('2037-03-31T23:30:00Z'))).toEqual({ from: '2037-03-01', to: '2037-03-31' });
  });
});

async function owner(): Promise<AuthContext> {
  const caller: AuthContext = {
    userId: `u-${randomUUID()}`, accountId: `a-${randomUUID()}`, sessionId: 's', sessionExpiresAt: 0, username: `o-${randomUUID()}`,
    isAdmin: true, isSupport: false, subsiteId: 3, lang: 'en', unitImeis: undefined, featureProfileId: undefined,
  };
  await dynamo().send(
    new PutCommand({
      TableName: tableName('users'),
      Item: { userId: caller.userId, accountId: caller.accountId, username: caller.username, email: 'owner@example.se', firstName: 'O', lastName: 'W', lang: 'en', subsiteId: 3, isAdmin: true, isSupport: false, enableTwoFactorAuth: false },
    }),
  );
  return caller;
}

/** The job twice at once, then each message it sent handled twice at once, as racing consumers would. */
async function runDue(produce: ExportProducer): Promise<void> {
  queued.length = 0;
  await Promise.all([reportSchedulesJob({ job: 'report-schedules' }), reportSchedulesJob({ job: 'report-schedules' })]);
  const messages = queued.map((m) => exportMessageSchema.parse(m));
  await Promise.all(messages.flatMap((m) => [runExport(m, getPorts(), produce), runExport(m, getPorts(), produce)]));
}

const rowsOf =
  (rows: number): ExportProducer =>
  async (job, out) => {
    out.end(`${job.request.kind},${job.request.from},${job.request.to}\n`);
    return { rows };
  };

describe('the report-schedules job', () => {
  it('e-mails each recipient once per period, in the schedule language and brand, with the portal link', async () => {
    const caller = await owner();
    const body = reportScheduleRequestSchema.parse({ kind: 'tripLog', format: 'pdf', every: 'week', recipients: ['a@example.se', 'B@example.se'], lang: 'sv', skipEmpty: false });
    now = Date.parse('2037-03-04T10:00:00Z');
    const id = await createSchedule(caller, body, 'Europe/Stockholm', now);
    mails.length = 0;

    await runDue(rowsOf(3));
    expect(mails).toEqual([]);

    now = Date.parse('2037-03-09T05:00:00Z');
    await runDue(rowsOf(3));
    expect(mails.map((m) => m.to).sort()).toEqual(['a@example.se', 'b@example.se']);
    const mail = mails[0]!;
    expect(mail.subject).toContain('Körjournal 2037-03-02 – 2037-03-08');
    expect(mail.text).toMatch(/https?:\/\/[^\s]+\/user\/create-triplog\/reports\?export=[a-z0-9-]+/);
    const [schedule] = await listSchedules(caller);
    expect(schedule).toMatchObject({ id, lastPeriod: '2037-03-02..2037-03-08', nextRunAt: '2037-03-16T06:00:00.000+01:00' });
    const jobId = /export=([a-z0-9-]+)/.exec(mail.text)![1]!;
    expect(await getJob(caller.userId, jobId)).toMatchObject({ status: 'done', scheduleId: id, period: '2037-03-02..2037-03-08', params: { from: '2037-03-02', to: '2037-03-08' }, lang: 'sv', brand: 3 });

    // Later the same week: nothing more; a redelivered message of the done job sends nothing either.
    now = Date.parse('2037-03-12T05:00:00Z');
    await runDue(rowsOf(3));
    await runExport({ userId: caller.userId, jobId }, getPorts(), rowsOf(3));
    expect(mails).toHaveLength(2);

    // The next week's run covers the next week.
    now = Date.parse('2037-03-16T05:01:00Z');
    await runDue(rowsOf(3));
    expect(mails).toHaveLength(4);
    expect(mails[3]!.subject).toContain('2037-03-09 – 2037-03-15');
  });

  it('sends nothing for an empty report when skipEmpty is set, and sends an empty one when it is not', async () => {
    const caller = await owner();
    now = Date.parse('2037-03-04T10:00:00Z');
    await createSchedule(caller, reportScheduleRequestSchema.parse({ kind: 'summary', format: 'csv', every: 'day', recipients: ['skip@example.se'], lang: 'en', skipEmpty: true }), 'Europe/Stockholm', now);
    await createSchedule(caller, reportScheduleRequestSchema.parse({ kind: 'summary', format: 'csv', every: 'day', recipients: ['keep@example.se'], lang: 'no', skipEmpty: false }), 'Europe/Stockholm', now);
    mails.length = 0;
    now = Date.parse('2037-03-05T05:00:00Z');
    await runDue(rowsOf(0));
    expect(mails.map((m) => m.to)).toEqual(['keep@example.se']);
    expect(mails[0]!.subject).toContain('Sammendrag 2037-03-04');
  });

  it('retries only the recipients whose e-mail failed', async () => {
    const caller = await owner();
    now = Date.parse('2037-03-04T10:00:00Z');
    await createSchedule(caller, reportScheduleRequestSchema.parse({ kind: 'tripLog', format: 'csv', every: 'month', recipients: ['ok@example.se', 'flaky@example.se'], lang: 'en', skipEmpty: false }), 'Europe/Stockholm', now);
    mails.length = 0;
    let failOnce = true;
    overridePorts({
      mailer: {
        send: async (message) => {
          if (message.to === 'flaky@example.se' && failOnce) {
            failOnce = false;
            throw new Error('SES throttled');
          }
          mails.push(message);
        },
      },
    });
    now = Date.parse('2037-04-01T04:00:00Z');
    queued.length = 0;
    await reportSchedulesJob({ job: 'report-schedules' });
    // Other tests' schedules are due by now too; this one's message is the owner's.
    const [message] = queued.map((m) => exportMessageSchema.parse(m)).filter((m) => m.userId === caller.userId);
    await expect(runExport(message!, getPorts(), rowsOf(1))).rejects.toThrow(/1 of 2 report e-mails were not sent/);
    expect(mails.map((m) => m.to)).toEqual(['ok@example.se']);
    expect(await runExport(message!, getPorts(), rowsOf(1))).toBe('skipped');
    expect(mails.map((m) => m.to)).toEqual(['ok@example.se', 'flaky@example.se']);
    expect(mails[1]!.subject).toContain('Trip log 2037-03-01 – 2037-03-31');
  });
});
