/**
 * What the webhook routes share: the endpoint check at subscribe time (the same policy each
 * attempt applies again, endpoint-policy.ts), and the cache of the event sources forgotten after a
 * change, so that this instance's next event sees it at once.
 */
import type { WebhookEventType } from '../../shared/schemas/webhooks';
import { getEnv } from '../platform/env';
import { ValidationError } from '../platform/errors';
import { checkEndpoint, policyFor, type Lookup } from './endpoint-policy';

/** The URL as it will be stored (normalised by the URL parser), or 422 with the refusal's key on `url`. */
export async function acceptedEndpoint(raw: string, lookup?: Lookup): Promise<string> {
  const checked = await checkEndpoint(raw, policyFor(getEnv().RUNTIME), lookup);
  if ('refusal' in checked) throw new ValidationError({ url: [checked.refusal] });
  return checked.url.href;
}

export type { WebhookEventType };
