/**
 * Geofences in real Chromium against the embedded runtime. demo-admin opens the empty list, adds a
 * geofence: searches an address (the map centres there), clicks the map to move the centre, types a
 * radius below 300 (refused with its message at the field, in the browser and by the server's
 * rules), then a valid one, widens it with the keyboard on the radius handle, names it, picks a
 * unit from the searchable multi-select, adds a deactivation period and saves; the list shows it
 * with its unit and finds it by the unit's name, and the unit carries its zone copy. It is edited
 * (theft mode on) and deleted after the confirmation, and the copy goes. Every screen is checked
 * with axe and photographed at 390 and 1280 px (with SCREENSHOTS=1) into test-results/geofence/ (Swedish and Norwegian:
 * languages.e2e.test.ts).
 */
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unitsEn } from '../../shared/i18n/features/units/en';
import { unitWithCopies } from '../support/unit-state';
import { demoImei } from '../../infra/local/seed';
import { geofencesEn as gEn } from '../../shared/i18n/features/geofences/en';
import { type App, checkAndShoot, DESKTOP, logInAt, openPage, PHONE, poll, SHOTS_DIR, startBrowserApp, stopBrowserApp, untilStill } from '../support/browser';

let app: App;
let browser: Browser;

const SHOTS = join(SHOTS_DIR, 'geofence');
const IMEI = demoImei(0);
const UNIT = 'Service van 1';


beforeAll(async () => {
  ({ app, browser } = await startBrowserApp());
});

afterAll(async () => {
  await stopBrowserApp({ app, browser });
});

const text = (template: string, vars: Record<string, string | number>) => template.replace(/\{\{(\w+)\}\}/g, (_, name: string) => String(vars[name]));

const shot = (page: Page, name: string, sizes = [PHONE, DESKTOP]) => checkAndShoot(page, SHOTS, name, { sizes });

const editorMap = (page: Page) => page.getByTestId('circle-editor-map');
const centreOf = async (page: Page) => {
  const value = await editorMap(page).getAttribute('data-center');
  if (!value) return null;
  const [lat = NaN, lon = NaN] = value.split(',').map(Number);
  return { lat, lon };
};
const mapReady = (page: Page) => poll(() => page.locator('.geo-map canvas.maplibregl-canvas').count()).toBe(1);

