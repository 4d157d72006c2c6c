/**
 * The unit editor (/user/edit-terminal) in real Chromium against the embedded runtime. demo-admin
 * opens Service van 1 from the unit list by its name and saves every section: name, registration
 * number and appearance; object description; theft info; fuel and CO2; reads the odometer
 * and hours and enters an hours reading (a missing one named on its field); adds a distance interval that is due soon and a date interval that is overdue and marks
 * one serviced; driving behaviour; alarms; output labels; report frequency beside the operating
 * modes' battery life. A reload shows every value as stored. Field errors are shown on their
 * fields in words (a hyphen in the registration number, a third change within 24 hours, a zero
 * consumption, a bad e-mail address). The printable theft report shows the theft and object
 * fields; the map's unit details link to the editor; an ordinary user meets the not-found state
 * for a unit not granted to them, and a unit whose report frequency support has locked says so.
 * Each screen is checked with axe once per width, 390 and 1280 px (the editor with every section
 * open and filled in, a field error, the theft report, the locked frequency, the not-found state),
 * and photographed there (with SCREENSHOTS=1) into test-results/unit-editor/ with SCREENSHOTS; Swedish and Norwegian are
 * languages.e2e.test.ts's. The tests run in order: later ones read what the first one saved.
 */
import { join } from 'node:path';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nextState } from '../../functions/ingest/state';
import { dynamo, tableName } from '../../functions/platform/db';
import { demoImei, demoUsers } from '../../infra/local/seed';
import { en } from '../../shared/i18n/en';
import { commandsEn } from '../../shared/i18n/features/commands/en';
import { mapEn } from '../../shared/i18n/features/map/en';
import { unitEditorEn } from '../../shared/i18n/features/unit-editor/en';
import { type App, checkAndShoot, DESKTOP, logInAs, logInAt, openAllSections, openPage, PHONE, photograph, poll, SHOTS_DIR, startBrowserApp, stopBrowserApp } from '../support/browser';
import { testPosition } from '../support/positions';
import { storeUnitState } from '../support/unit-state';

let app: App;
let browser: Browser;

const SHOTS = join(SHOTS_DIR, 'unit-editor');
const IMEI = demoImei(0);
/** The tracker's counters: 15,200 km and 1,200 engine hours. */
const ODOMETER_M = 15_200_000;
const ENGINE_SECONDS = 1200 * 3600;

const T = unitEditorEn;
const text = (template: string, vars: Record<string, string | number>) => template.replace(/\{\{(\w+)\}\}/g, (_, name: string) => String(vars[name]));

/** A yyyy-MM-dd day `months` from today in Stockholm (negative: back). */
function dayMonthsFromNow(months: number): string {
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Stockholm' }).format(new Date());
  const [y = 0, m = 1, d = 1] = today.split('-').map(Number);
  const date = new Date(Date.UTC(y, m - 1 + months, Math.min(d, 28)));
  return date.toISOString().slice(0, 10);
}

beforeAll(async () => {
  ({ app, browser } = await startBrowserApp());
  const ts = Date.now() - 10 * 60_000;
  await storeUnitState(IMEI, nextState(undefined, testPosition(ts, 59.33, 18.06, { speed: 0, ignition: false, movement: false, odometer: ODOMETER_M, engineSeconds: ENGINE_SECONDS }), ts));
});

afterAll(async () => {
  await stopBrowserApp({ app, browser });
});

const logIn = (page: Page, username: string) => logInAs(page, app.url, username);

/** A section's form (named by the section's title). */
const section = (page: Page, title: string) => page.getByRole('form', { name: title, exact: true });
const box = (scope: Page | Locator, name: string) => scope.getByRole('textbox', { name, exact: true });
const combo = (scope: Page | Locator, name: string) => scope.getByRole('combobox', { name, exact: true });

/** Waits for the 'Saved' notification of what was just done and closes it. */
async function confirmSaved(page: Page): Promise<void> {
  const saved = page.getByText(T.UnitEditorSaved);
  await poll(() => saved.first().isVisible()).toBe(true);
  await page.getByRole('button', { name: T.UnitEditorCloseMessage }).first().click();
  await poll(() => saved.count()).toBe(0);
}

