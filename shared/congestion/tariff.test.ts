import { describe, expect, it } from 'vitest';
import { parseDateTime } from '../local-time';
import { exemptReason, firstFiveJulyWeekdays, midsummerEve, stockholmSeason } from './calendar';
import type { CongestionCity } from './control-points';
import { priceDay, pricePassages, type ReasonCode, type TaxablePassage } from './tariff';
import { bandChangesBetween, TAX_ZONE } from './tariff-tables';

/** A wall time in Stockholm ('2026-03-10 06:29:59') as epoch ms. */
const at = (wall: string) => parseDateTime(wall.replace(' ', 'T'), TAX_ZONE);

type Kind = 'inner' | 'essingeleden' | 'cordon' | 'backa' | 'k';
const passage = (wall: string, kind: Kind): TaxablePassage => {
  const city: CongestionCity = kind === 'inner' || kind === 'essingeleden' ? 'stockholm' : 'gothenburg';
  const p: TaxablePassage = { time: at(wall), city };
  if (kind === 'essingeleden') p.essingeleden = true;
  if (kind === 'backa') p.backa = 'station';
  if (kind === 'k') p.backa = 'control';
  return p;
};

/** One passage alone on its day: [wall time, kind, amount, reason]. Dates in 2026 unless stated. */
const single: [string, Kind, number, ReasonCode | undefined, string][] = [
  // Stockholm high season (Tuesday 10 March 2026), each band edge and the minute started.
  ['2026-03-10 05:59:59', 'inner', 0, 'free-hours', 'before 06:00'],
  ['2026-03-10 06:00:00', 'inner', 15, undefined, '06:00 opens the first band'],
  ['2026-03-10 06:29:59', 'inner', 15, undefined, '06:29:59 counts as 06:29'],
  ['2026-03-10 06:30:00', 'inner', 30, undefined, '06:30 high season'],
  ['2026-03-10 06:59:59', 'inner', 30, undefined, 'end of 06:30-06:59'],
  ['2026-03-10 07:00:00', 'inner', 45, undefined, 'peak'],
  ['2026-03-10 08:29:59', 'inner', 45, undefined, 'end of peak'],
  ['2026-03-10 08:30:00', 'inner', 30, undefined, '08:30'],
  ['2026-03-10 09:00:00', 'inner', 20, undefined, '09:00'],
  ['2026-03-10 09:29:59', 'inner', 20, undefined, 'end of 09:00-09:29'],
  ['2026-03-10 09:30:00', 'inner', 11, undefined, 'midday'],
  ['2026-03-10 14:59:59', 'inner', 11, undefined, 'end of midday'],
  ['2026-03-10 15:00:00', 'inner', 20, undefined, '15:00'],
  ['2026-03-10 15:30:00', 'inner', 30, undefined, '15:30'],
  ['2026-03-10 16:00:00', 'inner', 45, undefined, 'afternoon peak'],
  ['2026-03-10 17:29:59', 'inner', 45, undefined, 'end of afternoon peak'],
  ['2026-03-10 17:30:00', 'inner', 30, undefined, '17:30'],
  ['2026-03-10 18:00:00', 'inner', 20, undefined, '18:00'],
  ['2026-03-10 18:29:59', 'inner', 20, undefined, '18:29:59 counts as 18:29'],
  ['2026-03-10 18:30:00', 'inner', 0, 'free-hours', '18:30 is free'],
  // Essingeleden's own amounts.
  ['2026-03-10 06:30:00', 'essingeleden', 27, undefined, 'Essingeleden high 06:30'],
  ['2026-03-10 07:00:00', 'essingeleden', 40, undefined, 'Essingeleden high peak'],
  ['2026-03-10 09:00:00', 'essingeleden', 20, undefined, 'Essingeleden high 09:00'],
  ['2026-01-13 07:00:00', 'essingeleden', 30, undefined, 'Essingeleden low peak'],
  ['2026-01-13 17:30:00', 'essingeleden', 22, undefined, 'Essingeleden low 17:30'],
  // Low season (Tuesday 13 January).
  ['2026-01-13 06:29:59', 'inner', 15, undefined, 'low 06:00-06:29'],
  ['2026-01-13 06:30:00', 'inner', 25, undefined, 'low 06:30'],
  ['2026-01-13 07:00:00', 'inner', 35, undefined, 'low peak'],
  ['2026-01-13 09:00:00', 'inner', 15, undefined, 'low 09:00'],
  ['2026-01-13 11:00:00', 'inner', 11, undefined, 'low midday'],
  // Seasons: 1 March to the day before midsommarafton (19 June 2026), 15 August to 30 November.
  ['2026-02-27 07:00:00', 'inner', 35, undefined, 'the last Friday of February is low'],
  ['2026-03-02 07:00:00', 'inner', 45, undefined, 'the first Monday of March is high'],
  ['2026-06-18 07:00:00', 'inner', 45, undefined, 'the day before midsommarafton is still high'],
  ['2026-06-19 07:00:00', 'inner', 0, 'day-before-holiday', 'midsommarafton is exempt'],
  ['2026-06-22 07:00:00', 'inner', 35, undefined, 'the Monday after midsummer is low'],
  ['2026-08-14 07:00:00', 'inner', 35, undefined, 'the Friday before 15 August is low'],
  ['2026-08-17 07:00:00', 'inner', 45, undefined, 'the Monday after 15 August is high'],
  ['2026-11-30 07:00:00', 'inner', 45, undefined, '30 November is high'],
  ['2026-12-01 07:00:00', 'inner', 35, undefined, '1 December is low'],
  // Exempt days in Stockholm.
  ['2026-03-14 07:00:00', 'inner', 0, 'weekend', 'Saturday'],
  ['2026-03-15 07:00:00', 'inner', 0, 'weekend', 'Sunday'],
  ['2026-01-06 07:00:00', 'inner', 0, 'public-holiday', 'trettondedag jul'],
  ['2026-04-03 07:00:00', 'inner', 0, 'public-holiday', 'långfredagen'],
  ['2026-01-05 07:00:00', 'inner', 0, 'day-before-holiday', 'trettondagsafton'],
  ['2026-12-24 07:00:00', 'inner', 0, 'day-before-holiday', 'julafton'],
  ['2026-12-31 07:00:00', 'inner', 0, 'day-before-holiday', 'nyårsafton'],
  // Days before a helgdag that Stockholm still charges.
  ['2026-04-02 07:00:00', 'inner', 45, undefined, 'skärtorsdagen is taxed in Stockholm'],
  ['2026-04-30 07:00:00', 'inner', 45, undefined, 'valborgsmässoafton is taxed in Stockholm'],
  ['2026-05-13 07:00:00', 'inner', 45, undefined, 'the day before Kristi himmelsfärdsdag is taxed'],
  ['2026-06-05 07:00:00', 'inner', 45, undefined, 'the day before nationaldagen is taxed'],
  ['2026-10-30 07:00:00', 'inner', 45, undefined, 'the day before alla helgons dag is taxed'],
  // July: the first five weekdays of July 2026 are 1, 2, 3, 6, 7 (the 1st is a Wednesday).
  ['2026-07-01 07:00:00', 'inner', 35, undefined, 'the first weekday of July'],
  ['2026-07-07 07:00:00', 'inner', 35, undefined, 'the fifth weekday of July'],
  ['2026-07-08 07:00:00', 'inner', 0, 'july', 'the sixth weekday of July'],
  ['2026-07-31 07:00:00', 'inner', 0, 'july', 'the last day of July'],
  // 2016-2019: 06:30-18:29, no seasons, every eve and all of July exempt.
  ['2019-03-12 06:29:59', 'inner', 0, 'free-hours', '2016-2019 begins at 06:30'],
  ['2019-03-12 06:30:00', 'inner', 15, undefined, '2016-2019 06:30'],
  ['2019-03-12 07:29:59', 'inner', 25, undefined, '2016-2019 07:00-07:29'],
  ['2019-03-12 07:30:00', 'inner', 35, undefined, '2016-2019 07:30-08:29'],
  ['2019-01-15 07:30:00', 'inner', 35, undefined, 'no low season before 2020'],
  ['2019-03-12 07:30:00', 'essingeleden', 30, undefined, 'Essingeleden 2016-2019 peak'],
  ['2016-01-04 07:00:00', 'essingeleden', 22, undefined, 'the first Monday of Essingeleden'],
  ['2019-04-18 07:00:00', 'inner', 0, 'day-before-holiday', 'skärtorsdagen was exempt before 2020'],
  ['2019-07-01 07:00:00', 'inner', 0, 'july', 'all of July before 2020'],
  ['2019-12-31 07:00:00', 'inner', 0, 'day-before-holiday', 'nyårsafton 2019'],
  ['2020-01-02 06:15:00', 'inner', 15, undefined, 'from 2020 the tax begins at 06:00'],
  // Before the first known Stockholm period.
  ['2015-03-10 07:00:00', 'inner', 0, 'no-tariff', 'no table before 2016'],
  // Gothenburg (Tuesday 10 March), each band edge.
  ['2026-03-10 05:59:59', 'cordon', 0, 'free-hours', 'Gothenburg before 06:00'],
  ['2026-03-10 06:00:00', 'cordon', 9, undefined, 'Gothenburg 06:00'],
  ['2026-03-10 06:29:59', 'cordon', 9, undefined, 'Gothenburg 06:29:59'],
  ['2026-03-10 06:30:00', 'cordon', 16, undefined, 'Gothenburg 06:30'],
  ['2026-03-10 07:00:00', 'cordon', 22, undefined, 'Gothenburg 07:00'],
  ['2026-03-10 07:59:59', 'cordon', 22, undefined, 'Gothenburg 07:59:59'],
  ['2026-03-10 08:00:00', 'cordon', 16, undefined, 'Gothenburg 08:00'],
  ['2026-03-10 08:30:00', 'cordon', 9, undefined, 'Gothenburg 08:30'],
  ['2026-03-10 15:00:00', 'cordon', 16, undefined, 'Gothenburg 15:00'],
  ['2026-03-10 15:30:00', 'cordon', 22, undefined, 'Gothenburg 15:30'],
  ['2026-03-10 16:59:59', 'cordon', 22, undefined, 'Gothenburg 16:59:59'],
  ['2026-03-10 17:00:00', 'cordon', 16, undefined, 'Gothenburg 17:00'],
  ['2026-03-10 18:00:00', 'cordon', 9, undefined, 'Gothenburg 18:00'],
  ['2026-03-10 18:30:00', 'cordon', 0, 'free-hours', 'Gothenburg 18:30'],
  ['2026-01-13 07:00:00', 'cordon', 22, undefined, 'no seasons in Gothenburg'],
  // Exempt days in Gothenburg: every day before a helgdag, all of July.
  ['2026-04-02 07:00:00', 'cordon', 0, 'day-before-holiday', 'skärtorsdagen is exempt in Gothenburg'],
  ['2026-04-30 07:00:00', 'cordon', 0, 'day-before-holiday', 'valborgsmässoafton is exempt in Gothenburg'],
  ['2026-05-13 07:00:00', 'cordon', 0, 'day-before-holiday', 'the day before Kristi himmelsfärdsdag in Gothenburg'],
  ['2026-06-05 07:00:00', 'cordon', 0, 'day-before-holiday', 'the day before nationaldagen in Gothenburg'],
  ['2026-10-30 07:00:00', 'cordon', 0, 'day-before-holiday', 'the day before alla helgons dag in Gothenburg'],
  ['2026-07-01 07:00:00', 'cordon', 0, 'july', 'all of July in Gothenburg'],
  ['2026-03-14 07:00:00', 'cordon', 0, 'weekend', 'Saturday in Gothenburg'],
  ['2026-03-10 07:00:00', 'k', 0, 'control-point', 'a Backa control point charges nothing'],
  ['2014-03-11 07:00:00', 'cordon', 18, undefined, 'Gothenburg 2013-2014 peak'],
  ['2013-01-02 06:00:00', 'cordon', 8, undefined, 'the first day of Gothenburg’s tax'],
  ['2014-12-31 15:00:00', 'cordon', 0, 'day-before-holiday', 'nyårsafton 2014'],
  ['2014-12-30 15:00:00', 'cordon', 13, undefined, 'the last 2013-2014 amount'],
  ['2015-01-02 15:00:00', 'cordon', 16, undefined, 'the first 2015 amount'],
  ['2012-12-28 07:00:00', 'cordon', 0, 'no-tariff', 'no tax in Gothenburg before 2013'],
  // The Backa exception starts 2018-05-01: before it a Backa station passage is charged alone.
  ['2018-04-10 07:00:00', 'backa', 22, undefined, 'Backa before the exception'],
  ['2026-03-10 07:00:00', 'backa', 0, 'backa-local', 'Backa alone is not through traffic'],
];

