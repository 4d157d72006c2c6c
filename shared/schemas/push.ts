/**
 * Web Push to the portal's installed app (docs/decisions/0048-web-push.md): the browser's
 * subscription as `PushSubscription.toJSON()` gives it, the VAPID public key the browser subscribes
 * with, and the user's own subscriptions (one per browser or device).
 */
import { z } from 'zod';

export const pushMessageKeys = {
  /** Not an https URL (the embedded runtime also takes http on the loopback address, for local tests). */
  InvalidPushEndpoint: 'InvalidPushEndpoint',
  /** A push endpoint on a private, loopback or local address (refused on AWS). */
  PushEndpointNotAllowed: 'PushEndpointNotAllowed',
  /** p256dh is not a base64url P-256 public key (65 bytes, uncompressed). */
  InvalidPushKey: 'InvalidPushKey',
  /** auth is not a base64url 16-byte secret. */
  InvalidPushAuth: 'InvalidPushAuth',
  /** Neither an id nor an endpoint to remove. */
  PushSubscriptionRequired: 'PushSubscriptionRequired',
  /** No such subscription of the caller (another user's is none). */
  PushSubscriptionNotFound: 'PushSubscriptionNotFound',
  /** The user has more browsers subscribed than PUSH_SUBSCRIPTIONS_MAX. */
  TooManyPushSubscriptions: 'TooManyPushSubscriptions',
} as const;
const keys = pushMessageKeys;

/** Browsers and devices per user: a phone, a tablet and some desktops. */
export const PUSH_SUBSCRIPTIONS_MAX = 10;
/** Push services' endpoints are well under 1 KB; this leaves room. */
export const PUSH_ENDPOINT_MAX = 2048;

const base64url = /^[A-Za-z0-9_-]+={0,2}$/;
/** Length in bytes of a base64url text (padding allowed), or -1 when it is not base64url. */
export function base64urlBytes(text: string): number {
  if (!base64url.test(text)) return -1;
  const bare = text.replace(/=+$/, '');
  if (bare.length % 4 === 1) return -1;
  return Math.floor((bare.length * 3) / 4);
}

export const pushKeysSchema = z.object({
  p256dh: z
    .string({ message: keys.InvalidPushKey })
    .max(100, { message: keys.InvalidPushKey })
    // An uncompressed P-256 point: 65 bytes starting with 0x04 ('B' in base64url).
    .refine((v) => base64urlBytes(v) === 65 && v.startsWith('B'), { message: keys.InvalidPushKey }),
  auth: z
    .string({ message: keys.InvalidPushAuth })
    .max(30, { message: keys.InvalidPushAuth })
    .refine((v) => base64urlBytes(v) === 16, { message: keys.InvalidPushAuth }),
});

/** POST /api/v1/user/push/subscriptions: `PushSubscription.toJSON()`, exactly as the browser gives it. */
export const pushSubscriptionRequestSchema = z.object({
  endpoint: z.string({ message: keys.InvalidPushEndpoint }).trim().min(1, { message: keys.InvalidPushEndpoint }).max(PUSH_ENDPOINT_MAX, { message: keys.InvalidPushEndpoint }),
  expirationTime: z.number().nullable().optional(),
  keys: pushKeysSchema,
});
export type PushSubscriptionRequest = z.infer<typeof pushSubscriptionRequestSchema>;

/** DELETE /api/v1/user/push/subscriptions: by the id the POST answered, or by the browser's endpoint. */
export const pushSubscriptionDeleteQuerySchema = z
  .object({
    id: z.string().trim().regex(/^[A-Za-z0-9_-]{1,64}$/, { message: keys.PushSubscriptionNotFound }).optional(),
    endpoint: z.string().trim().min(1).max(PUSH_ENDPOINT_MAX, { message: keys.InvalidPushEndpoint }).optional(),
  })
  .refine((q) => q.id !== undefined || q.endpoint !== undefined, { message: keys.PushSubscriptionRequired, path: ['id'] });

/** One subscribed browser of the user; the endpoint's host only (the full URL is a capability). */
export const pushSubscriptionSchema = z.object({
  id: z.string(),
  host: z.string(),
  createdAt: z.string(),
});
export type PushSubscriptionView = z.infer<typeof pushSubscriptionSchema>;

export const pushSubscriptionListSchema = z.object({ subscriptions: z.array(pushSubscriptionSchema) });
export const pushSubscriptionSavedSchema = z.object({ id: z.string() });
export const vapidPublicKeySchema = z.object({ publicKey: z.string() });

/**
 * What a push carries to the service worker (web/src/features/push/service-worker-push.ts): the
 * texts in the receiver's alert language, the address that opens the event, and a tag, so that a
 * second push about the same event replaces the first notification.
 */
export const pushPayloadSchema = z.object({
  title: z.string(),
  body: z.string(),
  url: z.string(),
  tag: z.string(),
});
export type PushPayload = z.infer<typeof pushPayloadSchema>;
