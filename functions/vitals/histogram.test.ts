import { describe, expect, it } from 'vitest';
import { addBins, binOf, percentileOf, valueOfBin, type Bins } from './histogram';
import { vitalMaxima, vitalNames, type VitalName } from '../../shared/web-vitals';

function binsOf(name: VitalName, values: number[]): Bins {
  return addBins(new Map(), values.map((v) => [binOf(name, v), 1] as [number, number]));
}

/** The exact nearest-rank percentile, to compare with. */
function exact(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.max(1, Math.ceil(p * sorted.length)) - 1] as number;
}

describe('web vitals histograms', () => {
  it('puts every value from 1 unit to the maximum into a bin whose value is within 2.5 %', () => {
    for (const name of vitalNames) {
      const unit = name === 'CLS' ? 0.001 : 1;
      for (let v = unit; v <= vitalMaxima[name]; v *= 1.013) {
        const estimate = valueOfBin(name, binOf(name, v));
        // Rounding to whole milliseconds (or thousandths) adds up to half a unit.
        expect(Math.abs(estimate - v)).toBeLessThanOrEqual(v * 0.025 + unit / 2 + 1e-9);
      }
    }
  });

  it('keeps values under one unit in bin 0, read as 0, and a CLS of 0 as 0', () => {
    expect(binOf('TTFB', 0)).toBe(0);
    expect(binOf('TTFB', 0.4)).toBe(0);
    expect(binOf('CLS', 0)).toBe(0);
    expect(valueOfBin('CLS', binOf('CLS', 0))).toBe(0);
    expect(binOf('LCP', 1)).toBe(1);
  });

  it('reads p50, p75 and p95 of a skewed sample within 2.5 % of the exact percentiles', () => {
    let seed = 7;
    const random = () => ((seed = (seed * 48271) % 2147483647) / 2147483647);
    const values = Array.from({ length: 5000 }, () => Math.round(300 + 4000 * random() ** 3));
    const bins = binsOf('LCP', values);
    for (const p of [0.5, 0.75, 0.95]) {
      const want = exact(values, p);
      expect(Math.abs(percentileOf('LCP', bins, p) - want)).toBeLessThanOrEqual(want * 0.025 + 1);
    }
  });

  it('answers the one value of a single measurement, and 0 for none', () => {
    expect(percentileOf('INP', binsOf('INP', [184]), 0.95)).toBeCloseTo(184, -1);
    expect(percentileOf('INP', new Map(), 0.5)).toBe(0);
  });

  it('merges the bins of several hours by adding their counts', () => {
    const merged = addBins(binsOf('CLS', [0, 0.05]), binsOf('CLS', [0.05, 0.3]));
    expect(merged.get(binOf('CLS', 0.05))).toBe(2);
    expect(percentileOf('CLS', merged, 0.5)).toBeCloseTo(0.05, 2);
    expect(percentileOf('CLS', merged, 0.95)).toBeCloseTo(0.3, 1);
  });
});
