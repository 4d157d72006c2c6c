/**
 * Browser tests' pages, handed out again in the renderer that showed the last one (openPage in
 * browser.ts). A page of a new context starts a new renderer process: a new V8 isolate that parses
 * and compiles the web app's JavaScript from scratch. Measured with the headless shell, a fresh
 * context's logged-in page cost 1.9 to 2.0 CPU-seconds of Chromium and 1.5 s, the same page
 * opened again in the tab of a context whose cookies and storage were cleared 0.8 and 0.65 s: its
 * renderer kept what it had compiled. A new page in a reused context cost as much as a fresh one.
 *
 * A test closes its context when it is done (`context.close()`). What it was handed are stand-ins
 * for the context and its page that note what a test does to them: a context or page a test
 * changed in a way that cannot be undone (an init script, a route, an exposed function, the
 * clock, emulated media, offline, permissions, another page, a CDP session) is closed for real.
 * Any other is made a first visit again and kept for the next test of the browser:
 * - every origin the page visited loses its cookies, local and session storage, IndexedDB, cache
 *   storage and service workers (DevTools' Storage.clearDataForOrigin; session storage, which
 *   belongs to the tab, from an empty document of the origin, once the app's page is gone);
 * - the page's listeners are removed and it is left on about:blank;
 * - its viewport is set to what the next test asks for.
 * What it keeps: the HTTP cache and the compiled code (what a returning visitor's browser keeps
 * too), and the tab's history (no test goes back past its own first page).
 * Pages with service workers allowed are never kept: what such a test checks is what a worker
 * installs.
 */
import type { Browser, BrowserContext, CDPSession, Page } from 'playwright-core';

/** What a test cannot take back on a context or a page. */
const CHANGES = ['addInitScript', 'exposeBinding', 'exposeFunction', 'route', 'routeFromHAR', 'routeWebSocket', 'setExtraHTTPHeaders', 'setDefaultTimeout', 'setDefaultNavigationTimeout', 'clock'];

/** A context changed with one of these is closed for real. */
const CONTEXT_CHANGES = new Set([
  ...CHANGES,
  'setOffline',
  'setGeolocation',
  'grantPermissions',
  'setHTTPCredentials',
  'tracing',
  'newPage',
  'newCDPSession',
  'on',
  'once',
  'addListener',
  'prependListener',
]);

/** The same of a page; `context` hands out the real context, past the stand-in. */
const PAGE_CHANGES = new Set([...CHANGES, 'emulateMedia', 'addLocatorHandler', 'context', 'close']);

interface Kept {
  context: BrowserContext;
  page: Page;
  cdp: CDPSession;
  /** What the page was opened with; only a request for the same gets it. */
  key: string;
  /** Every origin the page has shown, whose storage is cleared before the next test. */
  origins: Set<string>;
}

const pools = new WeakMap<Browser, Kept[]>();

/**
 * A stand-in for `target` that notes the use of any of `changes` (`onChange`) and forwards
 * everything else, with functions bound to the real object.
 */
function standIn<T extends object>(target: T, changes: ReadonlySet<string>, onChange: () => void, own: Partial<Record<string, unknown>> = {}): T {
  return new Proxy(target, {
    get(real, property) {
      if (typeof property === 'string' && property in own) return own[property];
      if (typeof property === 'string' && changes.has(property)) onChange();
      const value: unknown = Reflect.get(real, property, real);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(real) : value;
    },
  });
}

function watchOrigins(kept: Kept): void {
  kept.page.on('framenavigated', (frame) => {
    const url = frame.url();
    if (/^https?:/.test(url)) kept.origins.add(new URL(url).origin);
  });
}

/** Makes the kept page a first visit again; false when it cannot be (it is then closed). */
async function clear(kept: Kept): Promise<boolean> {
  const { context, page, cdp } = kept;
  if (page.isClosed() || context.pages().length !== 1) return false;
  page.removeAllListeners();
  // Gone first, so that nothing of the app writes after what follows.
  await page.goto('about:blank');
  // Session storage belongs to the tab and is cleared from a document of its origin: an empty
  // one, answered here, without the app.
  for (const origin of kept.origins) {
    const url = `${origin}/page-pool-clears-session-storage`;
    await page.route(url, (route) => route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>-</title>' }));
    await page.goto(url);
    await page.evaluate(() => sessionStorage.clear());
    await page.unroute(url);
  }
  await page.goto('about:blank');
  for (const origin of kept.origins) await cdp.send('Storage.clearDataForOrigin', { origin, storageTypes: 'all' });
  kept.origins.clear();
  await context.clearCookies();
  watchOrigins(kept);
  return true;
}

/**
 * A page for a test, in a context of its own or one a test of this browser has given back (see
 * above); `create` makes a new context and page.
 */
export async function pooledPage(
  browser: Browser,
  key: string,
  viewport: { width: number; height: number },
  create: () => Promise<{ context: BrowserContext; page: Page }>,
): Promise<{ context: BrowserContext; page: Page }> {
  const pool = pools.get(browser) ?? [];
  pools.set(browser, pool);
  const index = pool.findIndex((kept) => kept.key === key && !kept.page.isClosed());
  let kept: Kept;
  if (index >= 0) {
    [kept] = pool.splice(index, 1) as [Kept];
    await kept.page.setViewportSize(viewport);
  } else {
    const made = await create();
    kept = { ...made, cdp: await made.context.newCDPSession(made.page), key, origins: new Set() };
    watchOrigins(kept);
  }
  let changed = false;
  let released = false;
  const change = () => {
    changed = true;
  };
  const close = async () => {
    if (released) return;
    released = true;
    if (!changed && (await clear(kept).catch(() => false))) pool.push(kept);
    else await kept.context.close();
  };
  return {
    context: standIn(kept.context, CONTEXT_CHANGES, change, { close }),
    page: standIn(kept.page, PAGE_CHANGES, change),
  };
}