describe('the congestion tax of one passage', () => {
  it.each(single)('%s %s costs %i (%s): %s', (wall, kind, amount, reason) => {
    const p = passage(wall, kind);
    const day = priceDay([p], p.city);
    expect(day.passages[0]?.amount).toBe(amount);
    expect(day.passages[0]?.reason).toBe(reason);
    expect(day.dayAmount).toBe(amount);
  });
});

/** Several passages of one day: [name, passages, amounts per passage, reasons, day amount]. */
const days: [string, [string, Kind][], number[], (ReasonCode | undefined)[], number][] = [
  [
    'Stockholm high season caps the day at 135, the passage that reaches it charged in part',
    [
      ['2026-03-10 06:30:00', 'inner'],
      ['2026-03-10 07:00:00', 'inner'],
      ['2026-03-10 07:30:00', 'inner'],
      ['2026-03-10 16:00:00', 'inner'],
      ['2026-03-10 16:30:00', 'inner'],
    ],
    [30, 45, 45, 15, 0],
    [undefined, undefined, undefined, 'daily-cap', 'daily-cap'],
    135,
  ],
  [
    'Stockholm low season caps the day at 105',
    [
      ['2026-01-13 07:00:00', 'inner'],
      ['2026-01-13 07:30:00', 'inner'],
      ['2026-01-13 08:00:00', 'inner'],
      ['2026-01-13 16:00:00', 'inner'],
    ],
    [35, 35, 35, 0],
    [undefined, undefined, undefined, 'daily-cap'],
    105,
  ],
  [
    'Stockholm 2016-2019 caps the day at 105 in March too',
    [
      ['2019-03-12 07:30:00', 'inner'],
      ['2019-03-12 08:00:00', 'inner'],
      ['2019-03-12 16:00:00', 'inner'],
      ['2019-03-12 17:00:00', 'essingeleden'],
    ],
    [35, 35, 35, 0],
    [undefined, undefined, undefined, 'daily-cap'],
    105,
  ],
  [
    'Gothenburg 2013-2014: the 60-minute rule and the cap of 60 with the first amounts',
    [
      ['2014-03-11 06:45:00', 'cordon'],
      ['2014-03-11 07:10:00', 'cordon'],
      ['2014-03-11 08:00:00', 'cordon'],
      ['2014-03-11 15:35:00', 'cordon'],
      ['2014-03-11 17:00:00', 'cordon'],
    ],
    [0, 18, 13, 18, 11],
    ['single-charge', undefined, undefined, undefined, 'daily-cap'],
    60,
  ],
  [
    'Stockholm has no 60-minute rule; the inner city and Essingeleden share one cap',
    [
      ['2026-03-10 07:00:00', 'inner'],
      ['2026-03-10 07:10:00', 'essingeleden'],
      ['2026-03-10 16:00:00', 'inner'],
      ['2026-03-10 16:10:00', 'essingeleden'],
    ],
    [45, 40, 45, 5],
    [undefined, undefined, undefined, 'daily-cap'],
    135,
  ],
  [
    'Gothenburg charges the highest amount of a window anchored at its first passage',
    [
      ['2026-03-10 06:20:00', 'cordon'],
      ['2026-03-10 06:50:00', 'cordon'],
      ['2026-03-10 07:15:00', 'cordon'],
      ['2026-03-10 07:25:00', 'cordon'],
    ],
    [0, 0, 22, 22],
    ['single-charge', 'single-charge', undefined, undefined],
    44,
  ],
  [
    'Gothenburg window does not slide: 61 minutes after its anchor a passage opens a new one',
    [
      ['2026-03-10 06:20:00', 'cordon'],
      ['2026-03-10 07:19:00', 'cordon'],
      ['2026-03-10 07:21:00', 'cordon'],
    ],
    [0, 22, 22],
    ['single-charge', undefined, undefined],
    44,
  ],
  [
    'Gothenburg window holds a passage exactly 60 minutes after its anchor',
    [
      ['2026-03-10 06:20:00', 'cordon'],
      ['2026-03-10 07:20:00', 'cordon'],
    ],
    [0, 22],
    ['single-charge', undefined],
    22,
  ],
  [
    'Gothenburg caps the day at 60',
    [
      ['2026-03-10 06:35:00', 'cordon'],
      ['2026-03-10 07:40:00', 'cordon'],
      ['2026-03-10 08:45:00', 'cordon'],
      ['2026-03-10 15:35:00', 'cordon'],
      ['2026-03-10 16:40:00', 'cordon'],
    ],
    [16, 22, 9, 13, 0],
    [undefined, undefined, undefined, 'daily-cap', 'daily-cap'],
    60,
  ],
  [
    'Backa through traffic: a control point passage within 30 minutes after',
    [
      ['2026-03-10 07:00:00', 'backa'],
      ['2026-03-10 07:25:00', 'k'],
    ],
    [22, 0],
    [undefined, 'control-point'],
    22,
  ],
  [
    'Backa through traffic: a control point passage exactly 30 minutes before',
    [
      ['2026-03-10 06:35:00', 'k'],
      ['2026-03-10 07:05:00', 'backa'],
    ],
    [0, 22],
    ['control-point', undefined],
    22,
  ],
  [
    'Backa: a control point passage 31 minutes away does not make through traffic',
    [
      ['2026-03-10 07:00:00', 'backa'],
      ['2026-03-10 07:31:00', 'k'],
    ],
    [0, 0],
    ['backa-local', 'control-point'],
    0,
  ],
  [
    'an uncharged Backa passage opens no 60-minute window',
    [
      ['2026-03-10 06:20:00', 'backa'],
      ['2026-03-10 06:50:00', 'cordon'],
      ['2026-03-10 07:45:00', 'cordon'],
    ],
    [0, 0, 22],
    ['backa-local', 'single-charge', undefined],
    22,
  ],
];

