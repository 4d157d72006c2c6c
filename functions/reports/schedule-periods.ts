/**
 * When a schedule runs and what it covers, in the schedule's zone: a daily schedule runs every day
 * at 06:00 for yesterday, a weekly one on Mondays at 06:00 for last week (Monday to Sunday), a
 * monthly one on the 1st at 06:00 for last month. Daylight saving changes only the UTC instant.
 */
import { addDays, localDayOf, wallToInstant } from '../../shared/local-time';
import { addMonthsToDay } from '../../shared/schemas/trips';
import type { ScheduleEvery } from '../../shared/schemas/report-exports';

/** The local hour a schedule runs at: the previous day's trips are in by then. */
export const SCHEDULE_RUN_HOUR = 6;

export interface SchedulePeriod {
  from: string;
  to: string;
}

const weekdayOf = (day: string): number => (new Date(`${day}T00:00:00Z`).getUTCDay() + 6) % 7; // Monday 0

const runsOn = (every: ScheduleEvery, day: string): boolean => every === 'day' || (every === 'week' ? weekdayOf(day) === 0 : day.endsWith('-01'));

const runInstant = (day: string, zone: string): number => wallToInstant(Date.parse(`${day}T00:00:00Z`) + SCHEDULE_RUN_HOUR * 3_600_000, zone);

/** The first run strictly after `after` (epoch ms). */
export function nextRunAfter(every: ScheduleEvery, zone: string, after: number): number {
  const today = localDayOf(after, zone);
  for (let i = 0; i <= 32; i++) {
    const day = addDays(today, i);
    if (!runsOn(every, day)) continue;
    const at = runInstant(day, zone);
    if (at > after) return at;
  }
  throw new Error(`no ${every} run within 32 days after ${after}`);
}

/** The last complete period at `at`: yesterday, last week (Monday to Sunday) or last month, as local days. */
export function lastCompletePeriod(every: ScheduleEvery, zone: string, at: number): SchedulePeriod {
  const today = localDayOf(at, zone);
  if (every === 'day') {
    const yesterday = addDays(today, -1);
    return { from: yesterday, to: yesterday };
  }
  if (every === 'week') {
    const monday = addDays(today, -weekdayOf(today));
    return { from: addDays(monday, -7), to: addDays(monday, -1) };
  }
  const first = `${today.slice(0, 7)}-01`;
  return { from: addMonthsToDay(first, -1), to: addDays(first, -1) };
}

export const periodText = (period: SchedulePeriod): string => `${period.from}..${period.to}`;
