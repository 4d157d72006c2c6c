/**
 * The push capability's routes (spread into the manifest, shared/routes.ts): Web Push to the
 * portal's installed app, docs/decisions/0048-web-push.md.
 */
import { defineRoute } from '../route-def';
import {
  PUSH_SUBSCRIPTIONS_MAX,
  pushSubscriptionDeleteQuerySchema,
  pushSubscriptionListSchema,
  pushSubscriptionRequestSchema,
  pushSubscriptionSavedSchema,
  vapidPublicKeySchema,
} from '../schemas/push';
import { z } from 'zod';

export const pushRoutes = {
  getVapidPublicKey: defineRoute({
    operationId: 'getVapidPublicKey',
    method: 'GET',
    path: '/api/v1/user/push/vapid-public-key',
    capability: 'push',
    file: 'get-vapid-public-key',
    access: 'member',
    summary: "The deployment's VAPID public key (base64url, an uncompressed P-256 point): the browser's `applicationServerKey` for `pushManager.subscribe`.",
    response: vapidPublicKeySchema,
  }),
  getPushSubscriptions: defineRoute({
    operationId: 'getPushSubscriptions',
    method: 'GET',
    path: '/api/v1/user/push/subscriptions',
    capability: 'push',
    file: 'get-push-subscriptions',
    access: 'member',
    summary: "The caller's subscribed browsers, newest first: id, the push service's host and when it was added.",
    response: pushSubscriptionListSchema,
  }),
  postPushSubscription: defineRoute({
    operationId: 'postPushSubscription',
    method: 'POST',
    path: '/api/v1/user/push/subscriptions',
    capability: 'push',
    file: 'post-push-subscription',
    access: 'member',
    summary: `Registers this browser's push subscription (\`PushSubscription.toJSON()\`: endpoint, keys p256dh and auth) for the caller; the same endpoint again replaces its keys, and an endpoint another user registered on this browser passes to the caller. An https endpoint (InvalidPushEndpoint; private and loopback hosts PushEndpointNotAllowed), a P-256 key (InvalidPushKey), a 16-byte auth secret (InvalidPushAuth); at most ${PUSH_SUBSCRIPTIONS_MAX} per user (TooManyPushSubscriptions). A user with one has a push id for the alarm receivers.`,
    body: pushSubscriptionRequestSchema,
    response: pushSubscriptionSavedSchema,
  }),
  deletePushSubscription: defineRoute({
    operationId: 'deletePushSubscription',
    method: 'DELETE',
    path: '/api/v1/user/push/subscriptions',
    capability: 'push',
    file: 'delete-push-subscription',
    access: 'member',
    summary: "Removes one of the caller's subscriptions, by `id` or by `endpoint` (query); another user's answers 404 PushSubscriptionNotFound.",
    query: pushSubscriptionDeleteQuerySchema,
    response: z.object({ removed: z.literal(true) }),
  }),
};
