/**
 * Places in real Chromium against the embedded runtime. demo-admin opens Places from the sidebar
 * (empty), is told what an empty form lacks, creates a place with an 'end here: private' rule, a
 * unit and a time window, is offered to apply the rule to stored trips and applies it (yesterday's
 * trip of Service van 1 that ends there becomes private), finds the place in the list and by
 * search, edits it, and deletes it after a confirmation. Every screen is checked with axe and
 * photographed at 390 and 1280 px (with SCREENSHOTS=1) into test-results/places/ (Swedish and Norwegian: languages.e2e.test.ts).
 */
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getPorts } from '../../functions/platform/container';
import { addDays, localDayOf, wallToInstant } from '../../shared/local-time';
import { unitWithCopies } from '../support/unit-state';
import { typeDate } from '../support/date-input';
import { storeDetectedTrips } from '../../functions/trips/store-detected';
import { demoImei, demoUsers } from '../../infra/local/seed';
import { geofencesEn } from '../../shared/i18n/features/geofences/en';
import { placesEn } from '../../shared/i18n/features/places/en';
import { type App, checkAndShoot, DESKTOP, logInAt, openPage, PHONE, poll, SHOTS_DIR, startBrowserApp, stopBrowserApp } from '../support/browser';

let app: App;
let browser: Browser;

const SHOTS = join(SHOTS_DIR, 'places');
const ZONE = 'Europe/Stockholm';
const IMEI = demoImei(0);
/** Where yesterday's trip ends: the place is put here. */
const OFFICE = { lat: 59.3467, lon: 18.0718 };
const yesterday = addDays(localDayOf(Date.now(), ZONE), -1);

async function seedTrip(): Promise<void> {
  const unit = await unitWithCopies(IMEI);
  if (!unit) throw new Error(`no unit ${IMEI}`);
  const [y = 0, m = 1, d = 1] = yesterday.split('-').map(Number);
  const start = wallToInstant(Date.UTC(y, m - 1, d, 8, 0), ZONE);
  await storeDetectedTrips(
    unit,
    [
      {
        startTs: start,
        stopTs: start + 30 * 60_000,
        startLat: 59.3326,
        startLon: 18.0649,
        stopLat: OFFICE.lat,
        stopLon: OFFICE.lon,
        distanceM: 12_300,
        startCounterM: 0,
        stopCounterM: 12_300,
        counterSource: 'computed',
        maxSpeedKmh: 70,
        basis: 'ignition',
      },
    ],
    getPorts(),
  );
}

beforeAll(async () => {
  ({ app, browser } = await startBrowserApp());
  await seedTrip();
});

afterAll(async () => {
  await stopBrowserApp({ app, browser });
});

const text = (template: string, vars: Record<string, string | number>) => template.replace(/\{\{(\w+)\}\}/g, (_, name: string) => String(vars[name]));

/** A modal covers the viewport only: its picture is the viewport (`fullPage: false`). */
async function shot(page: Page, name: string, options: { fullPage?: boolean } = {}, sizes = [PHONE, DESKTOP]): Promise<void> {
  await checkAndShoot(page, SHOTS, name, { sizes, ...options });
  await page.setViewportSize(DESKTOP);
}

const rows = (page: Page) => page.getByTestId('place-row');

async function fillPlace(page: Page, texts: typeof placesEn, label: string): Promise<void> {
  // The address search (the geofence editor's) sets the centre, the address and an empty name.
  await page.getByRole('searchbox', { name: texts.PlaceAddressSearch }).fill('Uppsala');
  await page.getByRole('searchbox', { name: texts.PlaceAddressSearch }).press('Enter');
  await page.getByTestId('address-result').first().click();
  await poll(() => page.getByRole('textbox', { name: texts.PlaceAddress, exact: true }).inputValue()).toMatch(/^Uppsala/);
  expect(Number(await page.getByRole('textbox', { name: texts.PlaceLatitude }).inputValue())).toBeCloseTo(59.86, 1);
  expect(await page.getByRole('textbox', { name: texts.PlaceLabel, exact: true }).inputValue()).toBe('Uppsala');
  // Then the office itself, typed.
  await page.getByRole('textbox', { name: texts.PlaceLabel, exact: true }).fill(label);
  await page.getByRole('textbox', { name: texts.PlaceAddress, exact: true }).fill('Sveavägen 10, Stockholm');
  await page.getByRole('textbox', { name: texts.PlaceLatitude }).fill(String(OFFICE.lat));
  await page.getByRole('textbox', { name: texts.PlaceLongitude }).fill(String(OFFICE.lon));
  const picker = page.getByTestId('place-units');
  await picker.getByRole('option', { name: /^Service van 1/ }).click();
  await poll(() => picker.getByRole('option', { name: /^Service van 1/ }).getAttribute('aria-selected')).toBe('true');
  await page.getByTestId('place-when').selectOption('end');
  await page.getByTestId('place-type').selectOption('private');
}

