/**
 * The alarm receiver screen in real Chromium against the embedded runtime (spec sections 2, 5 and
 * 9). The demo admin finds three receivers (stored as the API stores them), sorts by receiver and
 * e-mail with the direction turning on a second click, searches by name and phone, switches a
 * security alarm (saved at once), goes through all five modals (what to add, the form with its
 * phone rule and Save disabled, delete, select units with its tabs, select all and a locked unit,
 * and the existing-user picker that turns the alarm switches off and fills the form), and saves the
 * alerts' language and time zone. An account without receivers shows the no-records message.
 * Every screen is checked with axe and photographed at 390 and 1280 px (with SCREENSHOTS=1) into test-results/alarm/
 * (Swedish and Norwegian: languages.e2e.test.ts).
 */
import { join } from 'node:path';
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createReceiver, listReceivers } from '../../functions/alarms/receiver-repository';
import { dynamo, tableName } from '../../functions/platform/db';
import { demoImei, demoUsers } from '../../infra/local/seed';
import { en } from '../../shared/i18n/en';
import { unitsEn } from '../../shared/i18n/features/units/en';
import { alarmsEn as a } from '../../shared/i18n/features/alarms/en';
import { type App, checkAndShoot, DESKTOP, logInAt, openPage, PHONE, poll, SHOTS_DIR, startBrowserApp, stopBrowserApp } from '../support/browser';
import { createTestUser } from '../support/sessions';

const SHOTS = join(SHOTS_DIR, 'alarm');
const PAGE = '/administration/configure-alarm-receiver';
let app: App;
let browser: Browser;
let accountId = '';

const text = (template: string, vars: Record<string, string | number>) => template.replace(/\{\{(\w+)\}\}/g, (_, name: string) => String(vars[name]));

async function seedReceivers(): Promise<void> {
  const admin = await dynamo().send(new GetCommand({ TableName: tableName('users'), Key: { userId: (await userIdOf(demoUsers.admin.username)) } }));
  accountId = String(admin.Item?.['accountId']);
  const base = { pushNotification: false, memberId: null, bleIds: [] as string[] };
  const now = new Date();
  await createReceiver(accountId, { ...base, name: 'Örjan Nilsson', email: null, countryCode: '46', phone: '+46701112233', securityAlarm: true, functionAlarm: false, gpsImeis: [demoImei(0), demoImei(1)] }, now);
  await createReceiver(accountId, { ...base, name: 'Anna Berg', email: 'anna@example.se', countryCode: null, phone: null, securityAlarm: false, functionAlarm: true, gpsImeis: [] }, now);
  await createReceiver(accountId, { ...base, name: 'Cecilia Ek', email: 'cecilia@example.se', countryCode: '47', phone: '+4741234567', securityAlarm: true, functionAlarm: true, gpsImeis: [demoImei(2)] }, now);
  // A unit locked by support: it shows, but cannot be chosen.
  await dynamo().send(new UpdateCommand({ TableName: tableName('units'), Key: { imei: demoImei(4) }, UpdateExpression: 'SET lockedBy = :s', ExpressionAttributeValues: { ':s': 'support' } }));
  await dynamo().send(new UpdateCommand({ TableName: tableName('accounts'), Key: { accountId }, UpdateExpression: 'SET smsCredits = :c', ExpressionAttributeValues: { ':c': 42 } }));
}

async function userIdOf(username: string): Promise<string> {
  const out = await dynamo().send(new GetCommand({ TableName: tableName('uniques'), Key: { key: `username#${username}` } }));
  return String(out.Item?.['userId']);
}

beforeAll(async () => {
  ({ app, browser } = await startBrowserApp());
  await seedReceivers();
}, 120_000);

afterAll(async () => {
  await stopBrowserApp({ app, browser });
});

/** Logs in on the way to the alarm receivers page. */
const logIn = (page: Page, username: string, password?: string) => logInAt(page, app.url, PAGE, username, password);

async function shot(page: Page, name: string, sizes = [PHONE, DESKTOP]): Promise<void> {
  await checkAndShoot(page, SHOTS, name, { sizes });
  await page.setViewportSize(DESKTOP);
}

const table = (page: Page) => page.getByRole('table', { name: en.AlarmReceiver });
const rows = (page: Page) => table(page).locator('tbody tr');
const rowNames = (page: Page) => table(page).locator('tbody tr td:first-child').allTextContents();
const dialog = (page: Page, name: string) => page.getByRole('dialog', { name });

