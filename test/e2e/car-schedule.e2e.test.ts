/**
 * Car booking in real Chromium against the embedded runtime. demo-admin opens Car booking from the
 * sidebar, goes to tomorrow's week, books Service van 1 for tomorrow (a missing purpose and a slot
 * already booked are shown at their fields first), sees it in the week grid with '+N more' listing
 * the rest of the day on keyboard focus, edits it, finds it in My booking's month calendar and
 * deletes it after the confirmation (Swedish and Norwegian: languages.e2e.test.ts). Every screen is checked
 * with axe and photographed at 390 and 1280 px (with SCREENSHOTS=1) into test-results/car-schedule/.
 */
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD, demoImei, demoUsers } from '../../infra/local/seed';
import { carScheduleEn as cs } from '../../shared/i18n/features/car-schedule/en';
import { callAs, callerFor, type Caller } from '../support/api-caller';
import { type App, logInAt, openPage, poll, shooter, SHOTS_DIR, startBrowserApp, stopBrowserApp } from '../support/browser';

let app: App;
let browser: Browser;
let admin: Caller;

const SHOTS = join(SHOTS_DIR, 'car-schedule');
const text = (template: string, vars: Record<string, string | number>) => template.replace(/\{\{(\w+)\}\}/g, (_, name: string) => String(vars[name]));

/** The browser's zone (test/support/browser.ts openPage), today and tomorrow there. */
const zone = 'Europe/Stockholm';
const localDay = (at: Date) => new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(at);
const today = localDay(new Date());
const [ty = 1970, tm = 1, td = 1] = today.split('-').map(Number);
const tomorrow = new Date(Date.UTC(ty, tm - 1, td + 1)).toISOString().slice(0, 10);
const longDay = (day: string) => new Intl.DateTimeFormat('en-GB', { weekday: 'long', day: 'numeric', month: 'short', timeZone: 'UTC' }).format(new Date(`${day}T00:00:00Z`));

const shot = shooter(SHOTS);

/** Logs in on the way to the car schedule (the map is not what this file tests). */
const logIn = (page: Page) => logInAt(page, app.url, '/user/car-schedule');

async function book(from: string, to: string, purpose: string): Promise<void> {
  const r = await callAs(app.url, 'POST', '/api/v1/user/car-schedule', admin, { imei: demoImei(0), start_date: `${tomorrow} ${from}`, end_date: `${tomorrow} ${to}`, purpose, driver_id: admin.userId }, zone);
  expect(r.status, JSON.stringify(r.body)).toBe(201);
}

