import type { z } from 'zod';
import { routes } from '../../../../../shared/routes';
import { alertOptOutResponseSchema, type alertOptOutRequestSchema } from '../../../../../shared/schemas/auth';
import { apiRequest } from '../../../app/api-client';

export type AlertOptOutRequest = z.input<typeof alertOptOutRequestSchema>;

/** Stops alerts to the user (and push notifications when asked); the answer is a message key. */
export async function optOutOfAlerts(body: AlertOptOutRequest): Promise<string> {
  const data = await apiRequest(routes.alertOptOut.method, routes.alertOptOut.path, { body, schema: alertOptOutResponseSchema });
  return data.message;
}
