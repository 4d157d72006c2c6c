import { routes } from '../../shared/routes';
import { httpHandler } from '../platform/http';
import { updateProfile } from './profile-repository';

export const handler = httpHandler(routes.updateFeatureProfile, async ({ auth, params, body }) => {
  await updateProfile(auth.accountId, params.id, body);
  return null;
});
