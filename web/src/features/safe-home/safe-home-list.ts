/** Search, sort and the schedule's summary of the safe return home list (spec section 2), as pure functions. */
import { SAFE_HOME_DEFAULT_TIME, type SafeHomeItem, type ScheduleEntry } from '../../../../shared/schemas/safe-home';

export type SafeHomeSortColumn = 'name' | 'regnr';
export interface SafeHomeSort {
  column: SafeHomeSortColumn;
  desc: boolean;
}

/** Name or registration number contains the search (case-insensitive; spaces in a plate ignored). */
export function matchesSafeHome(item: Pick<SafeHomeItem, 'name' | 'RegistrationNumber'>, query: string): boolean {
  const q = query.trim().toLowerCase();
  if (!q) return true;
  const plate = (item.RegistrationNumber ?? '').toLowerCase();
  return item.name.toLowerCase().includes(q) || plate.includes(q) || (q.replace(/\s+/g, '') !== '' && plate.replace(/\s+/g, '').includes(q.replace(/\s+/g, '')));
}

export function nextSafeHomeSort(current: SafeHomeSort, column: SafeHomeSortColumn): SafeHomeSort {
  return current.column === column ? { column, desc: !current.desc } : { column, desc: false };
}

export function sortSafeHomes(rows: readonly SafeHomeItem[], sort: SafeHomeSort, locale: string): SafeHomeItem[] {
  const collator = new Intl.Collator(locale, { numeric: true, sensitivity: 'base' });
  const value = (r: SafeHomeItem) => (sort.column === 'name' ? r.name : (r.RegistrationNumber ?? ''));
  return [...rows].sort((a, b) => {
    const [x, y] = [value(a), value(b)];
    if (!x !== !y) return x ? -1 : 1;
    const order = collator.compare(x, y) || a.imei.localeCompare(b.imei);
    return sort.desc ? -order : order;
  });
}

/** Monday first: the order the schedule is shown and edited in (days are 0 Sunday ... 6 Saturday). */
export const WEEK_ORDER = [1, 2, 3, 4, 5, 6, 0] as const;

/** A weekday's name in the locale (2025-06-01 was a Sunday). */
export function weekdayName(day: number, locale: string, width: 'short' | 'long'): string {
  return new Intl.DateTimeFormat(locale, { weekday: width, timeZone: 'UTC' }).format(Date.UTC(2025, 5, 1 + day));
}

/**
 * The schedule in a few words: days with the same time together, in week order, e.g.
 * "Mon–Fri 18:00, Sat 10:00". Runs of three or more days are written as a range.
 */
export function scheduleSummary(schedule: readonly ScheduleEntry[], locale: string): string {
  const byDay = new Map(schedule.map((e) => [e.day, e.time]));
  const groups: { time: string; days: number[] }[] = [];
  for (const day of WEEK_ORDER) {
    const time = byDay.get(day);
    if (time === undefined) continue;
    let group = groups.find((g) => g.time === time);
    if (!group) groups.push((group = { time, days: [] }));
    group.days.push(day);
  }
  return groups
    .map(({ time, days }) => {
      const runs: number[][] = [];
      for (const day of days) {
        const last = runs[runs.length - 1];
        const position = WEEK_ORDER.indexOf(day as (typeof WEEK_ORDER)[number]);
        if (last && WEEK_ORDER.indexOf(last[last.length - 1] as (typeof WEEK_ORDER)[number]) === position - 1) last.push(day);
        else runs.push([day]);
      }
      const text = runs
        .map((run) =>
          run.length >= 3
            ? `${weekdayName(run[0] as number, locale, 'short')}–${weekdayName(run[run.length - 1] as number, locale, 'short')}`
            : run.map((d) => weekdayName(d, locale, 'short')).join(', '),
        )
        .join(', ');
      return `${text} ${time}`;
    })
    .join('; ');
}

/** One row of the schedule form per weekday, Monday first. */
export interface DayRow {
  day: number;
  on: boolean;
  time: string;
}

/** The form's rows: the saved times, or every weekday (Monday to Friday) at 18:00 for a unit without a schedule (spec section 9). */
export function scheduleRows(schedule: readonly ScheduleEntry[]): DayRow[] {
  const byDay = new Map(schedule.map((e) => [e.day, e.time]));
  return WEEK_ORDER.map((day) => {
    const time = byDay.get(day);
    if (schedule.length === 0) return { day, on: day >= 1 && day <= 5, time: SAFE_HOME_DEFAULT_TIME };
    return { day, on: time !== undefined, time: time ?? SAFE_HOME_DEFAULT_TIME };
  });
}

export const entriesOf = (rows: readonly DayRow[]): ScheduleEntry[] => rows.filter((r) => r.on).map((r) => ({ day: r.day, time: r.time }));

/** Today as yyyy-MM-dd in the browser's zone. */
export function todayText(now = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}