describe('places', () => {
  it('creates a place with a rule, applies it to stored trips, finds and edits it', async () => {
    const { context, page, errors } = await openPage(browser);
    await logInAt(page, app.url, '/user/places', demoUsers.admin.username);
    await poll(() => page.getByText(placesEn.PlacesEmptyTitle).isVisible()).toBe(true);
    await shot(page, 'places-empty');

    // An empty form: what is missing is said beside each field.
    await page.getByRole('link', { name: placesEn.PlaceNew }).click();
    await page.waitForURL(/\/add-edit-places$/);
    await page.getByTestId('place-save').click();
    await poll(() => page.getByText(placesEn.SpecifyPlaceLabel).isVisible()).toBe(true);
    expect(await page.getByText(placesEn.PlaceSelectUnit).isVisible()).toBe(true);

    await fillPlace(page, placesEn, 'Office');
    await page.getByRole('button', { name: geofencesEn.GeofenceAddWindow }).click();
    expect(await page.getByTestId('weekly-window').count()).toBe(1);
    await page.getByRole('button', { name: text(geofencesEn.GeofenceRemoveWindow, { number: 1 }) }).click();
    expect(await page.getByTestId('weekly-window').count()).toBe(0);
    await poll(() => page.locator('.geo-map canvas').count()).toBeGreaterThan(0);
    await shot(page, 'place-new');
    await page.getByTestId('place-save').click();

    // Saved: the editor of the new place offers to apply the rule to the stored trips.
    await page.waitForURL(/\/add-edit-places\/[\w-]+$/);
    const offer = page.getByTestId('apply-offer');
    await poll(() => offer.isVisible()).toBe(true);
    await typeDate(offer.getByRole('textbox', { name: placesEn.PlaceApplyFrom, exact: true }), addDays(yesterday, -3));
    await typeDate(offer.getByRole('textbox', { name: placesEn.PlaceApplyTo, exact: true }), yesterday);
    await offer.getByRole('button', { name: placesEn.PlaceApply }).click();
    await poll(() => offer.getByTestId('apply-result').textContent()).toBe(text(placesEn.PlaceApplyDone, { count: 1 }));
    await shot(page, 'place-saved');

    // The list: the place with its rule and unit, found by the search and not by another word.
    await page.getByRole('link', { name: placesEn.PlaceBackToList }).click();
    await page.waitForURL(/\/user\/places$/);
    await poll(() => rows(page).count()).toBe(1);
    const row = rows(page).first();
    expect(await row.getByText(text(placesEn.PlaceRuleEndText, { type: placesEn.PlaceTypePrivate })).isVisible()).toBe(true);
    expect(await row.getByText('Service van 1').isVisible()).toBe(true);
    // Another word first, so that the address's match shows the search at work.
    await page.getByRole('textbox', { name: placesEn.PlacesSearchLabel }).fill('harbour');
    await poll(() => page.getByText(placesEn.PlacesNoMatch).isVisible()).toBe(true);
    await page.getByRole('textbox', { name: placesEn.PlacesSearchLabel }).fill('sveavägen');
    await poll(() => rows(page).count()).toBe(1);
    expect(await page.getByText(placesEn.PlacesNoMatch).count()).toBe(0);
    await page.getByRole('button', { name: placesEn.PlacesClearSearch }).click();
    await poll(() => rows(page).count()).toBe(1);
    await shot(page, 'places-list');

    // Edit: a new name, the rule for trips that start here.
    await row.getByRole('link', { name: 'Office' }).click();
    await poll(() => page.getByRole('textbox', { name: placesEn.PlaceLabel, exact: true }).inputValue()).toBe('Office');
    await page.getByRole('textbox', { name: placesEn.PlaceLabel, exact: true }).fill('Head office');
    await page.getByTestId('place-when').selectOption('start');
    await page.getByTestId('place-save').click();
    await poll(() => page.getByTestId('apply-offer').isVisible()).toBe(true);
    await page.getByRole('button', { name: placesEn.PlaceApplyNotNow }).click();
    await page.getByRole('link', { name: placesEn.PlaceBackToList }).click();
    await poll(() => rows(page).first().getByRole('link', { name: 'Head office' }).isVisible()).toBe(true);
    expect(await rows(page).first().getByText(text(placesEn.PlaceRuleStartText, { type: placesEn.PlaceTypePrivate })).isVisible()).toBe(true);
    expect(errors).toEqual([]);
    await context.close();
  }, 150_000);

  it('deletes the place after a confirmation', async () => {
    const { context, page, errors } = await openPage(browser);
    await logInAt(page, app.url, '/user/places', demoUsers.admin.username);
    await poll(() => rows(page).count()).toBe(1);

    // Delete after a confirmation: the list is empty again.
    await rows(page).first().getByRole('link', { name: 'Head office' }).click();
    await page.getByTestId('place-delete').click();
    const dialog = page.getByRole('dialog', { name: placesEn.PlaceDeleteTitle });
    await poll(() => dialog.getByText(text(placesEn.PlaceDeleteConfirm, { label: 'Head office' })).isVisible()).toBe(true);
    await shot(page, 'place-delete', { fullPage: false });
    await page.getByTestId('place-delete-confirm').click();
    await page.waitForURL(/\/user\/places$/);
    await poll(() => page.getByText(placesEn.PlacesEmptyTitle).isVisible()).toBe(true);

    expect(errors).toEqual([]);
    await context.close();
  }, 150_000);
});
