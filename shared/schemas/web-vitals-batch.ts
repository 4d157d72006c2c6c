/**
 * The browser's web vitals report (`POST /api/v1/web-vitals`, open before login;
 * docs/decisions/0042-web-vitals.md). It carries no personal data: a route pattern of the web app
 * (shared/web-routes.ts), never an address, and no user, account or device id.
 */
import { z } from 'zod';
import { subsiteIds } from './common';
import { webVitalsMessageKeys } from './web-vitals';
import { webRoutePatterns } from '../web-routes';
import { deviceClasses, navigationTypes, rateVital, vitalMaxima, vitalNames, vitalRatings, WEB_VITALS_MAX_ENTRIES } from '../web-vitals';

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
