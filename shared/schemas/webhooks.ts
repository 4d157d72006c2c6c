/**
 * Webhooks for integrators (docs/api.md Webhooks, docs/decisions/0046-webhooks.md): an account's
 * admins subscribe an endpoint to event types; each matching event is POSTed there, signed.
 */
import { z } from 'zod';
import { webhookMessageKeys as keys } from './webhooks-messages';

export const webhookEventTypes = ['alarm', 'tripClosed', 'geofenceEnter', 'geofenceExit', 'commandAcknowledged', 'unitOffline'] as const;
export const webhookEventTypeSchema = z.enum(webhookEventTypes, { message: keys.WebhookEventInvalid });
export type WebhookEventType = z.infer<typeof webhookEventTypeSchema>;

/** Subscriptions per account. */
export const WEBHOOKS_MAX = 20;
/** Characters of an endpoint URL. */
export const WEBHOOK_URL_MAX = 2_000;
/** Deliveries the log answers, newest first. */
export const WEBHOOK_DELIVERIES_MAX = 50;

const urlSchema = z
  .string({ message: keys.WebhookUrlRequired })
  .trim()
  .min(1, keys.WebhookUrlRequired)
  .max(WEBHOOK_URL_MAX, keys.WebhookUrlTooLong)
  .refine((value) => value === '' || URL.canParse(value), keys.WebhookUrlInvalid);

const eventsSchema = z
  .array(webhookEventTypeSchema, { message: keys.WebhookEventsRequired })
  .min(1, keys.WebhookEventsRequired)
  .max(webhookEventTypes.length * 2, keys.WebhookEventInvalid)
  .transform((events) => webhookEventTypes.filter((t) => events.includes(t)));

export const webhookCreateSchema = z.object({
  url: urlSchema,
  events: eventsSchema,
  active: z.boolean({ message: 'InvalidValue' }).optional(),
});
export type WebhookCreate = z.input<typeof webhookCreateSchema>;

export const webhookUpdateSchema = z.object({
  url: urlSchema,
  events: eventsSchema,
  /** false pauses it; true resumes a paused one (its failure count starts again). Absent: unchanged. */
  active: z.boolean({ message: 'InvalidValue' }).optional(),
});
export type WebhookUpdate = z.input<typeof webhookUpdateSchema>;

export const webhookIdParamSchema = z.object({ id: z.string().min(1).max(64) });

export const webhookTestSchema = z
  .object({
    /** The event type of the sample; default the subscription's first. */
    type: webhookEventTypeSchema.optional(),
  })
  .nullable()
  .optional();

export const webhookPausedReasons = ['failing', 'admin'] as const;

export const webhookSchema = z.object({
  id: z.string(),
  url: z.string(),
  events: z.array(webhookEventTypeSchema),
  active: z.boolean(),
  /** Why it is not active: `failing` (paused by the portal after repeated failures) or `admin`. */
  pausedReason: z.enum(webhookPausedReasons).nullable(),
  pausedAt: z.string().nullable(),
  /** Deliveries that failed in a row since the last success. */
  consecutiveFailures: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Webhook = z.infer<typeof webhookSchema>;

export const webhookListSchema = z.object({ webhooks: z.array(webhookSchema), limit: z.number().int() });
export type WebhookList = z.infer<typeof webhookListSchema>;

/** The answer of a create: the signing secret, shown this once. */
export const webhookCreatedSchema = z.object({ id: z.string(), secret: z.string() });
export type WebhookCreated = z.infer<typeof webhookCreatedSchema>;

export const webhookDeliveryStatuses = ['pending', 'succeeded', 'failed'] as const;

export const webhookDeliverySchema = z.object({
  /** The Webhook-Id header of every attempt. */
  id: z.string(),
  type: webhookEventTypeSchema,
  status: z.enum(webhookDeliveryStatuses),
  attempts: z.number().int(),
  maxAttempts: z.number().int(),
  /** The HTTP status of the last attempt, null when it got no answer. */
  responseCode: z.number().int().nullable(),
  /** Milliseconds of the last attempt. */
  responseTimeMs: z.number().int().nullable(),
  /** The start of the last answer's body (at most 500 characters). */
  responseExcerpt: z.string().nullable(),
  /** Why the last attempt got no answer, a message key: WebhookTimeout, WebhookConnectionFailed, WebhookAddressRefused; or why it was not sent: WebhookNotSentPaused, WebhookNotSentDeleted. */
  error: z.string().nullable(),
  test: z.boolean(),
  createdAt: z.string(),
  lastAttemptAt: z.string().nullable(),
  nextAttemptAt: z.string().nullable(),
});
export type WebhookDelivery = z.infer<typeof webhookDeliverySchema>;

export const webhookDeliveryListSchema = z.object({ deliveries: z.array(webhookDeliverySchema) });
export type WebhookDeliveryList = z.infer<typeof webhookDeliveryListSchema>;

export const webhookTestQueuedSchema = z.object({ deliveryId: z.string() });
