/**
 * What the page is loading for the user to see first (the map's units), and when it has settled.
 *
 * The service worker's install fetches and caches every file of the build, a few hundred requests
 * at a first visit and whatever changed after a deploy: exactly when someone opens the map. Run
 * beside the map's pages it competes with them for the CPU, the network and the server
 * (`npm run bench:map`, 10,000 units: all drawn about 0.4 s later), so it waits until the
 * document has loaded and nothing has been loading for QUIET_MS, and at most MAX_WAIT_MS.
 */
type Listener = () => void;

const holders = new Set<string>();
const listeners = new Set<Listener>();

/** Quiet this long after the last load before the page counts as settled (a route's chunk may still start one). */
export const QUIET_MS = 2000;
/** The longest the page is waited for, however busy it stays. */
export const MAX_WAIT_MS = 60_000;

export function setPageLoading(holder: string, loading: boolean): void {
  if (loading === holders.has(holder)) return;
  if (loading) holders.add(holder);
  else holders.delete(holder);
  for (const listener of [...listeners]) listener();
}

export function isPageLoading(): boolean {
  return holders.size > 0;
}

/** What `whenPageSettled` watches besides the holders: the document's own load. */
export interface DocumentLoad {
  loaded(): boolean;
  onLoaded(listener: Listener): void;
}

const browserDocument: DocumentLoad = {
  loaded: () => document.readyState === 'complete',
  onLoaded: (listener) => window.addEventListener('load', listener, { once: true }),
};

/** Resolves once the document has loaded and no holder has held anything for QUIET_MS, or after MAX_WAIT_MS. */
export function whenPageSettled(doc: DocumentLoad = browserDocument): Promise<void> {
  return new Promise((resolve) => {
    let quiet: ReturnType<typeof setTimeout> | undefined;
    const done = () => {
      clearTimeout(quiet);
      clearTimeout(cap);
      listeners.delete(check);
      resolve();
    };
    function check() {
      clearTimeout(quiet);
      quiet = doc.loaded() && holders.size === 0 ? setTimeout(done, QUIET_MS) : undefined;
    }
    const cap = setTimeout(done, MAX_WAIT_MS);
    listeners.add(check);
    doc.onLoaded(check);
    check();
  });
}
