import { routes } from '../../shared/routes';
import { MAX_ACTIVE_API_KEYS } from '../../shared/schemas/api-keys';
import { httpHandler } from '../platform/http';
import { listApiKeys } from './api-key-repository';

export const handler = httpHandler(routes.getApiKeys, async ({ auth }) => ({
  keys: (await listApiKeys(auth.accountId)).map(({ accountId: _account, hash: _hash, ...key }) => key),
  maxActive: MAX_ACTIVE_API_KEYS,
}));
