import { describe, expect, it, vi } from 'vitest';
import { portalUrl, readPayload, registerPushHandlers, type ServiceWorkerGlobalScope } from './service-worker-push';

const ORIGIN = 'https://portal.example.se';

/** A service worker scope of the members the handlers use, recording what they do. */
function fakeScope(windows: { url: string }[] = []) {
  const listeners = new Map<string, (event: unknown) => void>();
  const shown: { title: string; options: NotificationOptions | undefined }[] = [];
  const navigated: string[] = [];
  const opened: string[] = [];
  const focused: string[] = [];
  const clients = windows.map((w) => {
    const client = {
      url: w.url,
      focus: () => {
        focused.push(w.url);
        return Promise.resolve(client);
      },
      navigate: (url: string) => {
        navigated.push(url);
        return Promise.resolve(client);
      },
    };
    return client;
  });
  const scope: ServiceWorkerGlobalScope = {
    location: { origin: ORIGIN },
    registration: {
      showNotification: (title, options) => {
        shown.push({ title, options });
        return Promise.resolve();
      },
    },
    clients: {
      matchAll: () => Promise.resolve(clients),
      openWindow: (url) => {
        opened.push(url);
        return Promise.resolve(null);
      },
    },
    addEventListener: (type: string, listener: (event: never) => void) => {
      listeners.set(type, listener as (event: unknown) => void);
    },
  };
  /** Dispatches an event and waits for what it handed to waitUntil. */
  const dispatch = async (type: string, event: Record<string, unknown>) => {
    const waits: Promise<unknown>[] = [];
    listeners.get(type)!({ ...event, waitUntil: (p: Promise<unknown>) => waits.push(p) });
    await Promise.all(waits);
    return waits.length;
  };
  return { scope, dispatch, shown, navigated, opened, focused };
}

const pushOf = (value: unknown) => ({ data: { json: () => value, text: () => JSON.stringify(value) } });
const payload = { title: 'Service van 1', body: 'Lämnade Depot, 30 nov. 2026 03:00', url: '/user/alerts?imei=1&type=geofenceExit&period=24h', tag: 'alarm:1.x' };

describe('registerPushHandlers', () => {
  it('shows a push as a notification with its tag and the address it opens', async () => {
    const sw = fakeScope();
    registerPushHandlers(sw.scope);
    expect(await sw.dispatch('push', pushOf(payload))).toBe(1);
    expect(sw.shown).toEqual([{ title: payload.title, options: expect.objectContaining({ body: payload.body, tag: payload.tag, data: { url: `${ORIGIN}${payload.url}` } }) as unknown }]);
  });

  it("ignores a push that is not the portal's", async () => {
    const sw = fakeScope();
    registerPushHandlers(sw.scope);
    expect(await sw.dispatch('push', { data: null })).toBe(0);
    expect(await sw.dispatch('push', pushOf({ title: 'x' }))).toBe(0);
    expect(await sw.dispatch('push', { data: { json: () => { throw new SyntaxError('not JSON'); }, text: () => '' } })).toBe(0);
    expect(sw.shown).toEqual([]);
  });

  it('takes an open portal window to the alarm, else opens one', async () => {
    const open = fakeScope([{ url: 'https://elsewhere.example/' }, { url: `${ORIGIN}/user/realtime-tracking` }]);
    registerPushHandlers(open.scope);
    const close = vi.fn();
    await open.dispatch('notificationclick', { notification: { data: { url: `${ORIGIN}/user/alerts?imei=1` }, tag: 't', close } });
    expect(close).toHaveBeenCalledOnce();
    expect(open.focused).toEqual([`${ORIGIN}/user/realtime-tracking`]);
    expect(open.navigated).toEqual([`${ORIGIN}/user/alerts?imei=1`]);
    expect(open.opened).toEqual([]);

    const none = fakeScope([]);
    registerPushHandlers(none.scope);
    await none.dispatch('notificationclick', { notification: { data: { url: `${ORIGIN}/user/alerts?imei=2` }, tag: 't', close: vi.fn() } });
    expect(none.opened).toEqual([`${ORIGIN}/user/alerts?imei=2`]);
  });
});

describe('portalUrl', () => {
  it('keeps the browser on the portal', () => {
    expect(portalUrl(ORIGIN, '/user/alerts?x=1')).toBe(`${ORIGIN}/user/alerts?x=1`);
    expect(portalUrl(ORIGIN, 'https://evil.example/phish')).toBe(`${ORIGIN}/`);
    expect(portalUrl(ORIGIN, undefined)).toBe(`${ORIGIN}/`);
    expect(portalUrl(ORIGIN, 'javascript:alert(1)')).toBe(`${ORIGIN}/`);
  });
});

describe('readPayload', () => {
  it('reads the four texts of a push', () => {
    expect(readPayload(pushOf(payload))).toEqual(payload);
    expect(readPayload(pushOf({ ...payload, url: 3 }))).toBeNull();
  });
});
