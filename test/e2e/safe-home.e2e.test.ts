/**
 * Safe return home in real Chromium against the embedded runtime. demo-admin opens Safe return home
 * from the sidebar, searches, tries to switch a unit on without a home and schedule (refused with
 * SafeHomeEnableMsg), sets the home through the address search on the map with a radius below the
 * minimum first, sets a schedule (Saturday switched on, a time changed, every 2 weeks), switches it
 * on (Swedish and Norwegian: languages.e2e.test.ts). Every screen is checked with axe and photographed
 * at 390 and 1280 px (with SCREENSHOTS=1) into test-results/safe-home/.
 */
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD, demoUsers } from '../../infra/local/seed';
import { en } from '../../shared/i18n/en';
import { geofencesEn } from '../../shared/i18n/features/geofences/en';
import { safeHomeEn } from '../../shared/i18n/features/safe-home/en';
import { callerFor, callAs } from '../support/api-caller';
import { type App, logInAt, openPage, poll, shooter, SHOTS_DIR, startBrowserApp, stopBrowserApp } from '../support/browser';
import type { SafeHomeItem } from '../../shared/schemas/safe-home';

let app: App;
let browser: Browser;

const SHOTS = join(SHOTS_DIR, 'safe-home');
const text = (template: string, vars: Record<string, string | number>) => template.replace(/\{\{(\w+)\}\}/g, (_, name: string) => String(vars[name]));
const UNIT = 'Service van 2';

const shot = shooter(SHOTS);

/** Logs in on the way to Safe return home (the map is not what this file tests). */
const logIn = (page: Page) => logInAt(page, app.url, '/administration/safe-return-home');

const row = (page: Page, name: string) => page.getByRole('row').filter({ hasText: name });

beforeAll(async () => {
  ({ app, browser } = await startBrowserApp());
});

afterAll(async () => {
  await stopBrowserApp({ app, browser });
});

