/**
 * A message of the `webhook-delivery` queue (shared/queues.ts): one attempt of one delivery. The
 * first attempt's message carries the event; the delivery's body is fixed from it when the
 * delivery is created, and later attempts read it from there. `notBefore` (epoch ms) holds a
 * retry back longer than SQS's 15-minute delay: the consumer queues it again for the rest.
 */
import { createHash } from 'node:crypto';
import { z } from 'zod';
import { webhookEventTypeSchema, type WebhookEventType } from '../../shared/schemas/webhooks';

export const webhookEventSchema = z.object({
  type: webhookEventTypeSchema,
  /** A stable id of what caused the event: the same source gives the same delivery id. */
  sourceId: z.string().min(1).max(300),
  occurredAt: z.string(),
  data: z.record(z.string(), z.unknown()),
});
export type WebhookEvent = z.infer<typeof webhookEventSchema>;

export const deliveryMessageSchema = z.object({
  accountId: z.string().min(1),
  hookId: z.string().min(1),
  deliveryId: z.string().min(1),
  attempt: z.number().int().min(1),
  notBefore: z.number().optional(),
  test: z.boolean().optional(),
  event: webhookEventSchema.optional(),
});
export type DeliveryMessage = z.infer<typeof deliveryMessageSchema>;

/** The delivery id (the Webhook-Id header): from the subscription, the event type and the source, so a source processed twice is one delivery. */
export function deliveryIdOf(hookId: string, type: WebhookEventType, sourceId: string): string {
  return `wd_${createHash('sha256').update(`${hookId}\n${type}\n${sourceId}`).digest('hex').slice(0, 32)}`;
}
