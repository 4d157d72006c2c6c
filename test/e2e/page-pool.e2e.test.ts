/**
 * The browser tests' pages given out again (test/support/page-pool.ts): a page a test closed
 * comes back to the next test as a first visit (logged out, no cookies, no local or session
 * storage, no IndexedDB), a page a test changed for good (a route) is not given out again, and a
 * test's late second close does not touch the next test's page.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { paths } from '../../web/src/app/paths';
import { logInAt, openPage, startBrowserApp, stopBrowserApp, type App } from '../support/browser';

let app: App;
let browser: Browser;

beforeAll(async () => {
  ({ app, browser } = await startBrowserApp());
});

afterAll(async () => {
  await stopBrowserApp({ app, browser });
});

/** Marks the page's document and storage; answers what is stored on the app's origin. */
const stored = (page: Page) =>
  page.evaluate(async () => ({
    local: localStorage.length,
    session: sessionStorage.length,
    databases: (await indexedDB.databases()).map((db) => db.name),
    cookie: document.cookie,
  }));

describe('pages given out again', () => {
  it('come back as a first visit, in the same renderer', async () => {
    const first = await openPage(browser);
    await logInAt(first.page, app.url, paths.editTerminalList);
    await first.page.evaluate(async () => {
      localStorage.setItem('left-behind', '1');
      sessionStorage.setItem('left-behind', '1');
      document.cookie = 'left-behind=1; path=/';
      await new Promise((done) => {
        const open = indexedDB.open('left-behind');
        open.onupgradeneeded = () => open.result.createObjectStore('things');
        open.onsuccess = () => done(open.result.close());
      });
    });
    expect((await stored(first.page)).session).toBeGreaterThan(0);
    const tab = first.page.mainFrame();
    await first.context.close();

    const next = await openPage(browser);
    // The same tab, on about:blank; a member page sends it to the login page.
    expect(next.page.mainFrame()).toBe(tab);
    expect(await next.page.evaluate(() => location.href)).toBe('about:blank');
    await next.page.goto(`${app.url}${paths.editTerminalList}`);
    await next.page.waitForURL((url) => url.pathname === '/');
    const after = await stored(next.page);
    expect(after.session).toBe(0);
    expect(after.databases).not.toContain('left-behind');
    expect(after.cookie).not.toContain('left-behind');
    // What the login page itself keeps (the language chosen, say) may be there; what was left is not.
    expect(await next.page.evaluate(() => [localStorage.getItem('left-behind'), sessionStorage.getItem('left-behind')])).toEqual([null, null]);
    expect(await next.context.cookies()).toEqual([]);

    // Closed twice (onTestFinished and the test's own close): the second does nothing.
    await first.context.close();
    expect(next.page.isClosed()).toBe(false);
    await next.context.close();
  });

  it('is not given out again once a test changed it for good', async () => {
    const routed = await openPage(browser);
    await routed.page.route('**/*', (route) => route.abort());
    const tab = routed.page.mainFrame();
    await routed.context.close();
    expect(routed.page.isClosed()).toBe(true);

    const next = await openPage(browser);
    expect(next.page.mainFrame()).not.toBe(tab);
    expect((await next.page.goto(`${app.url}/`))?.ok()).toBe(true);
    await next.context.close();
  });
});
