/**
 * The congestion tax of passages (lag 2004:629): each passage's band amount for its local day and
 * minute, the days the tax is not charged, Gothenburg's single-charge rule and Backa exception, and
 * each city's daily cap. Pure: the same passages always give the same amounts.
 */
import type { CongestionCity } from './control-points';
import { exemptReason, stockholmSeason, type ExemptReason } from './calendar';
import type { Passage } from './passages';
import { bandIndex, localMinute, periodOn, type GothenburgPeriod, type TariffPeriod } from './tariff-tables';

/** Why a passage costs less than its band's amount. */
export type ReasonCode =
  | ExemptReason
  /** Outside the charged hours (18:30-05:59). */
  | 'free-hours'
  /** Before the first tariff period known for the city. */
  | 'no-tariff'
  /** A Backa control point: it charges nothing. */
  | 'control-point'
  /** A Backa station passage without a control point passage within 30 minutes: not through traffic. */
  | 'backa-local'
  /** Gothenburg: within 60 minutes of the first charged passage of its window, which carries the highest amount. */
  | 'single-charge'
  /** Stockholm: a second crossing of the inner-city cordon in the same direction within minutes of one counted (SAME_CROSSING_MS). */
  | 'same-crossing'
  /** The daily cap was reached (the amount may be a part of the band's). */
  | 'daily-cap';

/** What pricing reads of a passage; other fields are carried through. */
export type TaxablePassage = Pick<Passage, 'time' | 'city'> & Partial<Pick<Passage, 'essingeleden' | 'backa' | 'direction'>>;

/**
 * Stockholm's inner-city stations form one closed cordon: a vehicle inside it has to leave before it
 * can come in again. Two crossings in the same direction within this long, with no crossing the
 * other way between them, are one crossing seen at two stations close together (Skanstullsbron and
 * Johanneshovsbron lie about 280 m apart, and a step between fixes far apart can cut both lines): the
 * first is priced, the others are listed at 0 with `same-crossing`.
 */
export const SAME_CROSSING_MS = 5 * 60_000;

export type PricedPassage<P extends TaxablePassage = TaxablePassage> = P & {
  /** The local day (Europe/Stockholm), yyyy-MM-dd. */
  date: string;
  /** The band's amount at the passage's minute, SEK, before the day's and the city's rules. */
  tariffAmount: number;
  /** What the passage is charged, whole SEK. */
  amount: number;
  reason?: ReasonCode;
};

export interface PricedDay<P extends TaxablePassage = TaxablePassage> {
  date: string;
  city: CongestionCity;
  passages: PricedPassage<P>[];
  /** The day's tax after the cap, SEK. */
  dayAmount: number;
}

function bandAmount(period: TariffPeriod, p: TaxablePassage, day: string, minute: number): number {
  const i = bandIndex(period, minute);
  if (period.city === 'gothenburg') return period.amounts[i] ?? 0;
  const season = stockholmSeason(day);
  const table = p.essingeleden ? period.essingeleden[season] : period.inner[season];
  return table[i] ?? 0;
}

/** Gothenburg's single-charge rule: a window opens at a charged passage and holds those within the next 60 minutes. */
function singleCharge<P extends TaxablePassage>(priced: PricedPassage<P>[], period: GothenburgPeriod): void {
  const windowMs = period.singleChargeMinutes * 60_000;
  const charged = priced.filter((p) => p.amount > 0);
  let k = 0;
  while (k < charged.length) {
    const anchor = charged[k];
    if (!anchor) break;
    let highest = anchor;
    let end = k + 1;
    while (end < charged.length) {
      const next = charged[end];
      if (!next || next.time - anchor.time > windowMs) break;
      if (next.amount > highest.amount) highest = next;
      end++;
    }
    for (let m = k; m < end; m++) {
      const p = charged[m];
      if (p && p !== highest) {
        p.amount = 0;
        p.reason = 'single-charge';
      }
    }
    k = end;
  }
}

