/**
 * The API keys page in real Chromium against the embedded runtime: an admin creates a key with
 * two scopes by keyboard, sees it once with the warning and a copy button, the key works on the API
 * (and only there: what it may call is tested in test/api/api-keys.test.ts), its call log shows
 * the call, and revoking it after the confirmation makes it answer 401. axe checks the list at 390
 * and 1280 px (photographed with SCREENSHOTS=1 into test-results/api-keys/).
 */
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiKeysEn as k } from '../../shared/i18n/features/api-keys/en';
import { openPage, logInAt, SHOTS_DIR, shooter, startBrowserApp, stopBrowserApp, type App } from '../support/browser';

const shot = shooter(join(SHOTS_DIR, 'api-keys'));
let app: App;
let browser: Browser;

beforeAll(async () => {
  ({ app, browser } = await startBrowserApp());
}, 120_000);

afterAll(async () => {
  await stopBrowserApp({ app, browser });
});

describe('API keys page', () => {
  it('creates a key shown once, shows its call log and revokes it', async () => {
    const { page, errors } = await openPage(browser);
    await logInAt(page, app.url, '/administration/api-keys');
    await page.getByText(k.ApiKeysNone).waitFor();

    await page.getByRole('button', { name: k.ApiKeysCreate }).click();
    const dialog = page.getByRole('dialog', { name: k.ApiKeyCreateTitle });
    await dialog.getByRole('textbox', { name: k.ApiKeyNameLabel }).fill('Payroll');
    // An empty scope list is refused with its text before anything is sent.
    await dialog.getByRole('button', { name: k.ApiKeyCreateSubmit }).click();
    await dialog.getByText(k.ApiKeyScopesRequired).waitFor();
    await dialog.getByRole('checkbox', { name: new RegExp(`^${k.ApiKeyScopeUnitsRead}`) }).press('Space');
    await dialog.getByRole('checkbox', { name: new RegExp(`^${k.ApiKeyScopeTripsRead}`) }).check();
    await dialog.getByRole('button', { name: k.ApiKeyCreateSubmit }).click();

    const shown = page.getByRole('dialog', { name: k.ApiKeyCreatedTitle });
    await shown.getByText(k.ApiKeyShownOnce).waitFor();
    const key = (await shown.getByTestId('api-key-value').textContent())?.trim() ?? '';
    expect(key).toMatch(/^tpk_[A-Za-z0-9_-]{43}$/);
    await shown.getByRole('button', { name: k.ApiKeyCopy }).waitFor();
    await shown.getByRole('button', { name: k.ApiKeyDone }).click();
    // Closed: the key's start below is the list's, not the dialog's whole key.
    await shown.waitFor({ state: 'detached' });

    const units = await fetch(`${app.url}/api/v1/user/units`, { headers: { authorization: `Bearer ${key}` } });
    expect(units.status).toBe(200);

    await page.getByText(key.slice(0, 10)).locator('visible=true').first().waitFor();
    await shot(page, 'list');

    await page.getByRole('button', { name: k.ApiKeyShowCallsOf.replace('{{name}}', 'Payroll') }).locator('visible=true').click();
    const calls = page.getByRole('dialog', { name: k.ApiKeyCallsTitle.replace('{{name}}', 'Payroll') });
    await calls.getByTestId('api-key-calls').getByText('getUnits').waitFor();
    await shot(page, 'calls', { axe: false });
    await page.keyboard.press('Escape');

    await page.getByRole('button', { name: k.ApiKeyRevokeOf.replace('{{name}}', 'Payroll') }).locator('visible=true').click();
    await page.getByTestId('api-key-revoke-confirm').click();
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    await page.getByText(new RegExp(`^${k.ApiKeyRevokedAt.replace(' {{date}}', '')} `)).locator('visible=true').first().waitFor();
    expect((await fetch(`${app.url}/api/v1/user/units`, { headers: { authorization: `Bearer ${key}` } })).status).toBe(401);
    expect(errors).toEqual([]);
  });
});
