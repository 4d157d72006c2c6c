/** Web Push subscriptions of the signed-in user (docs/api.md Web Push). */
import { routes } from '../../../../../shared/routes';
import { pushSubscriptionListSchema, pushSubscriptionSavedSchema, vapidPublicKeySchema, type PushSubscriptionView } from '../../../../../shared/schemas/push';
import { apiRequest } from '../../../app/api-client';

export async function fetchVapidPublicKey(): Promise<string> {
  return (await apiRequest('GET', routes.getVapidPublicKey.path, { schema: vapidPublicKeySchema })).publicKey;
}

export async function fetchOwnSubscriptions(): Promise<PushSubscriptionView[]> {
  return (await apiRequest('GET', routes.getPushSubscriptions.path, { schema: pushSubscriptionListSchema })).subscriptions;
}

/** Registers the browser's subscription as `PushSubscription.toJSON()` gives it. */
export async function saveSubscription(subscription: PushSubscriptionJSON): Promise<string> {
  return (await apiRequest('POST', routes.postPushSubscription.path, { body: subscription, schema: pushSubscriptionSavedSchema })).id;
}

export async function removeSubscription(endpoint: string): Promise<void> {
  await apiRequest('DELETE', `${routes.deletePushSubscription.path}?${new URLSearchParams({ endpoint }).toString()}`);
}

/** The server's id of an endpoint: base64url SHA-256, as functions/push/subscriptions.ts makes it. */
export async function subscriptionIdOf(endpoint: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(endpoint)));
  let binary = '';
  for (const byte of digest) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** A base64url key as the bytes `pushManager.subscribe` takes for `applicationServerKey`. */
export function base64urlToBytes(text: string): Uint8Array<ArrayBuffer> {
  const base64 = text.replace(/-/g, '+').replace(/_/g, '/').padEnd(Math.ceil(text.length / 4) * 4, '=');
  const binary = atob(base64);
  const bytes = new Uint8Array(new ArrayBuffer(binary.length));
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}
