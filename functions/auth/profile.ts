/** The profile view of a user record (GET and PUT /api/v1/user/profile). */
import parsePhoneNumberFromString from 'libphonenumber-js';
import type { Profile } from '../../shared/schemas/auth';
import type { LandingPage } from '../../shared/schemas/fleet-overview';
import { ValidationError } from '../platform/errors';
import type { UserRecord } from '../platform/records';

export function profileOf(user: UserRecord): Profile {
  return {
    ID: user.userId,
    Username: user.username,
    Email: user.email,
    FirstName: user.firstName,
    LastName: user.lastName,
    phone: user.phone ?? '',
    lang: user.lang,
    EnableTwoFactorAuth: user.enableTwoFactorAuth,
    landingPage: landingPageOf(user),
  };
}

/**
 * A phone number as E.164, or null for none. Numbers without a country code are read as Swedish,
 * the portal's default country (spec section 9).
 */
export function normalizePhone(phone: string): string | null {
  if (phone.trim() === '') return null;
  const parsed = parsePhoneNumberFromString(phone, 'SE');
  if (!parsed?.isValid()) throw new ValidationError({ phone: ['MakeSurePhoneNunIsCorrect'] });
  return parsed.number;
}

/** The landing page in force: the fleet overview only while the user is an admin (a demoted admin lands on the default again). */
export function landingPageOf(user: Pick<UserRecord, 'landingPage' | 'isAdmin'>): LandingPage {
  return user.landingPage === 'fleetOverview' && user.isAdmin ? 'fleetOverview' : 'default';
}
