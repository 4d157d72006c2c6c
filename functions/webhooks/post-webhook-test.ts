import { randomUUID } from 'node:crypto';
import { routes } from '../../shared/routes';
import { webhookMessageKeys as keys } from '../../shared/schemas/webhooks-messages';
import { HttpReply, httpHandler } from '../platform/http';
import { deliveryIdOf, type DeliveryMessage } from './delivery-message';
import { samplePayload } from './payloads';
import { getHook } from './repository';

/** A sample delivery through the queue, the signing and the retries of every delivery; each press is a delivery of its own. */
export const handler = httpHandler(routes.testWebhook, async ({ auth, params, body, ports }) => {
  const hook = await getHook(auth.accountId, params.id);
  const type = body?.type ?? hook.events[0] ?? 'alarm';
  const sourceId = `test:${randomUUID()}`;
  const sample = samplePayload(auth.accountId, type, ports.clock.now(), sourceId);
  const deliveryId = deliveryIdOf(hook.id, type, sourceId);
  const message: DeliveryMessage = {
    accountId: auth.accountId,
    hookId: hook.id,
    deliveryId,
    attempt: 1,
    test: true,
    event: { type, sourceId, occurredAt: sample.occurredAt, data: sample.data },
  };
  await ports.queues.send('webhook-delivery', message);
  return new HttpReply(200, { deliveryId }, keys.WebhookTestQueued);
});
