/**
 * When a safe return home check is due (docs/decisions/0024-safe-return-home.md): the schedule's
 * entries are local wall times (day 0-6 with 0 Sunday, `HH:mm`) in the schedule's zone; a day
 * counts only from `start_date` on and only in an on-week: calendar weeks, Monday to Sunday,
 * counted from the week of `start_date`, every `frequency` weeks. A wall time that daylight saving
 * skips is checked just after the gap, one it repeats at its first occurrence
 * (local-time.ts `wallToInstant`). Pure apart from Intl.
 */
import type { ScheduleEntry } from '../../shared/schemas/safe-home';
import { addDays, localDayOf, offsetAt, wallToInstant } from '../../shared/local-time';

export interface CheckSchedule {
  schedule: readonly ScheduleEntry[];
  frequency: 1 | 2 | 3;
  /** yyyy-MM-dd, local. */
  startDate: string;
  timeZone: string;
}

const DAY_MS = 86_400_000;
const dayNumber = (day: string): number => Math.floor(Date.parse(`${day}T00:00:00Z`) / DAY_MS);
/** 0 Sunday ... 6 Saturday of a yyyy-MM-dd (1970-01-01 was a Thursday). */
export const weekdayOf = (day: string): number => (((dayNumber(day) + 4) % 7) + 7) % 7;
/** The day number of the Monday of a day's calendar week. */
const mondayOf = (day: string): number => dayNumber(day) - ((weekdayOf(day) + 6) % 7);

/** Whether a local day lies in an on-week of the schedule, on or after its start date. */
export function isOnDay(day: string, s: Pick<CheckSchedule, 'frequency' | 'startDate'>): boolean {
  if (day < s.startDate) return false;
  const weeks = Math.round((mondayOf(day) - mondayOf(s.startDate)) / 7);
  return weeks % s.frequency === 0;
}

/** The first instant the zone's clocks show a wall time: on a fall-back overlap the earlier one (clocks go back by an hour or, in a few zones, half an hour). */
function firstInstantOf(wallMs: number, zone: string): number {
  const at = wallToInstant(wallMs, zone);
  for (const back of [3_600_000, 1_800_000]) {
    const earlier = at - back;
    if (earlier + offsetAt(earlier, zone) === wallMs) return earlier;
  }
  return at;
}

/**
 * The first scheduled check strictly after `afterMs` (epoch ms), or null for an empty schedule.
 * Looks at most 3 weeks plus a week ahead of the later of `afterMs`'s local day and the start date.
 */
export function nextCheckAfter(s: CheckSchedule, afterMs: number): number | null {
  if (s.schedule.length === 0) return null;
  const today = localDayOf(afterMs, s.timeZone);
  // A day before: a wall time late yesterday can be after `afterMs` in no zone, but the local day of
  // an instant and the day a wall time falls on can differ around a gap; starting early is harmless.
  let day = addDays(today > s.startDate ? today : s.startDate, -1);
  for (let i = 0; i < 7 * (s.frequency + 1) + 2; i++, day = addDays(day, 1)) {
    if (!isOnDay(day, s)) continue;
    const weekday = weekdayOf(day);
    let best: number | null = null;
    for (const entry of s.schedule) {
      if (entry.day !== weekday) continue;
      const wall = Date.parse(`${day}T${entry.time}:00Z`);
      const at = firstInstantOf(wall, s.timeZone);
      if (at > afterMs && (best === null || at < best)) best = at;
    }
    if (best !== null) return best;
  }
  return null;
}
