/**
 * Log-out on this phone: the API answers the service worker kept for any user (sw-rules.ts) and
 * the trips My trips stored are deleted, so the next user of the phone never sees them. Unsent
 * changes stay with their user (web/src/features/my-trips/store.ts).
 *
 * The service worker is told too: an answer it was still fetching when the session ended (the
 * page's last reads before the log-out) would otherwise be kept after the deletion, under the
 * user who just left.
 */
import { deleteKeptApiReads, LOGGED_OUT } from './sw-rules';

export async function clearOfflineData(): Promise<void> {
  if (typeof navigator !== 'undefined') navigator.serviceWorker?.controller?.postMessage({ type: LOGGED_OUT });
  await deleteKeptApiReads();
  if (typeof indexedDB !== 'undefined') {
    const { clearStoredReads } = await import('../features/my-trips/store');
    await clearStoredReads();
  }
}