describe('Safe return home', () => {
  it('refuses switching on without a home and schedule, sets both through the map and the schedule, switches on', async () => {
    const { context, page, errors } = await openPage(browser);
    await logIn(page);
    await poll(() => row(page, UNIT).isVisible()).toBe(true);
    expect(await row(page, UNIT).getByRole('button', { name: text(safeHomeEn.SafeHomeAddHomeFor, { name: UNIT }) }).isVisible()).toBe(true);

    // Search by registration number.
    await page.getByRole('searchbox', { name: safeHomeEn.SafeHomeSearchLabel }).fill('def4');
    await poll(() => page.getByRole('row').count()).toBe(2);
    await shot(page, 'list-search');
    await page.getByRole('searchbox', { name: safeHomeEn.SafeHomeSearchLabel }).fill('');

    // Switching on without a home and schedule is refused.
    const toggle = row(page, UNIT).getByRole('switch', { name: text(safeHomeEn.SafeHomeToggleFor, { name: UNIT }) });
    // By keyboard: the switch is a labelled checkbox input.
    await toggle.focus();
    await page.keyboard.press('Space');
    await poll(() => page.getByRole('alert').filter({ hasText: safeHomeEn.SafeHomeEnableMsg }).isVisible()).toBe(true);
    expect(await toggle.isChecked()).toBe(false);
    await shot(page, 'refused');

    // The home: the address search places the circle; a radius below 300 is refused.
    await row(page, UNIT).getByRole('button', { name: text(safeHomeEn.SafeHomeAddHomeFor, { name: UNIT }) }).click();
    const homeDialog = page.getByRole('dialog', { name: text(safeHomeEn.SafeHomeHomeTitle, { name: UNIT }) });
    await poll(() => homeDialog.getByTestId('circle-editor-map').isVisible()).toBe(true);
    await homeDialog.getByRole('searchbox', { name: geofencesEn.GeoEditorAddressLabel }).fill('Solna');
    await homeDialog.getByRole('searchbox', { name: geofencesEn.GeoEditorAddressLabel }).press('Enter');
    await homeDialog.getByTestId('address-result').first().click();
    await poll(() => homeDialog.getByRole('textbox', { name: safeHomeEn.SafeHomeAddressLabel }).inputValue()).toBe('Solna, SE');
    expect(await homeDialog.getByTestId('circle-editor-map').getAttribute('data-center')).toMatch(/^59\.3\d*,18\.0\d*$/);
    await homeDialog.getByRole('textbox', { name: safeHomeEn.SafeHomeRadiusLabel }).fill('250');
    await homeDialog.getByRole('button', { name: en.Save, exact: true }).click();
    await poll(() => homeDialog.getByText(geofencesEn.RadiusLessThan300).isVisible()).toBe(true);
    await shot(page, 'home-errors', { fullPage: false });
    await homeDialog.getByRole('textbox', { name: safeHomeEn.SafeHomeRadiusLabel }).fill('450');
    await homeDialog.getByRole('button', { name: en.Save, exact: true }).click();
    await poll(() => page.getByRole('status').filter({ hasText: safeHomeEn.HomeAddressUpdateMsg }).isVisible()).toBe(true);
    await poll(() => row(page, UNIT).getByText('Solna, SE').isVisible()).toBe(true);

    // The schedule: weekdays at 18:00 by default; Saturday on at 10:30, every 2 weeks.
    await row(page, UNIT).getByRole('button', { name: text(safeHomeEn.SafeHomeSetScheduleFor, { name: UNIT }) }).click();
    const scheduleDialog = page.getByRole('dialog', { name: text(safeHomeEn.SafeHomeScheduleTitle, { name: UNIT }) });
    await poll(() => scheduleDialog.getByRole('checkbox', { name: 'Monday' }).isChecked()).toBe(true);
    expect(await scheduleDialog.getByRole('checkbox', { name: 'Saturday' }).isChecked()).toBe(false);
    expect(await scheduleDialog.getByLabel(text(safeHomeEn.SafeHomeTimeFor, { day: 'Monday' })).inputValue()).toBe('18:00');
    await scheduleDialog.getByRole('checkbox', { name: 'Saturday' }).check();
    await scheduleDialog.getByLabel(text(safeHomeEn.SafeHomeTimeFor, { day: 'Saturday' })).fill('10:30');
    await scheduleDialog.getByRole('combobox', { name: safeHomeEn.SafeHomeFrequencyLabel }).click();
    await page.getByRole('option', { name: text(safeHomeEn.SafeHomeEveryNWeeks, { count: 2 }) }).click();
    await shot(page, 'schedule', { fullPage: false });
    await scheduleDialog.getByRole('button', { name: en.Save, exact: true }).click();
    await poll(() => page.getByRole('status').filter({ hasText: safeHomeEn.AlertScheduleUpdated }).isVisible()).toBe(true);
    await poll(() => row(page, UNIT).getByText('Mon–Fri 18:00; Sat 10:30, every 2 weeks').isVisible()).toBe(true);

    // Now it switches on, and the server agrees, with the browser's zone.
    await toggle.focus();
    await page.keyboard.press('Space');
    await poll(() => toggle.isChecked()).toBe(true);
    const saved = (await callAs<SafeHomeItem[]>(app.url, 'GET', '/api/v1/administration/safe-home', await callerFor(demoUsers.admin.username, DEMO_PASSWORD))).body.data!.find((i) => i.name === UNIT)!;
    expect(saved).toMatchObject({ status: 1, radius: 450, address: 'Solna, SE', frequency: 2, time_zone: expect.any(String) });
    expect(saved.schedule).toEqual([...[1, 2, 3, 4, 5].map((day) => ({ day, time: '18:00' })), { day: 6, time: '10:30' }]);
    expect(saved.nextCheck).not.toBeNull();
    await shot(page, 'list-on');

    expect(errors).toEqual([]);
    await context.close();
  }, 180_000);
});
