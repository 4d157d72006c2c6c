/**
 * The alarm notifications control on /user/alerts (web/src/features/push) in real Chromium, as
 * far as a browser without the internet goes: no push service answers here, so subscribing cannot
 * succeed; delivery itself is tested through the API (test/api/push.test.ts). A browser that
 * blocked notifications is told how to allow them; one that allows them is offered the button, and
 * a failed subscription is said so. Checked with axe at 390 and 1280 px (SCREENSHOTS=1: into
 * test-results/push/).
 */
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoUsers } from '../../infra/local/seed';
import { pushEn } from '../../shared/i18n/features/push/en';
import { checkAndShoot, DESKTOP, logInAt, openPage, poll, SHOTS_DIR, startBrowserApp, stopBrowserApp, type App } from '../support/browser';

let app: App;
let browser: Browser;
const SHOTS = join(SHOTS_DIR, 'push');
// The portal's own service worker address (web/src/pwa/register.ts), answered here by a stand-in.
const SW_PATH = '/sw.js';

beforeAll(async () => {
  // The whole browser: the headless shell denies every notification permission.
  ({ app, browser } = await startBrowserApp({ browser: 'chromium' }));
});
afterAll(async () => {
  await stopBrowserApp({ app, browser });
});

const control = (page: Page) => page.locator('section[aria-labelledby="push-control-title"]');

/** Sets the notification permission of the portal's origin, as the user would in the site settings. */
async function setPermission(context: BrowserContext, page: Page, setting: 'granted' | 'denied'): Promise<void> {
  const cdp = await context.newCDPSession(page);
  // In the page's own browser context (the default one is another).
  const { targetInfo } = await cdp.send('Target.getTargetInfo');
  await cdp.send('Browser.setPermission', { permission: { name: 'notifications' }, setting, origin: app.url, browserContextId: targetInfo.browserContextId });
}

describe('alarm notifications on this device', () => {
  it('tells a browser that blocked notifications how to allow them', async () => {
    const { context, page, errors } = await openPage(browser, DESKTOP, { serviceWorkers: 'allow' });
    await setPermission(context, page, 'denied');
    await logInAt(page, app.url, '/user/alerts', demoUsers.user.username);
    await poll(() => control(page).getAttribute('data-push-state')).toBe('denied');
    await expect(control(page).getByRole('status').textContent()).resolves.toBe(pushEn.PushDenied);
    expect(await control(page).getByRole('button').count()).toBe(0);
    await checkAndShoot(page, SHOTS, 'push-denied');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('offers the button where notifications are allowed, and says so when no push service answers', async () => {
    const { context, page, errors } = await openPage(browser, DESKTOP, { serviceWorkers: 'allow' });
    await setPermission(context, page, 'granted');
    // A service worker of the portal's origin (the installable app's own registers one the same way).
    await context.route(`${app.url}${SW_PATH}`, (route) => route.fulfill({ contentType: 'text/javascript', body: "self.addEventListener('push', () => {});" }));
    // The portal registers its service worker itself once logged in; the control waits for it.
    await logInAt(page, app.url, '/user/alerts', demoUsers.user.username);
    await poll(() => control(page).getAttribute('data-push-state')).toBe('disabled');
    expect(await page.evaluate(async () => (await navigator.serviceWorker.getRegistration())?.active?.scriptURL)).toBe(`${app.url}${SW_PATH}`);
    await checkAndShoot(page, SHOTS, 'push-off');
    await control(page).getByRole('button', { name: pushEn.PushEnable }).click();
    await poll(() => control(page).getByRole('alert').count()).toBe(1);
    await expect(control(page).getByRole('alert').textContent()).resolves.toBe(pushEn.PushFailed);
    await poll(() => control(page).getByRole('button', { name: pushEn.PushEnable }).isEnabled()).toBe(true);
    await checkAndShoot(page, SHOTS, 'push-failed', { axe: false });
    expect(errors).toEqual([]);
    await context.close();
  });
});
