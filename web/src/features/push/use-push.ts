/**
 * Push notifications on this browser: what it can do, what the user allowed, and whether this
 * browser is subscribed for the signed-in user; `enable` asks for permission, subscribes through
 * the service worker's push manager with the deployment's VAPID key and registers the
 * subscription; `disable` removes it from the portal and unsubscribes.
 */
import { useCallback, useEffect, useState } from 'react';
import { ApiError } from '../../app/api-client';
import { base64urlToBytes, fetchOwnSubscriptions, fetchVapidPublicKey, removeSubscription, saveSubscription, subscriptionIdOf } from './api/push-api';

/**
 * - unsupported: no service worker, push manager or notifications here (or no service worker
 *   registered for the portal: on iOS only an app added to the home screen has one);
 * - denied: the user blocked notifications for the portal;
 * - disabled: possible, not on for this user on this browser;
 * - enabled: this browser gets the user's alarms.
 */
export type PushState = 'checking' | 'unsupported' | 'denied' | 'disabled' | 'enabled';

export function pushCapable(scope: { navigator: Navigator } & Partial<Record<'PushManager' | 'Notification', unknown>>): boolean {
  return 'serviceWorker' in scope.navigator && scope.PushManager !== undefined && scope.Notification !== undefined;
}

/** How long to wait for the portal's service worker, which registers itself after the login (web/src/pwa/start.ts). */
const REGISTRATION_WAIT_MS = 5_000;

async function registration(): Promise<ServiceWorkerRegistration | null> {
  const now = await navigator.serviceWorker.getRegistration();
  if (now) return now;
  // On the first visit the worker may still be on its way; `ready` never settles without one.
  return Promise.race([navigator.serviceWorker.ready, new Promise<null>((resolve) => window.setTimeout(() => resolve(null), REGISTRATION_WAIT_MS))]);
}

async function readState(): Promise<PushState> {
  if (!pushCapable(window as unknown as { navigator: Navigator } & Record<string, unknown>)) return 'unsupported';
  if (Notification.permission === 'denied') return 'denied';
  const reg = await registration();
  if (!reg) return 'unsupported';
  const subscription = await reg.pushManager.getSubscription();
  if (!subscription || Notification.permission !== 'granted') return 'disabled';
  // Subscribed in this browser, but perhaps for another user who signed in here before.
  const [id, own] = await Promise.all([subscriptionIdOf(subscription.endpoint), fetchOwnSubscriptions()]);
  return own.some((s) => s.id === id) ? 'enabled' : 'disabled';
}

export function usePush() {
  const [state, setState] = useState<PushState>('checking');
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    let live = true;
    readState()
      .then((s) => live && setState(s))
      .catch(() => live && setState('disabled'));
    return () => {
      live = false;
    };
  }, []);

  const enable = useCallback(async (): Promise<PushState> => {
    setBusy(true);
    try {
      const permission = await Notification.requestPermission();
      if (permission !== 'granted') {
        const next = permission === 'denied' ? 'denied' : 'disabled';
        setState(next);
        return next;
      }
      const reg = await registration();
      if (!reg) {
        setState('unsupported');
        return 'unsupported';
      }
      const key = base64urlToBytes(await fetchVapidPublicKey());
      let subscription = await reg.pushManager.getSubscription();
      // A subscription made with another key (or by another deployment) cannot be reused.
      const current = subscription?.options.applicationServerKey;
      if (subscription && (!current || !sameBytes(new Uint8Array(current), key))) {
        await subscription.unsubscribe();
        subscription = null;
      }
      subscription ??= await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key });
      await saveSubscription(subscription.toJSON());
      setState('enabled');
      return 'enabled';
    } finally {
      setBusy(false);
    }
  }, []);

  const disable = useCallback(async (): Promise<PushState> => {
    setBusy(true);
    try {
      const subscription = await (await registration())?.pushManager.getSubscription();
      if (subscription) {
        await removeSubscription(subscription.endpoint).catch((error: unknown) => {
          // Already gone on the server (removed by the opt-out page, say): unsubscribe all the same.
          if (!(error instanceof ApiError && error.status === 404)) throw error;
        });
        await subscription.unsubscribe();
      }
      setState('disabled');
      return 'disabled';
    } finally {
      setBusy(false);
    }
  }, []);

  return { state, busy, enable, disable };
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((v, i) => v === b[i]);
}
