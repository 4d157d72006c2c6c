/**
 * The `users` item (shared/tables.ts) and the uniqueness claims that point at it: its owner is
 * this folder. `UserRecord` is what registration, the administration and the seed write;
 * `userItemSchema` is how every read parses it: what each of them writes is required, what
 * later features add is optional (users made before them lack it).
 */
import { z } from 'zod';
import { languageSchema, type Language } from '../../../shared/schemas/common';
import { landingPageSchema, type LandingPage } from '../../../shared/schemas/fleet-overview';

export interface UserRecord {
  userId: string;
  accountId: string;
  username: string;
  email: string;
  firstName: string;
  lastName: string;
  phone?: string;
  lang: Language;
  subsiteId: number;
  isAdmin: boolean;
  isSupport: boolean;
  enableTwoFactorAuth: boolean;
  /** Units an ordinary user may see; admins see every unit of the account. */
  unitImeis?: string[];
  /** The user's push id (the spec's OnesignalPushID); removed when they stop push notifications. */
  pushId?: string;
  /** Set on the alert opt-out page: no alerts are sent to this user any more. */
  alertsOptOut?: boolean;
  /**
   * Raised by a password change or reset: sessions and trusted browsers of an older generation
   * no longer count. Absent means 0.
   */
  sessionGeneration?: number;
  /** Departments and tags (functions/organisation) the user carries, by id (string sets). */
  departmentIds?: Set<string> | string[];
  tagIds?: Set<string> | string[];
  /** The feature profile limiting an ordinary user (an id of the account's `featureProfiles`); admins are never limited. */
  featureProfileId?: string;
  /** The landing page chosen in the profile; absent: the default. */
  landingPage?: LandingPage;
  createdAt: string;
  updatedAt?: string;
}

/** The user's session generation (absent: 0), which sessions and trusted browsers carry. */
export const sessionGenerationOf = (user: Pick<UserRecord, 'sessionGeneration'>): number => user.sessionGeneration ?? 0;

/** Claims in the `uniques` table: `email#<lower-cased e-mail>` and `username#<login name>` point at a user. */
export const emailClaimKey = (email: string): string => `email#${email.trim().toLowerCase()}`;
export const usernameClaimKey = (username: string): string => `username#${username.trim().toLowerCase()}`;
export interface UserClaimRecord {
  key: string;
  userId: string;
}

/** A string set as DynamoDB returns it (a Set), or a list as older items or tests wrote it. */
const idSet = z.union([z.set(z.string()), z.array(z.string())]);

const userShape = {
  userId: z.string().min(1),
  accountId: z.string().min(1),
  username: z.string(),
  email: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  phone: z.string().optional(),
  lang: languageSchema,
  subsiteId: z.number(),
  isAdmin: z.boolean(),
  isSupport: z.boolean(),
  enableTwoFactorAuth: z.boolean(),
  unitImeis: z.array(z.string()).optional(),
  pushId: z.string().optional(),
  alertsOptOut: z.boolean().optional(),
  sessionGeneration: z.number().int().nonnegative().optional(),
  departmentIds: idSet.optional(),
  tagIds: idSet.optional(),
  featureProfileId: z.string().optional(),
  landingPage: landingPageSchema.optional(),
  createdAt: z.string().optional(),
  updatedAt: z.string().optional(),
};
/** An attribute of the item. */
export type UserField = keyof typeof userShape;

/** The item as read. Loose: attributes it carries beyond these are kept as read. */
export const userItemSchema = z.looseObject(userShape);
/** The item as read (typed by its known attributes; the others are there, untyped). */
export type UserItem = z.infer<z.ZodObject<typeof userShape>>;

export class CorruptUserItemError extends Error {
  override name = 'CorruptUserItemError';
}

const issuesOf = (error: z.ZodError): string => error.issues.map((i) => i.path.join('.') || '(item)').join(', ');

/** The item as read, or an error naming the fields that are malformed or missing. */
export function parseUserItem(raw: Record<string, unknown>): UserItem {
  const parsed = userItemSchema.safeParse(raw);
  if (!parsed.success) throw new CorruptUserItemError(`users item ${JSON.stringify(raw['userId'])} is malformed at ${issuesOf(parsed.error)}`);
  return parsed.data;
}

/** Some attributes of the item (a ProjectionExpression's answer), each as the whole item's schema has it (required there, required here). */
export function parseUserFields<K extends UserField>(raw: Record<string, unknown>, fields: readonly K[]): Pick<UserItem, K> {
  const parsed = z.looseObject(Object.fromEntries(fields.map((f) => [f, userShape[f]]))).safeParse(raw);
  if (!parsed.success) throw new CorruptUserItemError(`users item ${JSON.stringify(raw['userId'])} is malformed at ${issuesOf(parsed.error)}`);
  // The schema just checked is the whole item's, field by field.
  return parsed.data as unknown as Pick<UserItem, K>;
}
