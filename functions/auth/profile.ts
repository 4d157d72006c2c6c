/** The profile view of a user record (GET and PUT /api/v1/user/profile). */
import type { Profile } from '../../shared/schemas/auth';
import { defaultPhoneCountry, storedPhoneE164 } from '../../shared/validators/phone';
import type { LandingPage } from '../../shared/schemas/fleet-overview';
import type { UserItem } from '../domain/user/schema';

export function profileOf(user: UserItem): Profile {
  return {
    ID: user.userId,
    Username: user.username,
    Email: user.email,
    FirstName: user.firstName,
    LastName: user.lastName,
    // E.164; an older record's '0701234567' is read in the country of the user's language.
    phone: storedPhoneE164(user.phone, defaultPhoneCountry(user.lang)) ?? user.phone ?? '',
    lang: user.lang,
    EnableTwoFactorAuth: user.enableTwoFactorAuth,
    landingPage: landingPageOf(user),
  };
}

/** The landing page in force: the fleet overview only while the user is an admin (a demoted admin lands on the default again). */
export function landingPageOf(user: Pick<UserItem, 'landingPage' | 'isAdmin'>): LandingPage {
  return user.landingPage === 'fleetOverview' && user.isAdmin ? 'fleetOverview' : 'default';
}
