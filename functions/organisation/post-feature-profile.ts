import { routes } from '../../shared/routes';
import { created, httpHandler } from '../platform/http';
import { createProfile } from './profile-repository';

export const handler = httpHandler(routes.createFeatureProfile, async ({ auth, body, ports }) =>
  created({ id: await createProfile(auth.accountId, body, ports.clock.now()) }),
);
