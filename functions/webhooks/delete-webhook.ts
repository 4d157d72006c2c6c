import { routes } from '../../shared/routes';
import { webhookMessageKeys as keys } from '../../shared/schemas/webhooks-messages';
import { HttpReply, httpHandler } from '../platform/http';
import { forgetSubscribers } from './emit';
import { deleteHook, getHook } from './repository';

export const handler = httpHandler(routes.deleteWebhook, async ({ auth, params }) => {
  await deleteHook(await getHook(auth.accountId, params.id));
  forgetSubscribers(auth.accountId);
  return new HttpReply(200, null, keys.WebhookDeleted);
});
