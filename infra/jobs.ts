/**
 * Scheduled jobs: what runs on a timer, how often and which handler file does it. On AWS each
 * entry becomes an EventBridge rule invoking the `jobs` function with `{ "job": name }`; the
 * embedded runtime can start timers from the same list. A job whose handler file does not exist
 * yet is skipped at synth time, so entries may land before their code.
 */
export interface JobDef {
  /** kebab-case, unique; the `job` field of the scheduled event. */
  readonly name: string;
  /** EventBridge schedule expression: `rate(1 minute)` or `cron(0 3 * * ? *)` (UTC). */
  readonly schedule: string;
  /** Handler file relative to the repository root; it exports `handler`. */
  readonly file: string;
  readonly description: string;
}

// Later issues add the safe-return-home checks here.
export const jobs: readonly JobDef[] = [
  {
    name: 'command-timeouts',
    schedule: 'rate(1 minute)',
    file: 'functions/jobs/command-timeouts.ts',
    description: 'Marks device commands without an answer after 120 seconds as unanswered (the poor-coverage message) and tells the browsers.',
  },
];

const NAME = /^[a-z][a-z0-9-]{0,47}$/;
const SCHEDULE = /^(rate\(\d+ (minute|minutes|hour|hours|day|days)\)|cron\([^()]+\))$/;

/** Throws on a malformed or duplicate entry, naming it. */
export function checkJobs(list: readonly JobDef[]): void {
  const seen = new Set<string>();
  for (const job of list) {
    if (!NAME.test(job.name)) throw new Error(`job ${JSON.stringify(job.name)}: name must be kebab-case`);
    if (seen.has(job.name)) throw new Error(`job ${job.name}: listed twice`);
    seen.add(job.name);
    if (!SCHEDULE.test(job.schedule)) throw new Error(`job ${job.name}: ${JSON.stringify(job.schedule)} is not rate(...) or cron(...)`);
    if (!/\.ts$/.test(job.file)) throw new Error(`job ${job.name}: file must be a .ts handler file`);
  }
}
