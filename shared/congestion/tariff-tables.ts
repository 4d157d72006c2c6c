/**
 * The congestion tax's dated tariff tables (lag 2004:629, bilaga 1 Stockholm, bilaga 2 Gothenburg)
 * and the band of a local time. Pure data and arithmetic with no holiday calendar, so passage
 * detection (which runs at ingest) can tell a band edge without carrying the calendar.
 *
 * A change of the law is a new period with its `validFrom`; a period applies from its local day
 * (Europe/Stockholm) until the next period's. Amounts in whole SEK as the law states them.
 */
import { addDays, offsetAt } from '../local-time';
import type { CongestionCity } from './control-points';

export const TAX_ZONE = 'Europe/Stockholm';

/** Bands of one day: band i runs from starts[i] (minute of the local day) to starts[i + 1]. */
export interface BandTable {
  /** Minutes of the day, ascending, the first 0. */
  starts: readonly number[];
}

/** Amounts per band of a BandTable (same length as its starts). */
export type Amounts = readonly number[];

export interface StockholmPeriod extends BandTable {
  city: 'stockholm';
  validFrom: string;
  inner: { high: Amounts; low: Amounts };
  essingeleden: { high: Amounts; low: Amounts };
  /** The most charged per car and calendar day, inner city and Essingeleden together. */
  dailyCap: { high: number; low: number };
  /** Whether the eves of långfredagen, Kristi himmelsfärdsdag, första maj, nationaldagen and alla helgons dag are charged. */
  taxedEves: boolean;
  /** How many of July's first weekdays are charged (the rest of July is not). */
  taxedJulyWeekdays: number;
}

export interface GothenburgPeriod extends BandTable {
  city: 'gothenburg';
  validFrom: string;
  amounts: Amounts;
  dailyCap: number;
  /** Passages within this many minutes of the first charged one are charged once, at the highest amount. */
  singleChargeMinutes: number;
  /** The Backa exception: a Backa station passage is charged only with a control point passage within this many minutes; null before 2018-05-01. */
  backaThroughMinutes: number | null;
}

export type TariffPeriod = StockholmPeriod | GothenburgPeriod;

/** ['06:00', 15] pairs to starts and amounts; the day before the first pair costs 0. */
function bands(pairs: readonly (readonly [string, number])[]): { starts: number[]; amounts: number[] } {
  const starts = [0];
  const amounts = [0];
  for (const [hhmm, amount] of pairs) {
    const [h = 0, m = 0] = hhmm.split(':').map(Number);
    starts.push(h * 60 + m);
    amounts.push(amount);
  }
  return { starts, amounts };
}

const sthlmBands = (times: readonly string[], amounts: readonly number[]) => bands(times.map((t, i) => [t, amounts[i] ?? 0] as const));

// SFS 2018:200, in force from 2020-01-01 (Skatteverket rättslig vägledning 2024.3).
const STHLM_2020 = ['06:00', '06:30', '07:00', '08:30', '09:00', '09:30', '15:00', '15:30', '16:00', '17:30', '18:00', '18:30'];
const innerHigh = sthlmBands(STHLM_2020, [15, 30, 45, 30, 20, 11, 20, 30, 45, 30, 20, 0]);
const innerLow = sthlmBands(STHLM_2020, [15, 25, 35, 25, 15, 11, 15, 25, 35, 25, 15, 0]);
const essingeHigh = sthlmBands(STHLM_2020, [15, 27, 40, 27, 20, 11, 20, 27, 40, 27, 20, 0]);
const essingeLow = sthlmBands(STHLM_2020, [15, 22, 30, 22, 15, 11, 15, 22, 30, 22, 15, 0]);

// SFS 2014:248, in force from 2016-01-01 to 2019-12-31: 06:30-18:29, no seasons (Transportstyrelsen,
// "Tider och belopp", the version of 2016-2019).
const STHLM_2016 = ['06:30', '07:00', '07:30', '08:30', '09:00', '09:30', '15:00', '15:30', '16:00', '17:30', '18:00', '18:30'];
const inner2016 = sthlmBands(STHLM_2016, [15, 25, 35, 25, 15, 11, 15, 25, 35, 25, 15, 0]);
const essinge2016 = sthlmBands(STHLM_2016, [15, 22, 30, 22, 15, 11, 15, 22, 30, 22, 15, 0]);

