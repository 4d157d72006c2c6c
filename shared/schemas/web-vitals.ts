/**
 * Web vitals (docs/decisions/0042-web-vitals.md): the message keys, the answer of the browser's
 * report and support's percentiles (`GET /api/v1/support/web-vitals`). The report itself is
 * web-vitals-batch.ts (apart, so the web app's support pages do not load the route list).
 */
import { z } from 'zod';
import { vitalNames, webVitalsPeriods, type WebVitalsPeriod } from '../web-vitals';

export const webVitalsMessageKeys = {
  /** Not one of LCP, INP, CLS, TTFB. */
  UnknownVital: 'UnknownVital',
  /** Not a finite number from 0 to the metric's maximum (shared/web-vitals.ts vitalMaxima). */
  VitalValueOutOfRange: 'VitalValueOutOfRange',
  /** The rating does not match the value by the metric's thresholds. */
  VitalRatingMismatch: 'VitalRatingMismatch',
  /** Not a route pattern of the web app (an address, an id or a query is never accepted). */
  UnknownRoute: 'UnknownRoute',
  /** No measurement, or more than WEB_VITALS_MAX_ENTRIES. */
  VitalsBatchSize: 'VitalsBatchSize',
  InvalidWebVitalsPeriod: 'InvalidWebVitalsPeriod',
} as const;
const keys = webVitalsMessageKeys;

export const vitalsAcceptedSchema = z.object({ accepted: z.number().int() });

const periodKeys = Object.keys(webVitalsPeriods) as [WebVitalsPeriod, ...WebVitalsPeriod[]];
export const webVitalsQuerySchema = z.object({
  period: z.enum(periodKeys, { message: keys.InvalidWebVitalsPeriod }).default('24h'),
});

/** Percentiles of one metric on one route (or all routes: `route` null) over the period. */
export const vitalSummarySchema = z.object({
  name: z.enum(vitalNames),
  route: z.string().nullable(),
  count: z.number().int(),
  p50: z.number(),
  p75: z.number(),
  p95: z.number(),
  good: z.number().int(),
  needsImprovement: z.number().int(),
  poor: z.number().int(),
});
export type VitalSummary = z.infer<typeof vitalSummarySchema>;

export const webVitalsReportSchema = z.object({
  period: z.enum(periodKeys),
  from: z.string(),
  to: z.string(),
  /** Per metric, all routes first, then each route by count (most first). */
  summaries: z.array(vitalSummarySchema),
});
export type WebVitalsReport = z.infer<typeof webVitalsReportSchema>;
