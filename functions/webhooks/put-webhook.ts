import { routes } from '../../shared/routes';
import { webhookMessageKeys as keys } from '../../shared/schemas/webhooks-messages';
import { HttpReply, httpHandler } from '../platform/http';
import { forgetSubscribers } from './emit';
import { getHook, updateHook } from './repository';
import { acceptedEndpoint } from './service';

export const handler = httpHandler(routes.updateWebhook, async ({ auth, params, body, ports }) => {
  const hook = await getHook(auth.accountId, params.id);
  const url = body.url === hook.url ? hook.url : await acceptedEndpoint(body.url);
  await updateHook(hook, { url, events: body.events, active: body.active }, ports.clock.now());
  forgetSubscribers(auth.accountId);
  return new HttpReply(200, null, keys.WebhookSaved);
});
