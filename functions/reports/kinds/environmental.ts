/**
 * The environmental report, a pure function of the units' driving shares in the period and in the
 * period of equal length before it: per unit and month the distance, the fuel, the CO2 tank-to-wheel
 * and well-to-wheel with the factor each used beside it, g/km, the unit's department; per unit the
 * change against the previous period; the factors' bases and sources in the notes; a chart per
 * department and month.
 *
 * A unit's own CO2 g/km (its type approval's), where set on a unit that burns its fuel, gives its
 * tank-to-wheel CO2 for the distance (idling adds its fuel at the table's factor); well-to-wheel
 * scales that by the fuel's well-to-wheel / tank-to-wheel ratio. Otherwise the fuel (consumption per
 * 10 km) times the table's factors (functions/reports/emission-factors.ts).
 */
import { addDays } from '../../../shared/local-time';
import { formatNumber } from '../../../shared/reports/format';
import { FUEL_QUANTITY, QUANTITY_SYMBOL, type FuelType } from '../../../shared/schemas/fuel';
import type { ReportChart, ReportColumn, ReportFact, ReportUnit } from '../../../shared/schemas/reports';
import type { Texts } from '../columns';
import { emissionFactor, type EmissionBasis, type EmissionFactor } from '../emission-factors';
import { kmOf } from '../figures';
import { groupShares, quantityColumns, quantityTotals, round, shareFuel, type DriveShare, type FuelUnit } from './fuel-use';

export interface EnvironmentalUnit extends FuelUnit {
  /** The shares of the period of equal length before the report's. */
  previousShares: readonly DriveShare[];
}

export interface Emissions {
  distanceM: number;
  /** Fuel in its quantity; null without a consumption. */
  amount: number | null;
  ttwKg: number | null;
  wtwKg: number | null;
}

/** The previous period of equal length: the same number of days, ending the day before `from`. */
export function previousPeriod(from: string, to: string): { from: string; to: string; days: number } {
  const days = Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000) + 1;
  return { from: addDays(from, -days), to: addDays(from, -1), days };
}

/** Whether the unit's own g/km gives its tank-to-wheel CO2: set, and the fuel burns in the vehicle. */
const ownCo2Of = (unit: FuelUnit): number | null => {
  const ttw = unit.fuelType ? emissionFactor(unit.fuelType, 'ttw') : null;
  return unit.co2 !== null && unit.co2 > 0 && unit.fuelType !== null && (ttw === null || ttw.kgPerQuantity > 0) ? unit.co2 : null;
};

export function emissionsOf(unit: FuelUnit, shares: readonly DriveShare[]): Emissions {
  let distanceM = 0;
  // A unit with a consumption burned nothing in a period without driving: 0, not unknown.
  let driving: number | null = unit.consumption === null ? null : 0;
  let idle: number | null = null;
  for (const share of shares) {
    distanceM += share.distanceM;
    const fuel = shareFuel(unit, share);
    if (!fuel) continue;
    driving = (driving ?? 0) + fuel.driving;
    if (fuel.idle !== null) idle = (idle ?? 0) + fuel.idle;
  }
  const amount = driving === null ? null : driving + (idle ?? 0);
  if (!unit.fuelType) return { distanceM, amount, ttwKg: null, wtwKg: null };
  const ttw = emissionFactor(unit.fuelType, 'ttw');
  const wtw = emissionFactor(unit.fuelType, 'wtw');
  const own = ownCo2Of(unit);
  let ttwKg: number | null = null;
  let wtwKg: number | null = null;
  if (own !== null) {
    ttwKg = (distanceM / 1000) * (own / 1000) + (idle !== null && ttw ? idle * ttw.kgPerQuantity : 0);
    wtwKg = ttw && wtw ? ttwKg * (wtw.kgPerQuantity / ttw.kgPerQuantity) : null;
  } else if (amount !== null) {
    ttwKg = ttw ? amount * ttw.kgPerQuantity : null;
    wtwKg = wtw ? amount * wtw.kgPerQuantity : null;
  }
  return { distanceM, amount, ttwKg, wtwKg };
}

