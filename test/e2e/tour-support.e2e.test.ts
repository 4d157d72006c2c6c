/**
 * The support settings and SMS credits in real Chromium against the embedded runtime: support
 * finds the demo account, turns basic subscription only on, gives a unit the subscription type
 * 'Bas', adds SMS credits with a note, sees each in the support log, and a search for another
 * account closes the demo account's panel. The demo admin sees the balance in the account
 * settings and the alarm receivers page saying what happens at 0 credits. Each screen is checked
 * with axe at 390 and 1280 px (photographed with SCREENSHOTS=1 (with SCREENSHOTS=1) into test-results/tour-support/).
 */
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { alarmsEn } from '../../shared/i18n/features/alarms/en';
import { supportEn as s } from '../../shared/i18n/features/support/en';
import { userAccountsEn as ua } from '../../shared/i18n/features/user-accounts/en';
import { demoImei, demoSupportUser, demoUsers } from '../../infra/local/seed';
import { apiFetch } from '../support/http';
import { wizardPrivate } from '../support/registration';
import { type App, logInAs, logInAt, openPage, poll, shooter, SHOTS_DIR, startBrowserApp, stopBrowserApp } from '../support/browser';

const SHOTS = join(SHOTS_DIR, 'tour-support');
const shot = shooter(SHOTS);
let app: App;
let browser: Browser;

const text = (template: string, vars: Record<string, string | number>) => template.replace(/\{\{(\w+)\}\}/g, (_, name: string) => String(vars[name]));
const status = (page: Page, message: string) => page.getByRole('status').filter({ hasText: message });

async function search(page: Page, q: string): Promise<void> {
  await page.getByRole('textbox', { name: s.SupportSearchText }).fill(q);
  await page.getByRole('button', { name: s.SupportSearch, exact: true }).click();
}

beforeAll(async () => {
  ({ app, browser } = await startBrowserApp());
  // Another customer to search for.
  const registered = await apiFetch(`${app.url}/api/v1/register-account`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ ...wizardPrivate(demoImei(105), 'owner@nordvik.example', 'Nordvik-pass1'), is_private_account: 0, companyName: 'Nordvik Bygg AB', personal_org_number: '556036-0793' }),
  });
  expect(registered.status, await registered.clone().text()).toBe(201);
}, 120_000);

afterAll(async () => {
  await stopBrowserApp({ app, browser });
});

describe('support settings and SMS credits', () => {
  it("lets support change an account's settings and add credits, logged, and clears the panel on a new search", async () => {
    const { context, page, errors } = await openPage(browser);
    await logInAs(page, app.url, demoSupportUser.username);
    await page.waitForURL(/\/support$/);
    await search(page, 'demo');
    await page.getByRole('button', { name: text(s.SupportShowUnitsOf, { name: 'Demo Fleet AB' }) }).first().click();
    const settingsTitle = page.getByRole('heading', { name: text(s.SupportSettingsOf, { name: 'Demo Fleet AB' }) });
    await settingsTitle.waitFor();

    await page.getByRole('switch', { name: s.SupportBasicOnly }).click({ force: true });
    await poll(() => status(page, text(s.SupportBasicOnlySaved, { state: s.SupportOn, name: 'Demo Fleet AB' })).isVisible()).toBe(true);
    expect(await page.getByRole('switch', { name: s.SupportBasicOnly }).isChecked()).toBe(true);

    await page.getByRole('combobox', { name: text(s.SupportSubscriptionOf, { name: 'Service van 2' }) }).first().click();
    await page.getByRole('option', { name: 'Bas', exact: true }).click();
    await poll(() => status(page, text(s.SupportSubscriptionSaved, { name: 'Service van 2' })).isVisible()).toBe(true);

    // The account's units are searched on the server, a page at a time: only the matching rows.
    const subscriptionOf = (name: string) => page.getByRole('combobox', { name: text(s.SupportSubscriptionOf, { name }) });
    const unitSearch = page.getByRole('searchbox', { name: s.SupportUnitSearch });
    await unitSearch.fill('def456');
    await poll(() => subscriptionOf('Service van 1').count()).toBe(0);
    expect(await subscriptionOf('Service van 2').count()).toBeGreaterThan(0);
    await unitSearch.fill('no such unit');
    await poll(() => page.getByText(s.SupportNoUnitsFound).isVisible()).toBe(true);
    await unitSearch.fill('');
    await poll(() => subscriptionOf('Service van 1').count()).toBeGreaterThan(0);

    const balance = page.getByTestId('support-sms-balance');
    const before = Number((await balance.textContent())?.replace(/\D/g, ''));
    // A note is required: refused in the page before asking.
    await page.getByRole('textbox', { name: s.SupportCreditsToAdd }).fill('25');
    await page.getByRole('button', { name: s.SupportAddCredits, exact: true }).click();
    await poll(() => page.getByText(s.SmsCreditsNoteRequired).isVisible()).toBe(true);
    await page.getByRole('textbox', { name: s.SupportCreditsNote }).fill('Order 4711');
    await page.getByRole('button', { name: s.SupportAddCredits, exact: true }).click();
    await poll(() => status(page, text(s.SupportCreditsAdded, { count: 25, name: 'Demo Fleet AB', balance: before + 25 })).isVisible()).toBe(true);
    expect(await balance.textContent()).toBe(text(s.SupportSmsBalance, { count: before + 25 }));

    const log = page.getByRole('table', { name: s.SupportLogTitle });
    for (const action of [s.SupportActionSetBasicOnly, s.SupportActionSetSubscriptionType, s.SupportActionAddSmsCredits]) {
      await poll(() => log.getByText(action).first().isVisible()).toBe(true);
    }
    expect(await log.getByText('+25: Order 4711').isVisible()).toBe(true);
    await shot(page, 'support-panel');

    await search(page, 'nordvik');
    await page.getByRole('button', { name: text(s.SupportShowUnitsOf, { name: 'Nordvik Bygg AB' }) }).first().waitFor();
    expect(await settingsTitle.count()).toBe(0);
    expect(await page.getByRole('heading', { name: text(s.SupportUnitsOf, { name: 'Demo Fleet AB' }) }).count()).toBe(0);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('shows the admin the balance and what happens at 0 credits', async () => {
    const { context, page, errors } = await openPage(browser);
    await logInAt(page, app.url, '/administration/user-accounts?tab=settings', demoUsers.admin.username);
    await poll(() => page.getByText(/^SMS credits left: \d+$/).isVisible()).toBe(true);
    expect(await page.getByRole('textbox', { name: ua.UaSmsLowThreshold }).inputValue()).toBe('0');
    await shot(page, 'admin-settings');

    await page.goto(`${app.url}/administration/configure-alarm-receiver`);
    await poll(() => page.getByText(alarmsEn.AlarmSmsAtZero).isVisible()).toBe(true);
    await shot(page, 'alarm-receivers');
    expect(errors).toEqual([]);
    await context.close();
  });
});
