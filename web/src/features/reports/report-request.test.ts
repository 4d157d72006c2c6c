import { describe, expect, it } from 'vitest';
import { offeredReportKinds } from './offered-kinds';
import { exportBody, linkedReport, presetOf, presetPeriod, reportQueryString, selectedImeis, unitGroups, type ReportParams } from './report-request';

const at = (iso: string) => Date.parse(iso);

describe('offeredReportKinds', () => {
  it('offers the kinds this release computes when no profile limits the user', () => {
    expect(offeredReportKinds({ basic_only: false, profile_reports: null })).toEqual(['tripLog', 'summary', 'largeSummary', 'benefitValue', 'ecoDriving', 'fuelConsumption', 'congestion', 'environmental', 'theft']);
  });
  it("narrows to the feature profile's reports", () => {
    expect(offeredReportKinds({ basic_only: false, profile_reports: ['theft', 'summary', 'congestion'] })).toEqual(['summary', 'congestion', 'theft']);
    expect(offeredReportKinds({ basic_only: false, profile_reports: [] })).toEqual([]);
  });
  it('gives a basic-only account the trip log only', () => {
    expect(offeredReportKinds({ basic_only: true, profile_reports: null })).toEqual(['tripLog']);
    expect(offeredReportKinds({ basic_only: true, profile_reports: ['summary'] })).toEqual([]);
  });
});

describe('presetPeriod', () => {
  it('last month is the previous calendar month in the zone', () => {
    expect(presetPeriod('lastMonth', at('2026-03-15T12:00:00Z'), 'Europe/Stockholm')).toEqual({ from: '2026-02-01', to: '2026-02-28' });
    expect(presetPeriod('lastMonth', at('2026-01-10T12:00:00Z'), 'Europe/Stockholm')).toEqual({ from: '2025-12-01', to: '2025-12-31' });
    expect(presetPeriod('lastMonth', at('2028-03-01T08:00:00Z'), 'Europe/Stockholm')).toEqual({ from: '2028-02-01', to: '2028-02-29' });
  });
  it("reads today in the user's zone, not in UTC", () => {
    // 23:30 UTC on 31 March is already 1 April in Stockholm (summer time, +2).
    const now = at('2026-03-31T23:30:00Z');
    expect(presetPeriod('lastMonth', now, 'Europe/Stockholm')).toEqual({ from: '2026-03-01', to: '2026-03-31' });
    expect(presetPeriod('lastMonth', now, 'UTC')).toEqual({ from: '2026-02-01', to: '2026-02-28' });
    // 22:00 UTC on 31 December is New Year's Day in Stockholm.
    expect(presetPeriod('thisYear', at('2026-12-31T23:30:00Z'), 'Europe/Stockholm')).toEqual({ from: '2027-01-01', to: '2027-01-01' });
    expect(presetPeriod('thisYear', at('2026-12-31T23:30:00Z'), 'America/New_York')).toEqual({ from: '2026-01-01', to: '2026-12-31' });
  });
  it('this year runs to today; last year is the whole previous year; custom has no days', () => {
    const now = at('2026-06-15T10:00:00Z');
    expect(presetPeriod('thisYear', now, 'Europe/Oslo')).toEqual({ from: '2026-01-01', to: '2026-06-15' });
    expect(presetPeriod('lastYear', now, 'Europe/Oslo')).toEqual({ from: '2025-01-01', to: '2025-12-31' });
    expect(presetPeriod('custom', now, 'Europe/Oslo')).toBeNull();
  });
  it('names the preset a period is, else custom', () => {
    const now = at('2026-06-15T10:00:00Z');
    expect(presetOf({ from: '2026-05-01', to: '2026-05-31' }, now, 'Europe/Stockholm')).toBe('lastMonth');
    expect(presetOf({ from: '2025-01-01', to: '2025-12-31' }, now, 'Europe/Stockholm')).toBe('lastYear');
    expect(presetOf({ from: '2026-05-02', to: '2026-05-31' }, now, 'Europe/Stockholm')).toBe('custom');
  });
});

const base: ReportParams = { kind: 'summary', imeis: null, from: '2026-05-01', to: '2026-05-31', driverId: null, type: null, groupBy: null, by: null };

