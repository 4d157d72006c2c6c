/**
 * Web vitals (docs/decisions/0042-web-vitals.md): the browser's report (`POST /api/v1/web-vitals`,
 * open before login) and support's percentiles (`GET /api/v1/support/web-vitals`). A report carries
 * no personal data: a route pattern, never an address, and no user, account or device id.
 */
import { z } from 'zod';
import { subsiteIds } from './common';
import { webRoutePatterns } from '../web-routes';
import {
  deviceClasses,
  navigationTypes,
  rateVital,
  vitalMaxima,
  vitalNames,
  vitalRatings,
  webVitalsPeriods,
  WEB_VITALS_MAX_ENTRIES,
  type WebVitalsPeriod,
} from '../web-vitals';

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
const routePatterns = new Set(webRoutePatterns);

const vitalEntrySchema = z
  .strictObject({
    name: z.enum(vitalNames, { message: keys.UnknownVital }),
    value: z.number({ message: keys.VitalValueOutOfRange }).finite(keys.VitalValueOutOfRange).min(0, keys.VitalValueOutOfRange),
    rating: z.enum(vitalRatings, { message: 'InvalidValue' }),
    route: z.string().max(100, keys.UnknownRoute).refine((r) => routePatterns.has(r), keys.UnknownRoute),
    navigationType: z.enum(navigationTypes, { message: 'InvalidValue' }),
  })
  .superRefine((entry, ctx) => {
    if (entry.value > vitalMaxima[entry.name]) ctx.addIssue({ code: 'custom', path: ['value'], message: keys.VitalValueOutOfRange });
    else if (entry.rating !== rateVital(entry.name, entry.value)) ctx.addIssue({ code: 'custom', path: ['rating'], message: keys.VitalRatingMismatch });
  });

export const vitalsBatchSchema = z.strictObject({
  brand: z.union(subsiteIds.map((id) => z.literal(id)), { message: 'InvalidSubsite' }),
  device: z.enum(deviceClasses, { message: 'InvalidValue' }),
  entries: z.array(vitalEntrySchema, { message: keys.VitalsBatchSize }).min(1, keys.VitalsBatchSize).max(WEB_VITALS_MAX_ENTRIES, keys.VitalsBatchSize),
});
export type VitalsBatchInput = z.input<typeof vitalsBatchSchema>;

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
