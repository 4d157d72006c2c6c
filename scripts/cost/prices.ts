/**
 * The price list the cost model reads: ONE dated file (scripts/cost/prices-YYYY-MM.json) with the
 * region the figures are from, the date and the source page of every price. `PRICES_FILE` names
 * the current one; a new list is a new file, so an estimate always says which prices it used.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';

export const PRICES_FILE = fileURLToPath(new URL('./prices-2026-11.json', import.meta.url));

const entry = z.object({ usd: z.number().nonnegative(), source: z.url(), note: z.string().optional() });
const included = z.object({ count: z.number().nonnegative(), source: z.url(), note: z.string().optional() });

export const priceListSchema = z.object({
  date: z.iso.date(),
  currency: z.literal('USD'),
  region: z.string().min(1),
  regionNote: z.string(),
  prices: z.record(z.string(), entry),
  included: z.record(z.string(), included),
});

export type PriceList = z.infer<typeof priceListSchema>;

export function readPriceList(file: string = PRICES_FILE): PriceList {
  return priceListSchema.parse(JSON.parse(readFileSync(file, 'utf8')));
}

/** A price by key; a key the list does not have is a mistake in the model, not a zero. */
export function priceOf(list: PriceList, key: string): number {
  const p = list.prices[key];
  if (!p) throw new Error(`the price list of ${list.date} has no ${key}`);
  return p.usd;
}

export function includedOf(list: PriceList, key: string): number {
  const p = list.included[key];
  if (!p) throw new Error(`the price list of ${list.date} has no included allowance ${key}`);
  return p.count;
}
