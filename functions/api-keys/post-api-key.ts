import { routes } from '../../shared/routes';
import { created, httpHandler } from '../platform/http';
import { createApiKey } from './api-key-repository';

export const handler = httpHandler(routes.createApiKey, async ({ auth, body, ports }) =>
  created(
    await createApiKey(
      { accountId: auth.accountId, name: body.name, scopes: body.scopes, createdBy: auth.username, subsiteId: auth.subsiteId, lang: auth.lang },
      ports.clock.now(),
    ),
  ),
);
