import { z } from 'zod';
import { landingPageSchema } from './fleet-overview';
import { profileFeatures, profileReports } from './profile-features';
import { languageSchema, subsiteIdSchema } from './common';

export const outboxKinds = ['email', 'sms', 'push', 'autoplan'] as const;
export const outboxKindSchema = z.enum(outboxKinds);
export type OutboxKind = z.infer<typeof outboxKindSchema>;

export const outboxQuerySchema = z.object({
  to: z.string().trim().min(1).max(320).optional(),
  kind: outboxKindSchema.optional(),
  limit: z.coerce.number().int().min(1).max(500).default(100),
});

export const outboxMessageSchema = z.object({
  id: z.string(),
  kind: outboxKindSchema,
  to: z.string(),
  subject: z.string().optional(),
  text: z.string(),
  html: z.string().optional(),
  sentAt: z.string(),
});
export type OutboxMessage = z.infer<typeof outboxMessageSchema>;

/** The embedded runtime's demo history fill, for the caller's account (GET /api/dev/demo-history). */
export const demoHistorySchema = z.object({ filling: z.boolean(), percent: z.number().int().min(0).max(100) });
export type DemoHistoryStatus = z.infer<typeof demoHistorySchema>;

export const announcementRequestSchema = z.object({
  lang: languageSchema.default('en'),
  subsiteID: subsiteIdSchema.default(0),
});

export const announcementSchema = z.object({ text: z.string().nullable() });

export const settingsSchema = z.object({
  enable_rfid: z.boolean(),
  enable_car_booking: z.boolean(),
  EnableSafeReturnHome: z.boolean(),
  realtime_map: z.boolean(),
  basic_only: z.boolean(),
  is_admin: z.boolean(),
  is_support: z.boolean(),
  ParentID: z.string().nullable(),
  /**
   * The features and reports of the caller's feature profile (functions/organisation): the web shows
   * only those menu items. Null when no profile limits the caller (admins never are).
   */
  profile_features: z.array(z.enum(profileFeatures)).nullable().optional(),
  profile_reports: z.array(z.enum(profileReports)).nullable().optional(),
  /** The caller's chosen landing page (profile `landingPage`); absent or 'default': the map, or the trip log without one. */
  landing_page: landingPageSchema.optional(),
});
export type Settings = z.infer<typeof settingsSchema>;
