import { routes } from '../../shared/routes';
import { httpHandler } from '../platform/http';
import { listApiKeyCalls } from './api-key-calls';
import { getApiKey } from './api-key-repository';

export const handler = httpHandler(routes.getApiKeyCalls, async ({ auth, params, query }) => {
  await getApiKey(auth.accountId, params.id);
  return listApiKeyCalls(auth.accountId, params.id, query);
});
