import { describe, expect, it } from 'vitest';
import { checkJobs } from './jobs';
import { nextRuns, parseSchedule, ScheduleError } from './schedule';

const cron = (expression: string, zone?: string) => {
  const schedule = parseSchedule(expression, zone);
  if (schedule.kind !== 'cron') throw new Error('not cron');
  return schedule;
};
const iso = (dates: Date[]) => dates.map((d) => d.toISOString());

describe('EventBridge schedule expressions', () => {
  it('reads rates in minutes, hours and days', () => {
    expect(parseSchedule('rate(1 minute)')).toEqual({ kind: 'rate', everyMs: 60_000 });
    expect(parseSchedule('rate(5 minutes)')).toEqual({ kind: 'rate', everyMs: 300_000 });
    expect(parseSchedule('rate(2 hours)')).toEqual({ kind: 'rate', everyMs: 7_200_000 });
    expect(parseSchedule('rate(1 day)')).toEqual({ kind: 'rate', everyMs: 86_400_000 });
  });

  it('refuses what EventBridge refuses', () => {
    for (const bad of ['rate(0 minutes)', 'rate(1 minutes)', 'rate(5 minute)', 'rate(1 week)', 'every minute', 'cron(0 3 * * *)', 'cron(0 3 * * MON *)', 'cron(0 3 ? * ? *)', 'cron(61 3 * * ? *)']) {
      expect(() => parseSchedule(bad), bad).toThrow(ScheduleError);
    }
    expect(() => parseSchedule('cron(0 3 * * ? *)', 'Mars/Olympus')).toThrow(/IANA/);
    expect(() => parseSchedule('rate(1 day)', 'Europe/Stockholm')).toThrow(/cron/);
  });

  it('runs cron in UTC by default, with day-of-week 1-7 as SUN-SAT', () => {
    // 2026-11-24 is a Tuesday. 2 = MON.
    expect(iso(nextRuns(cron('cron(0 3 ? * 2 *)'), new Date('2026-11-24T12:00:00Z'), 2))).toEqual(['2026-11-30T03:00:00.000Z', '2026-12-07T03:00:00.000Z']);
    expect(iso(nextRuns(cron('cron(0 8 ? * MON-FRI *)'), new Date('2026-11-27T09:00:00Z'), 1))).toEqual(['2026-11-30T08:00:00.000Z']);
    expect(iso(nextRuns(cron('cron(0/15 * * * ? *)'), new Date('2026-11-24T12:01:00Z'), 3))).toEqual([
      '2026-11-24T12:15:00.000Z',
      '2026-11-24T12:30:00.000Z',
      '2026-11-24T12:45:00.000Z',
    ]);
  });

  it("runs cron in the schedule's time zone, across a daylight-saving change", () => {
    const at3 = cron('cron(0 3 * * ? *)', 'Europe/Stockholm');
    // 03:00 in Stockholm is 01:00 UTC in summer, 02:00 UTC in winter; the clocks go back on 2026-10-25.
    expect(iso(nextRuns(at3, new Date('2026-10-23T12:00:00Z'), 3))).toEqual(['2026-10-24T01:00:00.000Z', '2026-10-25T02:00:00.000Z', '2026-10-26T02:00:00.000Z']);
  });

  it('knows L, W, # and the year', () => {
    expect(iso(nextRuns(cron('cron(0 12 L * ? *)'), new Date('2027-02-01T00:00:00Z'), 1))).toEqual(['2027-02-28T12:00:00.000Z']);
    // The second Tuesday (3#2) of December 2026 is the 8th.
    expect(iso(nextRuns(cron('cron(0 12 ? * 3#2 *)'), new Date('2026-12-01T00:00:00Z'), 1))).toEqual(['2026-12-08T12:00:00.000Z']);
    expect(iso(nextRuns(cron('cron(0 0 1 1 ? 2028)'), new Date('2026-12-01T00:00:00Z'), 2))).toEqual(['2028-01-01T00:00:00.000Z']);
  });

  it('makes a malformed job manifest entry fail with its name', () => {
    expect(() => checkJobs([{ name: 'nightly', schedule: 'cron(0 3 * * * *)', file: 'functions/jobs/x.ts', description: '' }])).toThrow(/job nightly: .*"\?"/);
    expect(() => checkJobs([{ name: 'nightly', schedule: 'cron(0 3 * * ? *)', timeZone: 'Europe/Stockholm', file: 'functions/jobs/x.ts', description: '' }])).not.toThrow();
  });
});
