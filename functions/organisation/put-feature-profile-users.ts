import { routes } from '../../shared/routes';
import { httpHandler } from '../platform/http';
import { setProfileUsers } from './organisation-service';

export const handler = httpHandler(routes.setFeatureProfileUsers, async ({ auth, params, body }) => {
  await setProfileUsers(auth.accountId, params.id, body.userIds);
  return null;
});
