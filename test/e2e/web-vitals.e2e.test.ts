/**
 * Web vitals end to end in real Chromium against the embedded runtime: a browser that samples
 * every page view (localStorage `webVitalsSampleRate` = 1) loads the reporter once the page is
 * idle; leaving the support page and then a driver's check-in page (an address with a code in it)
 * sends their measurements as beacons, kept by route pattern only (never the code); support staff
 * then find them on the web vitals page. axe checks that page at 390 and 1280 px (photographed with
 * SCREENSHOTS=1 into test-results/web-vitals/).
 */
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo, tableName } from '../../functions/platform/db';
import { DEMO_PASSWORD, demoSupportUser } from '../../infra/local/seed';
import { supportEn as s } from '../../shared/i18n/features/support/en';
import type { WebVitalsReport } from '../../shared/schemas/web-vitals';
import { webRoutePatterns } from '../../shared/web-routes';
import { callAs, callerFor, type Caller } from '../support/api-caller';
import { logInAs, openPage, PHONE, poll, SHOTS_DIR, shooter, startBrowserApp, stopBrowserApp, type App } from '../support/browser';

const shot = shooter(join(SHOTS_DIR, 'web-vitals'));
const CHECK_IN = '/user/check-in/:code';
let app: App;
let browser: Browser;
let support: Caller;

/** The reporter's chunk has arrived. */
const reporterLoaded = (page: Page) => page.waitForResponse((r) => /\/assets\/report-[\w-]+\.js$/.test(r.url()));
/**
 * The page has loaded and painted, and its performance observers have had their buffered entries:
 * the load event (web-vitals reports TTFB only once the document is complete), then two frames and
 * a task after the reporter arrived (a page left before that has no LCP or TTFB yet, as in any
 * browser; under load the load event can come after the first paint).
 */
const measured = async (page: Page) => {
  await page.waitForLoadState('load');
  await page.evaluate(() => new Promise<void>((done) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(done, 0)))));
};

async function lcpCount(route: string): Promise<number> {
  const r = await callAs<WebVitalsReport>(app.url, 'GET', '/api/v1/support/web-vitals?period=24h', support);
  return r.body.data?.summaries.find((x) => x.name === 'LCP' && x.route === route)?.count ?? 0;
}

beforeAll(async () => {
  ({ app, browser } = await startBrowserApp());
  support = await callerFor(demoSupportUser.username, DEMO_PASSWORD);
}, 120_000);

afterAll(async () => {
  await stopBrowserApp({ app, browser });
});

describe('web vitals', () => {
  it("sends a page view's vitals by route pattern when it is left, and shows them to support", async () => {
    const { context, page, errors } = await openPage(browser, PHONE);
    await context.addInitScript(() => window.localStorage.setItem('webVitalsSampleRate', '1'));

    const firstReporter = reporterLoaded(page);
    await logInAs(page, app.url, demoSupportUser.username);
    await page.waitForURL(/\/support$/);
    await firstReporter;
    // A new document: the support page is hidden and reports; then the check-in page of a code.
    const secondReporter = reporterLoaded(page);
    await page.goto(`${app.url}/user/check-in/ABC123`);
    await secondReporter;
    await page.getByRole('main').waitFor();
    await measured(page);
    await page.goto(`${app.url}/support/web-vitals`);

    await poll(() => lcpCount(CHECK_IN)).toBeGreaterThan(0);
    // What was kept: route patterns, never the code of the address.
    const stored = (await dynamo().send(new ScanCommand({ TableName: tableName('webVitals') }))).Items ?? [];
    expect(JSON.stringify(stored)).not.toContain('ABC123');
    const kept = stored.map((i) => `${String(i['metric'])} ${String(i['route'])}`);
    expect(kept).toEqual(expect.arrayContaining(['TTFB /', 'LCP /', `TTFB ${CHECK_IN}`, `LCP ${CHECK_IN}`, 'CLS /support']));
    for (const item of stored) expect(webRoutePatterns).toContain(item['route']);

    // The page loaded before the last report was stored: load it again.
    await page.reload();
    const lcp = page.getByRole('region', { name: s.WebVitalsLcp });
    await lcp.getByText(CHECK_IN, { exact: true }).locator('visible=true').waitFor();
    await expect(lcp.getByText(s.WebVitalsAllRoutes, { exact: true }).locator('visible=true').count()).resolves.toBe(1);
    await expect(page.getByRole('region', { name: s.WebVitalsTtfb }).getByText(CHECK_IN, { exact: true }).locator('visible=true').count()).resolves.toBe(1);
    await shot(page, 'web-vitals-24h');

    // The other period, by keyboard.
    await page.getByRole('radio', { name: s.WebVitalsLast7d }).focus();
    await page.keyboard.press('Space');
    await poll(() => page.getByRole('radio', { name: s.WebVitalsLast7d }).isChecked()).toBe(true);
    await lcp.getByText(CHECK_IN, { exact: true }).locator('visible=true').waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });
});