describe('geofences', () => {
  let page: Page;
  let errors: string[];

  it('adds a geofence: address search, map click, typed and keyboard radius, a unit and a deactivation period', async () => {
    ({ page, errors } = await openPage(browser, DESKTOP));
    await logInAt(page, app.url, '/user/geofences');
    await poll(() => page.getByText(gEn.GeofenceNoneTitle).isVisible()).toBe(true);
    await shot(page, 'list-empty-en');

    await page.getByRole('link', { name: gEn.GeofenceAdd }).click();
    await page.waitForURL(`${app.url}/user/geofences/add-edit-geofences`);
    await mapReady(page);
    expect(await page.getByRole('region', { name: gEn.GeofenceMapLabel }).count()).toBe(1);
    await shot(page, 'new-empty-en');

    // Saving without a centre or name says what is missing, at the fields.
    await page.getByTestId('geofence-save').click();
    await poll(() => page.getByText(gEn.GeofenceNameRequired).isVisible()).toBe(true);
    expect(await page.getByText(gEn.GeofenceInvalidPosition).isVisible()).toBe(true);

    // The address search centres the map.
    await page.getByRole('searchbox', { name: gEn.GeoEditorAddressLabel }).fill('Uppsala');
    await page.getByRole('searchbox', { name: gEn.GeoEditorAddressLabel }).press('Enter');
    const result = page.getByTestId('address-result').first();
    await poll(() => result.isVisible()).toBe(true);
    await shot(page, 'address-results-en', [DESKTOP]);
    await result.click();
    await poll(async () => (await centreOf(page))?.lat ?? 0).toBeGreaterThan(59.8);
    const picked = (await centreOf(page)) as { lat: number; lon: number };
    expect(picked.lon).toBeCloseTo(17.64, 1);
    expect(await page.getByRole('button', { name: new RegExp(`^${text(gEn.GeoEditorCenterHandle, { lat: '59', lon: '' }).split(' 59')[0]}`) }).count()).toBe(1);

    // A click on the map moves the centre there (once the map has flown to the address).
    await untilStill(editorMap(page));
    const box = (await editorMap(page).boundingBox()) as { x: number; y: number; width: number; height: number };
    await page.mouse.click(box.x + box.width * 0.3, box.y + box.height * 0.7);
    await poll(async () => (await centreOf(page))?.lat ?? 0).toBeLessThan(picked.lat);
    const clicked = (await centreOf(page)) as { lat: number; lon: number };
    expect(clicked.lon).toBeLessThan(picked.lon);

    // A typed radius below 300 is refused at the field; a valid one is drawn.
    const radius = page.getByRole('textbox', { name: gEn.GeoEditorRadius });
    await radius.fill('250');
    await page.getByTestId('geofence-name').fill('Uppsala depot');
    await page.getByTestId('geofence-save').click();
    await poll(() => page.getByText(gEn.RadiusLessThan300).isVisible()).toBe(true);
    await shot(page, 'new-errors-en', [PHONE]);
    await radius.fill('1200');
    await poll(() => editorMap(page).getAttribute('data-radius')).toBe('1200');
    await poll(() => page.getByText(gEn.RadiusLessThan300).count()).toBe(0);

    // The radius handle is a slider: the arrow keys widen it by 50 m.
    const handle = page.getByRole('slider', { name: gEn.GeoEditorRadiusHandle });
    await handle.focus();
    await handle.press('ArrowRight');
    await poll(() => editorMap(page).getAttribute('data-radius')).toBe('1250');
    expect(await radius.inputValue()).toBe('1250');

    // A unit from the shared picker: the server searches as the user types.
    const units = page.getByTestId('geofence-units');
    await units.getByRole('textbox', { name: unitsEn.UnitPickerSearch }).fill('abc123');
    await poll(() => units.getByRole('option').count()).toBe(1);
    await units.getByRole('option', { name: /^Service van 1/ }).click();
    await poll(() => units.getByRole('option', { name: /^Service van 1/ }).getAttribute('aria-selected')).toBe('true');

    // A deactivation period on weekends, overnight.
    await page.getByRole('button', { name: gEn.GeofenceAddWindow }).click();
    const period = page.getByRole('group', { name: text(gEn.GeofenceWindow, { number: 1 }) });
    for (const day of [gEn.GeofenceDay1, gEn.GeofenceDay2, gEn.GeofenceDay3, gEn.GeofenceDay4]) await period.getByRole('checkbox', { name: day }).uncheck();
    await period.getByRole('checkbox', { name: gEn.GeofenceDay6 }).check();
    await period.getByLabel(gEn.GeofenceFrom).fill('18:00');
    await period.getByLabel(gEn.GeofenceTo).fill('06:00');
    await shot(page, 'new-filled-en');

    await page.getByTestId('geofence-save').click();
    await page.waitForURL(`${app.url}/user/geofences`);
    const row = page.getByTestId('geofence-row').filter({ hasText: 'Uppsala depot' });
    await poll(() => row.isVisible()).toBe(true);
    expect(await row.textContent()).toContain(UNIT);
    expect(await row.textContent()).toContain('1,250');

    // The unit carries the copy the event engine reads.
    const zones = (await unitWithCopies(IMEI))?.zones ?? {};
    const copies = Object.values(zones);
    expect(copies).toHaveLength(1);
    expect(copies[0]).toMatchObject({ name: 'Uppsala depot', radius: 1250, alarm: true, active: true, theftMode: false, off: [{ days: [5, 6], from: '18:00', to: '06:00' }], timeZone: 'Europe/Stockholm' });
    expect(copies[0]?.lat).toBeCloseTo(clicked.lat, 5);
    await shot(page, 'list-en');
  });

  it('finds a geofence by a unit name, edits it and deletes it after asking', async () => {
    const search = page.getByRole('textbox', { name: gEn.GeofenceSearch });
    await search.fill('nothing like it');
    await poll(() => page.getByText(text(gEn.GeofenceNoMatch, { q: 'nothing like it' })).isVisible()).toBe(true);
    await search.fill('service van');
    await poll(() => page.getByTestId('geofence-row').count()).toBe(1);

    await page.getByRole('link', { name: text(gEn.GeofenceEditLabel, { name: 'Uppsala depot' }) }).click();
    await page.waitForURL(/\/user\/geofences\/add-edit-geofences\/.+/);
    await mapReady(page);
    await poll(() => page.getByTestId('geofence-name').inputValue()).toBe('Uppsala depot');
    expect(await page.getByRole('textbox', { name: gEn.GeoEditorRadius }).inputValue()).toBe('1250');
    await page.getByRole('switch', { name: gEn.GeofenceTheftMode }).check({ force: true });
    await page.getByTestId('geofence-name').fill('Uppsala yard');
    await shot(page, 'edit-en');
    await page.getByTestId('geofence-save').click();
    await page.waitForURL(`${app.url}/user/geofences`);
    const row = page.getByTestId('geofence-row').filter({ hasText: 'Uppsala yard' });
    await poll(() => row.isVisible()).toBe(true);
    expect(Object.values((await unitWithCopies(IMEI))?.zones ?? {})[0]).toMatchObject({ name: 'Uppsala yard', theftMode: true });

    await page.getByRole('button', { name: text(gEn.GeofenceDeleteLabel, { name: 'Uppsala yard' }) }).click();
    await poll(() => page.getByRole('dialog', { name: gEn.GeofenceDeleteTitle }).isVisible()).toBe(true);
    await shot(page, 'delete-en', [PHONE, DESKTOP]);
    await page.getByTestId('geofence-delete-confirm').click();
    await poll(() => page.getByText(gEn.GeofenceNoneTitle).isVisible()).toBe(true);
    expect((await unitWithCopies(IMEI))?.zones).toEqual({});
    expect(errors).toEqual([]);
  });
});
