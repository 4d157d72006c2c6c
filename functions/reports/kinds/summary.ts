/**
 * The summary and the large summary, pure functions of the units' figures per local day (from the
 * day rollups, or from trips where a filter needs them). The summary has one row per unit (or per
 * driver); the large summary one row per unit per day, week (from Monday) or month. Neither shows
 * an address, so a locked unit's users may run them.
 */
import { addDays, monthDays } from '../../../shared/local-time';
import { addMonthsToDay } from '../../../shared/schemas/trips';
import type { ReportChart, ReportColumn, ReportGrouping, ReportUnit } from '../../../shared/schemas/reports';
import type { TripType } from '../../../shared/schemas/trips';
import type { Texts } from '../columns';
import { kmOf, sumFigures, summaryTotals, type Figures } from '../figures';

export interface SummarySection {
  /** The unit's IMEI, or the driver's user id ('' for trips without a driver). */
  id: string;
  name: string;
  registrationNumber: string | null;
  /** Figures per local day (yyyy-MM-dd) with trips, or per whole month (yyyy-MM) where the period covers it. */
  days: ReadonlyMap<string, Figures>;
  /** Distance (m) by type per local day with trips, for the chart. */
  distances: ReadonlyMap<string, Record<TripType, number>>;
}

/** Each day's distance by type from figures per day. */
export const distancesOf = (days: ReadonlyMap<string, Figures>): Map<string, Record<TripType, number>> =>
  new Map([...days].map(([day, f]) => [day, { business: f.byType.business.distanceM, private: f.byType.private.distanceM, other: f.byType.other.distanceM }]));

/** The columns both summaries show after their own leading ones. */
function figureColumns(x: Texts): ReportColumn[] {
  return [
    x.column('trips', 'count', { total: true }),
    x.column('distance', 'km', { total: true }),
    x.column('businessDistance', 'km', { total: true }),
    x.column('privateDistance', 'km', { total: true }),
    x.column('otherDistance', 'km', { total: true }),
    x.column('drivingSeconds', 'duration', { total: true, label: x.t('ReportCol_drivingTime') }),
    x.column('idleSeconds', 'duration', { total: true, label: x.t('ReportCol_idleTime') }),
    x.column('maxSpeed', 'speed', { total: true }),
  ];
}

export function summaryColumns(x: Texts, by: 'unit' | 'driver'): ReportColumn[] {
  const lead = by === 'unit' ? [x.column('unitName', 'text', { label: x.t('ReportCol_unit') }), x.column('registrationNumber', 'text')] : [x.column('driverName', 'text', { label: x.t('ReportCol_driver') })];
  const odometers = by === 'unit' ? [x.column('startOdometer', 'odometer'), x.column('stopOdometer', 'odometer')] : [];
  return [...lead, ...figureColumns(x), ...odometers];
}

export function largeSummaryColumns(x: Texts): ReportColumn[] {
  return [
    x.column('unitName', 'text', { label: x.t('ReportCol_unit') }),
    x.column('registrationNumber', 'text'),
    x.column('period', 'text'),
    ...figureColumns(x),
    x.column('firstStart', 'dateTime'),
    x.column('lastStop', 'dateTime'),
    x.column('startOdometer', 'odometer'),
    x.column('stopOdometer', 'odometer'),
  ];
}

/** The calendar months wholly inside [from, to], and the days before and after them. */
export function splitByMonths(from: string, to: string): { months: string[]; dayRanges: [string, string][] } {
  const months: string[] = [];
  for (let month = from.slice(0, 7); month <= to.slice(0, 7); month = addMonthsToDay(`${month}-01`, 1).slice(0, 7)) {
    if (`${month}-01` >= from && monthDays(month).last <= to) months.push(month);
  }
  const first = months[0];
  const last = months[months.length - 1];
  if (!first || !last) return { months, dayRanges: [[from, to]] };
  const dayRanges: [string, string][] = [];
  if (from < `${first}-01`) dayRanges.push([from, addDays(`${first}-01`, -1)]);
  if (to > monthDays(last).last) dayRanges.push([addDays(monthDays(last).last, 1), to]);
  return { months, dayRanges };
}

const pad = (n: number) => String(n).padStart(2, '0');

