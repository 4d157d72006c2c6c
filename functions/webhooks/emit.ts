/**
 * Where the portal's events meet the webhooks (docs/decisions/0046-webhooks.md): the event sources
 * (alarms and geofence events when they are recorded, closed trips when they are stored, command
 * acknowledgements, units going offline) call `emitWebhookEvent`, which puts one message per
 * matching active subscription on the `webhook-delivery` queue and returns.
 *
 * It must be cheap and must never fail or slow the caller (ingest above all): an account's
 * subscriptions are read with one Query and kept for `CACHE_MS` per function instance (an account
 * without any costs that one read a minute per instance); an error is logged, never thrown. So a
 * new subscription gets events from at most a minute after it was made, and an event raised while
 * the queue cannot be reached is lost (logged as an error).
 *
 * A locked unit's events reach no webhook: its movements are the locker's and support's only
 * (functions/units/lock-rules.ts), and a subscription speaks for the whole account. The lock is
 * read when the event has subscribers, consistently, so a lock set a moment ago holds.
 *
 * Exactly once: the delivery id derives from the subscription, the type and `sourceId`, a stable
 * id of the source event; the delivery consumer creates the delivery once and claims each attempt
 * (delivery-consumer.ts), so a source processed twice, or a message delivered twice, sends once.
 */
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { WebhookEventType } from '../../shared/schemas/webhooks';
import { getPorts } from '../platform/container';
import { dynamo, tableName } from '../platform/db';
import { logger } from '../platform/logger';
import type { Ports } from '../platform/ports';
import { getUnitItem } from '../domain/unit/reads';
import { deliveryIdOf, type DeliveryMessage } from './delivery-message';

export const CACHE_MS = 60_000;
const CACHE_MAX = 10_000;

interface Subscriber {
  id: string;
  events: readonly WebhookEventType[];
}

const cache = /* @__PURE__ */ new Map<string, { until: number; hooks: Promise<Subscriber[]> }>();

async function readSubscribers(accountId: string): Promise<Subscriber[]> {
  const out = await dynamo().send(
    new QueryCommand({
      TableName: tableName('webhooks'),
      KeyConditionExpression: 'accountId = :a AND begins_with(sk, :p)',
      FilterExpression: '#active = :true',
      ProjectionExpression: '#id, #events',
      ExpressionAttributeNames: { '#active': 'active', '#id': 'id', '#events': 'events' },
      ExpressionAttributeValues: { ':a': accountId, ':p': 'hook#', ':true': true },
    }),
  );
  // At most 20 subscriptions of a few hundred bytes each: one page.
  return (out.Items ?? []).map((i) => ({ id: String(i['id']), events: (i['events'] as WebhookEventType[] | undefined) ?? [] }));
}

function subscribersOf(accountId: string, now: number): Promise<Subscriber[]> {
  const cached = cache.get(accountId);
  if (cached && cached.until > now) return cached.hooks;
  if (cache.size >= CACHE_MAX) cache.clear();
  const hooks = readSubscribers(accountId);
  cache.set(accountId, { until: now + CACHE_MS, hooks });
  hooks.catch(() => cache.delete(accountId));
  return hooks;
}

/** Forgets an account's subscriptions after a change in this instance (the routes call it; other instances wait out the cache). */
export function forgetSubscribers(accountId: string): void {
  cache.delete(accountId);
}

export interface EmitInput {
  accountId: string;
  type: WebhookEventType;
  /** When it happened, ISO 8601. */
  occurredAt: string;
  data: Record<string, unknown>;
  /** A stable id of the source event: `<kind>:<its key>`. */
  sourceId: string;
  /** The unit the event is of (none for the test button's samples): nothing goes out while it is locked. */
  imei?: string;
}

async function lockedNow(imei: string): Promise<boolean> {
  const unit = await getUnitItem(imei, { consistent: true });
  return unit?.lockedBy !== undefined;
}

/** Queues the event for each active subscription of the account to its type; never throws. Answers how many deliveries were queued. */
export async function emitWebhookEvent(input: EmitInput, ports: Pick<Ports, 'queues' | 'clock'> = getPorts()): Promise<number> {
  try {
    const subscribers = (await subscribersOf(input.accountId, ports.clock.now().getTime())).filter((s) => s.events.includes(input.type));
    if (!subscribers.length) return 0;
    if (input.imei !== undefined && (await lockedNow(input.imei))) return 0;
    await Promise.all(
      subscribers.map((s) => {
        const message: DeliveryMessage = {
          accountId: input.accountId,
          hookId: s.id,
          deliveryId: deliveryIdOf(s.id, input.type, input.sourceId),
          attempt: 1,
          event: { type: input.type, sourceId: input.sourceId, occurredAt: input.occurredAt, data: input.data },
        };
        return ports.queues.send('webhook-delivery', message);
      }),
    );
    return subscribers.length;
  } catch (error) {
    logger.error('webhook event not queued', { accountId: input.accountId, type: input.type, sourceId: input.sourceId, error: error instanceof Error ? error.message : String(error) });
    return 0;
  }
}
