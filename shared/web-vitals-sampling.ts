/** How many page views report their web vitals (shared/web-vitals.ts, docs/decisions/0042-web-vitals.md). */

/**
 * Share of page views that report their vitals, decided once per page view. A page view that is
 * not sampled does not even load the reporter. `localStorage['webVitalsSampleRate']` (a number
 * from 0 to 1) overrides it in one browser: tests set 1, support staff can measure their own.
 */
export const WEB_VITALS_SAMPLE_RATE = 0.1;
export const WEB_VITALS_SAMPLE_RATE_KEY = 'webVitalsSampleRate';
