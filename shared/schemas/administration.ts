/**
 * The account administration (docs/api.md "Administration: users, access, settings"; spec
 * sections 2, 3, 5, 6 and 8): the account's users with their unit access, and the account's
 * settings (feature flags, working hours, market fuel price, default purposes). Field names are
 * the contract's (FirstName, LastName, email, isAdmin, imeis; enable_rfid, enable_car_booking,
 * EnableSafeReturnHome, realtimeMap, basicOnly, fuelPrice, defaultPurposes).
 */
import { z } from 'zod';
import { IMEI_PATTERN } from '../validators/imei';
import { administrationMessageKeys as keys } from './administration-messages';
import { newPasswordSchema } from './auth';
import { languageSchema } from './common';
import { weeklyWindowSchema } from './schedule';
import { FUEL_PRICE_MAX, fuelPricesSchema, storedFuelPriceSchema } from './fuel';

export { FUEL_PRICE_MAX };
import { ecoWeightsSchema } from '../eco';

export const USER_NAME_MAX = 50;
export const USER_EMAIL_MAX = 254;
/** Unit access changes one save may make: the user item and one item per unit in one DynamoDB transaction (100 items). */
export const MAX_UNIT_CHANGES = 95;
/** Units one user may be granted (one DynamoDB item; far above any account's fleet of today). */
export const MAX_USER_UNITS = 2000;

/** An e-mail address as a login name: trimmed, lower case. */
export const userEmailSchema = z
  .string('EnterValidEmail')
  .trim()
  .toLowerCase()
  .min(1, { message: 'EnterValidEmail', abort: true })
  .max(USER_EMAIL_MAX, { message: 'TooLong', abort: true })
  .pipe(z.email('EnterValidEmail'));

/** Empty or absent: no password (the welcome e-mail's link sets one); otherwise the password rule. */
const optionalPassword = z.preprocess((v) => (v === '' || v === null ? undefined : v), newPasswordSchema.optional());

/** Body of POST /administration/users and PUT /administration/users/{id}. */
export const userSaveSchema = z.object({
  FirstName: z.string('SpecifyFirstName').trim().min(1, 'SpecifyFirstName').max(USER_NAME_MAX, 'MaxLength50'),
  LastName: z.string('SpecifyLastName').trim().min(1, 'SpecifyLastName').max(USER_NAME_MAX, 'MaxLength50'),
  email: userEmailSchema,
  password: optionalPassword,
  isAdmin: z.boolean('InvalidValue').default(false),
  /** Units the user sees (ignored for an admin, who sees every unit of the account). */
  imeis: z
    .array(z.string().regex(IMEI_PATTERN, keys.UserUnitNotFound), keys.UserUnitNotFound)
    .max(MAX_USER_UNITS, keys.UserUnitNotFound)
    .default([])
    .transform((imeis) => [...new Set(imeis)]),
  /** The user's language: the portal's and the welcome e-mail's (absent: the creating admin's). */
  lang: languageSchema.optional(),
});
export type UserSave = z.output<typeof userSaveSchema>;
export type UserSaveRequest = z.input<typeof userSaveSchema>;

export const userIdParamSchema = z.object({ id: z.string().min(1).max(64) });

export const accountUserSchema = z.object({
  id: z.string(),
  FirstName: z.string(),
  LastName: z.string(),
  email: z.string(),
  /** The login name (the e-mail address for users made here). */
  username: z.string(),
  isAdmin: z.boolean(),
  /** Units granted; empty for an admin, who sees all. */
  imeis: z.array(z.string()),
  lang: languageSchema,
});
export type AccountUser = z.infer<typeof accountUserSchema>;
export const accountUserListSchema = z.object({ users: z.array(accountUserSchema) });
export type AccountUserList = z.infer<typeof accountUserListSchema>;
export const createdUserSchema = z.object({ id: z.string() });

/** GET /user/users?limit=-1 (spec section 7 user/list): the account's users by name. */
export const memberUsersQuerySchema = z.object({
  limit: z.coerce.number().int('InvalidValue').min(-1, 'InvalidValue').max(10_000, 'InvalidValue').default(-1),
});
export const memberUserSchema = z.object({ ID: z.string(), FirstName: z.string(), LastName: z.string(), Email: z.string(), isAdmin: z.boolean() });
export const memberUsersSchema = z.object({ user: z.array(memberUserSchema) });
export type MemberUsers = z.infer<typeof memberUsersSchema>;

// ---------------------------------------------------------------------------------------------
// Default purposes (spec section 5: "default purposes without spelling duplicates")

export const DEFAULT_PURPOSE_MAX = 100;
export const MAX_DEFAULT_PURPOSES = 50;

/** What makes two purposes the same: case, accents and runs of white space do not count. */
export function purposeSpellingKey(purpose: string): string {
  return purpose.normalize('NFKD').replace(/\p{M}/gu, '').toLocaleLowerCase('en').replace(/\s+/g, ' ').trim();
}

/** Indexes of purposes that repeat an earlier one in spelling only (purposeSpellingKey). */
export function duplicatePurposeIndexes(purposes: readonly string[]): number[] {
  const seen = new Set<string>();
  const out: number[] = [];
  purposes.forEach((p, i) => {
    const key = purposeSpellingKey(p);
    if (seen.has(key)) out.push(i);
    seen.add(key);
  });
  return out;
}

