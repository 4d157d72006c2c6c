/**
 * Timers for the scheduled jobs of infra/jobs.ts: what EventBridge does on AWS. `rate(...)` runs
 * every interval from the start; `cron(...)` at the times EventBridge would fire it, in the job's
 * time zone (infra/schedule.ts). Each run invokes the job's handler with the same `{ "job": name }`
 * input the stack's schedule sends; a run is skipped while the previous run of the same job is
 * still going, as a single concurrent Lambda would not overlap with itself either.
 */
import { randomUUID } from 'node:crypto';
import type { Context } from 'aws-lambda';
import type { JobDef } from '../jobs';
import { cronOf, parseSchedule } from '../schedule';

export type JobHandler = (event: { job: string }, context: Context) => Promise<unknown>;

export function startScheduler(
  jobs: ReadonlyArray<{ job: JobDef; handler: JobHandler }>,
  context: (name: string, requestId: string) => Context,
  onError: (job: JobDef, error: unknown) => void,
): () => Promise<void> {
  const running = new Map<string, Promise<unknown>>();
  const tick = (job: JobDef, handler: JobHandler) => (): void => {
    if (running.has(job.name)) return;
    const run = handler({ job: job.name }, context(job.name, randomUUID()))
      .catch((error: unknown) => onError(job, error))
      .finally(() => running.delete(job.name));
    running.set(job.name, run);
  };
  const stops = jobs.map(({ job, handler }) => {
    const schedule = parseSchedule(job.schedule, job.timeZone);
    if (schedule.kind === 'rate') {
      const timer = setInterval(tick(job, handler), schedule.everyMs);
      return () => clearInterval(timer);
    }
    const cron = cronOf(schedule.pattern, schedule.timeZone, tick(job, handler));
    return () => cron.stop();
  });
  return async () => {
    stops.forEach((stop) => stop());
    await Promise.allSettled(running.values());
  };
}