/** Gothenburg's band times, the same since 2013-01-01. */
const gbgBands = (amounts: readonly number[]) =>
  bands(['06:00', '06:30', '07:00', '08:00', '08:30', '15:00', '15:30', '17:00', '18:00', '18:30'].map((t, i) => [t, amounts[i] ?? 0] as const));
// Bilaga 2, in force from 2015-01-01 (Transportstyrelsen, Skatteverket rättslig vägledning 2024.2).
const gbg2015 = gbgBands([9, 16, 22, 16, 9, 16, 22, 16, 9, 0]);
// Bilaga 2 as first enacted, 2013-01-01 to 2014-12-31: 8, 13 and 18 SEK in the same bands, cap 60.
const gbg2013 = gbgBands([8, 13, 18, 13, 8, 13, 18, 13, 8, 0]);

const gothenburg = (validFrom: string, table: { starts: number[]; amounts: number[] }, backaThroughMinutes: number | null): GothenburgPeriod => ({
  city: 'gothenburg',
  validFrom,
  starts: table.starts,
  amounts: table.amounts,
  dailyCap: 60,
  singleChargeMinutes: 60,
  backaThroughMinutes,
});

/**
 * Every period, oldest first per city. Stockholm's first tables (2007-2015: 10, 15 and 20 SEK, cap
 * 60) are not here: the sources give their amounts but not their band times, so a Stockholm
 * passage before 2016 is priced as 'no-tariff'.
 */
export const TARIFF_PERIODS: readonly TariffPeriod[] = [
  {
    city: 'stockholm',
    validFrom: '2016-01-01',
    starts: inner2016.starts,
    inner: { high: inner2016.amounts, low: inner2016.amounts },
    essingeleden: { high: essinge2016.amounts, low: essinge2016.amounts },
    dailyCap: { high: 105, low: 105 },
    taxedEves: false,
    taxedJulyWeekdays: 0,
  },
  {
    city: 'stockholm',
    validFrom: '2020-01-01',
    starts: innerHigh.starts,
    inner: { high: innerHigh.amounts, low: innerLow.amounts },
    essingeleden: { high: essingeHigh.amounts, low: essingeLow.amounts },
    dailyCap: { high: 135, low: 105 },
    taxedEves: true,
    taxedJulyWeekdays: 5,
  },
  gothenburg('2013-01-01', gbg2013, null),
  gothenburg('2015-01-01', gbg2015, null),
  gothenburg('2018-05-01', gbg2015, 30),
];

/** The period in force on a local day (yyyy-MM-dd) in a city, or null before the first. */
export function periodOn(city: CongestionCity, day: string, periods: readonly TariffPeriod[] = TARIFF_PERIODS): TariffPeriod | null {
  let found: TariffPeriod | null = null;
  for (const p of periods) {
    if (p.city === city && p.validFrom <= day && (!found || p.validFrom >= found.validFrom)) found = p;
  }
  return found;
}

/** The local day (yyyy-MM-dd) and the minute of that day started at an instant, in TAX_ZONE. */
export function localMinute(ms: number): { day: string; minute: number } {
  const local = ms + offsetAt(ms, TAX_ZONE);
  const day = new Date(local).toISOString().slice(0, 10);
  // The minute started decides the band: 06:29:59 is 06:29.
  const minute = Math.floor((((local % 86_400_000) + 86_400_000) % 86_400_000) / 60_000);
  return { day, minute };
}

/** The index of the band a minute of the day falls in. */
export function bandIndex(table: BandTable, minute: number): number {
  let i = 0;
  while (i + 1 < table.starts.length && (table.starts[i + 1] ?? Infinity) <= minute) i++;
  return i;
}

/**
 * Whether the tax band can differ between two instants: they fall in different bands of the
 * city's table, or under different periods. The night (the last band through the first, both free)
 * counts as one band, so midnight is no change.
 */
export function bandChangesBetween(city: CongestionCity, fromMs: number, toMs: number): boolean {
  const from = localMinute(Math.min(fromMs, toMs));
  const to = localMinute(Math.max(fromMs, toMs));
  const p = periodOn(city, from.day);
  const q = periodOn(city, to.day);
  if (p !== q) return true;
  if (!p) return false;
  const last = p.starts.length - 1;
  const night = (i: number) => (i === 0 || i === last ? -1 : i);
  const i = night(bandIndex(p, from.minute));
  const j = night(bandIndex(p, to.minute));
  if (from.day !== to.day) return !(i === -1 && j === -1 && to.day === addDays(from.day, 1));
  return i !== j;
}
