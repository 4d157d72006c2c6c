import { describe, expect, it } from 'vitest';
import { correctedEngineSeconds, correctedOdometerM } from './counter-readings';

const tracker = (m: number) => ({ counterM: m, source: 'tracker' as const });
const computed = (m: number) => ({ counterM: m, source: 'computed' as const });

describe('correctedOdometerM', () => {
  const entry = { atTs: 1, valueKm: 15_000, counterM: 14_000_000, source: 'tracker' as const };
  it('is the reading plus what the counter of its source ran since', () => {
    expect(correctedOdometerM(entry, tracker(14_012_300))).toBe(15_012_300);
    expect(correctedOdometerM({ ...entry, source: 'computed', counterM: 2_000 }, computed(5_000))).toBe(15_003_000);
  });
  it("falls back to the tracker's odometer when the counter is of another source, else to the reading", () => {
    expect(correctedOdometerM({ ...entry, source: 'computed' }, tracker(14_500_000))).toBe(14_500_000);
    expect(correctedOdometerM(entry, computed(9_000))).toBe(15_000_000);
    expect(correctedOdometerM({ atTs: 1, valueKm: 42 }, null)).toBe(42_000);
  });
  it("is the tracker's own odometer without a reading, and unknown without either", () => {
    expect(correctedOdometerM(undefined, tracker(7_000))).toBe(7_000);
    expect(correctedOdometerM(undefined, computed(7_000))).toBeUndefined();
    expect(correctedOdometerM(undefined, null)).toBeUndefined();
  });
});

describe('correctedEngineSeconds', () => {
  it('is the reading plus (engine seconds now − at the reading)', () => {
    expect(correctedEngineSeconds({ atTs: 1, valueHours: 620, counterS: 500 * 3600 }, 502.5 * 3600)).toEqual({ seconds: 622.5 * 3600, counted: true });
  });
  it('holds at the reading without a counter at the reading or now, and counts nothing back after a reset', () => {
    expect(correctedEngineSeconds({ atTs: 1, valueHours: 100 }, 9_000)).toEqual({ seconds: 360_000, counted: false });
    expect(correctedEngineSeconds({ atTs: 1, valueHours: 100, counterS: 9_000 }, undefined)).toEqual({ seconds: 360_000, counted: false });
    expect(correctedEngineSeconds({ atTs: 1, valueHours: 100, counterS: 9_000 }, 10)).toEqual({ seconds: 360_000, counted: true });
  });
  it("is the tracker's engine hours without a reading", () => {
    expect(correctedEngineSeconds(undefined, 3600)).toEqual({ seconds: 3600, counted: true });
    expect(correctedEngineSeconds(undefined, undefined)).toEqual({ seconds: undefined, counted: false });
  });
});
