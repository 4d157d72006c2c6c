/**
 * Timers for the scheduled jobs of infra/jobs.ts: what EventBridge does on AWS. Each tick invokes
 * the job's handler with the same `{ "job": name }` input the stack's schedule sends; a tick is
 * skipped while the previous run of the same job is still going, as a single concurrent Lambda
 * would not overlap with itself either.
 */
import { randomUUID } from 'node:crypto';
import type { Context } from 'aws-lambda';
import type { JobDef } from '../jobs';

export type JobHandler = (event: { job: string }, context: Context) => Promise<unknown>;

const UNIT_MS = { minute: 60_000, hour: 3_600_000, day: 86_400_000 } as const;

/** `rate(5 minutes)` in milliseconds. */
export function rateMs(schedule: string): number {
  const m = /^rate\((\d+) (minute|hour|day)s?\)$/.exec(schedule);
  if (!m?.[1] || !m[2]) {
    throw new Error(`the embedded runtime runs rate(...) schedules; ${schedule} is not one (add cron support before using it)`);
  }
  return Number(m[1]) * UNIT_MS[m[2] as keyof typeof UNIT_MS];
}

export function startScheduler(
  jobs: ReadonlyArray<{ job: JobDef; handler: JobHandler }>,
  context: (name: string, requestId: string) => Context,
  onError: (job: JobDef, error: unknown) => void,
): () => Promise<void> {
  const running = new Map<string, Promise<unknown>>();
  const timers = jobs.map(({ job, handler }) =>
    setInterval(() => {
      if (running.has(job.name)) return;
      const run = handler({ job: job.name }, context(job.name, randomUUID()))
        .catch((error: unknown) => onError(job, error))
        .finally(() => running.delete(job.name));
      running.set(job.name, run);
    }, rateMs(job.schedule)),
  );
  return async () => {
    timers.forEach(clearInterval);
    await Promise.allSettled(running.values());
  };
}
