/**
 * The benefit value report, a pure function of a unit's trips: per calendar year within the period
 * and per driver, private trips, private occasions (each local day with at least one private trip
 * counts once; the report says it counts that way), private and business distance, whether minor
 * private use holds (at most 10 occasions and at most 1,000 km of private driving in the calendar
 * year, both), a warning from 8 occasions or 800 km, and whether business driving reached 30,000 km.
 * No addresses: a locked unit's users may run it.
 */
import type { ReportChart, ReportColumn, ReportFact, ReportUnit } from '../../../shared/schemas/reports';
import type { TripType } from '../../../shared/schemas/trips';
import type { Texts } from '../columns';
import { kmOf } from '../figures';

export const MINOR_PRIVATE_OCCASIONS = 10;
export const MINOR_PRIVATE_KM = 1000;
export const WARN_OCCASIONS = 8;
export const WARN_KM = 800;
export const BUSINESS_RULE_KM = 30_000;

export interface BenefitTrip {
  /** The local day the trip started. */
  day: string;
  type: TripType;
  distanceM: number;
  driverId: string | null;
}

export interface BenefitUnitInput {
  imei: string;
  name: string;
  registrationNumber: string | null;
  trips: readonly BenefitTrip[];
}

interface YearFigures {
  privateTrips: number;
  days: Set<string>;
  privateM: number;
  businessM: number;
}

export type Verdict = 'ok' | 'near' | 'over';

/** The minor private use rule over one calendar year's figures. */
export function verdictOf(occasions: number, privateKm: number): Verdict {
  if (occasions > MINOR_PRIVATE_OCCASIONS || privateKm > MINOR_PRIVATE_KM) return 'over';
  if (occasions >= WARN_OCCASIONS || privateKm >= WARN_KM) return 'near';
  return 'ok';
}

export function benefitColumns(x: Texts): ReportColumn[] {
  return [
    x.column('year', 'text'),
    x.column('driverName', 'text', { label: x.t('ReportCol_driver') }),
    x.column('privateTrips', 'count', { total: true }),
    x.column('privateOccasions', 'count', { total: true }),
    x.column('privateDistance', 'km', { total: true }),
    x.column('businessDistance', 'km', { total: true }),
    x.column('minorPrivateUse', 'yesNo'),
    x.column('business30000', 'yesNo'),
  ];
}

function yearsOf(trips: readonly BenefitTrip[], key: (t: BenefitTrip) => string): Map<string, YearFigures> {
  const years = new Map<string, YearFigures>();
  for (const trip of trips) {
    const k = key(trip);
    const y = years.get(k) ?? { privateTrips: 0, days: new Set<string>(), privateM: 0, businessM: 0 };
    if (trip.type === 'private') {
      y.privateTrips++;
      y.days.add(trip.day);
      y.privateM += trip.distanceM;
    } else if (trip.type === 'business') y.businessM += trip.distanceM;
    years.set(k, y);
  }
  return years;
}

interface BenefitRow {
  year: string;
  privateTrips: number;
  privateOccasions: number;
  privateDistance: number;
  businessDistance: number;
  minorPrivateUse: boolean;
  warning: boolean;
  business30000: boolean;
}

function figureRow(year: string, y: YearFigures): BenefitRow {
  const privateDistance = kmOf(y.privateM);
  const verdict = verdictOf(y.days.size, privateDistance);
  return {
    year,
    privateTrips: y.privateTrips,
    privateOccasions: y.days.size,
    privateDistance,
    businessDistance: kmOf(y.businessM),
    minorPrivateUse: verdict !== 'over',
    warning: verdict === 'near',
    business30000: kmOf(y.businessM) >= BUSINESS_RULE_KM,
  };
}

export interface UnitYear {
  year: string;
  privateKm: number;
  occasions: number;
}

