/**
 * How often an EventBridge Scheduler expression of the template fires in an average month:
 * `rate(...)` by division, `cron(...)` by counting its runs in January 2026 as infra/schedule.ts
 * reads it (the embedded scheduler's reading, in UTC) and scaling 31 days to the average month.
 */
import { cronOf, parseSchedule } from '../../infra/schedule';
import { DAYS_PER_MONTH } from './model';

const FROM = new Date('2026-01-01T00:00:00Z');
const TO = new Date('2026-02-01T00:00:00Z');

const counted = new Map<string, number>();

/** Counted once per expression: a per-minute cron takes 44,640 steps of croner, and the model runs many estimates. */
export function runsPerMonth(expression: string): number {
  let runs = counted.get(expression);
  if (runs === undefined) counted.set(expression, (runs = count(expression)));
  return runs;
}

function count(expression: string): number {
  const schedule = parseSchedule(expression);
  if (schedule.kind === 'rate') return (DAYS_PER_MONTH * 86_400_000) / schedule.everyMs;
  const job = cronOf(schedule.pattern, schedule.timeZone);
  try {
    let runs = 0;
    for (let at = job.nextRun(new Date(FROM.getTime() - 1)); at && at < TO; at = job.nextRun(at)) runs++;
    return (runs * DAYS_PER_MONTH) / 31;
  } finally {
    job.stop();
  }
}
