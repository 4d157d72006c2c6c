/**
 * Scheduled jobs: what runs on a timer, how often and which handler file does it. On AWS each
 * entry becomes an EventBridge Scheduler schedule, in the job's time zone, invoking the `jobs`
 * function with `{ "job": name }` (infra/constructs/job-schedules.ts); the embedded runtime runs
 * the same list on its own timers (infra/local/scheduler.ts), reading each expression as
 * EventBridge Scheduler does (infra/schedule.ts). An entry whose handler file does not exist fails
 * the synth and the contract test (docs/decisions/0014).
 */
import { parseSchedule, ScheduleError } from './schedule';

export interface JobDef {
  /** kebab-case, unique; the `job` field of the scheduled event. */
  readonly name: string;
  /** EventBridge schedule expression: `rate(1 minute)` or `cron(0 3 ? * MON-FRI *)`. */
  readonly schedule: string;
  /** IANA zone a cron(...) schedule runs in (default UTC), e.g. Europe/Stockholm for 03:00 local time all year. */
  readonly timeZone?: string;
  /** Handler file relative to the repository root; it exports `handler`. */
  readonly file: string;
  readonly description: string;
}

export const jobs: readonly JobDef[] = [
  {
    name: 'command-timeouts',
    schedule: 'rate(1 minute)',
    file: 'functions/jobs/command-timeouts.ts',
    description: 'Marks device commands without an answer after 120 seconds as unanswered (the poor-coverage message) and tells the browsers.',
  },
  {
    name: 'safe-home-checks',
    // Every minute at second 0, so that a check is made within its scheduled minute.
    schedule: 'cron(* * * * ? *)',
    file: 'functions/jobs/safe-home-checks.ts',
    description: "Safe return home: at each unit's scheduled local times, a unit away from its home raises a 'not home' alarm to its alarm receivers.",
  },
  {
    name: 'trip-rollup-backfill',
    schedule: 'rate(1 minute)',
    file: 'functions/jobs/trip-rollup-backfill.ts',
    description:
      "Migration, once per version: times trips stored before they were timed (from their positions), fills the fleet overview's trip rollups and the day rollups from the trips, a bounded piece per run from a stored checkpoint; once its marker says done, a run only reads the marker.",
  },
  {
    name: 'unit-day-rederive',
    // At night in the product's market zone, when yesterday is complete and few trips are written.
    schedule: 'cron(30 3 * * ? *)',
    timeZone: 'Europe/Stockholm',
    file: 'functions/jobs/unit-day-rederive.ts',
    description: "Queues the recomputation of the last three complete local days' day rollups of every unit that has them, so a recomputation a failure left out is made good by the next morning.",
  },
  {
    name: 'report-schedules',
    schedule: 'rate(15 minutes)',
    file: 'functions/jobs/report-schedules.ts',
    description:
      'Report schedules: starts the export of the last complete day, week or month of each schedule that is due (sparse due index); the recipients are e-mailed a portal link once the export is done.',
  },
  {
    name: 'attestation-reminders',
    // Every 10 minutes through the 1st: a run continues from the month's checkpoint until every account is done.
    schedule: 'cron(0/10 * 1 * ? *)',
    timeZone: 'Europe/Stockholm',
    file: 'functions/jobs/attestation-reminders.ts',
    description: 'On the 1st of each month: one reminder e-mail to each driver with unattested trips in the previous month.',
  },
  {
    name: 'autoplan-reports',
    // Hourly through the 1st from 06:00: a run continues the accounts an earlier one did not finish.
    schedule: 'cron(0 6-23 1 * ? *)',
    timeZone: 'Europe/Stockholm',
    file: 'functions/jobs/autoplan-reports.ts',
    description: "On the 1st of each month: every vehicle of the accounts that report to Autoplan automatically is reported for the previous month, and each account's admins get the result by e-mail once.",
  },
  {
    name: 'unit-offline-checks',
    schedule: 'rate(5 minutes)',
    file: 'functions/jobs/unit-offline-checks.ts',
    description: 'Webhooks: the units of accounts subscribed to unitOffline that went silent for longer than their operating mode allows are sent to those subscriptions, once per silence.',
  },
];

const NAME = /^[a-z][a-z0-9-]{0,47}$/;

/** Throws on a malformed or duplicate entry, naming it. */
export function checkJobs(list: readonly JobDef[]): void {
  const seen = new Set<string>();
  for (const job of list) {
    if (!NAME.test(job.name)) throw new Error(`job ${JSON.stringify(job.name)}: name must be kebab-case`);
    if (seen.has(job.name)) throw new Error(`job ${job.name}: listed twice`);
    seen.add(job.name);
    try {
      parseSchedule(job.schedule, job.timeZone);
    } catch (error) {
      if (error instanceof ScheduleError) throw new Error(`job ${job.name}: ${error.message}`, { cause: error });
      throw error;
    }
    if (!/\.ts$/.test(job.file)) throw new Error(`job ${job.name}: file must be a .ts handler file`);
  }
}