export function benefitUnit(unit: BenefitUnitInput, names: ReadonlyMap<string, string>, x: Texts): { unit: ReportUnit; years: UnitYear[] } {
  const noDriver = x.t('ReportNote_driverUnknown');
  const byDriver = yearsOf(unit.trips, (t) => `${t.day.slice(0, 4)}|${t.driverId ?? ''}`);
  const rows = [...byDriver]
    .map(([key, y]) => {
      const [year = '', driverId = ''] = key.split('|');
      return { ...figureRow(year, y), driverId: driverId || null, driverName: driverId ? (names.get(driverId) ?? driverId) : noDriver };
    })
    .sort((a, b) => a.year.localeCompare(b.year) || String(a.driverName).localeCompare(String(b.driverName)));
  const facts: ReportFact[] = [];
  const notes: string[] = [];
  const years: UnitYear[] = [];
  // The unit's own verdict per year, whoever drove.
  for (const [year, y] of [...yearsOf(unit.trips, (t) => t.day.slice(0, 4))].sort(([a], [b]) => a.localeCompare(b))) {
    const verdict = verdictOf(y.days.size, kmOf(y.privateM));
    years.push({ year, privateKm: kmOf(y.privateM), occasions: y.days.size });
    facts.push({
      ...x.fact('minorPrivateUse', verdict !== 'over', 'yesNo', verdict === 'over' ? 'alert' : verdict === 'near' ? 'warning' : null),
      key: `minorPrivateUse${year}`,
      label: `${x.t('ReportCol_minorPrivateUse')} ${year}`,
    });
  }
  for (const row of rows) {
    const verdict = verdictOf(row.privateOccasions, row.privateDistance);
    if (verdict !== 'ok') notes.push(x.t(verdict === 'over' ? 'ReportNote_overLimit' : 'ReportNote_warningNear', { name: `${unit.name}, ${row.driverName}`, year: row.year }));
  }
  const all = yearsOf(unit.trips, () => 'all').get('all');
  const report: ReportUnit = {
    imei: unit.imei,
    name: unit.name,
    registrationNumber: unit.registrationNumber,
    rows,
    totals: {
      privateTrips: all?.privateTrips ?? 0,
      privateOccasions: all?.days.size ?? 0,
      privateDistance: kmOf(all?.privateM ?? 0),
      businessDistance: kmOf(all?.businessM ?? 0),
    },
    facts,
    tables: [],
    notes,
  };
  return { unit: report, years };
}

/** Notes that explain the counting, and which years the period covers only in part. */
export function benefitNotes(from: string, to: string, x: Texts): string[] {
  const notes = [x.t('ReportNote_occasionsRule')];
  for (let year = Number(from.slice(0, 4)); year <= Number(to.slice(0, 4)); year++) {
    const first = `${year}-01-01`;
    const last = `${year}-12-31`;
    if (from > first || to < last) notes.push(x.t('ReportNote_partialYear', { year, from: from > first ? from : first, to: to < last ? to : last }));
  }
  return notes;
}

/** Private distance and occasions per unit and year against their limits. */
export function benefitCharts(units: readonly { name: string; years: readonly UnitYear[] }[], x: Texts): ReportChart[] {
  const bars = units.flatMap((u) => u.years.map((y) => ({ label: `${u.name} ${y.year}`, ...y })));
  const labels = bars.map((b) => b.label);
  return [
    {
      title: x.t('ReportChart_privateDistance'),
      unit: 'km',
      labels,
      series: [{ key: 'private', label: x.t('ReportCol_privateDistance'), values: bars.map((b) => b.privateKm) }],
      limits: [{ label: x.t('ReportChart_limitKm'), value: MINOR_PRIVATE_KM }],
    },
    {
      title: x.t('ReportChart_privateOccasions'),
      unit: '',
      labels,
      series: [{ key: 'occasions', label: x.t('ReportCol_privateOccasions'), values: bars.map((b) => b.occasions) }],
      limits: [{ label: x.t('ReportChart_limitOccasions'), value: MINOR_PRIVATE_OCCASIONS }],
    },
  ];
}
