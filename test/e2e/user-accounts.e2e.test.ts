/**
 * The account administration page in real Chromium against the embedded runtime (spec sections 2,
 * 3, 5 and 6). The demo admin creates a user with two units found by the picker's search and
 * "select all shown", edits them down to one unit, sorts the table by unit count, saves the
 * settings (a spelling duplicate among the default purposes and a dated fuel price of 0 are
 * refused first), and deletes the
 * user after the confirmation (Swedish and Norwegian: languages.e2e.test.ts). Every state is checked with
 * axe and photographed at 390 and 1280 px (with SCREENSHOTS=1) into test-results/user-accounts/.
 */
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { userAccountsEn as ua } from '../../shared/i18n/features/user-accounts/en';
import { unitsEn } from '../../shared/i18n/features/units/en';
import { type App, logInAt, openPage, poll, shooter, SHOTS_DIR, startBrowserApp, stopBrowserApp } from '../support/browser';

const SHOTS = join(SHOTS_DIR, 'user-accounts');
const PAGE = '/administration/user-accounts';
let app: App;
let browser: Browser;

const text = (template: string, vars: Record<string, string | number>) => template.replace(/\{\{(\w+)\}\}/g, (_, name: string) => String(vars[name]));

beforeAll(async () => {
  ({ app, browser } = await startBrowserApp());
}, 120_000);

afterAll(async () => {
  await stopBrowserApp({ app, browser });
});

/** Logs demo-admin in on the way to the user accounts page. */
const logIn = (page: Page) => logInAt(page, app.url, PAGE);

const shot = shooter(SHOTS);

const table = (page: Page) => page.getByRole('table', { name: ua.UaTabUsers });
const rowOf = (page: Page, name: string) => table(page).locator('tbody tr', { hasText: name });

