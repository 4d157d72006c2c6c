/// <reference lib="webworker" />
/**
 * The installed app's service worker (docs/decisions/0047-installable-app-and-offline-trips.md),
 * built by web/src/pwa/build-plugin.ts into `dist/sw.js` with the precache list of that build.
 *
 * - The app shell (every page's index.html as the host's brand has it, the JavaScript and CSS of
 *   the build, the brand marks) is precached, so the portal opens without a network. Page
 *   addresses are answered with the precached index.html.
 * - The API reads My trips needs (`API_READS`) are network-first: the network's answer when there
 *   is one (and it is kept), the kept one only when the network fails. They are kept per user, in
 *   a cache named after the token's subject, so one user's answers never answer another's
 *   requests; log-out deletes every such cache (web/src/pwa/offline-data.ts). No other API answer
 *   is touched: those requests go to the network as if there were no service worker.
 * - A new version waits until the page asks it to take over (`SKIP_WAITING`), which the update
 *   prompt does only when the driver has no unsent change and no open form.
 * - Background Sync: the `my-trips-outbox` tag asks the open pages to send the outbox (the pages
 *   hold the session; the worker never sees a refresh token).
 */
import { cleanupOutdatedCaches, createHandlerBoundToURL, precacheAndRoute, type PrecacheEntry } from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';
import { NetworkFirst } from 'workbox-strategies';
import type { WorkboxPlugin } from 'workbox-core/types';
import { registerPushHandlers } from '../features/push/service-worker-push';
import { API_READS, apiCacheName, deleteKeptApiReads, LOGGED_OUT, OUTBOX_SYNC_TAG, tokenSubject } from './sw-rules';

declare const self: ServiceWorkerGlobalScope & { __WB_MANIFEST: Array<PrecacheEntry | string> };

cleanupOutdatedCaches();
precacheAndRoute(self.__WB_MANIFEST);

// Page addresses: the shell. `/api` is never a page; the dev outbox page is the shell too.
registerRoute(new NavigationRoute(createHandlerBoundToURL('/'), { denylist: [/^\/api(\/|$)/] }));

/**
 * Log-outs this worker was told of (LOGGED_OUT). An answer is kept only when no log-out came
 * between its request and its keeping: NetworkFirst keeps an answer after the page has it, so the
 * page's last reads before a log-out would otherwise land in the cache after it was deleted.
 */
let logouts = 0;
/**
 * The log-out count when each read's fetch event came, taken before anything is awaited: the
 * handler starts after the cache name's digest, and a log-out message can be handled meanwhile.
 */
const logoutsAtRequest = new WeakMap<Event, number>();
const keptWithinTheSession: WorkboxPlugin = {
  handlerWillStart: async ({ event, state }) => {
    if (state) state['logouts'] = logoutsAtRequest.get(event) ?? logouts;
  },
  cacheWillUpdate: async ({ response, state }) => (response.status === 200 && state?.['logouts'] === logouts ? response : null),
  // Keeping is asynchronous too: after a log-out while it was under way, the kept answers go again.
  cacheDidUpdate: async ({ state }) => {
    if (state?.['logouts'] !== logouts) await deleteKeptApiReads();
  },
};

const strategies = new Map<string, NetworkFirst>();
function strategyFor(cacheName: string): NetworkFirst {
  let strategy = strategies.get(cacheName);
  if (!strategy) {
    strategy = new NetworkFirst({
      cacheName,
      // A phone with one bar answers slowly: after 6 s the kept answer is shown (the network's
      // answer, when it comes, is still kept for next time).
      networkTimeoutSeconds: 6,
      plugins: [keptWithinTheSession],
    });
    strategies.set(cacheName, strategy);
  }
  return strategy;
}

registerRoute(
  ({ url, request, sameOrigin }) => sameOrigin && request.method === 'GET' && API_READS.some((pattern) => pattern.test(url.pathname)),
  async (options) => {
    logoutsAtRequest.set(options.event, logouts);
    const subject = tokenSubject(options.request.headers.get('authorization'));
    // Without a user there is nothing of theirs to keep: straight to the network.
    if (!subject) return fetch(options.request);
    return strategyFor(await apiCacheName(subject)).handle(options);
  },
);

self.addEventListener('message', (event: ExtendableMessageEvent) => {
  const data = event.data as { type?: string } | null;
  if (data?.type === 'SKIP_WAITING') void self.skipWaiting();
  if (data?.type === LOGGED_OUT) {
    logouts += 1;
    event.waitUntil(deleteKeptApiReads());
  }
});

interface SyncEvent extends ExtendableEvent {
  readonly tag: string;
}
self.addEventListener('sync', ((event: SyncEvent) => {
  if (event.tag !== OUTBOX_SYNC_TAG) return;
  event.waitUntil(
    self.clients.matchAll({ type: 'window' }).then((clients) => {
      for (const client of clients) client.postMessage({ type: OUTBOX_SYNC_TAG });
    }),
  );
}) as EventListener);

// Push notifications: shown on `push`, opened at the alarm on `notificationclick`.
registerPushHandlers(self);
