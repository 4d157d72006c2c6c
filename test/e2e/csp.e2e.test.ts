/**
 * The Content-Security-Policy in real Chromium against the embedded runtime, whose policy comes from
 * the same builder as CloudFront's (infra/content-security-policy.ts): the demo user logs in, the
 * real-time map draws its base map (the offline one on a machine without internet) and the units
 * with MapLibre (its worker, the base map's worker and their blob: data), and the live channel
 * connects and delivers a position, all without one violation. Violations are caught three ways:
 * the page's `securitypolicyviolation` events, its console, and Chromium's log, which alone reports
 * what a worker was refused.
 */
import { join } from 'node:path';
import mqtt from 'mqtt';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { mapConfigFor } from '../../functions/tracking/get-map-config';
import { contentSecurityPolicy, originOf } from '../../infra/content-security-policy';
import { demoImei } from '../../infra/local/seed';
import { en } from '../../shared/i18n/en';
import { mapEn } from '../../shared/i18n/features/map/en';
import { DESKTOP, SHOTS_DIR, openPage, poll, startBrowserApp, stopBrowserApp, submitLogin, type App, photograph, settle, untilStill } from '../support/browser';

let app: App;
let browser: Browser;
const trackers = new Map<string, mqtt.MqttClient>();
// demo-user is granted the first two demo units.
const vans = [demoImei(0), demoImei(1)];

let clock = Date.now() - 60 * 60_000;
async function report(imei: string, fix: { lat: number; lon: number; spd: number }): Promise<void> {
  clock += 3 * 60_000;
  await trackers.get(imei)?.publishAsync(`trackers/${imei}/telemetry`, JSON.stringify({ ts: clock, sat: 9, ign: true, ...fix }), { qos: 1 });
}

beforeAll(async () => {
  ({ app, browser } = await startBrowserApp({ baseMap: 'offered' }));
  for (const imei of vans) trackers.set(imei, await mqtt.connectAsync(app.mqttUrl, { clientId: imei, reconnectPeriod: 0 }));
  await report(vans[0]!, { lat: 59.3326, lon: 18.0649, spd: 0 });
  await report(vans[1]!, { lat: 59.361, lon: 17.97, spd: 35 });
});

afterAll(async () => {
  for (const tracker of trackers.values()) await tracker.endAsync();
  await stopBrowserApp({ app, browser });
});

/** Every CSP violation the page, its workers and Chromium report from now on. */
async function watchViolations(page: Page): Promise<string[]> {
  const found: string[] = [];
  await page.exposeFunction('reportCspViolation', (text: string) => found.push(`event: ${text}`));
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      const report = (window as unknown as { reportCspViolation(text: string): void }).reportCspViolation;
      report(`${e.effectiveDirective} refused ${e.blockedURI || '(inline)'} at ${e.sourceFile}:${e.lineNumber}`);
    });
  });
  page.on('console', (m) => {
    if (/content security policy/i.test(m.text())) found.push(`console: ${m.text()}`);
  });
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Log.enable');
  cdp.on('Log.entryAdded', ({ entry }) => {
    if (/content security policy/i.test(entry.text)) found.push(`log (${entry.source}): ${entry.text}`);
  });
  return found;
}

/** `directive -> sources` of a policy. */
function directives(policy: string): Map<string, string[]> {
  return new Map(
    policy.split(';').map((part) => {
      const [name = '', ...sources] = part.trim().split(/\s+/);
      return [name, sources] as const;
    }),
  );
}

const unitList = (page: Page) => page.getByRole('list', { name: mapEn.MapUnitsHeading });
const row = (page: Page, name: string) => unitList(page).getByRole('button', { name: new RegExp(name) });

