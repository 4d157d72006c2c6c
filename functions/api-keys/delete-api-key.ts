import { routes } from '../../shared/routes';
import { httpHandler } from '../platform/http';
import { revokeApiKey } from './api-key-repository';

export const handler = httpHandler(routes.revokeApiKey, async ({ auth, params, ports }) => {
  await revokeApiKey(auth.accountId, params.id, auth.userId, ports.clock.now());
  return null;
});