/** The ISO 8601 week of a day: yyyy-Www (weeks from Monday; week 1 holds the year's first Thursday). */
export function isoWeekOf(day: string): string {
  const date = new Date(`${day}T00:00:00Z`);
  const weekday = (date.getUTCDay() + 6) % 7;
  const thursday = new Date(date.getTime() + (3 - weekday) * 86_400_000);
  const yearStart = Date.UTC(thursday.getUTCFullYear(), 0, 1);
  const week = Math.floor((thursday.getTime() - yearStart) / (7 * 86_400_000)) + 1;
  return `${thursday.getUTCFullYear()}-W${pad(week)}`;
}

export function bucketOf(day: string, groupBy: ReportGrouping): string {
  if (groupBy === 'day') return day;
  if (groupBy === 'week') return isoWeekOf(day);
  return day.slice(0, 7);
}

function sectionRow(section: SummarySection, f: Figures, by: 'unit' | 'driver'): Record<string, unknown> {
  const totals = summaryTotals(f);
  return by === 'unit'
    ? { unitName: section.name, registrationNumber: section.registrationNumber, ...totals }
    : { driverId: section.id, driverName: section.name, ...totals, startOdometer: null, stopOdometer: null };
}

function unitOf(section: SummarySection, rows: Record<string, unknown>[], f: Figures): ReportUnit {
  return { imei: section.id, name: section.name, registrationNumber: section.registrationNumber, rows, totals: summaryTotals(f), facts: [], tables: [], notes: [] };
}

export function summaryUnits(sections: readonly SummarySection[], by: 'unit' | 'driver'): ReportUnit[] {
  return sections.map((s) => {
    const f = sumFigures(s.days.values());
    return unitOf(s, [sectionRow(s, f, by)], f);
  });
}

export function largeSummaryUnits(sections: readonly SummarySection[], groupBy: ReportGrouping, iso: (ms: number) => string): ReportUnit[] {
  return sections.map((s) => {
    const buckets = new Map<string, Figures[]>();
    for (const day of [...s.days.keys()].sort()) {
      const key = bucketOf(day, groupBy);
      buckets.set(key, [...(buckets.get(key) ?? []), s.days.get(day) as Figures]);
    }
    const rows = [...buckets].map(([period, list]) => {
      const f = sumFigures(list);
      return {
        ...sectionRow(s, f, 'unit'),
        period,
        firstStart: f.firstStartTs === null ? null : iso(f.firstStartTs),
        lastStop: f.lastStopTs === null ? null : iso(f.lastStopTs),
      };
    });
    return unitOf(s, rows, sumFigures(s.days.values()));
  });
}

/** Fleet totals: the sums, the top speed; odometers belong to one unit and are left out. */
export function fleetTotals(sections: readonly SummarySection[]): Record<string, number | null> {
  const f = sumFigures(sections.flatMap((s) => [...s.days.values()]));
  return { ...summaryTotals(f), startOdometer: null, stopOdometer: null };
}

/** Trips without driving and idle time, over all sections. */
export const figuresMissingOf = (sections: readonly SummarySection[]): number => sections.reduce((n, s) => n + sumFigures(s.days.values()).figuresMissing, 0);

const CHART_TYPES: readonly { type: TripType; label: string }[] = [
  { type: 'business', label: 'TripTypeBusiness' },
  { type: 'private', label: 'TripTypePrivate' },
  { type: 'other', label: 'TripTypeOther' },
];

/** Days in a period beyond which the chart draws a bar per month rather than per day. */
const CHART_DAILY_MAX = 62;

/** Distance per day (or month, over long periods) by type, over the sections: the same figures as the table. */
export function distanceChart(sections: readonly SummarySection[], from: string, to: string, x: Texts): ReportChart {
  const labels: string[] = [];
  for (let day = from; day <= to; day = addDays(day, 1)) labels.push(day);
  const monthly = labels.length > CHART_DAILY_MAX;
  const keys = monthly ? [...new Set(labels.map((d) => d.slice(0, 7)))] : labels;
  const index = new Map(keys.map((k, i) => [k, i]));
  const series = CHART_TYPES.map(({ type, label }) => ({ key: type, label: x.t(label), values: keys.map(() => 0) }));
  for (const section of sections) {
    for (const [day, metres] of section.distances) {
      const i = index.get(monthly ? day.slice(0, 7) : day);
      if (i === undefined) continue;
      CHART_TYPES.forEach(({ type }, s) => {
        const values = (series[s] as (typeof series)[number]).values;
        values[i] = (values[i] ?? 0) + metres[type];
      });
    }
  }
  for (const s of series) s.values = s.values.map(kmOf);
  return { title: x.t('ReportChart_distancePerDay'), unit: 'km', labels: keys, series, limits: [] };
}
