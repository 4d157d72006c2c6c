/**
 * PUT /api/v1/user/profile: name, phone, language and two-factor login of the caller. Turning
 * two-factor login off takes the current password: a stolen session alone must not be enough to
 * remove the second factor for good.
 */
import { routes } from '../../shared/routes';
import { ValidationError } from '../platform/errors';
import { httpHandler } from '../platform/http';
import { checkCurrentPassword } from './credentials';
import { profilePhoneCountry } from '../../shared/schemas/auth';
import { phoneE164 } from '../../shared/validators/phone';
import { profileOf } from './profile';
import { getUser, TwoFactorTurnedOn, updateProfile } from './user-repository';

export const handler = httpHandler(routes.updateProfile, async ({ body, auth, ports, event }) => {
  // The schema checked it: a valid mobile number, or empty for none.
  const phone = body.phone ? phoneE164(body.phone, profilePhoneCountry(body)) : null;
  if (body.landingPage === 'fleetOverview' && !auth.isAdmin) throw new ValidationError({ landingPage: ['LandingPageAdminsOnly'] });
  const current = await getUser(auth.userId);
  const turningOff = current.enableTwoFactorAuth && !body.EnableTwoFactorAuth;
  if (turningOff) await checkCurrentPassword(current, body.current_password, ports, event);
  const user = await updateProfile(
    auth.userId,
    { firstName: body.FirstName, lastName: body.LastName, phone, lang: body.lang, enableTwoFactorAuth: body.EnableTwoFactorAuth, landingPage: body.landingPage },
    ports.clock.now(),
    // Without the password check, only while 2FA is still off: a concurrent request that turned it
    // on in the meantime makes this one ask for the password.
    turningOff || body.EnableTwoFactorAuth ? undefined : { twoFactorWasOff: true },
  ).catch((error: unknown) => {
    if (error instanceof TwoFactorTurnedOn) throw new ValidationError({ current_password: ['SpecifyCurrentPassword'] });
    throw error;
  });
  return profileOf(user);
});
