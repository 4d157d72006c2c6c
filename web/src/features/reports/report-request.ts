/**
 * The reports page as pure functions: the period presets in the browser's zone (the zone the API
 * reads days in), the units a department or tag filter leaves, and the
 * query string and export body one report request becomes.
 */
import type { ReportKind, ReportFormat, ReportGrouping } from '../../../../shared/schemas/reports';
import type { TripType } from '../../../../shared/schemas/trips';
import { localDayOf } from '../../../../shared/local-time';
import { periodErrors, previousMonthOf } from '../triplog/trip-log';

export const periodPresets = ['lastMonth', 'thisYear', 'lastYear', 'custom'] as const;
export type PeriodPreset = (typeof periodPresets)[number];

export interface Period {
  from: string;
  to: string;
}

/**
 * A preset's local days in the zone at `now`: last month (the default) is the previous calendar
 * month; this year runs from 1 January to today; last year is the whole previous calendar year.
 * `custom` has no days of its own (null).
 */
export function presetPeriod(preset: PeriodPreset, now: number, timeZone: string): Period | null {
  const today = localDayOf(now, timeZone);
  const year = Number(today.slice(0, 4));
  switch (preset) {
    case 'lastMonth':
      return previousMonthOf(today);
    case 'thisYear':
      return { from: `${year}-01-01`, to: today };
    case 'lastYear':
      return { from: `${year - 1}-01-01`, to: `${year - 1}-12-31` };
    case 'custom':
      return null;
  }
}

/** The preset whose days these are, else custom (a period read back from the address). */
export function presetOf(period: Period, now: number, timeZone: string): PeriodPreset {
  return periodPresets.find((p) => {
    const days = presetPeriod(p, now, timeZone);
    return days !== null && days.from === period.from && days.to === period.to;
  }) ?? 'custom';
}

export type SummaryGrouping = 'unit' | 'driver';

/** Everything one report is asked for with. */
export interface ReportParams {
  kind: ReportKind;
  /** null: every unit the caller may see (the server's default). */
  imeis: readonly string[] | null;
  from: string;
  to: string;
  driverId: string | null;
  type: TripType | null;
  /** Large summary only. */
  groupBy: ReportGrouping | null;
  /** Summary and eco driving only. */
  by: SummaryGrouping | null;
}

/** The kinds with a section per unit or per driver (`by`). */
export const byKinds: ReadonlySet<ReportKind> = new Set(['summary', 'ecoDriving']);

/**
 * The report a link asks for (`?kind=summary&from=2026-12-01&to=2026-12-01`: the fleet overview's
 * trip figures), over every unit the caller may see, as the form would run it; null unless the
 * caller may run the kind and the period is one the form accepts.
 */
export function linkedReport(search: URLSearchParams, kinds: readonly ReportKind[]): ReportParams | null {
  const kind = kinds.find((k) => k === search.get('kind'));
  const from = search.get('from') ?? '';
  const to = search.get('to') ?? '';
  if (!kind || Object.keys(periodErrors(from, to)).length > 0) return null;
  return { kind, imeis: null, from, to, driverId: null, type: null, groupBy: kind === 'largeSummary' ? 'month' : null, by: byKinds.has(kind) ? 'unit' : null };
}

/** The request's fields as the API names them, leaving out what is unset or does not apply to the kind. */
function reportFields(params: ReportParams): Record<string, string> {
  const fields: Record<string, string> = {};
  if (params.imeis !== null) fields['imeis'] = [...params.imeis].join(',');
  fields['from'] = params.from;
  fields['to'] = params.to;
  if (params.driverId) fields['driverId'] = params.driverId;
  if (params.type) fields['type'] = params.type;
  if (params.kind === 'largeSummary' && params.groupBy) fields['groupBy'] = params.groupBy;
  if (byKinds.has(params.kind) && params.by) fields['by'] = params.by;
  return fields;
}

/** GET /reports/{kind}?… : the query string (without `?`). */
export function reportQueryString(params: ReportParams): string {
  return new URLSearchParams(reportFields(params)).toString();
}

/** POST /reports/exports: the same request, with the kind, the format and the language. */
export function exportBody(params: ReportParams, format: ReportFormat, lang: string): Record<string, string> {
  return { kind: params.kind, ...reportFields(params), format, lang };
}

/** What a unit offers the unit filters: its IMEI, name, departments and tags (names). */
export interface FilterableUnit {
  imei: string;
  departments: readonly string[];
  tags?: readonly string[] | undefined;
}

/**
 * The units a request names: the picked units (none picked: all), narrowed to a department and a
 * tag when one is chosen. null means every unit the caller may see, which the request leaves to the
 * server (no `imeis`); an empty list means the filters leave no unit.
 */
export function selectedImeis(
  units: readonly FilterableUnit[],
  picked: readonly string[],
  department: string | null,
  tag: string | null,
): string[] | null {
  if (picked.length === 0 && !department && !tag) return null;
  const chosen = picked.length > 0 ? new Set(picked) : null;
  return units
    .filter((u) => (!chosen || chosen.has(u.imei)) && (!department || u.departments.includes(department)) && (!tag || (u.tags ?? []).includes(tag)))
    .map((u) => u.imei);
}

/** The distinct department and tag names of the units, sorted in the language. */
export function unitGroups(units: readonly FilterableUnit[], locale: string): { departments: string[]; tags: string[] } {
  const sort = (names: Iterable<string>) => [...new Set(names)].sort((a, b) => a.localeCompare(b, locale));
  return { departments: sort(units.flatMap((u) => u.departments)), tags: sort(units.flatMap((u) => u.tags ?? [])) };
}
