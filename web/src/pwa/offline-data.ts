/**
 * Log-out on this phone: the API answers the service worker kept for any user (sw-rules.ts) and
 * the trips My trips stored are deleted, so the next user of the phone never sees them. Unsent
 * changes stay with their user (web/src/features/my-trips/store.ts).
 */
import { API_CACHE_PREFIX } from './sw-rules';

export async function clearOfflineData(): Promise<void> {
  if (typeof caches !== 'undefined') {
    for (const name of await caches.keys()) if (name.startsWith(API_CACHE_PREFIX)) await caches.delete(name);
  }
  if (typeof indexedDB !== 'undefined') {
    const { clearStoredReads } = await import('../features/my-trips/store');
    await clearStoredReads();
  }
}
