import { describe, expect, it } from 'vitest';
import { fuelPricesSchema, priceInForce, type FuelPriceEntry } from '../../../shared/schemas/fuel';
import { textsFor } from '../columns';
import { EMISSION_FACTORS } from '../emission-factors';
import { changePercent, emissionsOf, environmentalReport, previousPeriod } from './environmental';
import { fuelConsumptionColumns, fuelConsumptionNotes, fuelConsumptionTotals, fuelConsumptionUnits, pricesInPeriod } from './fuel-consumption';
import type { FuelUnit } from './fuel-use';

const en = textsFor('en');
const sv = textsFor('sv');

const prices: FuelPriceEntry[] = [
  { fuelType: 'diesel', validFrom: '2026-03-15', price: 22 },
  { fuelType: 'diesel', validFrom: '2026-01-01', price: 20 },
  { fuelType: 'electricity', validFrom: '2026-03-01', price: 1.25 },
];

function unit(over: Partial<FuelUnit>): FuelUnit {
  return { imei: '350000000000001', name: 'Van', registrationNumber: 'ABC123', department: '', fuelType: 'diesel', consumption: 0.5, idleConsumption: null, co2: null, shares: [], figuresMissing: 0, ...over };
}

describe('fuel prices', () => {
  it('the dated price of the fuel in force on the day; before it the market price, for fuels sold by the litre only', () => {
    expect(priceInForce(prices, 18, 'diesel', '2026-03-14')).toEqual({ price: 20, validFrom: '2026-01-01' });
    expect(priceInForce(prices, 18, 'diesel', '2026-03-15')).toEqual({ price: 22, validFrom: '2026-03-15' });
    expect(priceInForce(prices, 18, 'diesel', '2025-12-31')).toEqual({ price: 18, validFrom: null });
    expect(priceInForce(prices, 18, 'petrol', '2026-03-15')).toEqual({ price: 18, validFrom: null });
    expect(priceInForce(prices, 18, 'electricity', '2026-02-28')).toBeNull();
    expect(priceInForce(prices, null, 'petrol', '2026-03-15')).toBeNull();
    expect(pricesInPeriod({ list: prices, market: 18 }, 'diesel', '2026-03-01', '2026-03-31')).toEqual([
      { price: 20, validFrom: '2026-01-01' },
      { price: 22, validFrom: '2026-03-15' },
    ]);
  });

  it('the list is sorted by fuel and day, one price per fuel and day, each above 0 after rounding to öre', () => {
    expect(fuelPricesSchema.parse(prices).map((p) => `${p.fuelType} ${p.validFrom}`)).toEqual(['diesel 2026-01-01', 'diesel 2026-03-15', 'electricity 2026-03-01']);
    const issues = (list: unknown) => fuelPricesSchema.safeParse(list).error?.issues.map((i) => `${i.path.join('.')} ${i.message}`);
    expect(issues([...prices, { fuelType: 'diesel', validFrom: '2026-01-01', price: 19 }])).toEqual(['3.validFrom DuplicateFuelPriceDay']);
    expect(issues([{ fuelType: 'diesel', validFrom: '2026-01-01', price: 0.004 }])).toEqual(['0.price FuelPriceOutOfRange']);
    expect(issues([{ fuelType: 'diesel', validFrom: '1999-12-31', price: 1 }])).toEqual(['0.validFrom FuelPriceDateInvalid']);
  });
});

describe('fuel consumption', () => {
  it("splits one driver's month at a price change: each day's fuel at that day's price", () => {
    // 100 km on 10 March (5 l at 20) and 60 km on 20 March (3 l at 22), one driver: one row.
    const van = unit({ idleConsumption: 1.5, shares: [{ day: '2026-03-10', driverId: 'd1', distanceM: 100_000, idleS: 1200 }, { day: '2026-03-20', driverId: 'd1', distanceM: 60_000, idleS: 0 }] });
    const built = fuelConsumptionUnits([van], { list: prices, market: null }, new Map([['d1', 'Åsa Förare']]), en);
    // Idling: 20 min × 1.5 l/h = 0.5 l on the 10th, at 20 SEK.
    expect(built.units[0]?.rows).toEqual([
      expect.objectContaining({ driverName: 'Åsa Förare', period: '2026-03', distance: 160, idleFuel: 0.5, litres: 8.5, cost: 176, averagePrice: 20.71 }),
    ]);
    expect(fuelConsumptionTotals(built.sums)).toEqual({ distance: 160, idleSeconds: 1200, litres: 8.5, kWh: null, kg: null, cost: 176 });
  });

  it('leaves fuel and cost empty, with a note, for a unit without consumption, and notes the days without a price', () => {
    const shares = [{ day: '2026-02-10', driverId: '', distanceM: 10_000, idleS: 0 }];
    const built = fuelConsumptionUnits([unit({ consumption: null, shares }), unit({ name: 'EV', fuelType: 'electricity', consumption: 2, shares })], { list: prices, market: 18 }, new Map(), sv);
    expect(built.units[0]?.totals).toMatchObject({ distance: 10, litres: null, cost: null });
    expect(built.units[0]?.notes).toEqual(['Van saknar förbrukning per mil: dess bränsle och kostnad räknas inte.']);
    // Electricity has no price before 1 March and the market price per litre does not apply.
    expect(built.units[1]?.totals).toMatchObject({ kWh: 2, cost: null });
    expect(built.units[1]?.notes).toEqual(['EV: dagar med körning utan gällande pris för el: 1; deras bränsle ingår inte i kostnaden.']);
    // A unit with a consumption that did not drive burned nothing: 0, no note.
    const idle = fuelConsumptionUnits([unit({})], { list: prices, market: 18 }, new Map(), en).units[0];
    expect([idle?.totals['litres'], idle?.totals['cost'], idle?.notes]).toEqual([0, 0, []]);
    expect(emissionsOf(unit({}), [])).toEqual({ distanceM: 0, amount: 0, ttwKg: 0, wtwKg: 0 });
    expect(emissionsOf(unit({ consumption: null }), [])).toEqual({ distanceM: 0, amount: null, ttwKg: null, wtwKg: null });
    expect(fuelConsumptionColumns([unit({}), unit({ fuelType: 'cng' })], en).map((c) => [c.key, c.unit])).toContainEqual(['kg', 'kg']);
    expect(fuelConsumptionNotes([unit({ fuelType: 'electricity' })], { list: prices, market: 18 }, '2026-02-01', '2026-03-31', en)[0]).toBe(
      'Prices used for Electricity: 1.25 SEK/kWh from 2026-03-01.',
    );
  });
});