describe('the congestion tax of a day', () => {
  it.each(days)('%s', (_name, list, amounts, reasons, dayAmount) => {
    const ps = list.map(([wall, kind]) => passage(wall, kind));
    const first = ps[0];
    if (!first) throw new Error('a case needs passages');
    // In reverse: the engine orders the passages by time itself.
    const day = priceDay([...ps].reverse(), first.city);
    expect(day.passages.map((p) => p.amount)).toEqual(amounts);
    expect(day.passages.map((p) => p.reason)).toEqual(reasons);
    expect(day.dayAmount).toBe(dayAmount);
  });

  it('refuses passages of another day or city', () => {
    expect(() => priceDay([passage('2026-03-10 07:00:00', 'inner'), passage('2026-03-11 07:00:00', 'inner')], 'stockholm')).toThrow(RangeError);
    expect(() => priceDay([passage('2026-03-10 07:00:00', 'cordon')], 'stockholm')).toThrow(RangeError);
  });

  it('prices an empty day at nothing', () => {
    expect(priceDay([], 'stockholm')).toEqual({ date: '', city: 'stockholm', passages: [], dayAmount: 0 });
  });
});

describe("Stockholm's cordon crossed once, seen at two stations", () => {
  const cross = (wall: string, direction: 'in' | 'out', kind: Kind = 'inner'): TaxablePassage => ({ ...passage(wall, kind), direction });
  const price = (...ps: TaxablePassage[]) => {
    const day = priceDay(ps, ps[0]!.city);
    return { amounts: day.passages.map((p) => p.amount), reasons: day.passages.map((p) => p.reason), total: day.dayAmount };
  };

  it('charges the first of two crossings in one direction 22 s apart', () => {
    expect(price(cross('2026-03-10 07:15:00', 'in'), cross('2026-03-10 07:15:22', 'in'))).toEqual({ amounts: [45, 0], reasons: [undefined, 'same-crossing'], total: 45 });
  });

  it('counts from the first crossing: a third within 5 minutes of it is the same one too, one after is not', () => {
    expect(price(cross('2026-03-10 07:15:00', 'in'), cross('2026-03-10 07:18:00', 'in'), cross('2026-03-10 07:20:00', 'in'), cross('2026-03-10 07:20:01', 'in'))).toEqual({
      amounts: [45, 0, 0, 45],
      reasons: [undefined, 'same-crossing', 'same-crossing', undefined],
      total: 90,
    });
  });

  it('charges every crossing when the vehicle left between them, or when they are more than 5 minutes apart', () => {
    expect(price(cross('2026-03-10 07:15:00', 'in'), cross('2026-03-10 07:16:00', 'out'), cross('2026-03-10 07:17:00', 'in')).amounts).toEqual([45, 45, 45]);
    expect(price(cross('2026-03-10 09:40:00', 'out'), cross('2026-03-10 09:45:01', 'out')).amounts).toEqual([11, 11]);
  });

  it('leaves Essingeleden, Gothenburg and passages without a direction to their own rules', () => {
    expect(price(cross('2026-03-10 07:15:00', 'in'), cross('2026-03-10 07:16:00', 'in', 'essingeleden'), cross('2026-03-10 07:17:00', 'in')).reasons).toEqual([undefined, undefined, 'same-crossing']);
    expect(price(cross('2026-03-10 07:15:00', 'in', 'cordon'), cross('2026-03-10 07:15:22', 'in', 'cordon')).reasons).toEqual([undefined, 'single-charge']);
    expect(price(passage('2026-03-10 07:15:00', 'inner'), passage('2026-03-10 07:15:22', 'inner')).amounts).toEqual([45, 45]);
  });

  it('names the second crossing even on a day without tax', () => {
    expect(price(cross('2026-03-14 07:15:00', 'in'), cross('2026-03-14 07:15:22', 'in')).reasons).toEqual(['weekend', 'same-crossing']);
  });
});

