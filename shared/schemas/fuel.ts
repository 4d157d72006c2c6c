/**
 * Fuel: the unit's fuel types, the quantity each is measured in, and the account's dated fuel
 * prices (docs/decisions/0040-fuel-and-co2.md). A unit's consumption per 10 km is in its fuel's
 * quantity (litres, kWh, kg), and so is a price (SEK per litre, per kWh, per kg).
 *
 * The account's market fuel price (`fuelPrice`, the settings contract's one number, SEK per litre)
 * stays what it was: the first price, in force from always for the fuels sold by the litre. The
 * dated prices (`fuelPrices`) follow it: each holds for its fuel type from its local day on, until
 * the next one of that type.
 */
import { z } from 'zod';
import { isCalendarDay } from './dates';
import { administrationMessageKeys as keys } from './administration-messages';

export const fuelTypes = ['petrol', 'diesel', 'electricity', 'gas', 'cng', 'other'] as const;
export type FuelType = (typeof fuelTypes)[number];

/** What a fuel is measured in: consumption per 10 km and price per one of these. Gas is LPG, sold by the litre; CNG by the kg, as Swedish pumps sell it. */
export const FUEL_QUANTITY: Readonly<Record<FuelType, 'litre' | 'kWh' | 'kg'>> = {
  petrol: 'litre',
  diesel: 'litre',
  gas: 'litre',
  other: 'litre',
  electricity: 'kWh',
  cng: 'kg',
};

/** The symbol of a quantity, the same in every language. */
export const QUANTITY_SYMBOL: Readonly<Record<(typeof FUEL_QUANTITY)[FuelType], string>> = { litre: 'l', kWh: 'kWh', kg: 'kg' };

/** SEK per litre, kWh or kg: above any price a pump has asked. */
export const FUEL_PRICE_MAX = 1000;
/** Dated prices one account keeps (one item attribute; years of monthly changes for every fuel). */
export const FUEL_PRICES_MAX = 500;

const EARLIEST_DAY = '2000-01-01';
const LATEST_DAY = '2099-12-31';

export const fuelPriceEntrySchema = z.object({
  fuelType: z.enum(fuelTypes, { message: keys.FuelPriceTypeInvalid }),
  /** The local day (yyyy-MM-dd) from which the price holds. */
  validFrom: z
    .string(keys.FuelPriceDateInvalid)
    .regex(/^\d{4}-\d{2}-\d{2}$/, keys.FuelPriceDateInvalid)
    .refine((d) => isCalendarDay(d) && d >= EARLIEST_DAY && d <= LATEST_DAY, keys.FuelPriceDateInvalid),
  /** SEK per the fuel's quantity, two decimals. */
  price: z
    .number(keys.FuelPriceOutOfRange)
    .transform((n) => Math.round(n * 100) / 100)
    .refine((n) => n > 0 && n <= FUEL_PRICE_MAX, keys.FuelPriceOutOfRange),
});
export type FuelPriceEntry = z.output<typeof fuelPriceEntrySchema>;

/** A price as stored and answered (checked when saved). */
export const storedFuelPriceSchema = z.object({ fuelType: z.enum(fuelTypes), validFrom: z.string(), price: z.number() });

/** The whole list, as PUT /settings replaces it: sorted by fuel type and day; one price per fuel type and day. */
export const fuelPricesSchema = z
  .array(fuelPriceEntrySchema, keys.FuelPriceTypeInvalid)
  .max(FUEL_PRICES_MAX, keys.TooManyFuelPrices)
  .superRefine((list, ctx) => {
    const seen = new Set<string>();
    list.forEach((entry, i) => {
      const key = `${entry.fuelType}#${entry.validFrom}`;
      if (seen.has(key)) ctx.addIssue({ code: 'custom', path: [i, 'validFrom'], message: keys.DuplicateFuelPriceDay });
      seen.add(key);
    });
  })
  .transform((list) => sortFuelPrices(list));

export function sortFuelPrices<T extends { fuelType: FuelType; validFrom: string }>(list: readonly T[]): T[] {
  return [...list].sort((a, b) => fuelTypes.indexOf(a.fuelType) - fuelTypes.indexOf(b.fuelType) || a.validFrom.localeCompare(b.validFrom));
}

/** A price as a report uses it: what it costs, and since when (null: the market fuel price, from always). */
export interface PriceInForce {
  price: number;
  validFrom: string | null;
}

/**
 * The price of `fuelType` on local day `day`: the dated price of that type with the latest
 * `validFrom` on or before the day; before the first one (or without any), the market fuel price
 * for the fuels sold by the litre; otherwise none.
 */
export function priceInForce(prices: readonly FuelPriceEntry[], marketPrice: number | null, fuelType: FuelType, day: string): PriceInForce | null {
  let best: FuelPriceEntry | null = null;
  for (const p of prices) if (p.fuelType === fuelType && p.validFrom <= day && (!best || p.validFrom > best.validFrom)) best = p;
  if (best) return { price: best.price, validFrom: best.validFrom };
  return marketPrice !== null && marketPrice > 0 && FUEL_QUANTITY[fuelType] === 'litre' ? { price: marketPrice, validFrom: null } : null;
}