const addEmissions = (a: Emissions, b: Emissions): Emissions => ({
  distanceM: a.distanceM + b.distanceM,
  amount: a.amount === null ? b.amount : b.amount === null ? a.amount : a.amount + b.amount,
  ttwKg: a.ttwKg === null ? b.ttwKg : b.ttwKg === null ? a.ttwKg : a.ttwKg + b.ttwKg,
  wtwKg: a.wtwKg === null ? b.wtwKg : b.wtwKg === null ? a.wtwKg : a.wtwKg + b.wtwKg,
});
const NONE: Emissions = { distanceM: 0, amount: null, ttwKg: null, wtwKg: null };

const gPerKm = (kg: number | null, distanceM: number): number | null => (kg === null || distanceM <= 0 ? null : Math.round((kg * 1_000_000) / distanceM));
/** The change from `before` to `now` in per cent; null without a figure before. */
export const changePercent = (now: number | null, before: number | null): number | null =>
  now === null || before === null || before <= 0 ? null : round(((now - before) / before) * 100, 1);

export function environmentalColumns(units: readonly FuelUnit[], x: Texts): ReportColumn[] {
  return [
    x.column('unitName', 'text', { label: x.t('ReportCol_unit') }),
    x.column('registrationNumber', 'text'),
    x.column('department', 'text'),
    x.column('period', 'text'),
    x.column('fuelType', 'text'),
    x.column('distance', 'km', { total: true }),
    ...quantityColumns(units, x),
    x.column('co2Kg', 'mass', { total: true }),
    x.column('ttwFactor', 'text'),
    x.column('ttwGPerKm', 'count', { total: true, unit: 'g/km' }),
    x.column('wtwCo2Kg', 'mass', { total: true }),
    x.column('wtwFactor', 'text'),
    x.column('wtwGPerKm', 'count', { total: true, unit: 'g/km' }),
  ];
}

function factorText(unit: FuelUnit, basis: EmissionBasis, x: Texts): string {
  if (!unit.fuelType) return '';
  const own = ownCo2Of(unit);
  if (basis === 'ttw' && own !== null) return x.t('ReportFactor_unitOwn', { g: own });
  const factor = emissionFactor(unit.fuelType, basis);
  if (!factor) return x.t('ReportFactor_none');
  const text = factorValue(factor, unit.fuelType, x);
  return basis === 'wtw' && own !== null ? x.t('ReportFactor_scaled', { factor: text }) : text;
}

function figures(e: Emissions, fuelType: FuelType | null): Record<string, number | null> {
  return {
    distance: kmOf(e.distanceM),
    ...quantityTotals([{ fuelType, amount: e.amount }]),
    co2Kg: e.ttwKg === null ? null : round(e.ttwKg, 3),
    ttwGPerKm: gPerKm(e.ttwKg, e.distanceM),
    wtwCo2Kg: e.wtwKg === null ? null : round(e.wtwKg, 3),
    wtwGPerKm: gPerKm(e.wtwKg, e.distanceM),
  };
}

/** The previous period's figures and the change; none for a unit with no figure in either period. */
function changeFacts(now: Emissions, before: Emissions, x: Texts): ReportFact[] {
  if ([now.ttwKg, now.wtwKg, before.ttwKg, before.wtwKg].every((v) => v === null)) return [];
  const ttw = changePercent(now.ttwKg, before.ttwKg);
  const wtw = changePercent(now.wtwKg, before.wtwKg);
  return [
    x.fact('previousCo2Kg', before.ttwKg === null ? null : round(before.ttwKg, 3), 'mass'),
    x.fact('co2Change', ttw, 'percent', ttw !== null && ttw > 0 ? 'warning' : null),
    x.fact('previousWtwCo2Kg', before.wtwKg === null ? null : round(before.wtwKg, 3), 'mass'),
    x.fact('wtwChange', wtw, 'percent', wtw !== null && wtw > 0 ? 'warning' : null),
  ];
}

export interface EnvironmentalBuilt {
  units: ReportUnit[];
  totals: Record<string, number | null>;
  chart: ReportChart;
  notes: string[];
}

