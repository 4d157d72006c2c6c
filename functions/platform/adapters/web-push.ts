/**
 * Web Push over HTTP, shared by both runtimes (docs/decisions/0048-web-push.md): the `web-push`
 * library encrypts the payload for the browser (aes128gcm, RFC 8291) and signs the VAPID JWT
 * (RFC 8292); the request itself goes out with `fetch`, so that the embedded runtime can also reach
 * a plain-http push service on the loopback address (a test's receiver).
 *
 * The VAPID key pair is derived from a seed of random text: on AWS a secret that Secrets Manager
 * generated when the stack created it, in the embedded runtime a file under DATA_DIR (or memory).
 * The same seed always gives the same keys, so every function and every cold start agrees without
 * a key ever being written after deployment.
 */
import { createECDH, hkdfSync } from 'node:crypto';
import webpush from 'web-push';
import type { WebPushMessage, WebPushOutcome } from '../ports';

/** The order of P-256's base point. */
const P256_ORDER = 0xffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551n;

export interface VapidKeys {
  /** Uncompressed P-256 point, base64url (65 bytes). */
  publicKey: string;
  /** The private scalar, base64url (32 bytes). */
  privateKey: string;
}

/**
 * The VAPID key pair of a seed: HKDF-SHA256 gives 48 bytes, reduced into [1, n-1] (FIPS 186-5
 * A.2.1, extra bits so the scalar is uniform). Throws on a seed too short to hold 128 bits.
 */
export function vapidKeysFromSeed(seed: string): VapidKeys {
  if (seed.length < 32) throw new Error('the VAPID seed is shorter than 32 characters');
  const bytes = Buffer.from(hkdfSync('sha256', seed, 'tracking-portal/vapid', 'p256-private-key', 48));
  const scalar = (BigInt(`0x${bytes.toString('hex')}`) % (P256_ORDER - 1n)) + 1n;
  const privateKey = Buffer.from(scalar.toString(16).padStart(64, '0'), 'hex');
  const ecdh = createECDH('prime256v1');
  ecdh.setPrivateKey(privateKey);
  return { publicKey: ecdh.getPublicKey().toString('base64url'), privateKey: privateKey.toString('base64url') };
}

/** The push service refused for a reason other than a subscription that is gone: the queue retries. */
export class WebPushDeliveryError extends Error {
  override name = 'WebPushDeliveryError';
}

export interface VapidDetails extends VapidKeys {
  /** `mailto:` or an https URL the push service can reach the sender at. */
  subject: string;
}

/** The encrypted request for one message: method, URL, headers and body. */
export function webPushRequest(message: WebPushMessage, vapid: VapidDetails): { url: string; init: RequestInit } {
  const details = webpush.generateRequestDetails(
    { endpoint: message.subscription.endpoint, keys: { p256dh: message.subscription.p256dh, auth: message.subscription.auth } },
    JSON.stringify(message.payload),
    { vapidDetails: vapid, TTL: message.ttlSeconds, urgency: message.urgency, contentEncoding: 'aes128gcm' },
  );
  const headers: Record<string, string> = {};
  // fetch sets the body's length itself.
  for (const [name, value] of Object.entries(details.headers)) if (name.toLowerCase() !== 'content-length') headers[name] = String(value);
  return { url: details.endpoint, init: { method: details.method, headers, body: new Uint8Array(details.body) } };
}

/** Sends one message: 'gone' on 404 or 410, throws WebPushDeliveryError on any other failure. */
export async function sendWebPush(message: WebPushMessage, vapid: VapidDetails, timeoutMs = 10_000): Promise<WebPushOutcome> {
  const { url, init } = webPushRequest(message, vapid);
  let response: Response;
  try {
    // A push service answers 201; a redirect is not followed (the endpoint is the browser's, checked once).
    response = await fetch(url, { ...init, redirect: 'manual', signal: AbortSignal.timeout(timeoutMs) });
  } catch (error) {
    throw new WebPushDeliveryError(`push service of ${new URL(url).host} not reached: ${error instanceof Error ? error.message : String(error)}`);
  }
  const text = await response.text().catch(() => '');
  if (response.status === 404 || response.status === 410) return 'gone';
  if (response.status < 200 || response.status > 299) {
    throw new WebPushDeliveryError(`push service of ${new URL(url).host} answered ${response.status}: ${text.slice(0, 300)}`);
  }
  return 'sent';
}

/** A subject from a sender address such as `Portal <no-reply@example.se>`. */
export function mailtoSubject(from: string): string {
  const address = /<([^>]+)>/.exec(from)?.[1] ?? from;
  return `mailto:${address.trim()}`;
}
