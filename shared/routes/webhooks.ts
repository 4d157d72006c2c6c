/**
 * The webhooks capability's routes (spread into the manifest, shared/routes.ts): an account's
 * subscriptions of endpoints to event types, their delivery log and a test delivery
 * (docs/api.md Webhooks, docs/decisions/0046-webhooks.md). Admins only.
 */
import { z } from 'zod';
import { defineRoute } from '../route-def';
import {
  WEBHOOK_DELIVERIES_MAX,
  WEBHOOKS_MAX,
  webhookCreateSchema,
  webhookCreatedSchema,
  webhookDeliveryListSchema,
  webhookIdParamSchema,
  webhookListSchema,
  webhookTestQueuedSchema,
  webhookTestSchema,
  webhookUpdateSchema,
} from '../schemas/webhooks';

const nothing = z.null();
const base = '/api/v1/administration/webhooks';
const urlRules =
  'url: https (WebhookUrlInvalid otherwise; the embedded runtime also takes http to a loopback address), at most 2,000 characters (WebhookUrlTooLong), a host that neither is nor resolves to a private, loopback, link-local, unique-local, multicast, CGNAT or metadata address (WebhookUrlForbidden); events: one or more of alarm, tripClosed, geofenceEnter, geofenceExit, commandAcknowledged, unitOffline (WebhookEventsRequired, WebhookEventInvalid).';

export const webhookRoutes = {
  getWebhooks: defineRoute({
    operationId: 'getWebhooks',
    method: 'GET',
    path: base,
    capability: 'webhooks',
    file: 'get-webhooks',
    access: 'admin',
    summary: `The account's webhook subscriptions (never their secrets), oldest first, and the limit (${WEBHOOKS_MAX}).`,
    response: webhookListSchema,
  }),
  createWebhook: defineRoute({
    operationId: 'createWebhook',
    method: 'POST',
    path: base,
    capability: 'webhooks',
    file: 'post-webhook',
    access: 'admin',
    summary: `Subscribes an endpoint: 201 with its id and signing secret, which is shown this once. ${urlRules} At most ${WEBHOOKS_MAX} per account (WebhookLimitReached), also under concurrency.`,
    body: webhookCreateSchema,
    response: webhookCreatedSchema,
  }),
  updateWebhook: defineRoute({
    operationId: 'updateWebhook',
    method: 'PUT',
    path: `${base}/{id}`,
    capability: 'webhooks',
    file: 'put-webhook',
    access: 'admin',
    summary: `Changes a subscription's url and events, and pauses (active false) or resumes it (active true; its failure count starts again). ${urlRules} Another account's id: 404 WebhookNotFound.`,
    params: webhookIdParamSchema,
    body: webhookUpdateSchema,
    response: nothing,
  }),
  deleteWebhook: defineRoute({
    operationId: 'deleteWebhook',
    method: 'DELETE',
    path: `${base}/{id}`,
    capability: 'webhooks',
    file: 'delete-webhook',
    access: 'admin',
    summary: "Deletes a subscription; deliveries still queued for it are dropped. Another account's id: 404 WebhookNotFound.",
    params: webhookIdParamSchema,
    response: nothing,
  }),
  getWebhookDeliveries: defineRoute({
    operationId: 'getWebhookDeliveries',
    method: 'GET',
    path: `${base}/{id}/deliveries`,
    capability: 'webhooks',
    file: 'get-webhook-deliveries',
    access: 'admin',
    summary: `The subscription's latest ${WEBHOOK_DELIVERIES_MAX} deliveries (kept 30 days), newest first: status, attempts, the last answer's code, time and excerpt. Another account's id: 404 WebhookNotFound.`,
    params: webhookIdParamSchema,
    response: webhookDeliveryListSchema,
  }),
  testWebhook: defineRoute({
    operationId: 'testWebhook',
    method: 'POST',
    path: `${base}/{id}/test`,
    capability: 'webhooks',
    file: 'post-webhook-test',
    access: 'admin',
    summary:
      "Sends a sample delivery of the chosen event type (default the subscription's first) through the same queue, signing and retries as any delivery, also to a paused subscription. Another account's id: 404 WebhookNotFound.",
    params: webhookIdParamSchema,
    body: webhookTestSchema,
    response: webhookTestQueuedSchema,
  }),
} as const;