export function environmentalReport(units: readonly EnvironmentalUnit[], from: string, to: string, x: Texts): EnvironmentalBuilt {
  let total = NONE;
  let totalBefore = NONE;
  /** The distance of the units with a figure on each basis: the fleet's g/km is over those. */
  let ttwDistanceM = 0;
  let wtwDistanceM = 0;
  const quantities: { fuelType: FuelType | null; amount: number | null }[] = [];
  const noDepartment = x.t('ReportNote_noDepartment');
  const months: string[] = [];
  for (let day = from; day <= to; day = addDays(day, 1)) if (!months.includes(day.slice(0, 7))) months.push(day.slice(0, 7));
  const byDepartment = new Map<string, number[]>();
  const built = units.map((unit): ReportUnit => {
    const fuelLabel = unit.fuelType ? x.t(`FuelType_${unit.fuelType}`) : '';
    const department = unit.department || noDepartment;
    const lead = { unitName: unit.name, registrationNumber: unit.registrationNumber, department, fuelType: fuelLabel, ttwFactor: factorText(unit, 'ttw', x), wtwFactor: factorText(unit, 'wtw', x) };
    const rows = groupShares(unit.shares, (s) => s.day.slice(0, 7)).map(([period, shares]) => {
      const e = emissionsOf(unit, shares);
      if (e.wtwKg !== null) {
        const series = byDepartment.get(department) ?? months.map(() => 0);
        const i = months.indexOf(period);
        if (i >= 0) series[i] = (series[i] ?? 0) + e.wtwKg;
        byDepartment.set(department, series);
      }
      return { ...lead, period, ...figures(e, unit.fuelType) };
    });
    const now = emissionsOf(unit, unit.shares);
    const before = emissionsOf(unit, unit.previousShares);
    total = addEmissions(total, now);
    if (now.ttwKg !== null) ttwDistanceM += now.distanceM;
    if (now.wtwKg !== null) wtwDistanceM += now.distanceM;
    totalBefore = addEmissions(totalBefore, before);
    quantities.push({ fuelType: unit.fuelType, amount: now.amount });
    const notes = now.ttwKg === null && now.wtwKg === null && now.distanceM > 0 ? [x.t('ReportNote_noEmission', { name: unit.name })] : [];
    return { imei: unit.imei, name: unit.name, registrationNumber: unit.registrationNumber, rows, totals: figures(now, unit.fuelType), facts: changeFacts(now, before, x), tables: [], notes };
  });
  const previous = previousPeriod(from, to);
  const totals = {
    ...figures(total, null),
    ...quantityTotals(quantities),
    ttwGPerKm: gPerKm(total.ttwKg, ttwDistanceM),
    wtwGPerKm: gPerKm(total.wtwKg, wtwDistanceM),
    previousCo2Kg: totalBefore.ttwKg === null ? null : round(totalBefore.ttwKg, 3),
    previousWtwCo2Kg: totalBefore.wtwKg === null ? null : round(totalBefore.wtwKg, 3),
    co2ChangePercent: changePercent(total.ttwKg, totalBefore.ttwKg),
    wtwChangePercent: changePercent(total.wtwKg, totalBefore.wtwKg),
  };
  const chart: ReportChart = {
    title: x.t('ReportChart_co2PerDepartment'),
    unit: 'kg',
    labels: months,
    series: [...byDepartment].sort(([a], [b]) => a.localeCompare(b, x.lang)).map(([name, values]) => ({ key: name, label: name, values: values.map((v) => round(v, 3)) })),
    limits: [],
  };
  const fuels = [...new Set(units.map((u) => u.fuelType))].filter((f): f is FuelType => f !== null);
  const notes = [
    x.t('ReportNote_previousPeriod', { from: previous.from, to: previous.to, days: previous.days }),
    ...fuels.map((fuel) => factorNote(fuel, x)),
    x.t('ReportNote_ownCo2'),
  ];
  return { units: built, totals, chart, notes };
}

/** A factor as the report prints it: "2.660 kg/l". */
const factorValue = (factor: EmissionFactor, fuel: FuelType, x: Texts): string =>
  x.t('ReportFactor_perQuantity', { kg: formatNumber(factor.kgPerQuantity, 3, x.lang), quantity: QUANTITY_SYMBOL[FUEL_QUANTITY[fuel]] });

function basisText(factor: EmissionFactor | null, fuel: FuelType, x: Texts): string {
  if (!factor) return x.t('ReportFactor_none');
  return x.t('ReportNote_factorOne', { value: factorValue(factor, fuel, x), basis: x.t(factor.basis), source: factor.source });
}

/** A fuel's factors with what each counts and its source. */
function factorNote(fuel: FuelType, x: Texts): string {
  return x.t('ReportNote_factors', { fuel: x.t(`FuelType_${fuel}`), ttw: basisText(emissionFactor(fuel, 'ttw'), fuel, x), wtw: basisText(emissionFactor(fuel, 'wtw'), fuel, x) });
}
