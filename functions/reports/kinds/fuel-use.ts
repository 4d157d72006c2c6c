/**
 * What the fuel consumption and environmental reports share: a unit's driving as shares (a local
 * day and driver's distance and idle time, from the day rollups or the trips), and the fuel those
 * shares burn from the unit's consumption per 10 km and idle consumption per hour. Pure.
 */
import { FUEL_QUANTITY, QUANTITY_SYMBOL, type FuelType } from '../../../shared/schemas/fuel';
import type { Texts } from '../columns';

/** One local day's driving of one driver ('' for none) on one unit. */
export interface DriveShare {
  day: string;
  driverId: string;
  distanceM: number;
  idleS: number;
}

/** A unit as the fuel reports see it. */
export interface FuelUnit {
  imei: string;
  name: string;
  registrationNumber: string | null;
  /** The unit's department names, joined; '' for none. */
  department: string;
  fuelType: FuelType | null;
  /** Litres (kWh, kg) per 10 km; null when not set. */
  consumption: number | null;
  /** Litres (kWh, kg) per hour of idling; null when not known. */
  idleConsumption: number | null;
  /** The unit's own CO2 g/km (its type approval's); null or 0 when not set. */
  co2: number | null;
  shares: readonly DriveShare[];
  /** Trips without idle time (detected before it was kept). */
  figuresMissing: number;
}

/** The fuel of a share: distance at the unit's rate plus idle time at its idle rate (when known). */
export function shareFuel(unit: Pick<FuelUnit, 'consumption' | 'idleConsumption'>, share: Pick<DriveShare, 'distanceM' | 'idleS'>): { driving: number; idle: number | null } | null {
  if (unit.consumption === null) return null;
  const driving = (share.distanceM / 10_000) * unit.consumption;
  const idle = unit.idleConsumption === null ? null : (share.idleS / 3600) * unit.idleConsumption;
  return { driving, idle };
}

/** The column keys of a fuel's quantity: litres, kWh, kg. */
export const QUANTITY_COLUMN = { litre: 'litres', kWh: 'kWh', kg: 'kg' } as const;
export type QuantityColumn = (typeof QUANTITY_COLUMN)[keyof typeof QUANTITY_COLUMN];
export const quantityColumnOf = (fuelType: FuelType): QuantityColumn => QUANTITY_COLUMN[FUEL_QUANTITY[fuelType]];

/** The quantity columns the units' fuels need, litres always first (the contract's total). */
export function quantityColumns(units: readonly Pick<FuelUnit, 'fuelType'>[], x: Texts): ReturnType<Texts['column']>[] {
  const used = new Set<QuantityColumn>(['litres']);
  for (const u of units) if (u.fuelType) used.add(quantityColumnOf(u.fuelType));
  return (Object.entries(QUANTITY_COLUMN) as [keyof typeof QUANTITY_COLUMN, QuantityColumn][])
    .filter(([, column]) => used.has(column))
    .map(([quantity, column]) => x.column(column, 'amount', { total: true, unit: QUANTITY_SYMBOL[quantity] }));
}

export const round = (n: number, decimals: number): number => {
  const f = 10 ** decimals;
  return Math.round(n * f) / f;
};

/** Shares grouped by a key, in key order. */
export function groupShares<K extends string>(shares: readonly DriveShare[], keyOf: (s: DriveShare) => K): [K, DriveShare[]][] {
  const groups = new Map<K, DriveShare[]>();
  for (const s of shares) groups.set(keyOf(s), [...(groups.get(keyOf(s)) ?? []), s]);
  return [...groups].sort(([a], [b]) => a.localeCompare(b));
}

/** The quantity totals of units, each under its fuel's column (null where no unit of the report uses it with a consumption). */
export function quantityTotals(parts: readonly { fuelType: FuelType | null; amount: number | null }[]): Record<QuantityColumn, number | null> {
  const totals: Record<QuantityColumn, number | null> = { litres: null, kWh: null, kg: null };
  for (const p of parts) {
    if (!p.fuelType || p.amount === null) continue;
    const q = quantityColumnOf(p.fuelType);
    totals[q] = (totals[q] ?? 0) + p.amount;
  }
  for (const q of Object.keys(totals) as QuantityColumn[]) if (totals[q] !== null) totals[q] = round(totals[q], 2);
  return totals;
}
