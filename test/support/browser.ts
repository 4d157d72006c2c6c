/**
 * What every browser end-to-end test needs: the built web app, an embedded runtime, Debian's
 * Chromium driven by playwright-core, pages with the portal's locale and time zone, axe, and the
 * screenshot folder.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type axe from 'axe-core';
import { chromium, type Browser, type BrowserContext, type Locator, type Page } from 'playwright-core';
import { expect } from 'vitest';
import { DEMO_PASSWORD, demoUsers } from '../../infra/local/seed';
import { en } from '../../shared/i18n/en';
import { unitsEn } from '../../shared/i18n/features/units/en';
import { CHROMIUM_BASE_ARGS, testBrowserPath } from './chromium';
import { pooledPage } from './page-pool';
import { startRuntime } from './runtime';

export type App = Awaited<ReturnType<typeof startRuntime>>;

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const SHOTS_DIR = join(ROOT, 'test-results');
/**
 * V8 in the test browser compiles the pages' JavaScript with its baseline compiler at most
 * (Sparkplug, `--max-opt=1`), never with its optimizing ones (Maglev, TurboFan). A page of a browser
 * test lives seconds, so what the optimizing compilers made was mostly thrown away: a system-wide
 * profile of the trip log's file had a sixth of the machine's busy time in them, on the browser's
 * background threads, much of it in the kernel freeing their memory. Sparkplug's code is cheap to
 * make and is kept with a script's functions, which a tab that the next test reuses
 * (page-pool.ts) probably finds again in its renderer's compilation cache: before the tabs were
 * reused, Sparkplug and the interpreter alone (`--max-opt=0`) were as fast. The whole browser
 * project alone, with reused tabs: 581.5 s (1,737 s summed over files) with the interpreter only,
 * 525.1 s (1,561 s) with Sparkplug, and with Maglev slower than either.
 * The offline base map is vector tiles made by the web build, which MapLibre only decodes.
 */
const CHROMIUM_ARGS = [...CHROMIUM_BASE_ARGS, '--disable-gpu', '--js-flags=--max-opt=1'];
export const DESKTOP = { width: 1280, height: 800 };
export const PHONE = { width: 390, height: 844 };

/** expect.poll with room for lazy chunks on a busy machine (its default gives up after 1 s). */
export const poll = <T>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 10_000, interval: 100 });

/** A base map of one background colour, what a file draws unless it tests the base map (startBrowserApp). */
const PLAIN_STYLE = JSON.stringify({ version: 8, name: 'Plain', sources: {}, layers: [{ id: 'background', type: 'background', paint: { 'background-color': '#e8eef0' } }] });

/** The server of the plain base map this file's runtime offers, while it runs. */
let plainBaseMap: Server | undefined;

/**
 * Makes the runtime about to start offer the plain base map (MAP_STYLE_URL, read by its map
 * configuration and its Content-Security-Policy), served from this process on a port of its own.
 */
async function offerPlainBaseMap(): Promise<void> {
  const server = createServer((req, res) => {
    // The web app is on another origin (port). axe-core, for the pages' HTTP cache (axeViolations).
    if (req.url === AXE_PATH) res.writeHead(200, { 'content-type': 'text/javascript', 'cache-control': 'public, max-age=86400, immutable', 'access-control-allow-origin': '*' }).end(AXE_SOURCE);
    else res.writeHead(200, { 'content-type': 'application/json', 'access-control-allow-origin': '*' }).end(PLAIN_STYLE);
  });
  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
  plainBaseMap = server;
  process.env['MAP_STYLE_URL'] = `http://127.0.0.1:${(server.address() as AddressInfo).port}/plain.json`;
}

/**
 * Starts a runtime and Chromium side by side (the web app is built once for the run,
 * test/support/global-setup.ts); if either fails, the other is stopped again.
 *
 * The base map: this machine cannot reach OpenFreeMap, the style the runtime offers by default, so
 * every map page would fall back to the offline Natural Earth map and read and draw its tiles. The
 * base map is tested where it is the subject:
 * map.e2e.test.ts (OpenFreeMap given up, the offline map drawn) and csp.e2e.test.ts (the offline
 * map's archive and tiles under the Content-Security-Policy) start with `baseMap: 'offered'`, and
 * map-basemap.e2e.test.ts sets MAP_STYLE_URL to styles of its own. Every other file draws its units,
 * routes and areas over a plain style, unless SCREENSHOTS asks for photographs of the map a user sees.
 *
 * The browser: Debian's headless shell, unless a file tests what only the whole browser has
 * (`browser: 'chromium'`; test/support/chromium.ts).
 */
