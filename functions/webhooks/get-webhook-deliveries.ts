import { routes } from '../../shared/routes';
import type { WebhookDelivery } from '../../shared/schemas/webhooks';
import { httpHandler } from '../platform/http';
import { WEBHOOK_MAX_ATTEMPTS } from './backoff';
import { getHook, listDeliveries, type DeliveryItem } from './repository';

function toDelivery(item: DeliveryItem): WebhookDelivery {
  return {
    id: item.id,
    type: item.type,
    status: item.status,
    attempts: item.attempts ?? 0,
    maxAttempts: WEBHOOK_MAX_ATTEMPTS,
    responseCode: item.responseCode ?? null,
    responseTimeMs: item.responseTimeMs ?? null,
    responseExcerpt: item.responseExcerpt ?? null,
    error: item.error ?? null,
    test: item.test === true,
    createdAt: item.createdAt,
    lastAttemptAt: item.lastAttemptAt ?? null,
    nextAttemptAt: item.status === 'pending' ? (item.nextAttemptAt ?? null) : null,
  };
}

export const handler = httpHandler(routes.getWebhookDeliveries, async ({ auth, params }) => {
  const hook = await getHook(auth.accountId, params.id);
  // The index holds only this subscription's deliveries, and its id is the account's (checked above).
  return { deliveries: (await listDeliveries(hook.id)).filter((d) => d.accountId === auth.accountId).map(toDelivery) };
});
