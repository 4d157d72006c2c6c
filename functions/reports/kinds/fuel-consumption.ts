/**
 * The fuel consumption report, a pure function of the units' driving shares (fuel-use.ts) and the
 * account's prices: one row per unit, driver and month with the distance, the idle time, the fuel
 * (distance / 10 × the unit's consumption per 10 km, plus idle hours × its idle consumption per
 * hour where known) in the fuel's quantity (litres, kWh for electricity, kg for CNG), and the cost:
 * each day's fuel at the price in force on that day (shared/schemas/fuel.ts `priceInForce`), so a
 * price change inside the period splits where it falls. A unit without a consumption gets a note,
 * not a zero.
 */
import { formatNumber } from '../../../shared/reports/format';
import { FUEL_QUANTITY, QUANTITY_SYMBOL, priceInForce, type FuelPriceEntry, type FuelType } from '../../../shared/schemas/fuel';
import type { ReportColumn, ReportUnit } from '../../../shared/schemas/reports';
import type { Texts } from '../columns';
import { kmOf } from '../figures';
import { groupShares, quantityColumns, quantityTotals, round, shareFuel, type DriveShare, type FuelUnit } from './fuel-use';

export interface FuelPrices {
  /** The dated prices, any order. */
  list: readonly FuelPriceEntry[];
  /** The market fuel price (SEK per litre), or null. */
  market: number | null;
}

export function fuelConsumptionColumns(units: readonly FuelUnit[], x: Texts): ReportColumn[] {
  return [
    x.column('unitName', 'text', { label: x.t('ReportCol_unit') }),
    x.column('registrationNumber', 'text'),
    x.column('driverName', 'text', { label: x.t('ReportCol_driver') }),
    x.column('period', 'text'),
    x.column('fuelType', 'text'),
    x.column('distance', 'km', { total: true }),
    x.column('idleSeconds', 'duration', { total: true, label: x.t('ReportCol_idleTime') }),
    x.column('idleFuel', 'amount', { total: false }),
    ...quantityColumns(units, x),
    x.column('cost', 'money', { total: true }),
    x.column('averagePrice', 'money'),
  ];
}

interface Sum {
  distanceM: number;
  idleS: number;
  idle: number | null;
  amount: number | null;
  cost: number | null;
  /** Days with fuel but no price in force. */
  unpriced: Set<string>;
}

function sumShares(unit: FuelUnit, shares: readonly DriveShare[], prices: FuelPrices): Sum {
  // A unit with a fuel and consumption burned 0 in a period without driving, not an unknown amount.
  const known = unit.fuelType !== null && unit.consumption !== null;
  const sum: Sum = { distanceM: 0, idleS: 0, idle: null, amount: known ? 0 : null, cost: known ? 0 : null, unpriced: new Set() };
  for (const share of shares) {
    sum.distanceM += share.distanceM;
    sum.idleS += share.idleS;
    const fuel = unit.fuelType ? shareFuel(unit, share) : null;
    if (!fuel || !unit.fuelType) continue;
    const amount = fuel.driving + (fuel.idle ?? 0);
    sum.amount = (sum.amount ?? 0) + amount;
    if (fuel.idle !== null) sum.idle = (sum.idle ?? 0) + fuel.idle;
    const price = priceInForce(prices.list, prices.market, unit.fuelType, share.day);
    if (price) sum.cost = (sum.cost ?? 0) + amount * price.price;
    else if (amount > 0) sum.unpriced.add(share.day);
  }
  // Fuel on days without a price and none on days with one: no cost, not a cost of 0.
  if (sum.cost === 0 && sum.unpriced.size) sum.cost = null;
  return sum;
}

function figures(unit: FuelUnit, sum: Sum): Record<string, number | null> {
  const quantities = quantityTotals([{ fuelType: unit.fuelType, amount: sum.amount }]);
  return {
    distance: kmOf(sum.distanceM),
    idleSeconds: Math.round(sum.idleS),
    idleFuel: sum.idle === null ? null : round(sum.idle, 2),
    ...quantities,
    cost: sum.cost === null ? null : round(sum.cost, 2),
    averagePrice: sum.cost === null || !sum.amount ? null : round(sum.cost / sum.amount, 2),
  };
}