/** Stockholm's cordon crossings seen twice (SAME_CROSSING_MS): the later ones are not charged. */
function sameCrossing<P extends TaxablePassage>(priced: PricedPassage<P>[]): void {
  let counted: PricedPassage<P> | null = null;
  for (const p of priced) {
    if (p.essingeleden || !p.direction) continue;
    if (counted && counted.direction === p.direction && p.time - counted.time <= SAME_CROSSING_MS) {
      p.amount = 0;
      p.reason = 'same-crossing';
    } else {
      counted = p;
    }
  }
}

/**
 * The tax of one unit's passages on one local day in one city: each passage's amount (0 with a
 * reason when not charged) and the day's amount after the cap. Passages of another city or day
 * are a caller's error.
 */
export function priceDay<P extends TaxablePassage>(passages: readonly P[], city: CongestionCity): PricedDay<P> {
  const sorted = [...passages].sort((x, y) => x.time - y.time);
  const first = sorted[0];
  const date = first ? localMinute(first.time).day : '';
  const period = date ? periodOn(city, date) : null;
  const exempt = date ? exemptReason(date, city) : null;
  const priced = sorted.map((p): PricedPassage<P> => {
    const { day, minute } = localMinute(p.time);
    if (p.city !== city || day !== date) throw new RangeError(`priceDay takes passages of one city and local day: ${p.city} ${day}, expected ${city} ${date}`);
    if (p.backa === 'control') return { ...p, date, tariffAmount: 0, amount: 0, reason: 'control-point' };
    if (!period) return { ...p, date, tariffAmount: 0, amount: 0, reason: 'no-tariff' };
    const tariffAmount = bandAmount(period, p, day, minute);
    if (exempt) return { ...p, date, tariffAmount, amount: 0, reason: exempt };
    if (tariffAmount === 0) return { ...p, date, tariffAmount, amount: 0, reason: 'free-hours' };
    return { ...p, date, tariffAmount, amount: tariffAmount };
  });

  if (city === 'stockholm') sameCrossing(priced);

  if (period?.city === 'gothenburg') {
    const through = period.backaThroughMinutes;
    if (through !== null) {
      const controls = priced.filter((p) => p.backa === 'control').map((p) => p.time);
      for (const p of priced) {
        if (p.backa !== 'station' || p.amount === 0) continue;
        if (!controls.some((t) => Math.abs(t - p.time) <= through * 60_000)) {
          p.amount = 0;
          p.reason = 'backa-local';
        }
      }
    }
    singleCharge(priced, period);
  }

  let cap = 0;
  if (period?.city === 'gothenburg') cap = period.dailyCap;
  else if (period?.city === 'stockholm') cap = period.dailyCap[stockholmSeason(date)];
  let dayAmount = 0;
  for (const p of priced) {
    if (p.amount === 0) continue;
    const allowed = Math.min(p.amount, cap - dayAmount);
    if (allowed < p.amount) {
      p.amount = allowed;
      p.reason = 'daily-cap';
    }
    dayAmount += allowed;
  }
  return { date, city, passages: priced, dayAmount };
}

export interface PricedPassages<P extends TaxablePassage = TaxablePassage> {
  /** Every passage with its amount, in time order. */
  passages: PricedPassage<P>[];
  /** Per local day and city, the day's tax after the cap, in date then city order. */
  days: { date: string; city: CongestionCity; amount: number }[];
  total: number;
}

/** The tax of one unit's passages over any period: priced per local day and city. */
export function pricePassages<P extends TaxablePassage>(passages: readonly P[]): PricedPassages<P> {
  const groups = new Map<string, { city: CongestionCity; list: P[] }>();
  for (const p of passages) {
    const key = `${localMinute(p.time).day}|${p.city}`;
    const group = groups.get(key);
    if (group) group.list.push(p);
    else groups.set(key, { city: p.city, list: [p] });
  }
  const days = [...groups.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([, group]) => priceDay(group.list, group.city));
  return {
    passages: days.flatMap((d) => d.passages).sort((x, y) => x.time - y.time),
    days: days.map((d) => ({ date: d.date, city: d.city, amount: d.dayAmount })),
    total: days.reduce((sum, d) => sum + d.dayAmount, 0),
  };
}
