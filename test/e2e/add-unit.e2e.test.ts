/**
 * Adding a unit and the first run in real Chromium against the embedded runtime. demo-admin opens
 * Add unit from the sidebar, is told what an empty form lacks, adds a tracker from the inventory
 * as a boat granted to demo-user, is refused the same IMEI again, and opens the new unit's editor.
 * The units list and the map show the first-run panel for units whose tracker has not reported
 * (name it, power it, the marker it will have). Every screen is checked with axe and photographed
 * at 390 and 1280 px (with SCREENSHOTS=1) into test-results/add-unit/ (Swedish and Norwegian: languages.e2e.test.ts).
 */
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoImei, demoUsers } from '../../infra/local/seed';
import { en } from '../../shared/i18n/en';
import { registrationEn } from '../../shared/i18n/features/registration/en';
import { unitLockEn } from '../../shared/i18n/features/unit-lock/en';
import { type App, checkAndShoot, DESKTOP, logInAs, logInAt, openPage, PHONE, poll, SHOTS_DIR, startBrowserApp, stopBrowserApp } from '../support/browser';

let app: App;
let browser: Browser;

const SHOTS = join(SHOTS_DIR, 'add-unit');
const IMEI = demoImei(100);
const demoUnitNames = ['Service van 1', 'Service van 2', 'Delivery lorry', 'Excavator', 'Boat trailer', 'Speedboat'];
const text = (template: string, vars: Record<string, string | number>) => template.replace(/\{\{(\w+)\}\}/g, (_, name: string) => String(vars[name]));

beforeAll(async () => {
  ({ app, browser } = await startBrowserApp());
});

afterAll(async () => {
  await stopBrowserApp({ app, browser });
});

const logIn = (page: Page, username: string) => logInAs(page, app.url, username);

const shot = async (page: Page, name: string) => {
  await checkAndShoot(page, SHOTS, name, { sizes: [PHONE, DESKTOP] });
};

/** No message key left untranslated on the page (keys of these features are CamelCase words of these prefixes). */
const rawKeys = async (page: Page) => (await page.locator('main').textContent())?.match(/\b(AddUnit|FirstRun|Lock|Unit|Imei|Specify)[A-Z][A-Za-z]+\b/g) ?? [];

