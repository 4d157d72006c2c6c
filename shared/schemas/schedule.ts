/**
 * Weekly windows of local time: when a geofence's alarm is switched off (its deactivation days
 * and times), when a place's categorisation rule applies. A window covers its days from `from`
 * to `to`; a window whose `to` is not after `from` runs past midnight into the next day
 * (Friday 18:00 to 06:00 ends on Saturday morning). Times are read in the zone that was saved with
 * the schedule (the browser's at the time: the TimeZone header).
 */
import { z } from 'zod';

/** ISO weekdays: 1 Monday ... 7 Sunday. */
export const weekdaySchema = z.number().int('InvalidWeekday').min(1, 'InvalidWeekday').max(7, 'InvalidWeekday');
export const clockTimeSchema = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'InvalidTime');

export const weeklyWindowSchema = z.object({
  days: z.array(weekdaySchema).min(1, 'SelectAtLeastOneDay').max(7, 'InvalidWeekday'),
  from: clockTimeSchema,
  to: clockTimeSchema,
});
export type WeeklyWindow = z.infer<typeof weeklyWindowSchema>;

/** At most this many windows per schedule. */
export const MAX_WEEKLY_WINDOWS = 14;
export const weeklyWindowsSchema = z.array(weeklyWindowSchema).max(MAX_WEEKLY_WINDOWS, 'TooManyWindows');

/** Minutes after local midnight of an `HH:mm` time. */
export function minuteOfDay(time: string): number {
  return Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));
}

/**
 * Whether a local wall time (ISO weekday, minute of the day) lies in any of the windows. Pure: the
 * caller turns an instant into its zone's wall time (functions/schedules/weekly-windows.ts).
 */
export function wallTimeInWindows(weekday: number, minute: number, windows: readonly WeeklyWindow[]): boolean {
  const yesterday = weekday === 1 ? 7 : weekday - 1;
  for (const w of windows) {
    const from = minuteOfDay(w.from);
    const to = minuteOfDay(w.to);
    if (to > from) {
      if (w.days.includes(weekday) && minute >= from && minute < to) return true;
    } else {
      // Past midnight: from `from` on a listed day to `to` on the day after.
      if (w.days.includes(weekday) && minute >= from) return true;
      if (w.days.includes(yesterday) && minute < to) return true;
    }
  }
  return false;
}
