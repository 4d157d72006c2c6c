/**
 * The service worker's part of Web Push (docs/decisions/0048-web-push.md): `push` shows the alarm
 * as a notification (the payload of shared/schemas/push.ts, texts already in the receiver's
 * language), and `notificationclick` brings the portal to the alarm: an open portal window is
 * focused and taken to the alarm's address, else a new window opens there.
 *
 * The service worker itself is the installable app's (web/src/pwa); it calls
 * `registerPushHandlers(self)` once. The scope is typed here by the few members these handlers
 * use, so that this module compiles with the DOM library as the rest of the web app does, and the
 * real `ServiceWorkerGlobalScope` of the webworker library fits it.
 */
import type { PushPayload } from '../../../../shared/schemas/push';

interface ExtendableEvent {
  waitUntil(promise: Promise<unknown>): void;
}
interface PushEvent extends ExtendableEvent {
  readonly data: { json(): unknown; text(): string } | null;
}
interface NotificationEvent extends ExtendableEvent {
  readonly notification: { readonly data: unknown; readonly tag: string; close(): void };
}
interface WindowClientLike {
  readonly url: string;
  focus(): Promise<WindowClientLike>;
  navigate(url: string): Promise<WindowClientLike | null>;
}

/** The members of a service worker's global scope that the push handlers use. */
export interface ServiceWorkerGlobalScope {
  readonly location: { readonly origin: string };
  readonly registration: { showNotification(title: string, options?: NotificationOptions): Promise<void> };
  readonly clients: {
    matchAll(options: { type: 'window'; includeUncontrolled: boolean }): Promise<readonly WindowClientLike[]>;
    openWindow(url: string): Promise<WindowClientLike | null>;
  };
  addEventListener(type: 'push', listener: (event: PushEvent) => void): void;
  addEventListener(type: 'notificationclick', listener: (event: NotificationEvent) => void): void;
}

/** The payload of a push, or null for one this portal did not send. */
export function readPayload(event: Pick<PushEvent, 'data'>): PushPayload | null {
  if (!event.data) return null;
  let value: unknown;
  try {
    value = event.data.json();
  } catch {
    return null;
  }
  // Checked by hand: the service worker stays free of the schema library.
  const record = (typeof value === 'object' && value !== null ? value : {}) as Record<string, unknown>;
  const fields = ['title', 'body', 'url', 'tag'] as const;
  if (!fields.every((f) => typeof record[f] === 'string')) return null;
  return { title: record['title'] as string, body: record['body'] as string, url: record['url'] as string, tag: record['tag'] as string };
}

/** An address on the portal's own origin (a payload never sends the browser elsewhere). */
export function portalUrl(origin: string, url: unknown): string {
  if (typeof url !== 'string') return `${origin}/`;
  try {
    const resolved = new URL(url, origin);
    return resolved.origin === origin ? resolved.href : `${origin}/`;
  } catch {
    return `${origin}/`;
  }
}

async function openAt(sw: ServiceWorkerGlobalScope, url: string): Promise<void> {
  const windows = await sw.clients.matchAll({ type: 'window', includeUncontrolled: true });
  const portal = windows.find((w) => w.url.startsWith(sw.location.origin));
  if (portal) {
    const focused = await portal.focus();
    await focused.navigate(url);
    return;
  }
  await sw.clients.openWindow(url);
}

export function registerPushHandlers(sw: ServiceWorkerGlobalScope): void {
  sw.addEventListener('push', (event) => {
    const payload = readPayload(event);
    if (!payload) return;
    // `renotify`: a second push about the same alarm (same tag) alerts again rather than silently replacing.
    const options: NotificationOptions & { renotify?: boolean } = {
      body: payload.body,
      tag: payload.tag,
      renotify: true,
      data: { url: portalUrl(sw.location.origin, payload.url) },
    };
    event.waitUntil(sw.registration.showNotification(payload.title, options));
  });
  sw.addEventListener('notificationclick', (event) => {
    event.notification.close();
    const data = event.notification.data as { url?: unknown } | null;
    event.waitUntil(openAt(sw, portalUrl(sw.location.origin, data?.url)));
  });
}
