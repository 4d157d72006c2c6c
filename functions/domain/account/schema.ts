/**
 * The `accounts` item (shared/tables.ts): its owner is this folder. `AccountRecord` is what
 * registration and the seed write; `accountItemSchema` is how every read parses the item (a
 * projection through `parseAccountFields`, which checks only the fields asked for). Required are
 * the fields every account has had from the start (id, name, type, brand); the others are
 * optional, as accounts made before a field existed lack it, and a flag an account lacks is off.
 * A present field of the wrong type is an error naming it.
 */
import { z } from 'zod';
import type { AccountFeatures } from '../../../shared/features';
import type { EcoWeights } from '../../../shared/eco';
import { languageSchema, type Language } from '../../../shared/schemas/common';
import { storedFuelPriceSchema, type FuelType } from '../../../shared/schemas/fuel';
import { featureProfileSchema, type ProfileFeature, type ProfileReport } from '../../../shared/schemas/organisation';

export interface AccountRecord {
  accountId: string;
  /** The reseller or parent account, when there is one. */
  parentId: string | null;
  type: 'company' | 'private';
  name: string;
  subsiteId: number;
  features: AccountFeatures;
  smsCredits: number;
  /** Below this balance the admins get one warning e-mail (functions/events/sms-credits.ts); absent or 0: none. */
  smsLowBalanceThreshold?: number;
  /** Set when that warning went out; removed when credits bring the balance back up or the threshold is set again. */
  smsLowBalanceWarnedAt?: string;
  /** Raw positions are kept this many days. */
  retentionDays: number;
  /** Customer details from registration (spec section 3); absent on accounts made otherwise. */
  orgNumber?: string;
  /** Swedish personnummer of a private customer, 12 digits. */
  personalNumber?: string;
  contactPerson?: string;
  /** E.164. */
  phone?: string;
  companyPhone?: string;
  street?: string;
  zipCode?: string;
  city?: string;
  country?: string;
  /** ISO 3166 alpha-2 of the registration wizard's country. */
  countryCode?: string;
  reseller?: string;
  comment?: string;
  /** Subscription payment method (0: none chosen, invoice by default). */
  paymentType?: number;
  /** Language of the account's alarm messages (spec section 9; absent: sv). */
  alertLanguage?: Language;
  /** IANA zone the account's alarm messages give times in (absent: Europe/Stockholm). */
  alertTimeZone?: string;
  /** Settings of the account administration (functions/administration/settings-repository.ts); absent: the defaults there. */
  defaultPurposes?: string[];
  allowUserPurposes?: boolean;
  allowUserProjects?: boolean;
  allowQrCheckInWithoutAccess?: boolean;
  /** Market fuel price, SEK per litre. */
  fuelPrice?: number | null;
  /** Dated prices per fuel type (shared/schemas/fuel.ts), sorted by fuel type and day. */
  fuelPrices?: { fuelType: FuelType; validFrom: string; price: number }[];
  /** The eco score's weights (shared/eco.ts); absent: the defaults. */
  ecoWeights?: EcoWeights;
  /** When admins without access to a unit see it on the map (spec section 6). */
  workingHours?: { enabled: boolean; days: number[]; from: string; to: string; timeZone: string };
  /** Feature profiles by id (functions/organisation): read with the account by the middleware for a limited user. */
  featureProfiles?: Record<string, StoredFeatureProfile>;
  createdAt: string;
}

/** A feature profile as the accounts item keeps it. */
export interface StoredFeatureProfile {
  name: string;
  features: ProfileFeature[];
  reports: ProfileReport[];
  createdAt: string;
}

/** A profile as the contract's schema has it, less what is not stored (its id is the key, its users carry it). */
const storedProfileSchema = featureProfileSchema.pick({ name: true, features: true, reports: true, createdAt: true }) satisfies z.ZodType<StoredFeatureProfile>;

/** Profiles by id; a malformed one reads as absent, as the organisation's own reader skips it (a deleted profile limits no one). */
const featureProfilesSchema = z
  .record(z.string(), storedProfileSchema.nullable().catch(null))
  .transform((entries) => Object.fromEntries(Object.entries(entries).filter((e): e is [string, StoredFeatureProfile] => e[1] !== null)));

