import { routes } from '../../shared/routes';
import { WEBHOOKS_MAX } from '../../shared/schemas/webhooks';
import { httpHandler } from '../platform/http';
import { listHooks, toWebhook } from './repository';

export const handler = httpHandler(routes.getWebhooks, async ({ auth }) => ({
  webhooks: (await listHooks(auth.accountId, { consistent: true })).map(toWebhook),
  limit: WEBHOOKS_MAX,
}));