async function choose(page: Page, dialogName: string, field: string, option: string): Promise<void> {
  await page.getByRole('dialog', { name: dialogName }).getByRole('combobox', { name: field }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

beforeAll(async () => {
  ({ app, browser } = await startBrowserApp());
  admin = await callerFor(demoUsers.admin.username, DEMO_PASSWORD);
  // Tomorrow is already booked 09:00-10:00, 15:00-16:00 and 17:00-18:00.
  await book('09:00', '10:00', 'Morning delivery');
  await book('15:00', '16:00', 'Workshop');
  await book('17:00', '18:00', 'Evening round');
});

afterAll(async () => {
  await stopBrowserApp({ app, browser });
});

describe('Car booking', () => {
  it('books a car for tomorrow, shows it in the week and the month, edits and deletes it', async () => {
    const { context, page, errors } = await openPage(browser);
    await logIn(page);
    await page.getByLabel(cs.CsGoToDate).fill(tomorrow);
    const van = page.getByRole('row').filter({ has: page.getByRole('rowheader', { name: /Service van 1/ }) });
    await poll(() => van.getByRole('button', { name: /^09:00 - 10:00/ }).isVisible()).toBe(true);
    // Search narrows the rows (by registration number here).
    await page.getByRole('searchbox', { name: cs.CsSearchLabel }).fill('DEF456');
    await poll(() => page.getByRole('rowheader').count()).toBe(1);
    await page.getByRole('searchbox', { name: cs.CsSearchLabel }).fill('');
    await poll(() => page.getByRole('rowheader').count()).toBeGreaterThan(1);
    await shot(page, 'week');

    // New booking from the day's cell: the purpose is required, and a booked slot is refused by the server.
    await van.getByRole('button', { name: text(cs.CsBookDay, { vehicle: 'Service van 1', day: longDay(tomorrow) }) }).click();
    const dialog = page.getByRole('dialog', { name: cs.CsNewBookingTitle });
    await poll(() => dialog.isVisible()).toBe(true);
    await choose(page, cs.CsNewBookingTitle, cs.CsFieldStart, '09:30');
    await choose(page, cs.CsNewBookingTitle, cs.CsFieldEnd, '10:30');
    await dialog.getByRole('button', { name: cs.CsSave }).click();
    await poll(() => dialog.getByText(cs.SpecifyPurpose).isVisible()).toBe(true);
    await dialog.getByRole('textbox', { name: cs.CsFieldPurpose }).fill('Customer visit in Solna');
    await dialog.getByRole('button', { name: cs.CsSave }).click();
    await poll(() => dialog.getByText(cs.AlreadyBookedSlot).first().isVisible()).toBe(true);
    await shot(page, 'booking-errors', { fullPage: false });
    await choose(page, cs.CsNewBookingTitle, cs.CsFieldStart, '12:00');
    await choose(page, cs.CsNewBookingTitle, cs.CsFieldEnd, '13:30');
    await dialog.getByRole('button', { name: cs.CsSave }).click();
    await poll(() => page.getByRole('status').filter({ hasText: cs.NewBookingSuccessMsg }).isVisible()).toBe(true);
    await poll(() => van.getByRole('button', { name: /^09:00 - 10:00/ }).isVisible()).toBe(true);
    await poll(() => van.getByRole('button', { name: /^12:00 - 13:30/ }).isVisible()).toBe(true);

    // Four bookings that day: two shown, '+2 more' lists the others on keyboard focus.
    const more = van.getByRole('button', { name: new RegExp(`^\\${text(cs.CsMore, { count: 2 })}: ${text(cs.CsMoreLabel, { count: 2, vehicle: 'Service van 1', day: longDay(tomorrow) })}`) });
    // By keyboard: from the second booking, Tab reaches '+2 more'.
    await van.getByRole('button', { name: /^12:00 - 13:30/ }).focus();
    await page.keyboard.press('Tab');
    await poll(() => more.evaluate((el) => el === document.activeElement)).toBe(true);
    await poll(() => page.getByRole('tooltip').getByText(/15:00 - 16:00/).isVisible()).toBe(true);
    expect(await page.getByRole('tooltip').getByText(/17:00 - 18:00/).isVisible()).toBe(true);
    await shot(page, 'week-more', { fullPage: false });
    await page.keyboard.press('Escape');

    // Edit it.
    await van.getByRole('button', { name: /^12:00 - 13:30/ }).click();
    const edit = page.getByRole('dialog', { name: cs.CsEditBookingTitle });
    await poll(() => edit.isVisible()).toBe(true);
    await edit.getByRole('textbox', { name: cs.CsFieldPurpose }).fill('Customer visit in Kista');
    await choose(page, cs.CsEditBookingTitle, cs.CsFieldEnd, '14:00');
    await edit.getByRole('button', { name: cs.CsSave }).click();
    await poll(() => page.getByRole('status').filter({ hasText: cs.UpdateSuccessMsg }).isVisible()).toBe(true);
    await poll(() => van.getByRole('button', { name: /^12:00 - 14:00/ }).isVisible()).toBe(true);

    // My booking: the month calendar of 42 days with the caller's bookings.
    await page.getByRole('button', { name: cs.CsMyBooking }).click();
    if (tomorrow.slice(0, 7) !== today.slice(0, 7)) {
      await page.getByRole('button', { name: cs.CsNextMonth }).click();
    }
    const calendar = page.getByRole('grid');
    await poll(() => calendar.getByRole('gridcell').count()).toBe(42);
    await poll(() => calendar.getByRole('button', { name: /^ABC123 12:00-14:00/ }).isVisible()).toBe(true);
    await shot(page, 'month');

    // Delete it after the confirmation naming purpose, from, to and registration number.
    await calendar.getByRole('button', { name: /^ABC123 12:00-14:00/ }).click();
    await page.getByRole('dialog', { name: cs.CsEditBookingTitle }).getByRole('button', { name: cs.CsDelete }).click();
    const confirm = page.getByRole('dialog', { name: cs.CsDeleteTitle });
    await poll(() => confirm.getByText('Customer visit in Kista').isVisible()).toBe(true);
    expect(await confirm.getByText(`${tomorrow} 12:00`).isVisible()).toBe(true);
    expect(await confirm.getByText(`${tomorrow} 14:00`).isVisible()).toBe(true);
    expect(await confirm.getByText('ABC123').isVisible()).toBe(true);
    await shot(page, 'delete', { fullPage: false });
    await confirm.getByRole('button', { name: cs.CsDelete }).click();
    await poll(() => page.getByRole('status').filter({ hasText: cs.DeleteMsg }).isVisible()).toBe(true);
    await poll(() => calendar.getByRole('button', { name: /^ABC123 12:00-14:00/ }).count()).toBe(0);
    expect(errors).toEqual([]);
    await context.close();
  }, 180_000);
});
