/** The stored shapes shared across capabilities (the tables are in shared/tables.ts). */
import type { AccountFeatures } from '../../shared/features';
import type { Language } from '../../shared/schemas/common';
import type { LandingPage } from '../../shared/schemas/fleet-overview';
import type { ProfileFeature, ProfileReport } from '../../shared/schemas/organisation';

export interface AccountRecord {
  accountId: string;
  /** The reseller or parent account, when there is one. */
  parentId: string | null;
  type: 'company' | 'private';
  name: string;
  subsiteId: number;
  features: AccountFeatures;
  smsCredits: number;
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

/** A login session in the tokens table (`session#<sessionId>`); deleting it logs the browser out. */
export interface SessionRecord {
  id: string;
  userId: string;
  /** The user's sessionGeneration when the session began; absent means 0. */
  generation?: number;
  createdAt: string;
  expiresAt: number;
}

/** The user's session generation (absent: 0), which sessions and trusted browsers carry. */
export const sessionGenerationOf = (user: Pick<UserRecord, 'sessionGeneration'>): number => user.sessionGeneration ?? 0;

/** A session counts while it is unexpired and of the user's current generation. */
export function isCurrentSession(session: SessionRecord | undefined | null, user: UserRecord | undefined | null, now: Date): session is SessionRecord {
  if (!session || !user || session.userId !== user.userId) return false;
  // TTL deletion lags by up to days, so expiry is checked here too.
  if (session.expiresAt * 1000 <= now.getTime()) return false;
  return (session.generation ?? 0) === sessionGenerationOf(user);
}

/** Claims in the `uniques` table: `email#<lower-cased e-mail>` and `username#<login name>` point at a user. */
export const emailClaimKey = (email: string): string => `email#${email.trim().toLowerCase()}`;
export const usernameClaimKey = (username: string): string => `username#${username.trim().toLowerCase()}`;
export interface UserClaimRecord {
  key: string;
  userId: string;
}

export const sessionItemId = (sessionId: string): string => `session#${sessionId}`;

export interface UnitRecord {
  imei: string;
  accountId: string;
  name: string;
  registrationNumber?: string;
  vehicleType: string;
  protocol: 'native' | 'teltonika';
  createdAt: string;
}
