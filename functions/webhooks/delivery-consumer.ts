/**
 * The `webhook-delivery` queue's consumer (shared/queues.ts): one message is one attempt of one
 * delivery (docs/decisions/0046-webhooks.md).
 *
 * 1. A message held back longer than the queue can delay it goes back for the rest of its wait.
 * 2. The first attempt creates the delivery (once: its id derives from the source event), with the
 *    body every attempt sends.
 * 3. The attempt is claimed (repository.ts `claimAttempt`): a duplicate message, or the same
 *    event emitted twice, finds it claimed or done and sends nothing.
 * 4. The endpoint is checked again (endpoint-policy.ts) and the body POSTed to the checked address,
 *    signed, with the delivery id as `Webhook-Id` on every attempt.
 * 5. A 2xx ends the delivery. Anything else is recorded and the next attempt queued with backoff
 *    (backoff.ts), until the last attempt, which fails the delivery. A subscription failing too
 *    often is paused and its account's admins get one e-mail (pause-mail.ts).
 *
 * A receiver may still see an attempt twice: when its answer is lost (a timeout after it
 * processed the body), or when the consumer dies between sending and recording. It recognises the
 * repeat by `Webhook-Id`.
 */
import { rootCertificates } from 'node:tls';
import { getPorts } from '../platform/container';
import { getEnv } from '../platform/env';
import { logger } from '../platform/logger';
import type { Ports } from '../platform/ports';
import { queueConsumer } from '../platform/queue-consumer';
import { retryDelayMs, shouldPause, WEBHOOK_MAX_ATTEMPTS } from './backoff';
import { deliveryMessageSchema, type DeliveryMessage } from './delivery-message';
import { checkEndpoint, policyFor, type Lookup } from './endpoint-policy';
import { sendPauseMails } from './pause-mail';
import {
  abandonDelivery,
  claimAttempt,
  createDelivery,
  findHook,
  getDelivery,
  markHookFailing,
  markHookHealthy,
  pauseFailingHook,
  recordAttempt,
  type DeliveryItem,
} from './repository';
import { postDelivery, SEND_TIMEOUT_MS } from './send';
import { signWebhook } from './signing';

/** SQS delays a message by at most 15 minutes. */
const MAX_QUEUE_DELAY_MS = 900_000;
/** How long a claimed attempt is the claimer's: the send's timeout and the writes around it. */
const CLAIM_MS = SEND_TIMEOUT_MS + 20_000;

type DeliveryPorts = Pick<Ports, 'queues' | 'clock' | 'mailer'>;

export interface DeliveryOptions {
  lookup?: Lookup;
  /** Shortens the retry schedule: only the embedded runtime reads WEBHOOK_RETRY_SCALE (tests), never the stack. */
  retryScale?: number;
}

function retryScale(): number {
  const env = getEnv();
  if (env.RUNTIME !== 'embedded') return 1;
  const scale = Number(process.env['WEBHOOK_RETRY_SCALE']);
  return Number.isFinite(scale) && scale > 0 && scale <= 1 ? scale : 1;
}

async function queueAttempt(message: DeliveryMessage, delayMs: number, ports: DeliveryPorts): Promise<void> {
  const now = ports.clock.now().getTime();
  const { event: _event, notBefore: _notBefore, ...rest } = message;
  const next: DeliveryMessage = { ...rest, ...(delayMs > MAX_QUEUE_DELAY_MS ? { notBefore: now + delayMs } : {}) };
  await ports.queues.send('webhook-delivery', next, { delaySeconds: Math.min(delayMs, MAX_QUEUE_DELAY_MS) / 1000 });
}

/** Pauses the subscription when it fails too often, and sends the pause e-mails the pause still owes. */
async function afterFailure(message: DeliveryMessage, deliveryFailed: boolean, ports: DeliveryPorts): Promise<void> {
  const now = ports.clock.now();
  const hook = await markHookFailing(message.accountId, message.hookId, now.getTime(), deliveryFailed);
  if (!hook) return;
  if (hook.active && shouldPause(hook.consecutiveFailures ?? 0, hook.failingSince ?? null, now.getTime())) {
    if (await pauseFailingHook(message.accountId, message.hookId, now)) {
      logger.warn('webhook subscription paused after repeated failures', { accountId: message.accountId, hookId: message.hookId, failures: hook.consecutiveFailures });
    }
  }
  await mailIfPaused(message, ports);
}

