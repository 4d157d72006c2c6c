/**
 * Webhook signatures (docs/api.md Webhooks): `Webhook-Signature: v1=<hex HMAC-SHA256>` over
 * `<Webhook-Timestamp>.<body>`, keyed with the subscription's secret (the whole `whsec_...` text
 * as UTF-8). `verifyWebhookSignature` is what a receiver does; the tests use it, and docs/api.md
 * shows the same steps.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

export const SECRET_PREFIX = 'whsec_';

export function newWebhookSecret(): string {
  return `${SECRET_PREFIX}${randomBytes(32).toString('base64url')}`;
}

export function signWebhook(secret: string, timestampSeconds: number, body: string): string {
  return `v1=${createHmac('sha256', secret).update(`${timestampSeconds}.${body}`).digest('hex')}`;
}

/** Whether a delivery's headers match its body: the signature, and a timestamp within `toleranceSeconds` of `nowSeconds`. */
export function verifyWebhookSignature(
  secret: string,
  headers: { timestamp: string | undefined; signature: string | undefined },
  body: string,
  nowSeconds: number,
  toleranceSeconds = 300,
): boolean {
  const timestamp = Number(headers.timestamp);
  if (!Number.isInteger(timestamp) || Math.abs(nowSeconds - timestamp) > toleranceSeconds || !headers.signature) return false;
  const expected = Buffer.from(signWebhook(secret, timestamp, body));
  // A header may carry several signatures separated by spaces (a future secret rotation).
  return headers.signature.split(' ').some((candidate) => {
    const given = Buffer.from(candidate);
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}
