/**
 * The days the congestion tax is not charged, per city (lag 2004:629, bilaga 1 and 2), from the
 * Swedish public holidays of date-holidays. The library's `public` holidays are the allmänna
 * helgdagar of lag (1989:253); with Sundays they are the "helgdagar" the law speaks of. The eves
 * (midsommarafton, julafton, nyårsafton) are not helgdagar: they are exempt as days before one.
 */
import Holidays from 'date-holidays';
import { addDays } from '../local-time';
import type { CongestionCity } from './control-points';
import { periodOn } from './tariff-tables';

export type ExemptReason = 'weekend' | 'public-holiday' | 'day-before-holiday' | 'july';

interface YearHolidays {
  /** The allmänna helgdagar, yyyy-MM-dd. */
  publicDays: Set<string>;
  /** The helgdagar whose eve Stockholm still charges (bilaga 1): långfredagen, Kristi himmelsfärdsdag, första maj, nationaldagen, alla helgons dag. */
  taxedEveOf: Set<string>;
  midsommardagen: string;
}

const swedish = new Holidays('SE');
const years = new Map<number, YearHolidays>();

function holidaysOf(year: number): YearHolidays {
  let y = years.get(year);
  if (y) return y;
  const publicDays = new Set<string>();
  let easter = '';
  let midsommardagen = '';
  let allSaints = '';
  for (const h of swedish.getHolidays(year)) {
    if (h.type !== 'public') continue;
    const day = h.date.slice(0, 10);
    publicDays.add(day);
    if (h.rule === 'easter') easter = day;
    const md = day.slice(5);
    if (md >= '06-20' && md <= '06-26') midsommardagen = day;
    if (md === '10-31' || (md >= '11-01' && md <= '11-06')) allSaints = day;
  }
  if (!easter || !midsommardagen || !allSaints) throw new Error(`date-holidays lacks Swedish holidays of ${year}`);
  const taxedEveOf = new Set([addDays(easter, -2), addDays(easter, 39), `${year}-05-01`, `${year}-06-06`, allSaints]);
  y = { publicDays, taxedEveOf, midsommardagen };
  years.set(year, y);
  return y;
}

const yearOf = (day: string) => Number(day.slice(0, 4));
/** 0 Sunday .. 6 Saturday. */
const weekdayOf = (day: string) => new Date(`${day}T00:00:00Z`).getUTCDay();

export const isPublicHoliday = (day: string): boolean => holidaysOf(yearOf(day)).publicDays.has(day);

/** A helgdag: a Sunday or an allmän helgdag. */
export const isHelgdag = (day: string): boolean => weekdayOf(day) === 0 || isPublicHoliday(day);

/** Midsommarafton of a year: the day before midsommardagen (the Saturday of 20-26 June). */
export const midsummerEve = (year: number): string => addDays(holidaysOf(year).midsommardagen, -1);

/** The first five weekdays (Monday to Friday) of July of a year. */
export function firstFiveJulyWeekdays(year: number): string[] {
  const days: string[] = [];
  for (let day = `${year}-07-01`; days.length < 5; day = addDays(day, 1)) {
    const wd = weekdayOf(day);
    if (wd !== 0 && wd !== 6) days.push(day);
  }
  return days;
}

/**
 * Why no tax is charged on a local day in a city, or null when it is charged.
 * Both cities: Saturdays, Sundays, helgdagar, days before a helgdag, July. From 2020 (a Stockholm
 * period's `taxedEves` and `taxedJulyWeekdays`) Stockholm still charges the days before
 * långfredagen, Kristi himmelsfärdsdag, alla helgons dag, första maj and nationaldagen, and the
 * first five weekdays of July.
 */
export function exemptReason(day: string, city: CongestionCity): ExemptReason | null {
  const wd = weekdayOf(day);
  if (wd === 0 || wd === 6) return 'weekend';
  if (isPublicHoliday(day)) return 'public-holiday';
  const period = periodOn(city, day);
  const sthlm = period?.city === 'stockholm' ? period : null;
  const next = addDays(day, 1);
  if (isHelgdag(next) && !(sthlm?.taxedEves && holidaysOf(yearOf(next)).taxedEveOf.has(next))) return 'day-before-holiday';
  if (day.slice(5, 7) === '07' && !firstFiveJulyWeekdays(yearOf(day)).slice(0, sthlm?.taxedJulyWeekdays ?? 0).includes(day)) return 'july';
  return null;
}

/**
 * Stockholm's season of a day: high from 1 March to the day before midsommarafton and from
 * 15 August to 30 November, low on every other day (midsommarafton itself is low).
 */
export function stockholmSeason(day: string): 'high' | 'low' {
  const md = day.slice(5);
  if (md >= '08-15' && md <= '11-30') return 'high';
  return md >= '03-01' && day < midsummerEve(yearOf(day)) ? 'high' : 'low';
}