/** The flags; one an account was made without (before it existed) is off, as an absent one always counted. */
const accountFeaturesSchema = z.object({
  realtimeMap: z.boolean().default(false),
  carBooking: z.boolean().default(false),
  rfid: z.boolean().default(false),
  safeReturnHome: z.boolean().default(false),
  basicOnly: z.boolean().default(false),
}) satisfies z.ZodType<AccountFeatures>;

const accountShape = {
  accountId: z.string().min(1),
  parentId: z.string().nullable().optional(),
  /** `parentId` again where there is one: the byParent index's key (shared/tables.ts). */
  parentAccountId: z.string().optional(),
  type: z.enum(['company', 'private']),
  name: z.string(),
  subsiteId: z.number(),
  features: accountFeaturesSchema.optional(),
  smsCredits: z.number().optional(),
  smsLowBalanceThreshold: z.number().optional(),
  smsLowBalanceWarnedAt: z.string().optional(),
  retentionDays: z.number().optional(),
  orgNumber: z.string().optional(),
  personalNumber: z.string().optional(),
  contactPerson: z.string().optional(),
  phone: z.string().optional(),
  companyPhone: z.string().optional(),
  street: z.string().optional(),
  zipCode: z.string().optional(),
  city: z.string().optional(),
  country: z.string().optional(),
  countryCode: z.string().optional(),
  reseller: z.string().optional(),
  comment: z.string().optional(),
  paymentType: z.number().optional(),
  alertLanguage: languageSchema.optional(),
  alertTimeZone: z.string().optional(),
  alertSenderId: z.string().optional(),
  defaultPurposes: z.array(z.string()).optional(),
  allowUserPurposes: z.boolean().optional(),
  allowUserProjects: z.boolean().optional(),
  allowQrCheckInWithoutAccess: z.boolean().optional(),
  fuelPrice: z.number().nullable().optional(),
  fuelPrices: z.array(storedFuelPriceSchema).optional(),
  ecoWeights: z.object({ acceleration: z.number(), braking: z.number(), cornering: z.number(), overspeed: z.number(), idle: z.number() }).optional(),
  /** The account's projects (the trip log's project rule, functions/trips/account-settings.ts). */
  projects: z.array(z.string()).optional(),
  workingHours: z
    .looseObject({ enabled: z.boolean(), days: z.array(z.number()), from: z.string(), to: z.string(), timeZone: z.string() })
    .optional(),
  featureProfiles: featureProfilesSchema.optional(),
  createdAt: z.string().optional(),
};
/** An attribute of the item. */
export type AccountField = keyof typeof accountShape;

/** The item as read. Loose: attributes it carries beyond these (search keys, a notice's time) are kept as read. */
export const accountItemSchema = z.looseObject(accountShape);
/** The item as read (typed by its known attributes; the others are there, untyped). */
export type AccountItem = z.infer<z.ZodObject<typeof accountShape>>;

export class CorruptAccountItemError extends Error {
  override name = 'CorruptAccountItemError';
}

const issuesOf = (error: z.ZodError): string => error.issues.map((i) => i.path.join('.') || '(item)').join(', ');

/** The item as read, or an error naming the fields that are malformed. */
export function parseAccountItem(raw: Record<string, unknown>): AccountItem {
  const parsed = accountItemSchema.safeParse(raw);
  if (!parsed.success) throw new CorruptAccountItemError(`accounts item ${JSON.stringify(raw['accountId'])} is malformed at ${issuesOf(parsed.error)}`);
  return parsed.data;
}

/** Some attributes of the item (a ProjectionExpression's answer), each checked as the whole item's schema checks it. */
export function parseAccountFields<K extends AccountField>(raw: Record<string, unknown>, fields: readonly K[]): Pick<AccountItem, K> {
  const parsed = z.looseObject(Object.fromEntries(fields.map((f) => [f, accountShape[f]]))).safeParse(raw);
  if (!parsed.success) throw new CorruptAccountItemError(`accounts item ${JSON.stringify(raw['accountId'])} is malformed at ${issuesOf(parsed.error)}`);
  // The schema just checked is the whole item's, field by field.
  return parsed.data as unknown as Pick<AccountItem, K>;
}
