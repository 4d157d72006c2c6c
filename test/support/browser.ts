/**
 * What every browser end-to-end test needs: the built web app, an embedded runtime, Debian's
 * Chromium driven by playwright-core, pages with the portal's locale and time zone, axe, and the
 * screenshot folder.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import AxeBuilder from '@axe-core/playwright';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { expect } from 'vitest';
import { DEMO_PASSWORD, demoUsers } from '../../infra/local/seed';
import { en } from '../../shared/i18n/en';
import { CHROMIUM, CHROMIUM_BASE_ARGS } from './chromium';
import { startRuntime } from './runtime';

export type App = Awaited<ReturnType<typeof startRuntime>>;

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const SHOTS_DIR = join(ROOT, 'test-results');
const CHROMIUM_ARGS = [...CHROMIUM_BASE_ARGS, '--disable-gpu'];
export const DESKTOP = { width: 1280, height: 800 };
export const PHONE = { width: 390, height: 844 };

/** expect.poll with room for lazy chunks on a busy machine (its default gives up after 1 s). */
export const poll = <T>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 10_000, interval: 100 });

/** Builds the web app when it is missing, starts a runtime and Chromium. */
export async function startBrowserApp(): Promise<{ app: App; browser: Browser }> {
  if (!existsSync(join(ROOT, 'web', 'dist', 'index.html'))) {
    execFileSync(process.execPath, [join(ROOT, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--config', 'web/vite.config.ts'], {
      cwd: ROOT,
      stdio: 'inherit',
    });
  }
  mkdirSync(SHOTS_DIR, { recursive: true });
  const app = await startRuntime();
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
  return { app, browser };
}

export async function stopBrowserApp(parts: { app?: App; browser?: Browser }): Promise<void> {
  await parts.browser?.close();
  await parts.app?.stop();
}

/** A fresh context (en-GB, Stockholm time) and page; page errors are collected. */
export async function openPage(browser: Browser, viewport = DESKTOP): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
  const context = await browser.newContext({ viewport, locale: 'en-GB', timezoneId: 'Europe/Stockholm' });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  return { context, page, errors };
}

/** axe violations (all, or only serious and critical ones), readable in a failure message. */
export async function axeViolations(page: Page, only: 'all' | 'serious' = 'all'): Promise<string[]> {
  const result = await new AxeBuilder({ page }).analyze();
  return result.violations
    .filter((v) => only === 'all' || v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.help} at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
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

/** Opens the portal and logs in (the demo user by default), landing on the map. */
export async function logInThroughForm(page: Page, appUrl: string, username?: string): Promise<void> {
  await page.goto(`${appUrl}/`);
  await submitLogin(page, appUrl, username);
}

/**
 * At each size: waits for the layout and its transitions to settle (a modal fading in has text of
 * too little contrast for axe), checks the page with axe, and photographs it into `dir` as
 * `<name>-<width>.png` (from the top: the header is fixed). Leaves the page at the last size.
 */
export async function checkAndShoot(page: Page, dir: string, name: string, options: { sizes?: { width: number; height: number }[]; fullPage?: boolean } = {}): Promise<void> {
  for (const size of options.sizes ?? [PHONE, DESKTOP]) {
    await page.setViewportSize(size);
    // The shell's padding follows the sidebar with a transition.
    await page.waitForTimeout(450);
    await page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running'), undefined, { timeout: 5000 }).catch(() => undefined);
    let violations = await axeViolations(page);
    // A transition that began after the wait above (a dialog's, a focus ring's) is caught between
    // its colours: look once more when it has had time to end. A real violation is still there.
    if (violations.length) {
      await page.waitForTimeout(600);
      violations = await axeViolations(page);
    }
    expect(violations, `${name} at ${size.width} px`).toEqual([]);
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: join(dir, `${name}-${size.width}.png`), fullPage: options.fullPage ?? true });
  }
}

/**
 * A test file's photographer: checks and photographs `name` at phone and desktop width into
 * `dir` (checkAndShoot), then leaves the page at desktop width.
 */
export function shooter(dir: string) {
  return async (page: Page, name: string, options: { fullPage?: boolean } = {}): Promise<void> => {
    await checkAndShoot(page, dir, name, { sizes: [PHONE, DESKTOP], ...options });
    await page.setViewportSize(DESKTOP);
  };
}
