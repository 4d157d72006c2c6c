/**
 * The support capability's routes (spread into the manifest, shared/routes.ts): for users with
 * `isSupport` only (403 NoAccessToSupportPages otherwise); every call is kept in the support log.
 * docs/decisions/0026-organisation-profiles-support.md.
 */
import { z } from 'zod';
import { defineRoute } from '../route-def';
import {
  announcementParamSchema,
  announcementSaveSchema,
  supportAccountListSchema,
  supportAccountParamSchema,
  supportAccountUnitsQuerySchema,
  supportAccountUnitsSchema,
  smsCreditsAddSchema,
  smsCreditsBalanceSchema,
  supportAccountSettingsUpdateSchema,
  supportAnnouncementListSchema,
  supportLogSchema,
  supportReportFrequencyChangeSchema,
  supportSubscriptionTypeSchema,
  supportSearchQuerySchema,
  supportUnitParamSchema,
} from '../schemas/support';
import { unitLockSchema } from '../schemas/unit-lock';

const nothing = z.null();
const base = '/api/v1/support';

export const supportRoutes = {
  searchSupportAccounts: defineRoute({
    operationId: 'searchSupportAccounts',
    method: 'GET',
    path: `${base}/accounts`,
    capability: 'support',
    file: 'get-accounts',
    access: 'support',
    summary:
      'Finds customer accounts by company name (prefix, ignoring case and whitespace), org number (digits), a user\'s e-mail or a unit\'s IMEI (by); at most 25, by name.',
    query: supportSearchQuerySchema,
    response: supportAccountListSchema,
  }),
  getSupportAccountUnits: defineRoute({
    operationId: 'getSupportAccountUnits',
    method: 'GET',
    path: `${base}/accounts/{accountId}/units`,
    capability: 'support',
    file: 'get-account-units',
    access: 'support',
    summary:
      "An account and its units by name with each unit's lock state (locker's name and when): every unit (an account of at most 5,000; 422 UnitListTooLarge above), or with q, limit or cursor a page of a search (nextCursor). Unknown account: 404.",
    params: supportAccountParamSchema,
    query: supportAccountUnitsQuerySchema,
    response: supportAccountUnitsSchema,
  }),
  setSupportAccountSettings: defineRoute({
    operationId: 'setSupportAccountSettings',
    method: 'PUT',
    path: `${base}/accounts/{accountId}/settings`,
    capability: 'support',
    file: 'put-account-settings',
    access: 'support',
    summary:
      "Sets the account's basic-subscription-only flag (basicOnly, a boolean: InvalidValue), written with its support log entry in one transaction. Unknown account: 404.",
    params: supportAccountParamSchema,
    body: supportAccountSettingsUpdateSchema,
    response: nothing,
  }),
  addSupportSmsCredits: defineRoute({
    operationId: 'addSupportSmsCredits',
    method: 'POST',
    path: `${base}/accounts/{accountId}/sms-credits`,
    capability: 'support',
    file: 'post-sms-credits',
    access: 'support',
    summary:
      'Adds SMS credits to the account: add a whole number 1..100,000 (SmsCreditsAddInvalid), note 1..200 characters (SmsCreditsNoteRequired, SmsCreditsNoteTooLong). An atomic increment written with its support log entry in one transaction (two additions at once both count); answers data.SmsCredits, the balance after it. Re-arms the out-of-credits e-mail, and the low-balance warning when the balance is back at or above the threshold. Unknown account: 404.',
    params: supportAccountParamSchema,
    body: smsCreditsAddSchema,
    response: smsCreditsBalanceSchema,
  }),
  setSupportSubscriptionType: defineRoute({
    operationId: 'setSupportSubscriptionType',
    method: 'PUT',
    path: `${base}/units/{imei}/subscription-type`,
    capability: 'support',
    file: 'put-unit-subscription-type',
    access: 'support',
    summary:
      "Sets a unit's subscription type: 'Bas', 'Standard' or null (InvalidSubscriptionType), written with its support log entry in one transaction. Unknown unit: 404.",
    params: supportUnitParamSchema,
    body: supportSubscriptionTypeSchema,
    response: nothing,
  }),
  setSupportReportFrequencyChange: defineRoute({
    operationId: 'setSupportReportFrequencyChange',
    method: 'PUT',
    path: `${base}/units/{imei}/report-frequency-change`,
    capability: 'support',
    file: 'put-unit-report-frequency-change',
    access: 'support',
    summary:
      "Sets whether the account may change a unit's report frequency: 'allowed', 'denied' (DeniedChangeRF) or 'locked' (FrequencyLocked) (InvalidValue otherwise), written with its support log entry in one transaction. Unknown unit: 404.",
    params: supportUnitParamSchema,
    body: supportReportFrequencyChangeSchema,
    response: nothing,
  }),
  supportUnlockUnit: defineRoute({
    operationId: 'supportUnlockUnit',
    method: 'POST',
    path: `${base}/units/{imei}/unlock`,
    capability: 'support',
    file: 'post-unlock-unit',
    access: 'support',
    summary: "Unlocks a locked unit of any account (the lock service's rules; the locker gets the unlock e-mail once). Not locked: 409 UnitNotLocked.",
    params: supportUnitParamSchema,
    response: unitLockSchema,
  }),
  getSupportAnnouncements: defineRoute({
    operationId: 'getSupportAnnouncements',
    method: 'GET',
    path: `${base}/announcements`,
    capability: 'support',
    file: 'get-announcements',
    access: 'support',
    summary: 'The announcement bar texts of every brand (0-7) and language (en, sv, no) that has one, with their end times.',
    response: supportAnnouncementListSchema,
  }),
  setSupportAnnouncement: defineRoute({
    operationId: 'setSupportAnnouncement',
    method: 'PUT',
    path: `${base}/announcements/{subsiteId}/{lang}`,
    capability: 'support',
    file: 'put-announcement',
    access: 'support',
    summary:
      'Sets the announcement bar text of a brand and language (1-1000 characters: AnnouncementTextRequired, AnnouncementTextTooLong) with an optional end time (until, in the future: AnnouncementEndInPast); POST /announcement answers it until then.',
    params: announcementParamSchema,
    body: announcementSaveSchema,
    response: nothing,
  }),
  removeSupportAnnouncement: defineRoute({
    operationId: 'removeSupportAnnouncement',
    method: 'DELETE',
    path: `${base}/announcements/{subsiteId}/{lang}`,
    capability: 'support',
    file: 'delete-announcement',
    access: 'support',
    summary: 'Removes the announcement bar text of a brand and language.',
    params: announcementParamSchema,
    response: nothing,
  }),
  getSupportLog: defineRoute({
    operationId: 'getSupportLog',
    method: 'GET',
    path: `${base}/log`,
    capability: 'support',
    file: 'get-support-log',
    access: 'support',
    summary: 'What support did (who, when, what, which account), newest first, the last 100.',
    response: supportLogSchema,
  }),
};
