/**
 * The web vitals capability's routes (spread into the manifest, shared/routes.ts):
 * docs/decisions/0042-web-vitals.md.
 */
import { defineRoute } from '../route-def';
import { vitalsAcceptedSchema, webVitalsQuerySchema, webVitalsReportSchema } from '../schemas/web-vitals';
import { vitalsBatchSchema } from '../schemas/web-vitals-batch';
import { WEB_VITALS_MAX_BODY_BYTES, WEB_VITALS_MAX_ENTRIES } from '../web-vitals';

export const vitalsRoutes = {
  postWebVitals: defineRoute({
    operationId: 'postWebVitals',
    method: 'POST',
    path: '/api/v1/web-vitals',
    capability: 'vitals',
    file: 'post-web-vitals',
    access: 'public',
    summary: `The browser's web vitals of one page view (sent as a beacon): brand, device class and 1..${WEB_VITALS_MAX_ENTRIES} measurements of LCP, INP, CLS or TTFB, each with its value (range-checked: VitalValueOutOfRange), the rating its value has (VitalRatingMismatch), the web app's route pattern (UnknownRoute for anything else) and the navigation type. At most ${WEB_VITALS_MAX_BODY_BYTES} bytes (413 PayloadTooLarge) and 120 reports per client in 10 minutes (429). Kept as CloudWatch metrics (embedded metric format) and in hourly histograms for support; no user, address or IP is stored.`,
    body: vitalsBatchSchema,
    maxBodyBytes: WEB_VITALS_MAX_BODY_BYTES,
    response: vitalsAcceptedSchema,
  }),
  getSupportWebVitals: defineRoute({
    operationId: 'getSupportWebVitals',
    method: 'GET',
    path: '/api/v1/support/web-vitals',
    capability: 'vitals',
    file: 'get-web-vitals',
    access: 'support',
    summary:
      "Support staff only: per web vital, for all routes and per route pattern, the count, p50, p75 and p95 and how many were good, needed improvement or were poor over the last 24 hours or 7 days (period: '24h' or '7d', InvalidWebVitalsPeriod).",
    query: webVitalsQuerySchema,
    response: webVitalsReportSchema,
  }),
};