describe('the congestion tax of a period', () => {
  it('prices per local day and city, each with its own cap, and sums the days', () => {
    const list = [
      passage('2026-03-10 07:00:00', 'inner'),
      passage('2026-03-10 07:30:00', 'inner'),
      passage('2026-03-10 08:00:00', 'inner'),
      passage('2026-03-10 16:00:00', 'inner'),
      passage('2026-03-10 10:00:00', 'cordon'),
      passage('2026-03-11 07:00:00', 'cordon'),
      passage('2026-03-11 07:30:00', 'cordon'),
      passage('2026-03-14 07:00:00', 'inner'),
    ];
    const priced = pricePassages(list);
    expect(priced.days).toEqual([
      { date: '2026-03-10', city: 'gothenburg', amount: 9 },
      { date: '2026-03-10', city: 'stockholm', amount: 135 },
      { date: '2026-03-11', city: 'gothenburg', amount: 22 },
      { date: '2026-03-14', city: 'stockholm', amount: 0 },
    ]);
    expect(priced.total).toBe(166);
    expect(priced.passages.map((p) => p.time)).toEqual([...list.map((p) => p.time)].sort((a, b) => a - b));
    expect(priced.passages.reduce((sum, p) => sum + p.amount, 0)).toBe(166);
  });

  it('takes a passage at 00:30 local time as that local day, not the UTC one', () => {
    // 00:30 in Stockholm on Wednesday 11 March is 23:30 UTC on the 10th.
    const priced = pricePassages([passage('2026-03-11 00:30:00', 'inner')]);
    expect(priced.days).toEqual([{ date: '2026-03-11', city: 'stockholm', amount: 0 }]);
    expect(priced.passages[0]?.reason).toBe('free-hours');
  });
});