describe('environmental', () => {
  it('the previous period has as many days and ends the day before', () => {
    expect(previousPeriod('2026-03-01', '2026-03-31')).toEqual({ from: '2026-01-29', to: '2026-02-28', days: 31 });
    expect(previousPeriod('2026-03-10', '2026-03-10')).toEqual({ from: '2026-03-09', to: '2026-03-09', days: 1 });
    expect(changePercent(85, 100)).toBe(-15);
    expect(changePercent(5, 0)).toBeNull();
    expect(changePercent(5, null)).toBeNull();
  });

  it("fuel × the table's factors; a unit's own g/km for the distance, idling at the factor, WTW scaled by the fuel's ratio", () => {
    const share = { day: '2026-03-10', driverId: '', distanceM: 100_000, idleS: 3600 };
    // 100 km × 0.5 l/10 km = 5 l + 1 h × 1 l/h = 6 l of diesel.
    expect(emissionsOf(unit({ idleConsumption: 1, shares: [share] }), [share])).toEqual({ distanceM: 100_000, amount: 6, ttwKg: 6 * 2.66, wtwKg: 6 * 2.853 });
    // Own 120 g/km: 12 kg for the distance + 1 l idling × 2.66.
    const own = emissionsOf(unit({ idleConsumption: 1, co2: 120 }), [share]);
    expect(own.ttwKg).toBeCloseTo(14.66, 9);
    expect(own.wtwKg).toBeCloseTo((14.66 * 2.853) / 2.66, 9);
    // LPG has no well-to-wheel factor at hand: none, not a guess.
    expect(emissionsOf(unit({ fuelType: 'gas' }), [share]).wtwKg).toBeNull();
  });

  it('every factor names its basis and source', () => {
    for (const byBasis of Object.values(EMISSION_FACTORS)) {
      for (const factor of Object.values(byBasis)) {
        if (!factor) continue;
        expect(factor.source.length).toBeGreaterThan(10);
        expect(en.t(factor.basis)).not.toBe(factor.basis);
      }
    }
  });

  it('rows per month with the factor beside the figure, the change against the previous period, a chart per department', () => {
    const shares = [
      { day: '2026-03-31', driverId: '', distanceM: 50_000, idleS: 0 },
      { day: '2026-04-01', driverId: '', distanceM: 30_000, idleS: 0 },
    ];
    const built = environmentalReport([{ ...unit({ department: 'Service', shares }), previousShares: [{ day: '2026-03-29', driverId: '', distanceM: 100_000, idleS: 0 }] }], '2026-03-31', '2026-04-01', en);
    expect(built.units[0]?.rows.map((r) => [r['period'], r['litres'], r['co2Kg'], r['ttwFactor'], r['wtwFactor']])).toEqual([
      ['2026-03', 2.5, 6.65, '2.660 kg/l', '2.853 kg/l'],
      ['2026-04', 1.5, 3.99, '2.660 kg/l', '2.853 kg/l'],
    ]);
    // 4 l now against 5 l before: 20 % less on both bases.
    expect(built.units[0]?.facts.map((f) => [f.key, f.value])).toEqual([
      ['previousCo2Kg', 13.3],
      ['co2Change', -20],
      ['previousWtwCo2Kg', 14.265],
      ['wtwChange', -20],
    ]);
    expect(built.totals).toMatchObject({ distance: 80, litres: 4, co2Kg: 10.64, ttwGPerKm: 133, co2ChangePercent: -20 });
    expect(built.chart).toMatchObject({ labels: ['2026-03', '2026-04'], series: [{ label: 'Service' }] });
    expect(built.chart.series[0]?.values[0]).toBeCloseTo(2.5 * 2.853, 2);
    expect(built.chart.series[0]?.values[1]).toBeCloseTo(1.5 * 2.853, 2);
    expect(built.notes[0]).toBe('The change compares with the previous 2 days, 2026-03-29 – 2026-03-30.');
  });
});