/** The report's sections and notes: a section per unit, its rows per driver and month. */
export function fuelConsumptionUnits(units: readonly FuelUnit[], prices: FuelPrices, names: ReadonlyMap<string, string>, x: Texts): { units: ReportUnit[]; sums: { unit: FuelUnit; sum: Sum }[] } {
  const noDriver = x.t('ReportNote_driverUnknown');
  const sums: { unit: FuelUnit; sum: Sum }[] = [];
  const built = units.map((unit): ReportUnit => {
    const fuelLabel = unit.fuelType ? x.t(`FuelType_${unit.fuelType}`) : '';
    const rows = groupShares(unit.shares, (s) => `${s.day.slice(0, 7)}#${s.driverId}`).map(([key, shares]) => {
      const driverId = key.slice(8);
      return {
        unitName: unit.name,
        registrationNumber: unit.registrationNumber,
        driverId: driverId || null,
        driverName: driverId ? (names.get(driverId) ?? driverId) : noDriver,
        period: key.slice(0, 7),
        fuelType: fuelLabel,
        ...figures(unit, sumShares(unit, shares, prices)),
      };
    });
    const sum = sumShares(unit, unit.shares, prices);
    sums.push({ unit, sum });
    const notes: string[] = [];
    if (!unit.fuelType || unit.consumption === null) notes.push(x.t('ReportNote_noConsumption', { name: unit.name }));
    if (sum.unpriced.size && unit.fuelType) notes.push(x.t('ReportNote_noFuelPrice', { name: unit.name, fuel: fuelLabel.toLocaleLowerCase(x.lang), days: sum.unpriced.size }));
    return { imei: unit.imei, name: unit.name, registrationNumber: unit.registrationNumber, rows, totals: figures(unit, sum), facts: [], tables: [], notes };
  });
  return { units: built, sums };
}

/** Over all units: the sums of the units' totals (each quantity under its own column). */
export function fuelConsumptionTotals(sums: readonly { unit: FuelUnit; sum: Sum }[]): Record<string, number | null> {
  let distanceM = 0;
  let idleS = 0;
  let cost: number | null = null;
  for (const { sum } of sums) {
    distanceM += sum.distanceM;
    idleS += sum.idleS;
    if (sum.cost !== null) cost = (cost ?? 0) + sum.cost;
  }
  return {
    distance: kmOf(distanceM),
    idleSeconds: Math.round(idleS),
    ...quantityTotals(sums.map(({ unit, sum }) => ({ fuelType: unit.fuelType, amount: sum.amount }))),
    cost: cost === null ? null : round(cost, 2),
  };
}

/** The prices in force in [from, to] for a fuel, as a report note reads them. */
export function pricesInPeriod(prices: FuelPrices, fuelType: FuelType, from: string, to: string): { price: number; validFrom: string | null }[] {
  const first = priceInForce(prices.list, prices.market, fuelType, from);
  const later = prices.list
    .filter((p) => p.fuelType === fuelType && p.validFrom > from && p.validFrom <= to)
    .sort((a, b) => a.validFrom.localeCompare(b.validFrom))
    .map((p) => ({ price: p.price, validFrom: p.validFrom as string | null }));
  return [...(first ? [first] : []), ...later];
}

/** The report's own notes: the prices it used per fuel, how idling counts, trips without idle time. */
export function fuelConsumptionNotes(units: readonly FuelUnit[], prices: FuelPrices, from: string, to: string, x: Texts): string[] {
  const notes: string[] = [];
  const fuels = [...new Set(units.filter((u) => u.consumption !== null).map((u) => u.fuelType))].filter((f): f is FuelType => f !== null);
  for (const fuel of fuels) {
    const quantity = QUANTITY_SYMBOL[FUEL_QUANTITY[fuel]];
    const used = pricesInPeriod(prices, fuel, from, to).map((p) =>
      x.t(p.validFrom === null ? 'ReportNote_marketPrice' : 'ReportNote_priceFrom', { price: formatNumber(p.price, 2, x.lang), quantity, day: p.validFrom ?? '' }),
    );
    notes.push(x.t('ReportNote_fuelPrices', { fuel: x.t(`FuelType_${fuel}`), prices: used.length ? used.join('; ') : x.t('ReportNote_noPrice') }));
  }
  notes.push(x.t('ReportNote_fuelMethod'));
  const missing = units.reduce((n, u) => n + u.figuresMissing, 0);
  if (missing) notes.push(x.t('ReportNote_figuresMissing', { count: missing }));
  return notes;
}