/** Trimmed, inner white space collapsed; empty, too long, too many and spelling duplicates refused with their keys. */
export const defaultPurposesSchema = z
  .array(z.string(keys.DefaultPurposeEmpty), keys.DefaultPurposeEmpty)
  .max(MAX_DEFAULT_PURPOSES, keys.TooManyDefaultPurposes)
  .transform((list) => list.map((p) => p.replace(/\s+/g, ' ').trim()))
  .superRefine((list, ctx) => {
    if (list.some((p) => p === '')) ctx.addIssue({ code: 'custom', message: keys.DefaultPurposeEmpty });
    if (list.some((p) => p.length > DEFAULT_PURPOSE_MAX)) ctx.addIssue({ code: 'custom', message: keys.DefaultPurposeTooLong });
    if (duplicatePurposeIndexes(list).length) ctx.addIssue({ code: 'custom', message: keys.DuplicateDefaultPurpose });
  });

// ---------------------------------------------------------------------------------------------
// Settings

/** Spec section 6: admins without access to a unit see it on the map only in these hours, when enabled. */
export const workingHoursSchema = weeklyWindowSchema.extend({ enabled: z.boolean('InvalidValue') });
export type WorkingHoursInput = z.infer<typeof workingHoursSchema>;
export const DEFAULT_WORKING_HOURS = { enabled: false, days: [1, 2, 3, 4, 5], from: '07:00', to: '17:00' } as const;

/** Market fuel price in SEK per litre (spec section 3, admin only), two decimals; the dated prices (shared/schemas/fuel.ts) follow it. */
export const fuelPriceSchema = z
  .number(keys.InvalidFuelPrice)
  .min(0, keys.InvalidFuelPrice)
  .max(FUEL_PRICE_MAX, keys.InvalidFuelPrice)
  .transform((n) => Math.round(n * 100) / 100)
  .nullable();

/** The SMS balance below which the admins get one warning e-mail; 0: no warning. */
export const SMS_LOW_BALANCE_MAX = 100_000;
export const smsLowBalanceThresholdSchema = z
  .number(keys.SmsLowBalanceThresholdInvalid)
  .int(keys.SmsLowBalanceThresholdInvalid)
  .min(0, keys.SmsLowBalanceThresholdInvalid)
  .max(SMS_LOW_BALANCE_MAX, keys.SmsLowBalanceThresholdInvalid);

export const accountSettingsSchema = z.object({
  enable_rfid: z.boolean(),
  enable_car_booking: z.boolean(),
  EnableSafeReturnHome: z.boolean(),
  realtimeMap: z.boolean(),
  basicOnly: z.boolean(),
  /** Whether the caller may change basicOnly (support only; an admin sees it read-only). */
  basicOnlyEditable: z.boolean(),
  /** Users may write purposes of their own beside the default purposes. */
  allowUserPurposes: z.boolean(),
  /** Users may name projects of their own. */
  allowUserProjects: z.boolean(),
  /** A user without access to a unit may check in on it by its QR code. */
  allowQrCheckInWithoutAccess: z.boolean(),
  fuelPrice: z.number().nullable(),
  /** Dated prices per fuel type, after the market price (shared/schemas/fuel.ts), by fuel type and day. */
  fuelPrices: z.array(storedFuelPriceSchema),
  defaultPurposes: z.array(z.string()),
  /** With the zone its times are read in (the TimeZone header when it was saved). */
  workingHours: workingHoursSchema.extend({ timeZone: z.string() }),
  /** The account's SMS credits (added by support); read only here. */
  smsCredits: z.number(),
  smsLowBalanceThreshold: z.number(),
  /** The eco score's weights (shared/eco.ts; absent: the defaults there). */
  ecoWeights: z.object({ acceleration: z.number(), braking: z.number(), cornering: z.number(), overspeed: z.number(), idle: z.number() }),
});
export type AccountSettings = z.infer<typeof accountSettingsSchema>;

/** Body of PUT /administration/settings: any of the fields; what is left out stays as it is. */
export const accountSettingsUpdateSchema = z.object({
  enable_rfid: z.boolean('InvalidValue').optional(),
  enable_car_booking: z.boolean('InvalidValue').optional(),
  EnableSafeReturnHome: z.boolean('InvalidValue').optional(),
  realtimeMap: z.boolean('InvalidValue').optional(),
  basicOnly: z.boolean('InvalidValue').optional(),
  allowUserPurposes: z.boolean('InvalidValue').optional(),
  allowUserProjects: z.boolean('InvalidValue').optional(),
  allowQrCheckInWithoutAccess: z.boolean('InvalidValue').optional(),
  fuelPrice: fuelPriceSchema.optional(),
  /** The whole list of dated prices; absent: unchanged. */
  fuelPrices: fuelPricesSchema.optional(),
  defaultPurposes: defaultPurposesSchema.optional(),
  workingHours: workingHoursSchema.optional(),
  /** Setting it re-arms the warning: the next SMS that leaves the balance below it e-mails the admins once. */
  smsLowBalanceThreshold: smsLowBalanceThresholdSchema.optional(),
  /** All five weights, each 0..20 (InvalidEcoWeight). */
  ecoWeights: ecoWeightsSchema.optional(),
});
export type AccountSettingsUpdate = z.output<typeof accountSettingsUpdateSchema>;
export type AccountSettingsUpdateRequest = z.input<typeof accountSettingsUpdateSchema>;
