/**
 * The installed app's start in the logged-in area (member-area.tsx imports this lazily, so none of
 * it weighs on the login route): registers the service worker once the page has settled, and clears what it and My
 * trips kept for offline use when the session ends (log-out, or a session the server ended), so
 * the next user of the phone never sees it (offline-data.ts).
 */
import { getSessionUser, subscribeSession } from '../app/session';
import { clearOfflineData } from './offline-data';
import { whenPageSettled } from './page-loads';
import { registerServiceWorker } from './register';

let started = false;

export function startInstalledApp(): void {
  if (started) return;
  started = true;
  let hadUser = getSessionUser() !== null;
  subscribeSession(() => {
    const hasUser = getSessionUser() !== null;
    if (hadUser && !hasUser) void clearOfflineData().catch(() => undefined);
    hadUser = hasUser;
  });
  // After what the page loads first (page-loads.ts): the install fetches every file of the build.
  if (import.meta.env.PROD) void whenPageSettled().then(registerServiceWorker);
}