export async function startBrowserApp(options: { baseMap?: 'plain' | 'offered'; browser?: 'headless-shell' | 'chromium' } = {}): Promise<{ app: App; browser: Browser }> {
  if (SCREENSHOTS) mkdirSync(SHOTS_DIR, { recursive: true });
  const plain = (options.baseMap ?? 'plain') === 'plain' && !SCREENSHOTS && !process.env['MAP_STYLE_URL'];
  if (plain) await offerPlainBaseMap();
  const [app, browser] = await Promise.allSettled([startRuntime(), chromium.launch({ executablePath: testBrowserPath(options.browser ?? 'headless-shell'), headless: true, args: CHROMIUM_ARGS })]);
  if (app.status === 'fulfilled' && browser.status === 'fulfilled') return { app: app.value, browser: browser.value };
  await stopBrowserApp({ app: app.status === 'fulfilled' ? app.value : undefined, browser: browser.status === 'fulfilled' ? browser.value : undefined });
  throw app.status === 'rejected' ? app.reason : (browser as PromiseRejectedResult).reason;
}

export async function stopBrowserApp(parts: { app?: App; browser?: Browser }): Promise<void> {
  await parts.browser?.close();
  await parts.app?.stop();
  const server = plainBaseMap;
  if (server) {
    plainBaseMap = undefined;
    delete process.env['MAP_STYLE_URL'];
    server.closeAllConnections();
    await new Promise((done) => server.close(done));
  }
}

/**
 * A context of its own (en-GB, Stockholm time) and a page, as on a first visit; page errors are
 * collected. The page may be one an earlier test of the browser closed, in the same renderer, with
 * its cookies and storage cleared (page-pool.ts). The portal's
 * service worker is blocked unless a test asks for it: it would precache the app shell beside
 * every test and answer API reads that a test routes itself.
 *
 * The page prefers reduced motion unless a test asks for motion: dialogs, drawers and menus open
 * without transitions and the maps move their camera without animation (what such a user gets),
 * so a step does not wait for an element to stop moving, and the software WebGL does not draw
 * the frames of a camera flight.
 */
export async function openPage(
  browser: Browser,
  viewport = DESKTOP,
  options: { serviceWorkers?: 'allow' | 'block'; motion?: 'reduce' | 'no-preference' } = {},
): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
  const serviceWorkers = options.serviceWorkers ?? 'block';
  const reducedMotion = options.motion ?? 'reduce';
  const create = async () => {
    const context = await browser.newContext({ viewport, locale: 'en-GB', timezoneId: 'Europe/Stockholm', serviceWorkers, reducedMotion });
    return { context, page: await context.newPage() };
  };
  const { context, page } = serviceWorkers === 'block' ? await pooledPage(browser, reducedMotion, viewport, create) : await create();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  return { context, page, errors };
}

/**
 * axe-core's minified build (650 kB), which a page takes in about 100 ms sooner than `axe.source`'s
 * 1.5 MB (measured: 190 to 320 ms against 290 to 530 ms per document).
 */
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
/** Where the plain base map's server offers AXE_SOURCE. */
const AXE_PATH = '/axe-core.min.js';

/**
 * Puts axe-core into the page's document and sets it to report without HTML.
 *
 * Sent through the DevTools protocol, the 650 kB of source cost about 170 ms per document on an
 * idle machine, nearly all of it in carrying the text (the page's V8 has compiled it before and
 * runs it in 10 ms). Where this file offers the plain base map, the page fetches it from that
 * server instead (an origin the portal's connect-src allows), out of the browser's HTTP cache
 * after the first time, and evaluates it: about 70 ms. Elsewhere (another base map, an offline
 * page) it goes through the protocol as before.
 */
