import { routes } from '../../shared/routes';
import { httpHandler } from '../platform/http';
import { removeProfile } from './organisation-service';

export const handler = httpHandler(routes.deleteFeatureProfile, async ({ auth, params }) => {
  await removeProfile(auth.accountId, params.id);
  return null;
});
