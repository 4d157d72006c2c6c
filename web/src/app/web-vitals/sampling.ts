/**
 * Whether this page view reports its web vitals: decided once, before anything is loaded, with
 * the sample rate of shared/web-vitals.ts or the browser's own override (a number from 0 to 1 in
 * localStorage `webVitalsSampleRate`, which tests set to 1).
 */
import { WEB_VITALS_SAMPLE_RATE } from '../../../../shared/web-vitals-sampling';

export function sampleRateOf(override: string | null): number {
  if (override === null || override.trim() === '') return WEB_VITALS_SAMPLE_RATE;
  const rate = Number(override);
  return Number.isFinite(rate) && rate >= 0 && rate <= 1 ? rate : WEB_VITALS_SAMPLE_RATE;
}

/** `random` is uniform in [0, 1): a rate of 1 always samples, 0 never. */
export function isSampled(rate: number, random: number): boolean {
  return random < rate;
}
