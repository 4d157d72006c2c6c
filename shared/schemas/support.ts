/**
 * The support role (spec sections 2, 4 and 6; docs/decisions/0026-organisation-profiles-support.md):
 * support staff find a customer account (by company name prefix, org number, a user's e-mail or a
 * unit's IMEI), see its units with their lock state, unlock a locked unit of any account, and set
 * the announcement bar text per brand and language. Everything support does is kept in the
 * support log. Calls under `/api/v1/support/`, for users with `isSupport` only.
 */
import { z } from 'zod';
import { languageSchema, languages, subsiteIdSchema } from './common';
import { IMEI_PATTERN } from '../validators/imei';
import { frequencyChangeStates, subscriptionTypes } from './unit-editor';
import { unitListQuerySchema } from './units';
import { unitEditorMessageKeys } from './unit-editor-messages';

export const supportMessageKeys = {
  SupportSearchTooShort: 'SupportSearchTooShort',
  /** Spec section 9: support message at most 1000 characters. */
  AnnouncementTextRequired: 'AnnouncementTextRequired',
  AnnouncementTextTooLong: 'AnnouncementTextTooLong',
  AnnouncementEndInPast: 'AnnouncementEndInPast',
  /** SMS credits added at once: a whole number 1..SMS_CREDITS_ADD_MAX. */
  SmsCreditsAddInvalid: 'SmsCreditsAddInvalid',
  SmsCreditsNoteRequired: 'SmsCreditsNoteRequired',
  SmsCreditsNoteTooLong: 'SmsCreditsNoteTooLong',
} as const;

export const ANNOUNCEMENT_MAX = 1000;

export const supportSearchFields = ['name', 'orgNumber', 'email', 'imei'] as const;
export type SupportSearchField = (typeof supportSearchFields)[number];

export const supportSearchQuerySchema = z.object({
  by: z.enum(supportSearchFields).default('name'),
  q: z.string().trim().min(1, supportMessageKeys.SupportSearchTooShort).max(100),
});
export type SupportSearchQuery = z.input<typeof supportSearchQuerySchema>;

export const supportAccountSchema = z.object({
  accountId: z.string(),
  name: z.string(),
  type: z.enum(['company', 'private']),
  orgNumber: z.string().nullable(),
  subsiteId: z.number(),
});
export type SupportAccount = z.infer<typeof supportAccountSchema>;
/** At most SUPPORT_SEARCH_LIMIT accounts, by name. */
export const supportAccountListSchema = z.object({ accounts: z.array(supportAccountSchema) });
export const SUPPORT_SEARCH_LIMIT = 25;

export const supportAccountParamSchema = z.object({ accountId: z.string().min(1).max(64) });
export const supportUnitParamSchema = z.object({ imei: z.string().regex(IMEI_PATTERN) });

export const supportUnitSchema = z.object({
  imei: z.string(),
  name: z.string(),
  registrationNumber: z.string().nullable(),
  vehicleType: z.string(),
  /** The locker's name while the unit is locked, else null. */
  lockedByName: z.string().nullable(),
  /** ISO 8601 UTC while locked, else null. */
  lockedAt: z.string().nullable(),
  /** Set by support only (spec section 2: 'Bas' units have the trip log only); null: not set. */
  subscriptionType: z.enum(subscriptionTypes).nullable(),
  /** Whether the account may change the unit's report frequency (DeniedChangeRF, FrequencyLocked). */
  reportFrequencyChange: z.enum(frequencyChangeStates),
});
export type SupportUnit = z.infer<typeof supportUnitSchema>;
/** The account's settings that are support's: the basic-subscription-only flag and the SMS credits. */
export const supportAccountSettingsSchema = z.object({ basicOnly: z.boolean(), smsCredits: z.number().int() });
export type SupportAccountSettings = z.infer<typeof supportAccountSettingsSchema>;
/**
 * GET /api/v1/support/accounts/{accountId}/units?q=&limit=&cursor=: any of them asks for a page of
 * the units by name (as the units list: `q` words in the name, registration number, IMEI, driver,
 * departments or tags; `cursor` the `nextCursor` of the previous page of the same `q`); without
 * them the answer is every unit, for an account of at most UNIT_LIST_WHOLE_MAX units (422
 * UnitListTooLarge above, as the units list).
 */
export const supportAccountUnitsQuerySchema = unitListQuerySchema.pick({ q: true, limit: true, cursor: true });
export type SupportAccountUnitsQuery = z.infer<typeof supportAccountUnitsQuerySchema>;
/** An account, its settings and its units (all of them, or a page); `nextCursor` is null on the last page and in the whole answer. */
export const supportAccountUnitsSchema = z.object({
  account: supportAccountSchema,
  settings: supportAccountSettingsSchema,
  units: z.array(supportUnitSchema),
  nextCursor: z.string().nullable(),
});
export type SupportAccountUnits = z.infer<typeof supportAccountUnitsSchema>;

