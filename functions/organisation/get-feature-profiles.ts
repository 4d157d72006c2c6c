import { routes } from '../../shared/routes';
import { httpHandler } from '../platform/http';
import { profileList } from './organisation-service';

export const handler = httpHandler(routes.getFeatureProfiles, async ({ auth }) => ({ profiles: await profileList(auth.accountId, auth.lang) }));
