/**
 * The histograms the support page's percentiles come from (docs/decisions/0042-web-vitals.md):
 * logarithmic bins 5 % wide, so a percentile read from them is within 2.5 % of the measured
 * value, whatever the number of measurements. CLS is binned in thousandths.
 */
import type { VitalName } from '../../shared/web-vitals';

const BASE = 1.05;
const LOG_BASE = Math.log(BASE);
/** Bins count in these units: milliseconds, or thousandths of CLS. */
const scale = (name: VitalName): number => (name === 'CLS' ? 1000 : 1);

/** The bin of a value: 0 for anything under one unit, then bin i holds (1.05^(i-1), 1.05^i]. */
export function binOf(name: VitalName, value: number): number {
  const scaled = value * scale(name);
  if (scaled < 1) return 0;
  return Math.max(1, Math.ceil(Math.log(scaled) / LOG_BASE - 1e-9));
}

/** The value a bin stands for: its geometric middle (0 for bin 0), in the metric's own unit. */
export function valueOfBin(name: VitalName, bin: number): number {
  if (bin <= 0) return 0;
  const value = BASE ** (bin - 0.5) / scale(name);
  return name === 'CLS' ? Math.round(value * 1000) / 1000 : Math.round(value);
}

/** Counts per bin. */
export type Bins = Map<number, number>;

export function addBins(into: Bins, from: Iterable<[number, number]>): Bins {
  for (const [bin, count] of from) into.set(bin, (into.get(bin) ?? 0) + count);
  return into;
}

/** The nearest-rank percentile (0 < p <= 1) of the binned values; 0 when there are none. */
export function percentileOf(name: VitalName, bins: Bins, p: number): number {
  const ordered = [...bins].filter(([, n]) => n > 0).sort((a, b) => a[0] - b[0]);
  const total = ordered.reduce((sum, [, n]) => sum + n, 0);
  if (total === 0) return 0;
  const rank = Math.max(1, Math.ceil(p * total));
  let seen = 0;
  for (const [bin, n] of ordered) {
    seen += n;
    if (seen >= rank) return valueOfBin(name, bin);
  }
  return valueOfBin(name, (ordered[ordered.length - 1] as [number, number])[0]);
}
