import { routes } from '../../shared/routes';
import { webhookMessageKeys as keys } from '../../shared/schemas/webhooks-messages';
import { HttpReply, httpHandler } from '../platform/http';
import { forgetSubscribers } from './emit';
import { createHook } from './repository';
import { acceptedEndpoint } from './service';
import { newWebhookSecret } from './signing';

export const handler = httpHandler(routes.createWebhook, async ({ auth, body, ports }) => {
  const url = await acceptedEndpoint(body.url);
  const secret = newWebhookSecret();
  const hook = await createHook(auth.accountId, { url, events: body.events, active: body.active ?? true, secret }, ports.clock.now());
  forgetSubscribers(auth.accountId);
  return new HttpReply(201, { id: hook.id, secret }, keys.WebhookSaved);
});
