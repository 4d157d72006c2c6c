/** GET /api/v1/user/profile: the caller's own profile. */
import { routes } from '../../shared/routes';
import { httpHandler } from '../platform/http';
import { profileOf } from './profile';
import { getUser } from './user-repository';

export const handler = httpHandler(routes.getProfile, async ({ auth }) => profileOf(await getUser(auth.userId)));
