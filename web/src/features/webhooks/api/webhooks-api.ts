/**
 * The webhooks page's calls (docs/api.md Webhooks): the subscriptions, create (the secret shown
 * once), change, delete, the test delivery and a subscription's delivery log. Schemas come from
 * shared/schemas/webhooks.ts; every answer is checked.
 */
import { useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import {
  webhookCreatedSchema,
  webhookDeliveryListSchema,
  webhookListSchema,
  webhookTestQueuedSchema,
  type WebhookCreate,
  type WebhookEventType,
  type WebhookUpdate,
} from '../../../../../shared/schemas/webhooks';
import { apiRequest } from '../../../app/api-client';

const base = '/api/v1/administration/webhooks';
const nothing = z.null();

export const webhookKeys = {
  list: ['webhooks'] as const,
  deliveries: (id: string) => ['webhooks', id, 'deliveries'] as const,
};

export function useWebhooks() {
  return useQuery({ queryKey: webhookKeys.list, queryFn: ({ signal }) => apiRequest('GET', base, { schema: webhookListSchema, signal }) });
}

export function useWebhookDeliveries(id: string | null) {
  return useQuery({
    queryKey: webhookKeys.deliveries(id ?? ''),
    queryFn: ({ signal }) => apiRequest('GET', `${base}/${encodeURIComponent(id ?? '')}/deliveries`, { schema: webhookDeliveryListSchema, signal }),
    enabled: id !== null,
    staleTime: 0,
  });
}

export const createWebhook = (body: WebhookCreate) => apiRequest('POST', base, { body, schema: webhookCreatedSchema });
export const updateWebhook = (id: string, body: WebhookUpdate) => apiRequest('PUT', `${base}/${encodeURIComponent(id)}`, { body, schema: nothing });
export const deleteWebhook = (id: string) => apiRequest('DELETE', `${base}/${encodeURIComponent(id)}`, { schema: nothing });
export const testWebhook = (id: string, type?: WebhookEventType) =>
  apiRequest('POST', `${base}/${encodeURIComponent(id)}/test`, { body: type ? { type } : {}, schema: webhookTestQueuedSchema });