describe('alarm receivers', () => {
  it('lists, sorts, searches, toggles, and goes through the five modals', async () => {
    const { context, page, errors } = await openPage(browser);
    await logIn(page, demoUsers.admin.username);
    await poll(() => rows(page).count()).toBe(3);
    expect(await page.getByText(text(a.AlarmSmsCredits, { count: 42 })).isVisible()).toBe(true);
    // Name with the unit count in brackets; a Swedish phone in national format, a Norwegian one international.
    expect(await rowNames(page)).toEqual(['Anna Berg (0)', 'Cecilia Ek (1)', 'Örjan Nilsson (2)']);
    expect(await page.getByRole('cell', { name: '070-111 22 33' }).isVisible()).toBe(true);
    expect(await page.getByRole('cell', { name: '+47 41 23 45 67' }).isVisible()).toBe(true);
    await shot(page, 'alarm-list-en');

    // Sorting: a second click turns the direction; another column starts ascending.
    const header = (name: string) => page.getByRole('columnheader', { name });
    await header(a.AlarmColReceiver).getByRole('button').click();
    expect(await header(a.AlarmColReceiver).getAttribute('aria-sort')).toBe('descending');
    expect(await rowNames(page)).toEqual(['Örjan Nilsson (2)', 'Cecilia Ek (1)', 'Anna Berg (0)']);
    await header(a.AlarmColEmail).getByRole('button').click();
    expect(await header(a.AlarmColEmail).getAttribute('aria-sort')).toBe('ascending');
    expect(await rowNames(page)).toEqual(['Anna Berg (0)', 'Cecilia Ek (1)', 'Örjan Nilsson (2)']);
    await header(a.AlarmColEmail).getByRole('button').click();
    expect(await rowNames(page)).toEqual(['Cecilia Ek (1)', 'Anna Berg (0)', 'Örjan Nilsson (2)']);
    await header(a.AlarmColPhone).getByRole('button').click();
    expect(await rowNames(page)).toEqual(['Örjan Nilsson (2)', 'Cecilia Ek (1)', 'Anna Berg (0)']);

    // Search over name, e-mail and phone.
    const search = page.getByRole('searchbox', { name: a.AlarmSearchLabel });
    await search.fill('anna');
    await poll(() => rowNames(page)).toEqual(['Anna Berg (0)']);
    await search.fill('+47 412');
    await poll(() => rowNames(page)).toEqual(['Cecilia Ek (1)']);
    await search.fill('nobody');
    await poll(() => table(page).getByText(a.AlarmNoMatches).isVisible()).toBe(true);
    await search.fill('');

    // A security checkbox saves at once.
    const annaSecurity = page.getByRole('checkbox', { name: text(a.AlarmSecurityFor, { name: 'Anna Berg' }) });
    await annaSecurity.click();
    await poll(() => annaSecurity.isChecked()).toBe(true);
    await poll(async () => (await listReceivers(accountId)).find((r) => r.name === 'Anna Berg')?.securityAlarm).toBe(true);

    // (1) What to add, (2) a new receiver with the phone rule.
    await page.getByRole('button', { name: a.AlarmNewReceiver }).click();
    await poll(() => dialog(page, a.AlarmAddTitle).isVisible()).toBe(true);
    await shot(page, 'alarm-modal-choice');
    await dialog(page, a.AlarmAddTitle).getByRole('button', { name: a.AlarmAddNewReceiver }).click();
    const form = dialog(page, a.AlarmFormNewTitle);
    await poll(() => form.isVisible()).toBe(true);
    expect(await form.getByText(a.AlarmFormHelp).isVisible()).toBe(true);
    expect(await form.getByRole('switch', { name: a.AlarmFormPush }).count()).toBe(0);
    expect(await form.getByRole('combobox', { name: a.AlarmFormCountry }).inputValue()).toBe('Sweden (+46)');
    const save = form.getByRole('button', { name: en.Save });
    expect(await save.isDisabled()).toBe(true);
    await form.getByRole('textbox', { name: a.AlarmFormName }).fill('David Holm');
    await form.getByRole('textbox', { name: a.AlarmFormMobile }).fill('0701234');
    await poll(() => form.getByText(en.MakeSurePhoneNunIsCorrect).isVisible()).toBe(true);
    expect(await save.isDisabled()).toBe(true);
    await shot(page, 'alarm-modal-form');
    await form.getByRole('textbox', { name: a.AlarmFormMobile }).fill('070 123 45 67');
    // An invalid e-mail is refused on Save beside its field.
    await form.getByRole('textbox', { name: a.AlarmFormEmail }).fill('david@');
    await save.click();
    await poll(() => form.getByText(en.EnterValidEmail).isVisible()).toBe(true);
    await form.getByRole('textbox', { name: a.AlarmFormEmail }).fill('david@example.se');
    await save.click();
    await poll(() => page.getByText(a.AlarmReceiverSuccessMsg).isVisible()).toBe(true);
    await poll(() => rows(page).count()).toBe(4);
    expect(await page.getByRole('cell', { name: '070-123 45 67' }).isVisible()).toBe(true);

    // The same phone again is a duplicate: the server's key beside the field.
    await page.getByRole('button', { name: a.AlarmNewReceiver }).click();
    await dialog(page, a.AlarmAddTitle).getByRole('button', { name: a.AlarmAddNewReceiver }).click();
    await form.getByRole('textbox', { name: a.AlarmFormName }).fill('Copy');
    await form.getByRole('textbox', { name: a.AlarmFormMobile }).fill('701234567');
    await save.click();
    await poll(() => form.getByText(a.DuplicateAlarmReceiverPhone).isVisible()).toBe(true);
    await form.getByRole('button', { name: en.Cancel }).click();

    // Edit: the push switch shows, disabled without a push id.
    await page.getByRole('button', { name: text(a.AlarmEditFor, { name: 'Cecilia Ek' }) }).click();
    const edit = dialog(page, a.AlarmFormEditTitle);
    await poll(() => edit.isVisible()).toBe(true);
    expect(await edit.getByRole('combobox', { name: a.AlarmFormCountry }).inputValue()).toBe('Norway (+47)');
    expect(await edit.getByRole('switch', { name: a.AlarmFormPush }).isDisabled()).toBe(true);
    await shot(page, 'alarm-modal-edit');
    await edit.getByRole('button', { name: en.Cancel }).click();

    // (4) Select unit: tabs, a locked unit, select all, back on GPS when opened again.
    await page.getByRole('button', { name: text(a.AlarmSelectUnitFor, { name: 'Anna Berg' }) }).click();
    const units = dialog(page, a.AlarmUnitsTitle);
    // The GPS units are the shared unit picker; the locked unit (demo unit 4) cannot be chosen.
    const gps = units.getByTestId('alarm-receiver-units');
    await poll(() => gps.getByRole('option', { name: /^Service van 1/ }).isVisible()).toBe(true);
    expect(await gps.getByText(demoImei(0), { exact: false }).first().isVisible()).toBe(true);
    const locked = gps.getByRole('option').filter({ hasText: a.AlarmUnitsLockedHint });
    expect(await locked.count()).toBe(1);
    expect(await locked.getAttribute('aria-disabled')).toBe('true');
    // A click on it (aria-disabled, which Playwright would not click) changes nothing.
    await locked.click({ force: true });
    expect(await locked.getAttribute('aria-selected')).toBe('false');
    await shot(page, 'alarm-modal-units');
    await units.getByRole('tab', { name: a.AlarmUnitsTabBle }).click();
    await poll(() => units.getByText(a.AlarmUnitsNoBle).isVisible()).toBe(true);
    await units.getByRole('tab', { name: a.AlarmUnitsTabGps }).click();
    await gps.getByRole('button', { name: unitsEn.UnitPickerSelectAllMatching }).click();
    await poll(() => gps.getByRole('option', { name: /^Service van 1/ }).getAttribute('aria-selected')).toBe('true');
    expect(await locked.getAttribute('aria-selected')).toBe('false');
    await units.getByRole('button', { name: en.Save }).click();
    await poll(() => page.getByText(a.UnitsSelectedSuccessMsg).isVisible()).toBe(true);
    const anna = (await listReceivers(accountId)).find((r) => r.name === 'Anna Berg');
    // Every matching unit but the locked one, stored.
    expect(anna?.gpsImeis).toContain(demoImei(0));
    expect(anna?.gpsImeis.length).toBeGreaterThan(1);
    expect(anna?.gpsImeis).not.toContain(demoImei(4));
    await poll(() => rowNames(page)).toContain(`Anna Berg (${anna?.gpsImeis.length ?? -1})`);
    await page.getByRole('button', { name: text(a.AlarmSelectUnitFor, { name: 'Anna Berg' }) }).click();
    await units.getByRole('tab', { name: a.AlarmUnitsTabBle }).click();
    await units.getByRole('button', { name: en.Cancel }).click();
    await page.getByRole('button', { name: text(a.AlarmSelectUnitFor, { name: 'Anna Berg' }) }).click();
    await poll(() => units.getByRole('tab', { name: a.AlarmUnitsTabGps }).getAttribute('aria-selected')).toBe('true');
    await units.getByRole('button', { name: en.Cancel }).click();

    // (3) Delete.
    await page.getByRole('button', { name: text(a.AlarmDeleteFor, { name: 'David Holm' }) }).click();
    const del = dialog(page, a.AlarmDeleteTitle);
    await poll(() => del.getByText(text(a.AlarmDeleteConfirm, { name: 'David Holm' })).isVisible()).toBe(true);
    await shot(page, 'alarm-modal-delete');
    await del.getByRole('button', { name: a.AlarmDelete }).click();
    await poll(() => rows(page).count()).toBe(3);

    // (5) The existing-user picker: switches off, the form filled.
    await page.getByRole('button', { name: a.AlarmNewReceiver }).click();
    await dialog(page, a.AlarmAddTitle).getByRole('button', { name: a.AlarmAddExistingUser }).click();
    const picker = dialog(page, a.AlarmPickUserTitle);
    const erik = `${demoUsers.user.firstName} ${demoUsers.user.lastName}`;
    await poll(() => picker.getByRole('button', { name: text(a.AlarmPickUserChoose, { name: erik }) }).isVisible()).toBe(true);
    expect(await picker.getByText(demoUsers.user.email).isVisible()).toBe(true);
    await shot(page, 'alarm-modal-picker');
    await picker.getByRole('button', { name: text(a.AlarmPickUserChoose, { name: erik }) }).click();
    const linked = dialog(page, a.AlarmFormNewTitle);
    await poll(() => linked.getByRole('textbox', { name: a.AlarmFormName }).inputValue()).toBe(erik);
    expect(await linked.getByRole('textbox', { name: a.AlarmFormEmail }).inputValue()).toBe(demoUsers.user.email);
    expect(await linked.getByRole('switch', { name: a.AlarmFormSecurity }).isChecked()).toBe(false);
    expect(await linked.getByRole('switch', { name: a.AlarmFormFunction }).isChecked()).toBe(false);
    expect(await linked.getByRole('switch', { name: a.AlarmFormPush }).isDisabled()).toBe(true);
    await linked.getByRole('switch', { name: a.AlarmFormSecurity }).check({ force: true });
    await linked.getByRole('button', { name: en.Save }).click();
    await poll(() => rows(page).count()).toBe(4);
    expect((await listReceivers(accountId)).find((r) => r.name === erik)).toMatchObject({ memberId: await userIdOf(demoUsers.user.username), securityAlarm: true, functionAlarm: false });
    // Erik is a receiver now: the picker leaves him out.
    await page.getByRole('button', { name: a.AlarmNewReceiver }).click();
    await dialog(page, a.AlarmAddTitle).getByRole('button', { name: a.AlarmAddExistingUser }).click();
    await poll(() => picker.getByRole('button', { name: text(a.AlarmPickUserChoose, { name: `${demoUsers.admin.firstName} ${demoUsers.admin.lastName}` }) }).isVisible()).toBe(true);
    expect(await picker.getByRole('button', { name: text(a.AlarmPickUserChoose, { name: erik }) }).count()).toBe(0);
    await page.keyboard.press('Escape');

    // The alerts' language and time zone.
    await page.getByRole('combobox', { name: a.AlertLanguage, exact: true }).click();
    await page.getByRole('listbox', { name: a.AlertLanguage }).getByRole('option', { name: a.AlertLanguageEn }).click();
    await page.getByRole('combobox', { name: a.AlertTimeZone, exact: true }).click();
    const zones = page.getByRole('listbox', { name: a.AlertTimeZone });
    await poll(() => zones.getByRole('option', { name: a.AlertZoneLondon }).isVisible()).toBe(true);
    expect(await zones.getByRole('option', { name: a.AlertZoneKathmandu }).count()).toBe(0);
    await zones.getByRole('option', { name: a.AlertZoneLondon }).click();
    await page.getByRole('button', { name: a.AlertSettingsSave }).click();
    await poll(() => page.getByText(a.AlertSettingsSaved).isVisible()).toBe(true);
    const account = await dynamo().send(new GetCommand({ TableName: tableName('accounts'), Key: { accountId } }));
    expect(account.Item).toMatchObject({ alertLanguage: 'en', alertTimeZone: 'Europe/London' });

    // The help section: which events are which.
    await page.getByRole('button', { name: a.AlarmClassesTitle }).click();
    await poll(() => page.getByText(a.AlarmEventGeofenceEnter).isVisible()).toBe(true);
    await shot(page, 'alarm-help-en');

    expect(errors).toEqual([]);
    await context.close();
  }, 180_000);

  it('shows the no-records message to an account without receivers', async () => {
    const fresh = await createTestUser();
    const { context, page, errors } = await openPage(browser);
    await logIn(page, fresh.username, fresh.password);
    await poll(() => page.getByText(a.AlarmNoReceivers).isVisible()).toBe(true);
    await shot(page, 'alarm-empty-en');
    expect(errors).toEqual([]);
    await context.close();
  }, 60_000);
});