async function putAxeIn(page: Page): Promise<void> {
  const address = plainBaseMap?.address() as AddressInfo | null | undefined;
  if (address) {
    const fetched = await page.evaluate(async (url) => {
      try {
        const response = await fetch(url, { cache: 'force-cache' });
        if (!response.ok) return false;
        (window as unknown as { axeSource?: string }).axeSource = await response.text();
        return true;
      } catch {
        return false;
      }
    }, `http://127.0.0.1:${address.port}${AXE_PATH}`);
    // A page's own eval would be refused by the portal's script-src; one inside a DevTools
    // evaluation is not, so it is a second, synchronous evaluation.
    if (fetched) {
      await page.evaluate(() => {
        const scope = window as unknown as { axeSource?: string; axe: typeof axe };
        (0, eval)(scope.axeSource ?? '');
        delete scope.axeSource;
        scope.axe.configure({ noHtml: true });
      });
      return;
    }
  }
  await page.evaluate(`${AXE_SOURCE}\naxe.configure({ noHtml: true });`);
}

/**
 * axe violations (all, or only serious and critical ones), readable in a failure message.
 *
 * axe-core runs in the page itself, put there once per document (putAxeIn; a later check of the
 * same document, after a client-side navigation, finds it there). @axe-core/playwright's analyze would
 * put the script in again at every check and finish each one in a new tab of its own, three
 * times the time of the check itself; what it adds is the reach into cross-origin frames, and the
 * portal has no frames.
 *
 * Every rule runs as before; only the report is smaller. axe describes each node a rule passed or
 * could not decide (a selector and its HTML for every one, about 1.6 MB on the unit editor), and
 * the page handed all of it over the protocol, where only the violations are read: it keeps the
 * nodes of violations only (`resultTypes`), without their HTML (`noHtml`), and the page returns
 * just the violations' names and selectors. That is about a third of a check's time.
 */