async function mailIfPaused(message: Pick<DeliveryMessage, 'accountId' | 'hookId'>, ports: DeliveryPorts): Promise<void> {
  const hook = await findHook(message.accountId, message.hookId);
  if (hook && !hook.active && hook.pausedReason === 'failing' && hook.pauseId && !hook.pauseMailDone) await sendPauseMails(hook, ports);
}

export async function deliver(message: DeliveryMessage, ports: DeliveryPorts = getPorts(), options: DeliveryOptions = {}): Promise<void> {
  const now = ports.clock.now();
  if (message.notBefore !== undefined && message.notBefore > now.getTime() + 1_000) {
    await queueAttempt(message, message.notBefore - now.getTime(), ports);
    return;
  }
  const hook = await findHook(message.accountId, message.hookId);
  if (message.attempt === 1 && message.event) {
    if (!hook) return;
    const { type, sourceId, occurredAt, data } = message.event;
    const body = JSON.stringify({ id: message.deliveryId, type, occurredAt, accountId: message.accountId, data });
    await createDelivery({ accountId: message.accountId, id: message.deliveryId, hookId: message.hookId, type, sourceId, test: message.test === true, body }, now);
  }
  const delivery = await getDelivery(message.accountId, message.deliveryId);
  if (!delivery || delivery.status !== 'pending') return;
  if (!hook || (!hook.active && !delivery.test)) {
    await abandonDelivery(delivery, hook ? 'WebhookNotSentPaused' : 'WebhookNotSentDeleted');
    return;
  }
  if (!(await claimAttempt(delivery, message.attempt, now, CLAIM_MS))) {
    // The attempt was done and its successor recorded, but queueing it failed: queue it again (a duplicate is dropped by its claim).
    if (delivery.nextAttempt === message.attempt + 1 && delivery.attempts === message.attempt && delivery.inFlight === undefined) {
      const due = delivery.nextAttemptAt ? Date.parse(delivery.nextAttemptAt) - now.getTime() : 0;
      await queueAttempt({ ...message, attempt: message.attempt + 1 }, Math.max(0, due), ports);
    }
    return;
  }
  await attempt(message, delivery, hook.url, hook.secret, ports, options);
}

async function attempt(message: DeliveryMessage, delivery: DeliveryItem, url: string, secret: string, ports: DeliveryPorts, options: DeliveryOptions): Promise<void> {
  const n = message.attempt;
  const env = getEnv();
  const checked = await checkEndpoint(url, policyFor(env.RUNTIME), options.lookup);
  let outcome: { ok: boolean; code: number | null; timeMs: number | null; excerpt: string | null; error: string | null };
  if ('refusal' in checked) {
    outcome = { ok: false, code: null, timeMs: null, excerpt: null, error: 'WebhookAddressRefused' };
  } else {
    const timestamp = Math.floor(ports.clock.now().getTime() / 1000);
    const result = await postDelivery(checked.url, checked.target, delivery.body, {
      'webhook-id': delivery.id,
      'webhook-timestamp': String(timestamp),
      'webhook-signature': signWebhook(secret, timestamp, delivery.body),
    }, env.RUNTIME === 'embedded' && env.WEBHOOK_CA ? { ca: [...rootCertificates, env.WEBHOOK_CA] } : {});
    outcome =
      'status' in result
        ? { ok: result.ok, code: result.status, timeMs: result.durationMs, excerpt: result.excerpt, error: null }
        : { ok: false, code: null, timeMs: result.durationMs, excerpt: null, error: result.error };
  }
  const fields = { attempt: n, responseCode: outcome.code, responseTimeMs: outcome.timeMs, responseExcerpt: outcome.excerpt, error: outcome.error };
  if (outcome.ok) {
    if (await recordAttempt(delivery, { ...fields, outcome: 'succeeded' })) await markHookHealthy(message.accountId, message.hookId);
    return;
  }
  const last = n >= WEBHOOK_MAX_ATTEMPTS;
  const delayMs = last ? 0 : retryDelayMs(n, Math.random, options.retryScale ?? retryScale());
  const nextAttemptAt = new Date(ports.clock.now().getTime() + delayMs);
  if (!(await recordAttempt(delivery, { ...fields, outcome: last ? 'failed' : 'retry', ...(last ? {} : { nextAttemptAt }) }))) return;
  if (!last) await queueAttempt({ ...message, attempt: n + 1 }, delayMs, ports);
  // A sample that fails (a receiver may refuse test data) never pauses the real deliveries.
  if (!delivery.test) await afterFailure(message, last, ports);
}

export const handler = queueConsumer('webhook-delivery', deliveryMessageSchema, (message) => deliver(message), { parallel: true });