describe('the congestion tax calendar', () => {
  it('finds midsommarafton and the first five weekdays of July', () => {
    expect(midsummerEve(2026)).toBe('2026-06-19');
    expect(midsummerEve(2027)).toBe('2027-06-25');
    expect(firstFiveJulyWeekdays(2026)).toEqual(['2026-07-01', '2026-07-02', '2026-07-03', '2026-07-06', '2026-07-07']);
    // 1 July 2028 is a Saturday.
    expect(firstFiveJulyWeekdays(2028)).toEqual(['2028-07-03', '2028-07-04', '2028-07-05', '2028-07-06', '2028-07-07']);
  });

  it('tells the season and the exempt days of another year', () => {
    expect(stockholmSeason('2027-06-24')).toBe('high');
    expect(stockholmSeason('2027-06-25')).toBe('low');
    expect(stockholmSeason('2027-03-01')).toBe('high');
    // 2027: långfredagen 26 March, so skärtorsdagen 25 March.
    expect(exemptReason('2027-03-25', 'stockholm')).toBeNull();
    expect(exemptReason('2027-03-25', 'gothenburg')).toBe('day-before-holiday');
    expect(exemptReason('2027-03-26', 'stockholm')).toBe('public-holiday');
    expect(exemptReason('2027-03-29', 'stockholm')).toBe('public-holiday'); // annandag påsk
    // Nationaldagen 2027 is a Sunday: the day before is a Saturday anyway.
    expect(exemptReason('2027-06-04', 'stockholm')).toBeNull();
    expect(exemptReason('2027-06-07', 'stockholm')).toBeNull();
  });
});

describe('band changes between two instants', () => {
  it('sees a band edge between two fixes and none within a band or over midnight', () => {
    expect(bandChangesBetween('stockholm', at('2026-03-10 06:29:45'), at('2026-03-10 06:30:15'))).toBe(true);
    expect(bandChangesBetween('stockholm', at('2026-03-10 06:30:01'), at('2026-03-10 06:31:15'))).toBe(false);
    expect(bandChangesBetween('gothenburg', at('2026-03-10 07:59:30'), at('2026-03-10 08:00:10'))).toBe(true);
    expect(bandChangesBetween('gothenburg', at('2026-03-10 08:59:30'), at('2026-03-10 09:00:10'))).toBe(false);
    expect(bandChangesBetween('stockholm', at('2026-03-10 23:59:30'), at('2026-03-11 00:00:30'))).toBe(false);
  });
});