describe('user accounts', () => {
  it('creates a user with two units, edits them, sorts, saves settings, and deletes the user', async () => {
    const { context, page, errors } = await openPage(browser);
    await logIn(page);
    await poll(() => rowOf(page, 'Erik Lind').isVisible()).toBe(true);
    expect(await rowOf(page, 'Alva Andersson').locator('td').nth(3).textContent()).toBe(ua.UaAllUnits);
    await shot(page, 'users-en');

    // Create: two units through the picker's search and select-all.
    await page.getByRole('button', { name: ua.UaNewUser }).click();
    const form = page.getByRole('dialog', { name: ua.UaCreateTitle });
    await form.getByRole('textbox', { name: ua.UaFirstName }).fill('Greta');
    await form.getByRole('textbox', { name: ua.UaLastName }).fill('Gran');
    await form.getByRole('textbox', { name: ua.UaEmail }).fill('greta.gran@example.se');
    await form.getByRole('textbox', { name: unitsEn.UnitPickerSearch }).fill('service van');
    await poll(() => form.getByTestId('user-units').getByRole('option').count()).toBe(2);
    await form.getByRole('button', { name: unitsEn.UnitPickerSelectAllMatching }).click();
    await poll(() => form.getByText(text(unitsEn.UnitPickerSelected, { count: 2 })).isVisible()).toBe(true);
    await shot(page, 'create-en', { fullPage: false });
    await form.getByRole('button', { name: ua.UaSave }).click();
    await poll(() => rowOf(page, 'Greta Gran').isVisible()).toBe(true);
    expect(await rowOf(page, 'Greta Gran').locator('td').nth(3).textContent()).toBe('2');

    // Edit: one unit fewer.
    await rowOf(page, 'Greta Gran').getByRole('button', { name: text(ua.UaEditUser, { name: 'Greta Gran' }) }).click();
    const edit = page.getByRole('dialog', { name: ua.UaEditTitle });
    expect(await edit.getByRole('textbox', { name: ua.UaEmail }).getAttribute('readonly')).not.toBeNull();
    await edit.getByRole('button', { name: text(unitsEn.UnitPickerRemove, { name: 'Service van 2' }) }).click();
    await poll(() => edit.getByText(text(unitsEn.UnitPickerSelected, { count: 1 })).isVisible()).toBe(true);
    await shot(page, 'edit-en', { fullPage: false });
    await edit.getByRole('button', { name: ua.UaSave }).click();
    await poll(() => rowOf(page, 'Greta Gran').locator('td').nth(3).textContent()).toBe('1');

    // Sort by unit count, both ways.
    const unitsHeader = table(page).getByRole('columnheader', { name: ua.UaColUnits });
    await unitsHeader.getByRole('button').click();
    expect(await unitsHeader.getAttribute('aria-sort')).toBe('ascending');
    await poll(() => table(page).locator('tbody tr td:first-child').first().textContent()).toContain('Greta Gran');
    await unitsHeader.getByRole('button').click();
    expect(await unitsHeader.getAttribute('aria-sort')).toBe('descending');

    // Settings: a spelling duplicate is refused, then saved.
    await page.getByRole('tab', { name: ua.UaTabSettings }).click();
    const purpose = page.getByRole('textbox', { name: ua.UaPurposeNew });
    await purpose.fill('Kundbesök');
    await purpose.press('Enter');
    await purpose.fill('kundbesok');
    await page.getByRole('button', { name: ua.UaPurposeAdd, exact: true }).click();
    await page.getByRole('textbox', { name: ua.UaFuelLabel }).fill('18.5');
    await page.getByRole('textbox', { name: ua.UaEcoBraking }).fill('4');
    // A dated price beside the demo's electricity price: added from the keyboard, electricity per kWh, refused at 0 until corrected.
    expect(await page.getByTestId('fuel-price-row').count()).toBe(1);
    await page.getByRole('button', { name: ua.UaFuelPriceAdd }).press('Enter');
    await page.getByRole('combobox', { name: ua.UaFuelPriceType, exact: true }).last().selectOption('electricity');
    const price = page.getByRole('textbox', { name: text(ua.UaFuelPricePrice, { quantity: ua.UaFuelQuantity_kWh }), exact: true }).last();
    await price.fill('0');
    await page.getByRole('button', { name: ua.UaSaveSettings }).click();
    await poll(() => page.getByText(ua.DuplicateDefaultPurpose).isVisible()).toBe(true);
    await shot(page, 'settings-error-en');
    await poll(() => page.getByText(ua.FuelPriceOutOfRange).isVisible()).toBe(true);
    await page.getByRole('button', { name: text(ua.UaPurposeRemove, { purpose: 'kundbesok' }) }).click();
    await price.fill('1.75');
    await page.getByRole('button', { name: ua.UaSaveSettings }).click();
    await poll(() => page.getByText(ua.SettingsSaved).isVisible()).toBe(true);
    // Stored: the page opened again reads the new price and eco setting back from the server.
    await page.reload();
    await page.getByRole('tab', { name: ua.UaTabSettings }).click();
    await poll(() => page.getByTestId('fuel-price-row').count()).toBe(2);
    expect(await page.getByRole('textbox', { name: text(ua.UaFuelPricePrice, { quantity: ua.UaFuelQuantity_kWh }), exact: true }).last().inputValue()).toBe('1.75');
    expect(await page.getByRole('switch', { name: ua.UaFlagBasicOnly }).isDisabled()).toBe(true);
    expect(await page.getByRole('textbox', { name: ua.UaEcoBraking }).inputValue()).toBe('4');
    await shot(page, 'settings-en');

    await page.getByRole('tab', { name: ua.UaTabUsers }).click();

    // Yourself cannot be deleted; Greta can, after the confirmation.
    expect(await rowOf(page, 'Alva Andersson').getByRole('button', { name: text(ua.UaDeleteUser, { name: 'Alva Andersson' }) }).isDisabled()).toBe(true);
    await rowOf(page, 'Greta Gran').getByRole('button', { name: text(ua.UaDeleteUser, { name: 'Greta Gran' }) }).click();
    const confirm = page.getByRole('dialog', { name: ua.UaDeleteTitle });
    await poll(() => confirm.getByText(text(ua.UaDeleteConfirm, { name: 'Greta Gran' })).isVisible()).toBe(true);
    await shot(page, 'delete-en', { fullPage: false });
    await confirm.getByRole('button', { name: ua.UaDelete }).click();
    await poll(() => rowOf(page, 'Greta Gran').count()).toBe(0);
    expect(errors).toEqual([]);
    await context.close();
  }, 180_000);
});