describe('Content-Security-Policy', () => {
  it('lets the real-time map draw and the live channel connect without a violation', async () => {
    const { context, page, errors } = await openPage(browser, DESKTOP);
    onTestFinished(() => context.close());
    const violations = await watchViolations(page);
    const ownFiles: Array<{ url: string; csp: string | undefined }> = [];
    page.on('response', (response) => {
      const url = new URL(response.url());
      // blob: URLs (a fleet's units handed to MapLibre) report the page's origin too, but no server sent them.
      if (url.protocol === 'http:' && url.origin === app.url && !url.pathname.startsWith('/api/')) ownFiles.push({ url: url.pathname, csp: response.headers()['content-security-policy'] });
    });
    const offered = mapConfigFor(process.env['MAP_STYLE_URL'] || undefined);
    const mapOrigins = (offered.styles ?? []).map((style) => originOf(style.url));
    // The offline map's data, or tiles of an offered style on a machine that reaches it.
    const basemapData = page.waitForResponse(
      (r) => /\/assets\/natural-earth-[^/]+\.pmtiles$/.test(r.url()) || (r.ok() && mapOrigins.some((o) => r.url().startsWith(`${o}/`)) && /tile|\.pbf|\.mvt/i.test(r.url())),
      { timeout: 60_000 },
    );

    const first = await page.goto(`${app.url}/`);
    const policy = first?.headers()['content-security-policy'] ?? '';
    expect(policy).toBe(contentSecurityPolicy({ mapStyleUrl: offered.styleUrl, mapOrigins, liveOrigin: new URL(app.wsUrl).origin }));
    const d = directives(policy);
    expect(d.get('script-src')).toEqual(["'self'"]);
    expect(d.get('default-src')).toEqual(["'self'"]);
    expect(d.get('frame-ancestors')).toEqual(["'none'"]);
    expect(d.get('connect-src')).toContain(new URL(app.wsUrl).origin);

    await submitLogin(page, app.url);

    // The map draws: the base map's data arrives and both units are on the canvas.
    expect((await basemapData).status()).toBe(200);
    await expect
      .poll(() => page.getByTestId('realtime-map').getAttribute('data-units-drawn'), { timeout: 30_000, interval: 200 })
      .toBe('2');
    // The live channel connects and carries a position published by a tracker.
    await poll(() => page.locator('[data-live-status]').getAttribute('data-live-status')).toBe('online');
    await report(vans[0]!, { lat: 59.345, lon: 18.03, spd: 77 });
    await poll(() => row(page, 'Service van 1').textContent()).toContain('77 km/h');
    // Out to where coasts and borders show, so that the base map is seen to draw under the policy.
    for (let i = 0; i < 4; i++) await page.locator('.maplibregl-ctrl-zoom-out').click();
    await untilStill(page.getByTestId('realtime-map'));
    await photograph(page, join(SHOTS_DIR, 'csp-map-1280x800.png'));

    expect(violations).toEqual([]);
    expect(errors).toEqual([]);
    // Every file of the web app came with the policy, the workers' scripts among them.
    // MapLibre's worker as this app builds it (web/src/features/map/maplibre-worker.ts).
    expect(ownFiles.some((f) => /maplibre-worker/.test(f.url))).toBe(true);
    expect(ownFiles.filter((f) => f.csp !== policy)).toEqual([]);

    // The watch is not blind: an injected inline script is refused and reported.
    await page.evaluate(() => {
      const script = document.createElement('script');
      script.textContent = 'document.body.dataset.inlineRan = "yes"';
      document.head.append(script);
    });
    await poll(() => violations.some((v) => /script-src/.test(v))).toBe(true);
    expect(await page.evaluate(() => document.body.dataset['inlineRan'])).toBeUndefined();
  });

  it('lets the public pages and the outbox page work without a violation', async () => {
    const { context, page, errors } = await openPage(browser, DESKTOP);
    onTestFinished(() => context.close());
    const violations = await watchViolations(page);
    for (const [path, title] of [
      ['/', en.Login],
      ['/user/register', en.Register],
      ['/user/forgot-password', en.ForgotPasswordTitle],
      ['/dev/outbox', en.OutboxTitle],
    ] as const) {
      const outbox = path === '/dev/outbox' ? page.waitForResponse((r) => new URL(r.url()).pathname === '/api/dev/outbox') : null;
      const response = await page.goto(`${app.url}${path}`);
      expect(response?.headers()['content-security-policy'], path).toContain("script-src 'self';");
      await poll(() => page.title()).toMatch(new RegExp(`^${title} – `));
      if (outbox) expect((await outbox).status()).toBe(200);
    }
    await page.waitForLoadState('networkidle');
    await settle(page);
    expect(violations).toEqual([]);
    expect(errors).toEqual([]);
  });
});