describe('add unit', () => {
  it('adds a tracker from the inventory, granted to a user, and refuses it a second time', async () => {
    const { context, page, errors } = await openPage(browser);
    await logInAt(page, app.url, '/administration/add-terminal', demoUsers.admin.username);
    const form = page.getByRole('form', { name: en.AddUnit });
    await poll(() => form.isVisible()).toBe(true);
    await shot(page, 'add-unit-en');

    // An empty form: what is missing is said beside each field, in the server's words.
    await form.getByRole('textbox', { name: unitLockEn.AddUnitName }).fill('');
    await form.getByRole('button', { name: unitLockEn.AddUnitSubmit }).click();
    await poll(() => form.getByText(registrationEn.SpecifyValidUnitImei).isVisible()).toBe(true);
    expect(await form.getByText(unitLockEn.SpecifyUnitName).isVisible()).toBe(true);
    await form.getByRole('textbox', { name: unitLockEn.AddUnitImei }).fill('12345');
    await form.getByRole('button', { name: unitLockEn.AddUnitSubmit }).click();
    await poll(() => form.getByText(registrationEn.ImeiNot15Digits).isVisible()).toBe(true);
    await shot(page, 'add-unit-errors');

    await form.getByRole('textbox', { name: unitLockEn.AddUnitImei }).fill(IMEI);
    await form.getByRole('textbox', { name: unitLockEn.AddUnitName }).fill('Speedboat');
    await form.getByRole('combobox', { name: unitLockEn.AddUnitVehicleType }).selectOption('boat');
    await form.getByRole('checkbox', { name: `${demoUsers.user.firstName} ${demoUsers.user.lastName}` }).check();
    await form.getByRole('button', { name: unitLockEn.AddUnitSubmit }).click();
    const added = page.getByRole('status').filter({ hasText: text(unitLockEn.AddUnitAdded, { name: 'Speedboat' }) });
    await poll(() => added.isVisible()).toBe(true);
    await shot(page, 'add-unit-added');

    // The same IMEI again: refused with registration's key on the IMEI field.
    await page.getByRole('button', { name: unitLockEn.AddUnitAnother }).click();
    await form.getByRole('textbox', { name: unitLockEn.AddUnitImei }).fill(IMEI);
    await form.getByRole('textbox', { name: unitLockEn.AddUnitName }).fill('Speedboat again');
    await form.getByRole('button', { name: unitLockEn.AddUnitSubmit }).click();
    await poll(() => form.getByText(registrationEn.ImeiAlreadyRegistered).isVisible()).toBe(true);

    // The units list has it, and its name opens the editor.
    await page.goto(`${app.url}/user/edit-terminal-list`);
    const link = page.getByRole('link', { name: 'Speedboat', exact: true });
    await poll(() => link.isVisible()).toBe(true);
    expect(await link.getAttribute('href')).toBe(`/user/edit-terminal?imei=${IMEI}`);
    expect(errors).toEqual([]);
    await context.close();
  }, 150_000);

  it('is not offered to an ordinary user', async () => {
    const { context, page } = await openPage(browser);
    await logIn(page, demoUsers.user.username);
    // The menu is drawn (his trip log is in it) before what it lacks is counted.
    await poll(() => page.getByRole('navigation', { name: en.MainNavigation }).getByRole('link', { name: en.Triplog, exact: true }).isVisible()).toBe(true);
    expect(await page.getByRole('navigation', { name: en.MainNavigation }).getByRole('link', { name: en.AddUnit, exact: true }).count()).toBe(0);
    await page.goto(`${app.url}/administration/add-terminal`);
    // Refused once the page knows who is asking, not merely still loading.
    await poll(() => page.getByText(en.NoAccessToAdministratorPages).isVisible()).toBe(true);
    expect(await page.getByRole('form', { name: en.AddUnit }).count()).toBe(0);
    await context.close();
  }, 60_000);
});

describe('first run', () => {
  it('shows what to do next for units that have not reported, on the units list and the map', async () => {
    const { context, page, errors } = await openPage(browser);
    await logIn(page, demoUsers.admin.username);
    const nav = page.getByRole('navigation', { name: en.MainNavigation });
    // The map: none of the test runtime's trackers has reported.
    await nav.getByRole('link', { name: en.Map, exact: true }).click();
    await page.waitForURL(/\/user\/realtime-tracking$/);
    const onMap = page.getByTestId('first-run-panel');
    await poll(() => onMap.isVisible()).toBe(true);
    // The first unit waiting is named in the heading, and its marker is shown as the map will draw it.
    const heading = (await onMap.getByRole('heading').first().textContent()) ?? '';
    const first = demoUnitNames.find((name) => heading === text(unitLockEn.FirstRunTitle, { name }));
    expect(first, heading).toBeDefined();
    expect(await onMap.getByRole('img', { name: text(unitLockEn.FirstRunMarkerLabel, { name: first ?? '' }) }).isVisible()).toBe(true);
    expect(await onMap.getByText(unitLockEn.FirstRunStepPowerText).isVisible()).toBe(true);
    await checkAndShoot(page, SHOTS, 'first-run-map-en', { sizes: [PHONE, DESKTOP], fullPage: false });

    // The units list: the same panel; its first step and the units' names open the editor.
    await nav.getByRole('link', { name: en.Unit, exact: true }).click();
    await page.waitForURL(/\/user\/edit-terminal-list$/);
    const onList = page.getByTestId('first-run-panel');
    await poll(() => onList.isVisible()).toBe(true);
    expect(await rawKeys(page)).toEqual([]);
    expect(await onList.getByRole('link', { name: unitLockEn.FirstRunStepName }).getAttribute('href')).toMatch(/^\/user\/edit-terminal\?imei=\d{15}$/);
    expect(await page.getByRole('link', { name: 'Boat trailer', exact: true }).getAttribute('href')).toMatch(/^\/user\/edit-terminal\?imei=\d{15}$/);
    await shot(page, 'first-run-units-en');
    expect(errors).toEqual([]);
    await context.close();
  }, 180_000);
});