export const announcementParamSchema = z.object({ subsiteId: subsiteIdSchema, lang: languageSchema });
export const announcementSaveSchema = z.object({
  text: z
    .string({ message: supportMessageKeys.AnnouncementTextRequired })
    .trim()
    .min(1, supportMessageKeys.AnnouncementTextRequired)
    .max(ANNOUNCEMENT_MAX, supportMessageKeys.AnnouncementTextTooLong),
  /** ISO 8601 with offset: the bar is not shown from then on; null or absent: until changed. */
  until: z.iso.datetime({ offset: true }).nullable().default(null),
});
export type AnnouncementSave = z.input<typeof announcementSaveSchema>;

export const supportAnnouncementSchema = z.object({
  subsiteId: z.number(),
  lang: z.enum(languages),
  text: z.string(),
  until: z.string().nullable(),
});
export type SupportAnnouncement = z.infer<typeof supportAnnouncementSchema>;
export const supportAnnouncementListSchema = z.object({ announcements: z.array(supportAnnouncementSchema) });

/** PUT /support/accounts/{accountId}/settings: the fields support sets on the account (API.md: basicOnly). */
export const supportAccountSettingsUpdateSchema = z.object({
  basicOnly: z.boolean('InvalidValue'),
});
export type SupportAccountSettingsUpdate = z.input<typeof supportAccountSettingsUpdateSchema>;

/** PUT /support/units/{imei}/subscription-type: 'Bas', 'Standard' or null (not set). */
export const supportSubscriptionTypeSchema = z.object({
  subscriptionType: z.enum(subscriptionTypes, { message: unitEditorMessageKeys.InvalidSubscriptionType }).nullable(),
});
export type SupportSubscriptionTypeUpdate = z.input<typeof supportSubscriptionTypeSchema>;

/** PUT /support/units/{imei}/report-frequency-change: whether the account may change the unit's report frequency. */
export const supportReportFrequencyChangeSchema = z.object({
  reportFrequencyChange: z.enum(frequencyChangeStates, 'InvalidValue'),
});
export type SupportReportFrequencyChangeUpdate = z.input<typeof supportReportFrequencyChangeSchema>;

/** At most this many SMS credits are added in one call (API.md: add 1 to 100,000). */
export const SMS_CREDITS_ADD_MAX = 100_000;
export const SMS_CREDITS_NOTE_MAX = 200;
/** POST /support/accounts/{accountId}/sms-credits: add (a whole number 1..100,000, not a string) and a note saying why. */
export const smsCreditsAddSchema = z.object({
  add: z
    .number({ message: supportMessageKeys.SmsCreditsAddInvalid })
    .int(supportMessageKeys.SmsCreditsAddInvalid)
    .min(1, supportMessageKeys.SmsCreditsAddInvalid)
    .max(SMS_CREDITS_ADD_MAX, supportMessageKeys.SmsCreditsAddInvalid),
  note: z
    .string({ message: supportMessageKeys.SmsCreditsNoteRequired })
    .trim()
    .min(1, supportMessageKeys.SmsCreditsNoteRequired)
    .max(SMS_CREDITS_NOTE_MAX, supportMessageKeys.SmsCreditsNoteTooLong),
});
export type SmsCreditsAdd = z.input<typeof smsCreditsAddSchema>;
/** The account's balance after the addition. */
export const smsCreditsBalanceSchema = z.object({ SmsCredits: z.number().int() });

export const supportActions = [
  'searchAccounts',
  'viewAccount',
  'unlockUnit',
  'setAnnouncement',
  'removeAnnouncement',
  'setBasicOnly',
  'setSubscriptionType',
  'setReportFrequencyChange',
  'addSmsCredits',
] as const;
export type SupportAction = (typeof supportActions)[number];

export const supportLogEntrySchema = z.object({
  id: z.string(),
  /** ISO 8601 UTC. */
  at: z.string(),
  userId: z.string(),
  userName: z.string(),
  action: z.enum(supportActions),
  /** The account acted on, when there is one. */
  accountId: z.string().nullable(),
  accountName: z.string().nullable(),
  /** What was acted on: the search, the unit's IMEI, the brand and language. */
  details: z.string(),
});
export type SupportLogEntry = z.infer<typeof supportLogEntrySchema>;
/** The newest SUPPORT_LOG_LIMIT entries, newest first. */
export const supportLogSchema = z.object({ entries: z.array(supportLogEntrySchema) });
export const SUPPORT_LOG_LIMIT = 100;
