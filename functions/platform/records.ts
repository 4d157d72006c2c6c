/** The stored shapes shared across capabilities (the tables are in shared/tables.ts). */
import type { Language } from '../../shared/schemas/common';

export interface AccountFeatures {
  realtimeMap: boolean;
  carBooking: boolean;
  rfid: boolean;
  safeReturnHome: boolean;
  basicOnly: boolean;
}

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
  createdAt: string;
}

/** A login session in the tokens table (`session#<sessionId>`); deleting it logs the browser out. */
export interface SessionRecord {
  id: string;
  userId: string;
  createdAt: string;
  expiresAt: number;
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
