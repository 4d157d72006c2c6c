import { describe, expect, it } from 'vitest';
import { DEFAULT_ECO_WEIGHTS, ecoBreakdown, ecoCountsIn, ecoThresholdParams, ecoWeightsSchema, metresPerSecond2, type EcoEvent } from './eco';

const T = Date.parse('2026-06-01T08:00:00Z');
const S = 1000;
const ev = (type: EcoEvent['type'], s: number, details: EcoEvent['details'] = {}): EcoEvent => ({ type, ts: T + s * S, lat: 59.3, lon: 18.0, details });

describe('the eco score', () => {
  it('takes the weighted rates and shares from 100 (figures by hand)', () => {
    // 50 km, 2 harsh accelerations and 1 harsh braking: 4 and 2 per 100 km, 2 points each: 12.
    // 150 s over the limit of 3000 s driving: 5 %, 1 point each: 5. 600 s idling of 3600 s engine time: 16.67 %, 0.5 each: 8.33.
    // 100 - 12 - 5 - 8.33 = 74.67: 75.
    const b = ecoBreakdown({ distanceM: 50_000, movingS: 3000, idleS: 600, harshAccelerations: 2, harshBrakings: 1, harshCornerings: 0, overspeedS: 150 });
    expect(b).toMatchObject({ accelerationsPer100Km: 4, brakingsPer100Km: 2, corneringsPer100Km: 0, overspeedPercent: 5, score: 75 });
    expect(b.idlePercent).toBeCloseTo(16.667, 3);
    // An account's weights: cornering only counts, 10 points per event per 100 km; 1 cornering in 50 km: 100 - 20.
    const weights = { acceleration: 0, braking: 0, cornering: 10, overspeed: 0, idle: 0 };
    expect(ecoBreakdown({ distanceM: 50_000, movingS: 3000, idleS: 600, harshAccelerations: 2, harshBrakings: 1, harshCornerings: 1, overspeedS: 150 }, weights).score).toBe(80);
  });

  it('has no score under 20 km and stays within 0..100', () => {
    expect(ecoBreakdown({ distanceM: 19_999, movingS: 1000, idleS: 0, harshAccelerations: 0, harshBrakings: 0, harshCornerings: 0, overspeedS: 0 }).score).toBeNull();
    expect(ecoBreakdown({ distanceM: 20_000, movingS: 1000, idleS: 0, harshAccelerations: 0, harshBrakings: 0, harshCornerings: 0, overspeedS: 0 }).score).toBe(100);
    expect(ecoBreakdown({ distanceM: 20_000, movingS: 1000, idleS: 0, harshAccelerations: 30, harshBrakings: 0, harshCornerings: 0, overspeedS: 0 }).score).toBe(0);
  });

  it("counts a stretch's harsh events inside it and the seconds of overspeed episodes that overlap it", () => {
    const events = [
      ev('harshAcceleration', -1),
      ev('harshAcceleration', 0),
      ev('harshBraking', 100),
      ev('harshCornering', 600),
      ev('harshCornering', 601),
      // 60 s from 50 s before the start: 10 s inside; 30 s inside; 100 s from 550 s: 50 s inside.
      ev('overspeedEpisode', -50, { seconds: 60, maxSpeed: 95, limit: 90 }),
      ev('overspeedEpisode', 200, { seconds: 30, maxSpeed: 99, limit: 90 }),
      ev('overspeedEpisode', 550, { seconds: 100, maxSpeed: 120, limit: 90 }),
      ev('idling', 300, { seconds: 200, device: false }),
    ];
    expect(ecoCountsIn(T, T + 600 * S, events)).toEqual({ harshAccelerations: 1, harshBrakings: 1, harshCornerings: 1, overspeedS: 90 });
  });

  it('checks the weights an account saves: all five, 0..20, two decimals', () => {
    expect(ecoWeightsSchema.parse({ acceleration: 1.234, braking: 0, cornering: 20, overspeed: 1, idle: 0.5 })).toEqual({ acceleration: 1.23, braking: 0, cornering: 20, overspeed: 1, idle: 0.5 });
    for (const bad of [{ ...DEFAULT_ECO_WEIGHTS, idle: -1 }, { ...DEFAULT_ECO_WEIGHTS, braking: 21 }, { ...DEFAULT_ECO_WEIGHTS, overspeed: '1' }, { acceleration: 1 }, { ...DEFAULT_ECO_WEIGHTS, extra: 1 }]) {
      const result = ecoWeightsSchema.safeParse(bad);
      expect(result.success, JSON.stringify(bad)).toBe(false);
      expect(result.error?.issues.every((i) => i.message === 'InvalidEcoWeight')).toBe(true);
    }
  });

  it("gives each sensitivity's thresholds, in m/s² as the Teltonika device takes them", () => {
    expect(ecoThresholdParams('sensitive')).toEqual({ sensitivity: 'sensitive', accelerationG: 0.25, brakingG: 0.28, corneringG: 0.35 });
    expect([0.25, 0.28, 0.35, 0.37, 0.38, 0.45].map(metresPerSecond2)).toEqual([2.5, 2.7, 3.4, 3.6, 3.7, 4.4]);
  });
});
