/** PUT /api/v1/user/profile: name, phone, language and two-factor login of the caller. */
import { routes } from '../../shared/routes';
import { httpHandler } from '../platform/http';
import { normalizePhone, profileOf } from './profile';
import { updateProfile } from './user-repository';

export const handler = httpHandler(routes.updateProfile, async ({ body, auth, ports }) => {
  const user = await updateProfile(
    auth.userId,
    {
      firstName: body.FirstName,
      lastName: body.LastName,
      phone: normalizePhone(body.phone),
      lang: body.lang,
      enableTwoFactorAuth: body.EnableTwoFactorAuth,
    },
    ports.clock.now(),
  );
  return profileOf(user);
});
