/**
 * Registers the service worker (dist/sw.js), once the page has settled (page-loads.ts); main.tsx imports this
 * module lazily, so none of it is on the login route's critical path. Keeps what the update
 * prompt needs: whether a new version is waiting. A new version never takes over by itself: the
 * prompt asks it to (`activateWaiting`), and then the page reloads once it controls the page.
 */
import { OUTBOX_SYNC_TAG } from './sw-rules';

type Listener = () => void;

let waiting: ServiceWorker | null = null;
const listeners = new Set<Listener>();
const outboxListeners = new Set<Listener>();

function setWaiting(worker: ServiceWorker | null): void {
  waiting = worker;
  for (const listener of listeners) listener();
}

export function waitingWorker(): ServiceWorker | null {
  return waiting;
}

export function subscribeWaiting(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Called when the service worker asks the page to send the outbox (Background Sync). */
export function onOutboxSyncRequest(listener: Listener): () => void {
  outboxListeners.add(listener);
  return () => outboxListeners.delete(listener);
}

/** The waiting version takes over; the page reloads when it controls the page. */
export function activateWaiting(): void {
  const worker = waiting;
  if (!worker) return;
  let reloaded = false;
  navigator.serviceWorker.addEventListener('controllerchange', () => {
    if (reloaded) return;
    reloaded = true;
    window.location.reload();
  });
  worker.postMessage({ type: 'SKIP_WAITING' });
}

function watch(registration: ServiceWorkerRegistration): void {
  // A worker already waiting (a version installed while another tab held the old one).
  if (registration.waiting && navigator.serviceWorker.controller) setWaiting(registration.waiting);
  registration.addEventListener('updatefound', () => {
    const installing = registration.installing;
    installing?.addEventListener('statechange', () => {
      // The first install has no controller to replace: nothing to offer.
      if (installing.state === 'installed' && navigator.serviceWorker.controller) setWaiting(installing);
    });
  });
}

export async function registerServiceWorker(): Promise<ServiceWorkerRegistration | null> {
  if (!('serviceWorker' in navigator) || !window.isSecureContext) return null;
  navigator.serviceWorker.addEventListener('message', (event: MessageEvent<{ type?: string } | null>) => {
    if (event.data?.type === OUTBOX_SYNC_TAG) for (const listener of outboxListeners) listener();
  });
  try {
    const registration = await navigator.serviceWorker.register('/sw.js', { scope: '/' });
    watch(registration);
    // A page left open for days still learns of new versions: ask hourly.
    window.setInterval(() => void registration.update().catch(() => undefined), 60 * 60_000);
    return registration;
  } catch (error) {
    console.warn('The service worker could not be registered', error);
    return null;
  }
}

/** Asks for a Background Sync of the outbox where the browser has it; false where it does not. */
export async function requestOutboxSync(): Promise<boolean> {
  if (!('serviceWorker' in navigator)) return false;
  const registration = await navigator.serviceWorker.getRegistration();
  const sync = (registration as (ServiceWorkerRegistration & { sync?: { register(tag: string): Promise<void> } }) | undefined)?.sync;
  if (!sync) return false;
  try {
    await sync.register(OUTBOX_SYNC_TAG);
    return true;
  } catch {
    return false;
  }
}
