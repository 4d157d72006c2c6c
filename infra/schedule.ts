/**
 * EventBridge schedule expressions, read the way EventBridge reads them, for the job manifest's
 * check (synth and contract test) and the embedded scheduler, so an expression that the embedded
 * runtime runs is one AWS accepts and runs at the same times.
 *
 * - `rate(N unit)`: N >= 1 of minute(s), hour(s), day(s); the singular only with 1.
 * - `cron(minutes hours day-of-month month day-of-week year)`: six fields; exactly one of
 *   day-of-month and day-of-week is `?`; day-of-week 1-7 is SUN-SAT; `L`, `W`, `#` as EventBridge
 *   has them. Evaluated with croner (7-part mode with seconds fixed at 0, Quartz weekdays, stepping
 *   from a number such as `0/15`) in the schedule's IANA time zone, UTC when it names none, as
 *   EventBridge Scheduler does.
 */
import { Cron } from 'croner';
import { isValidTimeZone } from '../shared/schemas/common';

export type Schedule =
  | { readonly kind: 'rate'; readonly everyMs: number }
  | { readonly kind: 'cron'; readonly pattern: string; readonly timeZone: string };

const UNIT_MS = { minute: 60_000, hour: 3_600_000, day: 86_400_000 } as const;

export class ScheduleError extends Error {
  override name = 'ScheduleError';
}

/** Parses an expression, or throws ScheduleError saying what EventBridge would refuse. */
export function parseSchedule(expression: string, timeZone?: string): Schedule {
  const rate = /^rate\((\d+) (minute|minutes|hour|hours|day|days)\)$/.exec(expression);
  if (rate?.[1] && rate[2]) {
    const count = Number(rate[1]);
    const unit = rate[2].replace(/s$/, '') as keyof typeof UNIT_MS;
    if (count < 1) throw new ScheduleError(`${expression}: the rate must be at least 1`);
    if ((count === 1) !== (rate[2] === unit)) throw new ScheduleError(`${expression}: use "1 ${unit}" or "N ${unit}s"`);
    if (timeZone) throw new ScheduleError(`${expression}: a rate runs in no time zone; name one only for cron(...)`);
    return { kind: 'rate', everyMs: count * UNIT_MS[unit] };
  }
  const cron = /^cron\(([^()]+)\)$/.exec(expression);
  if (!cron?.[1]) throw new ScheduleError(`${JSON.stringify(expression)} is neither rate(...) nor cron(...)`);
  const fields = cron[1].trim().split(/\s+/);
  if (fields.length !== 6) throw new ScheduleError(`${expression}: cron needs six fields (minutes hours day-of-month month day-of-week year)`);
  const [, , dayOfMonth, , dayOfWeek] = fields;
  if ((dayOfMonth === '?') === (dayOfWeek === '?')) {
    throw new ScheduleError(`${expression}: exactly one of day-of-month and day-of-week must be "?"`);
  }
  const zone = timeZone ?? 'UTC';
  if (!isValidTimeZone(zone)) throw new ScheduleError(`${expression}: ${JSON.stringify(zone)} is not an IANA time zone`);
  const pattern = `0 ${fields.join(' ')}`;
  try {
    cronOf(pattern, zone);
  } catch (error) {
    throw new ScheduleError(`${expression}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
  return { kind: 'cron', pattern, timeZone: zone };
}

/** A paused croner job for a parsed cron schedule (nothing runs until `schedule` is called). */
export function cronOf(pattern: string, timeZone: string, run?: () => Promise<void> | void): Cron {
  const options = { mode: '7-part', alternativeWeekdays: true, sloppyRanges: true, timezone: timeZone, protect: true } as const;
  return run ? new Cron(pattern, options, run) : new Cron(pattern, { ...options, paused: true });
}

/** The next `count` times a schedule fires after `from` (cron only; for tests and the docs). */
export function nextRuns(schedule: Extract<Schedule, { kind: 'cron' }>, from: Date, count: number): Date[] {
  const job = cronOf(schedule.pattern, schedule.timeZone);
  try {
    return job.nextRuns(count, from);
  } finally {
    job.stop();
  }
}
