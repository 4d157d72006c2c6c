/**
 * Web vitals (docs/decisions/0042-web-vitals.md): what the browser measures and reports to
 * `POST /api/v1/web-vitals`, and what the server accepts. Plain constants and functions without
 * dependencies, so the web app's lazily loaded reporter can import them cheaply.
 */

/** The CloudWatch namespace of the metrics (embedded metric format, functions/vitals/emf.ts). */
export const WEB_VITALS_NAMESPACE = 'TrackingPortal/WebVitals';

export const vitalNames = ['LCP', 'INP', 'CLS', 'TTFB'] as const;
export type VitalName = (typeof vitalNames)[number];

export const vitalRatings = ['good', 'needs-improvement', 'poor'] as const;
export type VitalRating = (typeof vitalRatings)[number];

/**
 * The thresholds of the web-vitals library (and of Google's guidance): at most `good` is good,
 * above `poor` is poor. LCP, INP and TTFB in milliseconds, CLS unitless.
 */
export const vitalThresholds: Readonly<Record<VitalName, { good: number; poor: number }>> = {
  LCP: { good: 2500, poor: 4000 },
  INP: { good: 200, poor: 500 },
  CLS: { good: 0.1, poor: 0.25 },
  TTFB: { good: 800, poor: 1800 },
};

/** The largest value accepted per metric: anything above is no measurement of a page we serve. */
export const vitalMaxima: Readonly<Record<VitalName, number>> = {
  LCP: 120_000,
  INP: 60_000,
  CLS: 10,
  TTFB: 120_000,
};

export function rateVital(name: VitalName, value: number): VitalRating {
  const { good, poor } = vitalThresholds[name];
  if (value <= good) return 'good';
  return value <= poor ? 'needs-improvement' : 'poor';
}

/** How the page was reached (the web-vitals library's `navigationType`). */
export const navigationTypes = ['navigate', 'reload', 'back-forward', 'back-forward-cache', 'prerender', 'restore', 'soft-navigation'] as const;
export type NavigationType = (typeof navigationTypes)[number];

/** A coarse device class from the viewport width: the sidebar collapses under 1025 px. */
export const deviceClasses = ['phone', 'tablet', 'desktop'] as const;
export type DeviceClass = (typeof deviceClasses)[number];
export function deviceClassOf(viewportWidth: number): DeviceClass {
  if (viewportWidth < 600) return 'phone';
  return viewportWidth < 1025 ? 'tablet' : 'desktop';
}

// The sample rate lives apart, so the web app's entry reads it without the rest of this module.
export { WEB_VITALS_SAMPLE_RATE, WEB_VITALS_SAMPLE_RATE_KEY } from './web-vitals-sampling';

/** At most this many measurements in one report, and at most this many bytes of JSON. */
export const WEB_VITALS_MAX_ENTRIES = 8;
export const WEB_VITALS_MAX_BODY_BYTES = 4096;

/** The periods the support page shows, in hours. */
export const webVitalsPeriods = { '24h': 24, '7d': 168 } as const;
export type WebVitalsPeriod = keyof typeof webVitalsPeriods;

/** One measurement as the browser reports it: the route pattern, never the address. */
export interface VitalEntry {
  name: VitalName;
  value: number;
  rating: VitalRating;
  /** A pattern of shared/web-routes.ts (`/user/check-in/:code`), `*` for an unknown address. */
  route: string;
  navigationType: NavigationType;
}

/** The body of `POST /api/v1/web-vitals`: the measurements of one page view since its last report. */
export interface VitalsBatch {
  brand: number;
  device: DeviceClass;
  entries: VitalEntry[];
}