/** Saves a section and waits for the success notification to come and go. */
async function save(page: Page, title: string, button: string = T.UnitEditorSave): Promise<void> {
  await poll(() => page.getByText(T.UnitEditorSaved).count()).toBe(0);
  await section(page, title).getByRole('button', { name: button, exact: true }).click();
  await confirmSaved(page);
}

/** The field's error: aria-invalid set and the translated text shown as its description. */
async function expectFieldError(field: Locator, message: string): Promise<void> {
  await poll(() => field.getAttribute('aria-invalid')).toBe('true');
  const describedBy = (await field.getAttribute('aria-describedby')) ?? '';
  const texts = await Promise.all(describedBy.split(' ').filter(Boolean).map((id) => field.page().locator(`[id="${id}"]`).textContent()));
  expect(texts).toContain(message);
}

/** axe at both widths (unless a further state of a screen already checked) and, with SCREENSHOTS, photographs. */
async function shot(page: Page, name: string, axe = true): Promise<void> {
  await checkAndShoot(page, SHOTS, name, { axe });
  await page.setViewportSize(DESKTOP);
}

describe('unit editor', () => {
  it('edits and saves every section of a unit opened from the unit list, and keeps every value', async () => {
    const { context, page, errors } = await openPage(browser);
    await logInAt(page, app.url, '/user/edit-terminal-list');
    await page.getByRole('link', { name: 'Service van 1' }).click();
    await page.waitForURL(`${app.url}/user/edit-terminal?imei=${IMEI}`);
    await poll(() => page.getByRole('heading', { level: 2, name: 'Service van 1' }).isVisible()).toBe(true);
    expect(await page.getByText(text(T.UnitEditorIdentity, { imei: IMEI, registrationNumber: 'ABC123' })).isVisible()).toBe(true);
    await shot(page, 'editor-start', false);
    await openAllSections(page);
    await shot(page, 'editor-open', false);

    // Name and appearance; a hyphen in the registration number is refused on the field.
    const basics = section(page, T.UnitEditorBasics);
    await box(basics, T.UnitEditorName).fill('Service van One');
    await box(basics, T.UnitEditorRegistrationNumber).fill('AB-124');
    await basics.getByRole('button', { name: T.UnitEditorSave }).click();
    await expectFieldError(box(basics, T.UnitEditorRegistrationNumber), T.RegistrationNumberInvalid);
    expect(await page.evaluate(() => document.activeElement?.getAttribute('name'))).toBe('registrationNumber');
    await shot(page, 'editor-registration-invalid');
    await box(basics, T.UnitEditorRegistrationNumber).fill('abc124');
    await box(basics, T.UnitEditorColour).fill('#1e88e5');
    await combo(basics, T.UnitEditorSymbol).selectOption('van');
    await combo(basics, T.UnitEditorVehicleType).selectOption('van');
    await save(page, T.UnitEditorBasics);
    await poll(() => page.getByRole('heading', { level: 2, name: 'Service van One' }).isVisible()).toBe(true);
    // Stored upper case, one of the two changes of the day used.
    expect(await box(basics, T.UnitEditorRegistrationNumber).inputValue()).toBe('ABC124');
    expect(await basics.getByText(text(T.UnitEditorRegistrationChangesLeft, { count: 1 })).isVisible()).toBe(true);

    // Object description.
    const description = section(page, T.UnitEditorObjectDescription);
    await box(description, T.UnitEditor_manufacturer).fill('Volkswagen');
    await box(description, T.UnitEditor_model).fill('Transporter');
    await box(description, T.UnitEditor_year).fill('20x1');
    await box(description, T.UnitEditor_chassisNumber).fill('WV1ZZZ7HZMH000123');
    await box(description, T.UnitEditor_insuranceCompany).fill('Folksam');
    await box(description, T.UnitEditor_insuranceNumber).fill('F-99812');
    await box(description, T.UnitEditorLinks).fill('https://example.com/van\nnot a link');
    await description.getByRole('button', { name: T.UnitEditorSave }).click();
    await expectFieldError(box(description, T.UnitEditorLinks), T.LinkInvalid);
    await expectFieldError(box(description, T.UnitEditor_year), T.YearInvalid);
    await box(description, T.UnitEditorLinks).fill('https://example.com/van');
    await box(description, T.UnitEditor_year).fill('2021');
    await save(page, T.UnitEditorObjectDescription);

    // Theft info: an e-mail address that is not one, and a Swedish number as a Norwegian one, are refused on their fields.
    const theft = section(page, T.UnitEditorTheftInfo);
    const theftDay = dayMonthsFromNow(-1);
    await theft.getByLabel(T.UnitEditorTheft_date, { exact: true }).fill(theftDay);
    await box(theft, T.UnitEditorTheft_place).fill('Hornsgatan 12, Stockholm');
    await box(theft, T.UnitEditorTheft_policeStation).fill('Södermalm');
    await box(theft, T.UnitEditorTheft_reportNumber).fill('5000-K123456-24');
    await box(theft, T.UnitEditorTheft_ownerName).fill('Alva Andersson');
    await box(theft, T.UnitEditorTheft_ownerEmail).fill('alva.example');
    await combo(theft, T.UnitEditorTheft_ownerPhoneCountry).selectOption('NO');
    await box(theft, T.UnitEditorTheft_ownerPhone).fill('070 123 45 67');
    await box(theft, T.UnitEditorTheft_otherInfo).fill('Roof rack and a blue toolbox.');
    await theft.getByRole('button', { name: T.UnitEditorSave }).click();
    await expectFieldError(box(theft, T.UnitEditorTheft_ownerEmail), T.OwnerEmailInvalid);
    await expectFieldError(box(theft, T.UnitEditorTheft_ownerPhone), en.EnterValidPhoneNumber);
    await box(theft, T.UnitEditorTheft_ownerEmail).fill('alva@demo.example');
    await box(theft, T.UnitEditorTheft_ownerPhone).fill('41234567');
    await save(page, T.UnitEditorTheftInfo);

    // Fuel and CO2: a consumption of 0 is refused.
    const fuel = section(page, T.UnitEditorFuel);
    await combo(fuel, T.UnitEditorFuelType).selectOption('diesel');
    await box(fuel, T.UnitEditorConsumption).fill('0');
    await box(fuel, T.UnitEditorCo2).fill('172');
    await fuel.getByLabel(T.UnitEditorNextInspection, { exact: true }).fill('2027-05-31');
    await fuel.getByRole('button', { name: T.UnitEditorSave }).click();
    await expectFieldError(box(fuel, T.UnitEditorConsumption), T.ConsumptionMustBePositive);
    // A decimal comma is read as a point.
    await box(fuel, T.UnitEditorConsumption).fill('0,65');
    await box(fuel, T.UnitEditorIdleConsumption).fill('1,2');
    await save(page, T.UnitEditorFuel);

    // The tracker's odometer and operating hours.
    expect(await page.getByText(text(T.UnitEditorOdometerNow, { value: '15,200' })).isVisible()).toBe(true);
    expect(await page.getByText(text(T.UnitEditorHoursNow, { value: '1,200' })).isVisible()).toBe(true);
    // A reading now: a missing one is named on its field; a saved one is what the editor shows and lists.
    const hoursReading = section(page, T.UnitEditorNewHours);
    await hoursReading.getByRole('button', { name: T.UnitEditorSaveReading }).click();
    await expectFieldError(box(hoursReading, T.UnitEditorNewHours), T.SpecifyOperatingHours);
    await box(hoursReading, T.UnitEditorNewHours).fill('1250,5');
    await save(page, T.UnitEditorNewHours, T.UnitEditorSaveReading);
    await poll(() => page.getByText(text(T.UnitEditorHoursNow, { value: '1,250.5' })).isVisible()).toBe(true);
    await poll(() => page.getByRole('list', { name: T.UnitEditorReadingsHours }).getByRole('listitem').count()).toBe(1);

    // Service intervals: 800 km left of 15,000 is due soon; a yearly one last done 13 months ago is overdue.
    const addInterval = section(page, T.UnitEditorAddServiceInterval);
    await box(addInterval, T.UnitEditorServiceName).fill('Oil change');
    await combo(addInterval, T.UnitEditorServiceKind).selectOption('distance');
    await box(addInterval, T.UnitEditorServiceEvery_distance).fill('15000');
    await box(addInterval, T.UnitEditorServiceLast_distance).fill('1000');
    await save(page, T.UnitEditorAddServiceInterval, T.UnitEditorAddServiceInterval);
    expect(await box(addInterval, T.UnitEditorServiceName).inputValue()).toBe('');
    await box(addInterval, T.UnitEditorServiceName).fill('Annual inspection');
    await combo(addInterval, T.UnitEditorServiceKind).selectOption('date');
    await box(addInterval, T.UnitEditorServiceEvery_date).fill('12');
    await addInterval.getByLabel(T.UnitEditorServiceLast_date, { exact: true }).fill(dayMonthsFromNow(-13));
    await save(page, T.UnitEditorAddServiceInterval, T.UnitEditorAddServiceInterval);
    const serviceRow = (name: string) => page.getByRole('list', { name: T.UnitEditorServiceTable }).getByRole('listitem').filter({ hasText: name });
    await poll(() => serviceRow('Oil change').textContent()).toContain(T.ServiceState_dueSoon);
    expect(await serviceRow('Oil change').textContent()).toContain(`${text(T.UnitEditorServiceDueAt_distance, { value: '16,000' })} (${text(T.UnitEditorServiceLeft_distance, { value: '800' })})`);
    expect(await serviceRow('Annual inspection').textContent()).toContain(T.ServiceState_overdue);
    await shot(page, 'editor-service', false);
    await page.getByRole('button', { name: text(T.UnitEditorMarkServicedNamed, { name: 'Oil change' }) }).click();
    // Marking serviced confirms with 'Saved' too; closed here, it cannot come late into the next save.
    await confirmSaved(page);
    await poll(() => serviceRow('Oil change').textContent()).toContain(T.ServiceState_ok);
    expect(await serviceRow('Oil change').textContent()).toContain(text(T.UnitEditorServiceDueAt_distance, { value: '30,200' }));
    expect(await serviceRow('Annual inspection').textContent()).toContain(T.ServiceState_overdue);

    // Driving behaviour.
    const driving = section(page, T.UnitEditorDriving);
    await combo(driving, T.UnitEditorEcoSensitivity).selectOption('sensitive');
    await box(driving, T.UnitEditorTimeTillParked).fill('5');
    await save(page, T.UnitEditorDriving);

    // Alarms.
    const alarms = section(page, T.UnitEditorAlarms);
    expect(await alarms.getByRole('switch', { name: T.UnitEditorLowBatteryAlert }).isChecked()).toBe(true);
    await box(alarms, T.UnitEditorOverspeedKmh).fill('110');
    await box(alarms, T.UnitEditorOverspeedSeconds).fill('20');
    await alarms.getByRole('switch', { name: T.UnitEditorLowBatteryAlert }).uncheck({ force: true });
    await box(alarms, text(T.UnitEditorDinLabel, { input: 2 })).fill('Door');
    await alarms.getByRole('checkbox', { name: text(T.UnitEditorDinAlarm, { input: 2 }) }).check();
    await save(page, T.UnitEditorAlarms);

    // Output labels.
    const outputs = section(page, T.UnitEditorOutputs);
    await box(outputs, text(T.UnitEditorDoutLabel, { output: 1 })).fill('Heater');
    await box(outputs, text(T.UnitEditorDoutLabel, { output: 3 })).fill('Beacon');
    await save(page, T.UnitEditorOutputs);

    // Report frequency, beside the operating modes with their battery life.
    const reporting = section(page, T.UnitEditorReporting);
    await box(reporting, T.UnitEditorReportFrequency).fill('5');
    await combo(reporting, T.UnitEditorReportFrequencyUnit).selectOption('seconds');
    await reporting.getByRole('button', { name: T.UnitEditorSave }).click();
    await expectFieldError(box(reporting, T.UnitEditorReportFrequency), T.ReportFrequencyInvalid);
    await combo(reporting, T.UnitEditorReportFrequencyUnit).selectOption('minutes');
    await save(page, T.UnitEditorReporting);
    const batteryLife = page.getByRole('table', { name: T.UnitEditorBatteryLife });
    expect(await batteryLife.getByRole('row', { name: commandsEn.OperatingModeFixed24h }).textContent()).toContain(commandsEn.OperatingModeFixed24hDescription);
    expect(await batteryLife.getByRole('row').count()).toBe(9);

    // The second change of the day is allowed, a third is not.
    await box(basics, T.UnitEditorRegistrationNumber).fill('ABC125');
    await save(page, T.UnitEditorBasics);
    expect(await basics.getByText(text(T.UnitEditorRegistrationChangesLeft, { count: 0 })).isVisible()).toBe(true);
    await box(basics, T.UnitEditorRegistrationNumber).fill('ABC126');
    await basics.getByRole('button', { name: T.UnitEditorSave }).click();
    await expectFieldError(box(basics, T.UnitEditorRegistrationNumber), T.RegistrationNumberChangedTooOften);
    await shot(page, 'editor-registration-too-often', false);

    // Two sections saved at the same moment keep each other's change (each saves only its fields).
    await box(driving, T.UnitEditorTimeTillParked).fill('6');
    await box(outputs, text(T.UnitEditorDoutLabel, { output: 2 })).fill('Pump');
    await Promise.all([driving.getByRole('button', { name: T.UnitEditorSave }).click(), outputs.getByRole('button', { name: T.UnitEditorSave }).click()]);
    await poll(() => page.getByText(T.UnitEditorSaved).count()).toBe(2);

    // After a reload every value is as saved.
    await page.reload();
    await poll(() => page.getByRole('heading', { level: 2, name: 'Service van One' }).isVisible()).toBe(true);
    await openAllSections(page);
    expect(await box(basics, T.UnitEditorName).inputValue()).toBe('Service van One');
    expect(await box(basics, T.UnitEditorRegistrationNumber).inputValue()).toBe('ABC125');
    expect(await box(basics, T.UnitEditorColour).inputValue()).toBe('#1e88e5');
    expect(await combo(basics, T.UnitEditorSymbol).inputValue()).toBe('van');
    expect(await combo(basics, T.UnitEditorVehicleType).inputValue()).toBe('van');
    const values = async (form: Locator, labels: Record<string, string>) => {
      // A required field's label ends in an asterisk.
      for (const [label, expected] of Object.entries(labels)) expect(await form.getByLabel(new RegExp(`^${label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}( \\*)?$`)).inputValue(), label).toBe(expected);
    };
    await values(description, {
      [T.UnitEditor_manufacturer]: 'Volkswagen',
      [T.UnitEditor_model]: 'Transporter',
      [T.UnitEditor_year]: '2021',
      [T.UnitEditor_chassisNumber]: 'WV1ZZZ7HZMH000123',
      [T.UnitEditor_insuranceCompany]: 'Folksam',
      [T.UnitEditor_insuranceNumber]: 'F-99812',
      [T.UnitEditorLinks]: 'https://example.com/van',
    });
    await values(theft, {
      [T.UnitEditorTheft_date]: theftDay,
      [T.UnitEditorTheft_place]: 'Hornsgatan 12, Stockholm',
      [T.UnitEditorTheft_policeStation]: 'Södermalm',
      [T.UnitEditorTheft_reportNumber]: '5000-K123456-24',
      [T.UnitEditorTheft_ownerName]: 'Alva Andersson',
      [T.UnitEditorTheft_ownerEmail]: 'alva@demo.example',
      // Stored as E.164, shown in its country's national form.
      [T.UnitEditorTheft_ownerPhoneCountry]: 'NO',
      [T.UnitEditorTheft_ownerPhone]: '41 23 45 67',
      [T.UnitEditorTheft_otherInfo]: 'Roof rack and a blue toolbox.',
    });
    await values(fuel, { [T.UnitEditorFuelType]: 'diesel', [T.UnitEditorConsumption]: '0.65', [T.UnitEditorIdleConsumption]: '1.2', [T.UnitEditorCo2]: '172', [T.UnitEditorNextInspection]: '2027-05-31' });
    expect(await serviceRow('Oil change').textContent()).toContain(T.ServiceState_ok);
    expect(await serviceRow('Annual inspection').textContent()).toContain(T.ServiceState_overdue);
    await values(driving, { [T.UnitEditorEcoSensitivity]: 'sensitive', [T.UnitEditorTimeTillParked]: '6' });
    await values(alarms, { [T.UnitEditorOverspeedKmh]: '110', [T.UnitEditorOverspeedSeconds]: '20', [text(T.UnitEditorDinLabel, { input: 2 })]: 'Door', [text(T.UnitEditorDinLabel, { input: 1 })]: '' });
    expect(await alarms.getByRole('switch', { name: T.UnitEditorLowBatteryAlert }).isChecked()).toBe(false);
    expect(await alarms.getByRole('checkbox', { name: text(T.UnitEditorDinAlarm, { input: 2 }) }).isChecked()).toBe(true);
    expect(await alarms.getByRole('checkbox', { name: text(T.UnitEditorDinAlarm, { input: 3 }) }).isChecked()).toBe(false);
    await values(outputs, { [text(T.UnitEditorDoutLabel, { output: 1 })]: 'Heater', [text(T.UnitEditorDoutLabel, { output: 2 })]: 'Pump', [text(T.UnitEditorDoutLabel, { output: 3 })]: 'Beacon' });
    await values(reporting, { [T.UnitEditorReportFrequency]: '5', [T.UnitEditorReportFrequencyUnit]: 'minutes' });
    // The rename is in the name history.
    const history = page.getByRole('table', { name: T.UnitEditorNameHistory });
    expect(await history.getByRole('row', { name: /Service van One/ }).textContent()).toContain(demoUsers.admin.username);
    await shot(page, 'editor-saved');
    expect(errors).toEqual([]);
    await context.close();
  }, 240_000);

  it('prints a theft report with the theft and object fields', async () => {
    const { context, page, errors } = await openPage(browser);
    await logInAt(page, app.url, `/user/edit-terminal?imei=${IMEI}`);
    await page.getByRole('button', { name: T.UnitEditorTheftInfo }).click();
    const link = page.getByRole('link', { name: T.UnitEditorPrintTheftReport });
    expect(await link.getAttribute('href')).toBe(`/user/edit-terminal?imei=${IMEI}&print=theft`);
    expect(await link.getAttribute('target')).toBe('_blank');
    // The report opens in a tab of its own; here it is opened in the same one.
    await page.goto(`${app.url}${(await link.getAttribute('href')) ?? ''}`);
    const report = page;
    const article = report.getByRole('article', { name: text(T.UnitEditorTheftReportTitle, { name: 'Service van One' }) });
    await poll(() => article.isVisible()).toBe(true);
    const term = async (label: string) => (await article.locator('dt', { hasText: label }).locator('xpath=following-sibling::dd[1]').first().textContent()) ?? '';
    expect(await term(T.UnitEditorRegistrationNumber)).toBe('ABC125');
    expect(await term(T.UnitEditor_manufacturer)).toBe('Volkswagen');
    expect(await term(T.UnitEditor_chassisNumber)).toBe('WV1ZZZ7HZMH000123');
    expect(await term(T.UnitEditor_insuranceNumber)).toBe('F-99812');
    expect(await term(T.UnitEditorTheft_place)).toBe('Hornsgatan 12, Stockholm');
    expect(await term(T.UnitEditorTheft_reportNumber)).toBe('5000-K123456-24');
    expect(await term(T.UnitEditorTheft_ownerEmail)).toBe('alva@demo.example');
    // Another country's number in international form for the (Swedish) reader.
    expect(await term(T.UnitEditorTheft_ownerPhone)).toBe('+47 41 23 45 67');
    expect(await term(T.UnitEditor_hullNumber)).toBe('-');
    // On paper: the report alone, without the print button and the portal's header and menu.
    await report.emulateMedia({ media: 'print' });
    expect(await report.getByRole('button', { name: T.UnitEditorPrint }).isVisible()).toBe(false);
    expect(await report.getByRole('banner').isVisible()).toBe(false);
    expect(await report.getByRole('navigation', { name: en.MainNavigation }).isVisible()).toBe(false);
    await photograph(report, `${SHOTS}/theft-report-print.png`, { fullPage: true });
    await report.emulateMedia({ media: 'screen' });
    await checkAndShoot(report, SHOTS, 'theft-report');
    expect(errors).toEqual([]);
    await context.close();
  });

  it("links the map's unit details to the editor", async () => {
    const { context, page, errors } = await openPage(browser);
    await logIn(page, demoUsers.admin.username);
    const units = page.getByRole('list', { name: mapEn.MapUnitsHeading });
    await units.getByRole('button', { name: /Service van One/ }).click();
    await poll(() => page.getByRole('heading', { level: 2, name: 'Service van One' }).isVisible()).toBe(true);
    await page.getByRole('link', { name: en.EditUnit }).click();
    await page.waitForURL(`${app.url}/user/edit-terminal?imei=${IMEI}`);
    // The editor's own form: the map's details share the unit's name as a heading.
    await poll(() => section(page, T.UnitEditorBasics).isVisible()).toBe(true);
    await poll(() => page.getByRole('heading', { level: 2, name: 'Service van One' }).isVisible()).toBe(true);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('shows an ordinary user a locked report frequency, and the not-found state for a unit not granted to them', async () => {
    const { context, page, errors } = await openPage(browser, PHONE);
    // A granted unit opens; support has locked its report frequency, so that is shown and not offered.
    await dynamo().send(
      new UpdateCommand({ TableName: tableName('units'), Key: { imei: demoImei(1) }, UpdateExpression: 'SET reportFrequencyChange = :l', ExpressionAttributeValues: { ':l': 'locked' } }),
    );
    await logInAt(page, app.url, `/user/edit-terminal?imei=${demoImei(1)}`, demoUsers.user.username);
    await poll(() => page.getByRole('heading', { level: 2, name: 'Service van 2' }).isVisible()).toBe(true);
    await page.getByRole('button', { name: T.UnitEditorReporting }).click();
    const reporting = section(page, T.UnitEditorReporting);
    await poll(() => page.getByRole('note').filter({ hasText: T.FrequencyLocked }).isVisible()).toBe(true);
    expect(await box(reporting, T.UnitEditorReportFrequency).isDisabled()).toBe(true);
    expect(await reporting.getByRole('button', { name: T.UnitEditorSave }).count()).toBe(0);
    await shot(page, 'editor-frequency-locked');
    // The delivery lorry is the account's but not theirs.
    await page.goto(`${app.url}/user/edit-terminal?imei=${demoImei(2)}`);
    await poll(() => page.getByRole('heading', { name: T.UnitNotFound }).isVisible()).toBe(true);
    expect(await page.getByText(T.UnitEditorNotFoundHelp).isVisible()).toBe(true);
    expect(await page.getByText('Delivery lorry').count()).toBe(0);
    await shot(page, 'editor-not-found');
    await page.getByRole('link', { name: T.UnitEditorBackToList }).click();
    await page.waitForURL(`${app.url}/user/edit-terminal-list`);
    expect(errors).toEqual([]);
    await context.close();
  });
});