export async function axeViolations(page: Page, only: 'all' | 'serious' = 'all'): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await putAxeIn(page);
  const violations = await page.evaluate(async () => {
    const result = await (window as unknown as { axe: typeof axe }).axe.run(document, { resultTypes: ['violations'] });
    return result.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, targets: v.nodes.map((n) => n.target.join(' ')) }));
  });
  return violations
    .filter((v) => only === 'all' || v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.help} at ${v.targets.join(', ')}`);
}

/** Fills in and sends the login form of the page's current (login) page as a person would. */
async function fillLogin(page: Page, username: string, password: string): Promise<void> {
  await page.getByRole('textbox', { name: en.UsernameOrEmail }).fill(username);
  await page.getByRole('textbox', { name: en.Password, exact: true }).fill(password);
  await page.getByRole('button', { name: en.Login, exact: true }).click();
}

/** Fills in the login form of the page's current (login) page as a person would, and waits for the map. */
export async function submitLogin(page: Page, appUrl: string, username: string = demoUsers.user.username, password = DEMO_PASSWORD): Promise<void> {
  await fillLogin(page, username, password);
  await page.waitForURL(`${appUrl}/user/realtime-tracking`);
}

/** Opens the portal and logs in (demo-admin by default), waiting until it leaves the login page for wherever it lands. */
export async function logInAs(page: Page, appUrl: string, username: string = demoUsers.admin.username, password = DEMO_PASSWORD): Promise<void> {
  await page.goto(`${appUrl}/`);
  await fillLogin(page, username, password);
  await page.waitForURL((url) => url.pathname !== '/');
}

/**
 * Opens the member page `path` (with its query) logged out and logs in on the login page it is
 * sent to, which sends back there: the page without the detour over the map, where a login lands.
 */
export async function logInAt(page: Page, appUrl: string, path: string, username: string = demoUsers.admin.username, password = DEMO_PASSWORD): Promise<void> {
  await page.goto(`${appUrl}${path}`);
  await fillLogin(page, username, password);
  await page.waitForURL(`${appUrl}${path}`);
}

/** Opens the portal and logs in (the demo user by default), landing on the map. */
export async function logInThroughForm(page: Page, appUrl: string, username?: string): Promise<void> {
  await page.goto(`${appUrl}/`);
  await submitLogin(page, appUrl, username);
}

/**
 * Whether the browser tests keep photographs: only when the run asks for them with
 * `SCREENSHOTS=1` (into test-results/); otherwise every photograph below is skipped.
 */
export const SCREENSHOTS = process.env['SCREENSHOTS'] === '1';

/**
 * Photographs a page or an element into `path` when the run asks for photographs (SCREENSHOTS);
 * does nothing otherwise. Every photograph of the browser tests goes through here.
 */
export async function photograph(target: Page | Locator, path: string, options: { fullPage?: boolean } = {}): Promise<void> {
  if (!SCREENSHOTS) return;
  mkdirSync(dirname(path), { recursive: true });
  if ('mouse' in target) await target.screenshot({ path, fullPage: options.fullPage ?? false });
  else await target.screenshot({ path });
}

/**
 * Waits until the page has drawn the last change (two animation frames, so that a transition it
 * started has begun) and every finite animation and transition has ended (a modal fading in has
 * text of too little contrast for axe; the shell's padding follows the sidebar with a transition).
 * Endless ones (a loader's spin) are not waited for.
 */
export async function settle(page: Page): Promise<void> {
  await page.evaluate(() => new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve()))));
  await page.waitForFunction(
    () => document.getAnimations().every((a) => a.playState !== 'running' || a.effect?.getComputedTiming().iterations === Infinity),
    undefined,
    { timeout: 5000, polling: 'raf' },
  );
}

/**
 * Waits until what `target` shows (a map's canvas, which no animation list knows of) has stopped
 * changing: two pictures taken a settled page apart agree.
 */
export async function untilStill(target: Locator): Promise<void> {
  let last = await target.screenshot();
  await expect
    .poll(
      async () => {
        await settle(target.page());
        const now = await target.screenshot();
        const same = now.equals(last);
        last = now;
        return same;
      },
      { timeout: 20_000, interval: 100 },
    )
    .toBe(true);
}

/**
 * At each size: waits for the layout and its transitions to settle, checks the page with axe
 * (unless `axe: false`, for a further state of a screen already checked), and
 * (with SCREENSHOTS) photographs it into `dir` as `<name>-<width>.png` (from the top: the header
 * is fixed). Leaves the page at the last size.
 */
export async function checkAndShoot(
  page: Page,
  dir: string,
  name: string,
  options: { sizes?: { width: number; height: number }[]; fullPage?: boolean; axe?: boolean } = {},
): Promise<void> {
  // A further state of a screen axe has already checked at these sizes: only its photographs.
  if (options.axe === false && !SCREENSHOTS) return;
  for (const size of options.sizes ?? [PHONE, DESKTOP]) {
    await page.setViewportSize(size);
    await settle(page);
    if (options.axe !== false) {
      let violations = await axeViolations(page);
      // A transition that began while axe looked (a dialog's, a focus ring's) is caught between its
      // colours: look once more when everything has settled again. A real violation is still there.
      if (violations.length) {
        await settle(page);
        violations = await axeViolations(page);
      }
      expect(violations, `${name} at ${size.width} px`).toEqual([]);
    }
    if (SCREENSHOTS) {
      await page.evaluate(() => window.scrollTo(0, 0));
      await photograph(page, join(dir, `${name}-${size.width}.png`), { fullPage: options.fullPage ?? true });
    }
  }
}

/**
 * A test file's photographer: checks and photographs `name` at phone and desktop width into
 * `dir` (checkAndShoot), then leaves the page at desktop width.
 */
export function shooter(dir: string) {
  return async (page: Page, name: string, options: { fullPage?: boolean; axe?: boolean } = {}): Promise<void> => {
    await checkAndShoot(page, dir, name, { sizes: [PHONE, DESKTOP], ...options });
    await page.setViewportSize(DESKTOP);
  };
}

/** Opens every closed section of the unit editor's accordion. */
export async function openAllSections(page: Page): Promise<void> {
  const controls = page.locator('.unit-editor').getByRole('button', { expanded: false }).filter({ has: page.locator('.mantine-Accordion-label') });
  for (let count = await controls.count(); count > 0; count = await controls.count()) await controls.first().click();
}

/**
 * Chooses one unit in the shared unit picker (web/src/features/units/components/unit-picker.tsx)
 * as a keyboard user does: types its name (the server searches), then Space on the listbox
 * toggles the active option, the first match. Waits until the picker shows it chosen.
 */
export async function pickUnit(picker: Locator, listboxName: string, unitName: string): Promise<void> {
  await picker.getByRole('textbox', { name: unitsEn.UnitPickerSearch }).fill(unitName);
  await poll(() => picker.getByRole('option').first().textContent()).toMatch(new RegExp(`^${unitName.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
  await picker.getByRole('listbox', { name: listboxName }).focus();
  await picker.page().keyboard.press('Space');
  await poll(() => picker.getByRole('option').first().getAttribute('aria-selected')).toBe('true');
}
