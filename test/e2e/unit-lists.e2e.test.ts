/**
 * A large account in real Chromium: 3,000 units. The units list keeps only the rows in view in the
 * page and searches on the server; the shared unit picker (here the new user form's) does the same
 * for its options, and is worked from the keyboard. Each screen is checked with axe and (with
 * SCREENSHOTS=1) photographed at 390 and 1280 px into test-results/unit-lists.
 */
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unitsEn } from '../../shared/i18n/features/units/en';
import { userAccountsEn } from '../../shared/i18n/features/user-accounts/en';
import { imeiFrom } from '../../shared/validators/imei';
import { seedFleet } from '../../scripts/bench/map-fleet';
import { SHOTS_DIR, checkAndShoot, logInAt, openPage, poll, startBrowserApp, stopBrowserApp, type App } from '../support/browser';
import { createTestUser, type TestUser } from '../support/sessions';

const COUNT = 3000;
const SHOTS = join(SHOTS_DIR, 'unit-lists');
let app: App;
let browser: Browser;
let owner: TestUser;

const text = (template: string, vars: Record<string, string | number>) => template.replace(/\{\{(\w+)\}\}/g, (_, name: string) => String(vars[name]));

beforeAll(async () => {
  ({ app, browser } = await startBrowserApp());
  owner = await createTestUser();
  await seedFleet(owner.accountId, COUNT);
}, 180_000);

afterAll(async () => {
  await stopBrowserApp({ app, browser });
});

/** How many of the seeded units a search matches: every word in the name, plate or IMEI (seedFleet's). */
function matching(q: string): number {
  const words = q.split(' ');
  let count = 0;
  for (let i = 0; i < COUNT; i++) {
    const fields = [`unit ${String(i + 1).padStart(5, '0')}`, `ben${String(i).padStart(5, '0')}`, imeiFrom(`35693806${String(i).padStart(6, '0')}`)];
    if (words.every((w) => fields.some((f) => f.includes(w)))) count++;
  }
  return count;
}

/** The search requests the page makes (the `q` of each GET /api/v1/user/units). */
function searches(page: Page): string[] {
  const seen: string[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.pathname === '/api/v1/user/units' && url.searchParams.has('q')) seen.push(url.searchParams.get('q') ?? '');
  });
  return seen;
}

describe('a list of 3,000 units', () => {
  it('keeps only the rows in view in the page and searches on the server', async () => {
    const { context, page, errors } = await openPage(browser);
    const asked = searches(page);
    await logInAt(page, app.url, '/user/edit-terminal-list', owner.username, owner.password);
    const rows = page.locator('table tbody tr[aria-rowindex]');
    await poll(() => page.getByRole('status').filter({ hasText: text(unitsEn.UnitsShown, { count: 100 }) }).isVisible()).toBe(true);
    expect(await rows.count()).toBeLessThan(60);
    expect(await page.getByRole('table').getAttribute('aria-rowcount')).toBe('-1');
    expect(await rows.first().getAttribute('aria-rowindex')).toBe('2');
    await checkAndShoot(page, SHOTS, 'list');

    // Scrolled far down: still a window of rows, further on, and more pages loaded.
    await poll(async () => {
      await page.mouse.wheel(0, 5000);
      return Number(await rows.last().getAttribute('aria-rowindex'));
    }).toBeGreaterThan(300);
    expect(await rows.count()).toBeLessThan(60);

    // The last unit was never loaded into the page: only the server can find it.
    await page.getByRole('textbox', { name: unitsEn.UnitsSearchLabel }).fill('Unit 03000');
    await poll(() => rows.allTextContents()).toEqual([expect.stringContaining('Unit 03000')]);
    expect(asked).toContain('unit 03000');
    expect(errors).toEqual([]);
    await context.close();
  }, 120_000);

  it('picks units with the shared picker: server search, virtualized options, keyboard, chips', async () => {
    const { context, page, errors } = await openPage(browser);
    const asked = searches(page);
    await logInAt(page, app.url, '/administration/user-accounts', owner.username, owner.password);
    await page.getByRole('button', { name: userAccountsEn.UaNewUser }).click();
    const picker = page.getByRole('dialog').getByTestId('user-units');
    const listbox = picker.getByRole('listbox');
    const options = listbox.getByRole('option');
    await poll(() => options.count()).toBeGreaterThan(3);
    expect(await options.count()).toBeLessThan(30);
    expect(await options.first().getAttribute('aria-setsize')).toBe('-1');
    expect(await listbox.getAttribute('aria-multiselectable')).toBe('true');

    // The keyboard: one Tab stop, arrows move the active option, Space chooses it.
    await listbox.focus();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Space');
    await poll(() => picker.getByText(text(unitsEn.UnitPickerSelected, { count: 1 })).isVisible()).toBe(true);
    expect(await options.nth(1).getAttribute('aria-selected')).toBe('true');
    expect(await listbox.getAttribute('aria-activedescendant')).toBe(await options.nth(1).getAttribute('id'));

    // A search the first page cannot answer, then every match selected at once.
    await picker.getByRole('textbox', { name: unitsEn.UnitPickerSearch }).fill('Unit 0299');
    await poll(() => options.count()).toBe(10);
    expect(asked).toContain('unit 0299');
    // Every page of the search: the names that begin with it at once, then the rest of the account
    // read for other matches (the words anywhere: a plate or IMEI with 0299 in it).
    await picker.getByRole('button', { name: unitsEn.UnitPickerSelectAllMatching }).click();
    await expect.poll(() => picker.getByText(text(unitsEn.UnitPickerSelected, { count: 1 + matching('unit 0299') })).isVisible(), { timeout: 60_000 }).toBe(true);
    expect(await picker.getByRole('button', { name: text(unitsEn.UnitPickerRemove, { name: 'Unit 02991' }) }).isVisible()).toBe(true);
    expect(await picker.getByText(text(unitsEn.UnitPickerMore, { count: 1 + matching('unit 0299') - 8 })).isVisible()).toBe(true);
    await checkAndShoot(page, SHOTS, 'picker', { fullPage: false });
    expect(errors).toEqual([]);
    await context.close();
  }, 120_000);
});
