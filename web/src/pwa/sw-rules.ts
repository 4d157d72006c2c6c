/**
 * What the service worker (service-worker.ts) and the page agree on, kept free of DOM and worker
 * globals beyond `crypto.subtle` and `atob` (and `caches`, where there is one), so unit tests run
 * it in Node.
 */

/** The API reads My trips needs, kept network-first per user. Nothing else of the API is cached. */
export const API_READS: readonly RegExp[] = [
  // The settings every member page waits for (SettingsGate), and the user's units.
  /^\/api\/v1\/user\/settings$/,
  /^\/api\/v1\/user\/units$/,
  // A unit's trips of a period (My trips asks for the last 30 days).
  /^\/api\/v1\/user\/trips$/,
  // The unit of a QR check-in code (the check-in page).
  /^\/api\/v1\/user\/check-in\/[^/]+$/,
];

/** Prefix of the per-user API caches; log-out deletes every cache with it. */
export const API_CACHE_PREFIX = 'api-reads-';

/**
 * The page's message to its service worker at log-out: delete the kept answers, and keep none of
 * the answers still on their way (service-worker.ts).
 */
export const LOGGED_OUT = 'LOGGED_OUT';

/** Deletes every user's kept API answers (the page at log-out, and the service worker on LOGGED_OUT). */
export async function deleteKeptApiReads(): Promise<void> {
  if (typeof caches === 'undefined') return;
  for (const name of await caches.keys()) if (name.startsWith(API_CACHE_PREFIX)) await caches.delete(name);
}

/** The Background Sync tag (and the message to the pages) that asks for the outbox to be sent. */
export const OUTBOX_SYNC_TAG = 'my-trips-outbox';

/**
 * The subject (`sub`) of a bearer token, read without checking the signature: it only names the
 * cache the answer is kept in; the server checked the token when it answered. Null when there is
 * no readable token.
 */
export function tokenSubject(authorization: string | null): string | null {
  const match = /^Bearer\s+([^.\s]+)\.([^.\s]+)\.[^.\s]*$/i.exec(authorization ?? '');
  if (!match?.[2]) return null;
  try {
    const json = atob(match[2].replace(/-/g, '+').replace(/_/g, '/').padEnd(Math.ceil(match[2].length / 4) * 4, '='));
    const payload = JSON.parse(json) as { sub?: unknown };
    return typeof payload.sub === 'string' && payload.sub ? payload.sub : null;
  } catch {
    return null;
  }
}

/** The cache of one user's API answers: the prefix and a SHA-256 of the subject (no id in a cache name). */
export async function apiCacheName(subject: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(subject));
  const hex = [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
  return `${API_CACHE_PREFIX}${hex.slice(0, 32)}`;
}