describe('reportQueryString', () => {
  it('leaves imeis out for all units and keeps the period', () => {
    expect(reportQueryString(base)).toBe('from=2026-05-01&to=2026-05-31');
  });
  it('joins the units with commas and adds the filters that are set', () => {
    const params = new URLSearchParams(reportQueryString({ ...base, imeis: ['350000000000001', '350000000000002'], driverId: 'u-1', type: 'business', by: 'driver' }));
    expect(params.get('imeis')).toBe('350000000000001,350000000000002');
    expect(params.get('driverId')).toBe('u-1');
    expect(params.get('type')).toBe('business');
    expect(params.get('by')).toBe('driver');
    expect(params.has('groupBy')).toBe(false);
  });
  it('sends each grouping only with the kind it belongs to', () => {
    expect(new URLSearchParams(reportQueryString({ ...base, kind: 'largeSummary', groupBy: 'week', by: 'driver' })).get('groupBy')).toBe('week');
    expect(new URLSearchParams(reportQueryString({ ...base, kind: 'largeSummary', groupBy: 'week', by: 'driver' })).has('by')).toBe(false);
    expect(reportQueryString({ ...base, kind: 'tripLog', groupBy: 'day', by: 'unit' })).toBe('from=2026-05-01&to=2026-05-31');
  });
  it('keeps an empty unit list as an empty imeis (no unit), not as all units', () => {
    expect(new URLSearchParams(reportQueryString({ ...base, imeis: [] })).get('imeis')).toBe('');
  });
  it('the export body is the same request with kind, format and language', () => {
    expect(exportBody({ ...base, imeis: ['350000000000001'] }, 'csv', 'sv')).toEqual({ kind: 'summary', imeis: '350000000000001', from: '2026-05-01', to: '2026-05-31', format: 'csv', lang: 'sv' });
  });
});

describe('selectedImeis', () => {
  const units = [
    { imei: 'a', departments: ['North'], tags: ['van'] },
    { imei: 'b', departments: ['South'], tags: ['van', 'electric'] },
    { imei: 'c', departments: [], tags: undefined },
  ];
  it('nothing picked and no filter: all units (null)', () => {
    expect(selectedImeis(units, [], null, null)).toBeNull();
  });
  it('the picked units, narrowed by department and tag', () => {
    expect(selectedImeis(units, ['a', 'c'], null, null)).toEqual(['a', 'c']);
    expect(selectedImeis(units, [], 'South', null)).toEqual(['b']);
    expect(selectedImeis(units, [], null, 'van')).toEqual(['a', 'b']);
    expect(selectedImeis(units, ['a'], 'South', null)).toEqual([]);
  });
  it('lists the departments and tags once each, sorted', () => {
    expect(unitGroups(units, 'en')).toEqual({ departments: ['North', 'South'], tags: ['electric', 'van'] });
  });
});

describe('linkedReport', () => {
  const kinds = ['tripLog', 'summary', 'largeSummary'] as const;
  const link = (query: string, offered: readonly (typeof kinds)[number][] = kinds) => linkedReport(new URLSearchParams(query), offered);

  it('runs the named report over every unit for the period, by unit where the kind has sections', () => {
    expect(link('kind=summary&from=2026-12-01&to=2026-12-01')).toEqual({ kind: 'summary', imeis: null, from: '2026-12-01', to: '2026-12-01', driverId: null, type: null, groupBy: null, by: 'unit' });
    expect(link('kind=largeSummary&from=2026-11-01&to=2026-11-30')).toMatchObject({ groupBy: 'month', by: null });
  });

  it('names nothing for a kind the caller may not run, a bad period or no link at all', () => {
    expect(link('kind=summary&from=2026-12-01&to=2026-12-01', ['tripLog'])).toBeNull();
    expect(link('kind=theft&from=2026-12-01&to=2026-12-01')).toBeNull();
    expect(link('kind=summary&from=2026-12-02&to=2026-12-01')).toBeNull();
    expect(link('kind=summary&from=yesterday&to=2026-12-01')).toBeNull();
    expect(link('kind=summary&from=2026-12-01')).toBeNull();
    expect(link('export=abc')).toBeNull();
  });
});
