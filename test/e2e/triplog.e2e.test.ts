/**
 * The trip log in real Chromium against the embedded runtime. Four trips of yesterday are stored
 * for Service van 1 (granted to demo-user) the way ingest stores them (storeDetectedTrips), with
 * their positions. demo-user opens the trip log, marks a trip private, merges two business trips
 * and splits them again, is refused a private trip's route and shown two others on the map, checks
 * in a driver picked from the account's users, opens the unit's QR code, checks in as its driver by
 * that code on a phone (logged out first: the login brings them back; the page names the unit),
 * edits a trip at 390 px and attests the period; demo-admin opens the attest status page from the
 * sidebar and unlocks it. On the 2nd of a month (the browser's and the server's clocks moved there)
 * demo-admin reports the previous month to Autoplan, is refused the second time, turns automatic
 * reporting on, and on the 10th finds the report button greyed out. Every screen is checked with axe and photographed at 390 and 1280 px into
 * test-results/triplog/ (with SCREENSHOTS=1).
 */
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storePosition } from '../../functions/ingest/repository';
import { getPorts, overridePorts } from '../../functions/platform/container';
import { readOutbox } from '../../functions/platform/adapters/embedded/outbox';
import { getUnitItem } from '../../functions/domain/unit/reads';
import type { DetectedTrip } from '../../functions/trips/detect';
import { addDays, localDayOf, wallToInstant } from '../../shared/local-time';
import { storeDetectedTrips } from '../../functions/trips/store-detected';
import { DEMO_PASSWORD, demoImei, demoUsers } from '../../infra/local/seed';
import { en } from '../../shared/i18n/en';
import { tripsEn } from '../../shared/i18n/features/trips/en';
import { autoplanEn } from '../../shared/i18n/features/autoplan/en';
import { brands } from '../../shared/brands';
import { type App, axeViolations, checkAndShoot, DESKTOP, logInAt, openPage, PHONE, photograph, poll, SCREENSHOTS, SHOTS_DIR, startBrowserApp, stopBrowserApp, untilStill } from '../support/browser';
import { testPosition } from '../support/positions';

let app: App;
let browser: Browser;

const SHOTS = join(SHOTS_DIR, 'triplog');
const ZONE = 'Europe/Stockholm';
const IMEI = demoImei(0);
const UNIT = 'Service van 1';
const MIN = 60_000;

const yesterday = addDays(localDayOf(Date.now(), ZONE), -1);
const [year = 0, month = 1, dayOfMonth = 1] = yesterday.split('-').map(Number);
const at = (hh: number, mm: number) => wallToInstant(Date.UTC(year, month - 1, dayOfMonth, hh, mm), ZONE);
const yesterdayMonth = yesterday.slice(0, 7);
const lastDay = new Date(Date.UTC(year, month, 0)).getUTCDate();
const PERIOD = { from: `${yesterdayMonth}-01`, to: `${yesterdayMonth}-${String(lastDay).padStart(2, '0')}` };

interface Drive {
  from: [number, number];
  to: [number, number];
  start: number;
  minutes: number;
  km: number;
}

/** Yesterday in Stockholm: two drives 10 minutes apart in the morning, one at lunch, one in the afternoon. */
const drives: Drive[] = [
  { from: [59.3326, 18.0649], to: [59.3467, 18.0718], start: at(8, 0), minutes: 30, km: 12.3 },
  { from: [59.3467, 18.0718], to: [59.3601, 18.0003], start: at(8, 40), minutes: 30, km: 8.7 },
  { from: [59.3601, 18.0003], to: [59.3125, 18.0821], start: at(12, 0), minutes: 20, km: 6.4 },
  { from: [59.3125, 18.0821], to: [59.3326, 18.0649], start: at(16, 0), minutes: 45, km: 21.9 },
];

const hhmm = (ms: number) => new Intl.DateTimeFormat('en-GB', { hour: '2-digit', minute: '2-digit', timeZone: ZONE }).format(ms);
const timeOf = (d: Drive) => `${hhmm(d.start)}–${hhmm(d.start + d.minutes * MIN)}`;

async function seedTrips(): Promise<void> {
  const unit = await getUnitItem(IMEI, { consistent: true });
  if (!unit) throw new Error(`no unit ${IMEI}`);
  let counter = 10_000_000;
  const detected: DetectedTrip[] = [];
  for (const d of drives) {
    const steps = d.minutes * 2;
    for (let i = 0; i <= steps; i++) {
      const f = i / steps;
      // A bend in the middle, so the route is not a straight line.
      const bend = Math.sin(f * Math.PI) * 0.01;
      const ts = d.start + i * 30_000;
      await storePosition(IMEI, testPosition(ts, d.from[0] + (d.to[0] - d.from[0]) * f + bend, d.from[1] + (d.to[1] - d.from[1]) * f, { speed: 40, ignition: true, movement: true }), ts, 3650);
    }
    const startCounterM = counter;
    counter += d.km * 1000;
    detected.push({
      startTs: d.start,
      stopTs: d.start + d.minutes * MIN,
      startLat: d.from[0],
      startLon: d.from[1],
      stopLat: d.to[0],
      stopLon: d.to[1],
      distanceM: d.km * 1000,
      startCounterM,
      stopCounterM: counter,
      counterSource: 'computed',
      maxSpeedKmh: 70,
      basis: 'ignition',
    });
  }
  await storeDetectedTrips(unit, detected, getPorts());
}

beforeAll(async () => {
  ({ app, browser } = await startBrowserApp());
  await seedTrips();
});

afterAll(async () => {
  await stopBrowserApp({ app, browser });
});

const text = (template: string, vars: Record<string, string | number>) => template.replace(/\{\{(\w+)\}\}/g, (_, name: string) => String(vars[name]));

/** Logs in through the form and waits until the login page is left (for a landing or a return path). */
async function logIn(page: Page, username: string): Promise<void> {
  await page.getByRole('textbox', { name: en.UsernameOrEmail }).fill(username);
  await page.getByRole('textbox', { name: en.Password, exact: true }).fill(DEMO_PASSWORD);
  await page.getByRole('button', { name: en.Login, exact: true }).click();
  await page.waitForURL((url) => url.pathname !== '/');
}

const shot = (page: Page, name: string, sizes = [PHONE, DESKTOP]) => checkAndShoot(page, SHOTS, name, { sizes });

const triplogPath = `/user/create-triplog?${new URLSearchParams({ imei: IMEI, ...PERIOD }).toString()}`;
const triplogUrl = () => `${app.url}${triplogPath}`;
/** Logs in as the demo user on the way to the trip log of yesterday's month. */
const openTriplog = (page: Page) => logInAt(page, app.url, triplogPath, demoUsers.user.username);
const tripRow = (page: Page, d: Drive) => page.locator('[data-trip-id]').filter({ has: page.getByRole('checkbox', { name: new RegExp(`^${text(tripsEn.TripSelect, { time: timeOf(d), from: '' })}`) }) });
const selectBox = (page: Page, d: Drive) => page.getByRole('checkbox', { name: new RegExp(`^${text(tripsEn.TripSelect, { time: timeOf(d), from: '' })}`) });
const spoken = (page: Page) => page.locator('.triplog-spoken');

describe('trip log', () => {
  let qrPath = '';

  it('shows yesterday’s trips, marks one private, merges two and splits them, and shows routes within the limits', async () => {
    const { context, page, errors } = await openPage(browser);
    // Content-Security-Policy refusals (the routes map's worker, the QR code's SVG) count as errors.
    await page.addInitScript(() => {
      document.addEventListener('securitypolicyviolation', (event) => {
        const list = ((window as unknown as { cspViolations?: string[] }).cspViolations ??= []);
        list.push(`${event.violatedDirective} ${event.blockedURI}`);
      });
    });
    await page.goto(`${app.url}/`);
    await logIn(page, demoUsers.user.username);
    // The menu leads to the trip log; the period of yesterday is in the address.
    await page.getByRole('navigation', { name: en.MainNavigation }).getByRole('link', { name: en.Triplog, exact: true }).click();
    await page.waitForURL(/\/user\/create-triplog/);
    await page.goto(triplogUrl());
    await poll(() => page.locator('[data-trip-id]').count()).toBe(4);
    expect(await page.getByRole('heading', { level: 2 }).first().textContent()).toContain(String(dayOfMonth));
    expect(await page.getByLabel(tripsEn.TripTotals).textContent()).toContain(text(tripsEn.TripCount, { count: 4 }));
    await shot(page, 'triplog-list');

    // Mark the lunch trip private: the form opens in the row, focus on its first field.
    const lunch = drives[2] as Drive;
    await page.getByRole('button', { name: text(tripsEn.TripEditLabel, { time: timeOf(lunch) }) }).click();
    const form = page.getByRole('form', { name: new RegExp(text(tripsEn.TripEditHeading, { time: timeOf(lunch), distance: '' })) });
    await poll(() => form.isVisible()).toBe(true);
    expect(await page.evaluate(() => (document.activeElement as HTMLInputElement | null)?.value)).toBe('business');
    // A note over 100 characters is refused beside its field, with the shared schema's key.
    await form.getByLabel(tripsEn.TripNote).fill('x'.repeat(101));
    await form.getByRole('radio', { name: tripsEn.TripTypePrivate }).check();
    await form.getByRole('button', { name: en.Save }).click();
    await poll(() => form.getByText(tripsEn.TripNoteTooLong).isVisible()).toBe(true);
    await form.getByLabel(tripsEn.TripNote).fill('Lunch at home');
    await shot(page, 'triplog-edit');
    await form.getByRole('button', { name: en.Save }).click();
    await poll(() => spoken(page).textContent()).toBe(text(tripsEn.TripSaved, { time: timeOf(lunch) }));
    await poll(() => tripRow(page, lunch).getByText(tripsEn.TripTypePrivate).isVisible()).toBe(true);
    expect(await tripRow(page, lunch).getByText('Lunch at home').isVisible()).toBe(true);
    // Focus is back on the trip's Edit button.
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe(text(tripsEn.TripEditLabel, { time: timeOf(lunch) }));
    await poll(() => page.locator('.triplog-total[data-type="private"]').textContent()).toContain(text(tripsEn.TripCount, { count: 1 }));

    // The private trip's route is refused before anything is fetched, with the server's own key.
    await selectBox(page, lunch).check();
    await page.getByRole('button', { name: tripsEn.TripShowOnMap }).click();
    const refusal = page.getByRole('dialog', { name: tripsEn.TripCannotDoThat });
    await poll(() => refusal.getByText(tripsEn.RoutePrivateTrip).isVisible()).toBe(true);
    await refusal.getByRole('button', { name: tripsEn.TripOk }).click();
    await selectBox(page, lunch).uncheck();

    // Merge the two morning trips.
    const [morning1, morning2] = drives as [Drive, Drive];
    await selectBox(page, morning1).check();
    await selectBox(page, morning2).check();
    await poll(() => page.getByRole('region', { name: tripsEn.TripSelection }).isVisible()).toBe(true);
    await shot(page, 'triplog-selected');
    await page.getByRole('button', { name: tripsEn.TripMerge }).click();
    await poll(() => spoken(page).textContent()).toBe(tripsEn.TripMergedDone);
    await poll(() => page.locator('[data-trip-id]').count()).toBe(3);
    const merged = { ...morning1, minutes: (morning2.start - morning1.start) / MIN + morning2.minutes };
    expect(await tripRow(page, merged).getByText(tripsEn.TripMerged).isVisible()).toBe(true);
    // Merging it again is refused by the server, its reason in an error dialog.
    await selectBox(page, lunch).check();
    await page.getByRole('button', { name: tripsEn.TripMerge }).click();
    await poll(() => refusal.isVisible()).toBe(true);
    const reason = (await refusal.getByRole('alert').textContent()) ?? '';
    expect([tripsEn.CannotMergeAlreadyMerged, tripsEn.CannotMergePrivateWithBusiness, tripsEn.CannotMergeDifferentTypes]).toContain(reason.trim());
    await refusal.getByRole('button', { name: tripsEn.TripOk }).click();
    await selectBox(page, lunch).uncheck();

    // Split it: the two trips are back.
    await page.getByRole('button', { name: tripsEn.TripSplit }).click();
    await poll(() => page.locator('[data-trip-id]').count()).toBe(4);
    await poll(() => spoken(page).textContent()).toBe(text(tripsEn.TripSplitDone, { count: 2 }));

    // Their routes on one map (both still selected after the split).
    await page.getByRole('button', { name: tripsEn.TripShowOnMap }).click();
    const map = page.getByRole('dialog', { name: text(tripsEn.TripRoutesTitle, { count: 2 }) });
    await poll(() => map.getByTestId('trip-routes-map').getAttribute('data-routes-loaded')).toBe('2');
    expect(await map.getByRole('list', { name: tripsEn.TripRoutesLegend }).getByRole('listitem').count()).toBe(2);
    if (SCREENSHOTS) await untilStill(map.getByTestId('trip-routes-map'));
    await shot(page, 'triplog-routes');
    await page.keyboard.press('Escape');

    // From a trip, one click opens its route in the map's history view.
    await page.getByRole('button', { name: tripsEn.TripClearSelection }).click();
    const history = page.getByRole('link', { name: text(tripsEn.TripOpenHistoryLabel, { time: timeOf(morning1) }) });
    const href = (await history.getAttribute('href')) ?? '';
    const link = new URL(href, app.url);
    expect(link.pathname).toBe('/user/realtime-tracking');
    expect(link.searchParams.get('history')).toBe(IMEI);
    expect(Date.parse(link.searchParams.get('from') ?? '')).toBe(morning1.start);

    // Checking a driver in: 'No driver' is not a driver; the account's users are offered, by name.
    await page.getByRole('button', { name: tripsEn.TripCheckInDriver }).click();
    const checkIn = page.getByRole('dialog', { name: tripsEn.TripCheckInTitle });
    await checkIn.getByRole('button', { name: tripsEn.TripCheckIn }).click();
    await poll(() => checkIn.getByText(tripsEn.NoDriverNotAllowed).isVisible()).toBe(true);
    await checkIn.getByLabel(new RegExp(`^${tripsEn.TripDriver}`)).click();
    await poll(() => page.getByRole('listbox').getByRole('option').allTextContents()).toEqual([
      `${demoUsers.admin.firstName} ${demoUsers.admin.lastName}`,
      `${demoUsers.user.firstName} ${demoUsers.user.lastName}`,
    ]);
    await page.getByRole('option', { name: `${demoUsers.user.firstName} ${demoUsers.user.lastName}` }).click();
    await shot(page, 'triplog-check-in');
    await checkIn.getByRole('button', { name: tripsEn.TripCheckIn }).click();
    await poll(() => spoken(page).textContent()).toBe(text(tripsEn.TripCheckedIn, { driver: `${demoUsers.user.firstName} ${demoUsers.user.lastName}`, count: 0 }));

    // An odometer reading: added, listed, deleted.
    await page.getByRole('button', { name: tripsEn.TripOdometerEntriesButton }).click();
    const odometer = page.getByRole('dialog', { name: text(tripsEn.TripOdometerTitle, { unit: UNIT }) });
    await poll(() => odometer.getByText(tripsEn.TripOdometerNone).isVisible()).toBe(true);
    await odometer.getByRole('textbox', { name: tripsEn.TripOdometerValue }).fill('12345');
    await odometer.getByRole('button', { name: tripsEn.TripOdometerAdd }).click();
    await poll(() => odometer.getByRole('cell', { name: '12,345 km' }).isVisible()).toBe(true);
    await shot(page, 'triplog-odometer');
    await odometer.getByRole('button', { name: new RegExp(`^${text(tripsEn.TripOdometerDelete, { time: '' })}`) }).click();
    await poll(() => odometer.getByText(tripsEn.TripOdometerNone).isVisible()).toBe(true);
    await page.keyboard.press('Escape');

    // The unit's QR code, to print.
    await page.getByRole('button', { name: tripsEn.TripQrCode }).click();
    const qr = page.getByRole('dialog', { name: tripsEn.TripQrTitle });
    await poll(() => qr.getByRole('img', { name: text(tripsEn.TripQrImage, { unit: UNIT }) }).isVisible()).toBe(true);
    const url = (await qr.getByText(/\/user\/check-in\//).textContent()) ?? '';
    qrPath = new URL(url).pathname;
    expect(qrPath).toMatch(new RegExp(`^/user/check-in/${IMEI}-`));
    await shot(page, 'triplog-qr');
    await page.keyboard.press('Escape');

    expect(await page.evaluate(() => (window as unknown as { cspViolations?: string[] }).cspViolations ?? [])).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('checks a driver in by the QR code on a phone, through the login', async () => {
    expect(qrPath).not.toBe('');
    const { context, page, errors } = await openPage(browser, PHONE);
    // Logged out: the check-in page sends to the login, which sends back.
    await page.goto(`${app.url}${qrPath}`);
    await page.waitForURL(`${app.url}/`);
    await logIn(page, demoUsers.user.username);
    await page.waitForURL(`${app.url}${qrPath}`);
    await poll(() => page.getByRole('heading', { name: `${UNIT} (ABC123)` }).isVisible()).toBe(true);
    const button = page.getByRole('button', { name: text(tripsEn.CheckInAs, { name: `${demoUsers.user.firstName} ${demoUsers.user.lastName}` }) });
    const box = await button.boundingBox();
    // A thumb-sized target across the phone.
    expect(box?.height ?? 0).toBeGreaterThanOrEqual(56);
    expect(box?.width ?? 0).toBeGreaterThan(300);
    await shot(page, 'checkin', [PHONE]);
    await button.click();
    await poll(() => page.getByRole('heading', { name: tripsEn.CheckInDoneTitle }).isVisible()).toBe(true);
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe(tripsEn.CheckInDoneTitle);
    await shot(page, 'checkin-done', [PHONE]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);

    // A code this server did not make: said instead of the button (the API answers 404 InvalidQrCode).
    await page.goto(`${app.url}/user/check-in/${IMEI}-${'A'.repeat(22)}`);
    await poll(() => page.getByRole('alert').filter({ hasText: tripsEn.InvalidQrCode }).isVisible()).toBe(true);
    expect(await page.getByRole('button', { name: text(tripsEn.CheckInAs, { name: `${demoUsers.user.firstName} ${demoUsers.user.lastName}` }) }).count()).toBe(0);
    await shot(page, 'checkin-invalid', [PHONE]);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('lets a driver edit yesterday’s trips on a phone and attest the period; the admin unlocks it', async () => {
    const { context, page, errors } = await openPage(browser, PHONE);
    await openTriplog(page);
    await poll(() => page.locator('li[data-trip-id]').count()).toBe(4);
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await shot(page, 'triplog-phone', [PHONE]);

    // The afternoon trip gets a purpose picked from those used before... there are none yet: typed.
    const afternoon = drives[3] as Drive;
    await page.getByRole('button', { name: text(tripsEn.TripEditLabel, { time: timeOf(afternoon) }) }).click();
    const form = page.getByRole('form', { name: new RegExp(text(tripsEn.TripEditHeading, { time: timeOf(afternoon), distance: '' })) });
    await form.getByLabel(tripsEn.TripPurpose).fill('Customer visit, Solna');
    await shot(page, 'triplog-phone-edit', [PHONE]);
    await form.getByRole('button', { name: en.Save }).click();
    await poll(() => spoken(page).textContent()).toBe(text(tripsEn.TripSaved, { time: timeOf(afternoon) }));
    expect(await tripRow(page, afternoon).getByText('Customer visit, Solna').isVisible()).toBe(true);

    // Meanwhile the driver has the morning trip open on another device.
    const other = await openPage(browser);
    await openTriplog(other.page);
    const morning = drives[0] as Drive;
    await other.page.getByRole('button', { name: text(tripsEn.TripEditLabel, { time: timeOf(morning) }) }).click();
    await other.page.getByLabel(tripsEn.TripNote).fill('Too late');

    // Attest the period.
    await page.getByRole('button', { name: tripsEn.TripAttestPeriod }).click();
    const attest = page.getByRole('dialog', { name: tripsEn.TripAttestTitle });
    await attest.getByRole('textbox', { name: tripsEn.TripAttestNote }).fill('All trips checked');
    await shot(page, 'triplog-attest', [PHONE]);
    await attest.getByRole('button', { name: tripsEn.TripAttest }).click();
    await poll(() => spoken(page).textContent()).toBe(tripsEn.TripAttestDone);
    await poll(() => page.getByText(tripsEn.TripPeriodAttested).isVisible()).toBe(true);
    expect(await page.getByRole('button', { name: tripsEn.TripEdit }).count()).toBe(0);
    expect(await page.getByRole('img', { name: tripsEn.TripAttested }).count()).toBe(4);
    await shot(page, 'triplog-attested');
    await context.close();

    // The other device's save is refused (423 TripIsAttested): said in the form, the trip locked.
    await other.page.getByRole('button', { name: en.Save }).click();
    await poll(() => other.page.getByRole('alert').filter({ hasText: tripsEn.TripIsAttested }).isVisible()).toBe(true);
    await shot(other.page, 'triplog-locked-meanwhile', [DESKTOP]);
    await other.page.getByRole('button', { name: tripsEn.TripClose }).first().click();
    await poll(() => other.page.getByRole('img', { name: tripsEn.TripAttested }).count()).toBe(4);
    expect(other.errors).toEqual([]);
    await other.context.close();

    // The admin unlocks it on the attest status page, found in the sidebar's Administration.
    const admin = await openPage(browser);
    await admin.page.goto(`${app.url}/`);
    await logIn(admin.page, demoUsers.admin.username);
    await admin.page.getByRole('navigation', { name: en.MainNavigation }).getByRole('link', { name: en.AttestStatus, exact: true }).click();
    await admin.page.waitForURL(/\/administration\/attest-status/);
    await admin.page.goto(`${app.url}/administration/attest-status?month=${yesterdayMonth}`);
    const card = admin.page.getByRole('listitem').filter({ has: admin.page.getByRole('heading', { name: `${demoUsers.user.firstName} ${demoUsers.user.lastName}` }) });
    await poll(() => card.getByText(tripsEn.AttestAttested).first().isVisible()).toBe(true);
    expect(await card.getByText(text(tripsEn.AttestNoteShown, { note: 'All trips checked' })).isVisible()).toBe(true);
    await shot(admin.page, 'attest-status');
    await card.getByRole('button', { name: new RegExp(`^${text(tripsEn.AttestUnlockLabel, { what: UNIT })}`) }).click();
    await poll(() => card.getByText(tripsEn.AttestUnlocked, { exact: true }).isVisible()).toBe(true);
    await shot(admin.page, 'attest-status-unlocked');
    // A reminder to the admin's own month, e-mailed once.
    const own = admin.page.getByRole('listitem').filter({ has: admin.page.getByRole('heading', { name: `${demoUsers.admin.firstName} ${demoUsers.admin.lastName}` }) });
    await own.getByRole('button', { name: new RegExp(`^${tripsEn.AttestSendReminder}`) }).click();
    await poll(() => admin.page.getByText(text(tripsEn.AttestReminderSent, { name: `${demoUsers.admin.firstName} ${demoUsers.admin.lastName}` })).isVisible()).toBe(true);
    expect(admin.errors).toEqual([]);
    await admin.context.close();

    // The driver can edit again.
    const again = await openPage(browser, PHONE);
    await openTriplog(again.page);
    await poll(() => again.page.getByRole('button', { name: text(tripsEn.TripEditLabel, { time: timeOf(afternoon) }) }).isVisible()).toBe(true);
    expect(errors).toEqual([]);
    expect(again.errors).toEqual([]);
    await again.context.close();
  });

  it('reads well under every brand', async () => {
    const { context, page, errors } = await openPage(browser);
    const morning = drives[0] as Drive;
    // Each brand's theme (its primary colour on buttons, selection and links) passes axe; brand 0's
    // is the first test's (the list with a selection, at both widths).
    // The demo user logs in on their own brand's login page.
    await openTriplog(page);
    for (const brand of brands.filter((b) => b.id !== 0)) {
      await page.goto(`${triplogUrl()}&subsite=${brand.id}`);
      await poll(() => page.locator('[data-trip-id]').count()).toBe(4);
      await selectBox(page, morning).check();
      expect(await axeViolations(page), `brand ${brand.id}`).toEqual([]);
      if (brand.id === 5 || brand.id === 7) await photograph(page, join(SHOTS, `triplog-brand-${brand.id}-1280.png`), { fullPage: true });
    }
    expect(errors).toEqual([]);
    await context.close();
  });

  it('reports the previous month to Autoplan on day 2, refuses it again, and lets the admin turn automatic reporting on', async () => {
    // A 2nd of a month in Stockholm that has begun: now on a 2nd, noon on this month's 2nd after
    // it, the month before's on a 1st. The server's clock may run behind the session it logs in
    // with, never ahead of it: a day ahead, the session would have ended by it.
    const today = localDayOf(Date.now(), ZONE);
    const day = Number(today.slice(8, 10));
    const month = (day === 1 ? addDays(today, -1) : today).slice(0, 8);
    const second = day === 2 ? Date.now() : wallToInstant(Date.parse(`${month}02T12:00:00Z`), ZONE);
    const previous = addDays(`${month}01`, -1);
    const monthLabel = new Intl.DateTimeFormat('en-GB', { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(Date.parse(`${previous.slice(0, 7)}-01T00:00:00Z`));
    const realClock = getPorts().clock;
    const { context, page, errors } = await openPage(browser, PHONE);
    try {
      // The browser starts there and its time flows on (a frozen clock would stall the page's own timers).
      await page.clock.install({ time: second });
      // Logged in at the real time, so the session outlives the test whichever clock checks it; then the server's day is the 2nd.
      await logInAt(page, app.url, triplogPath);
      overridePorts({ clock: { now: () => new Date(second) } });
      await page.getByRole('button', { name: autoplanEn.AutoplanButton }).click();
      const dialog = page.getByRole('dialog', { name: autoplanEn.AutoplanTitle });
      const send = dialog.getByRole('button', { name: text(autoplanEn.AutoplanSend, { month: monthLabel }) });
      await send.waitFor();
      await shot(page, 'autoplan-open');
      await send.click();
      await dialog.getByRole('status').filter({ hasText: text(autoplanEn.AutoplanSentTitle, { month: monthLabel }) }).waitFor();
      expect(await send.isDisabled()).toBe(true);
      await shot(page, 'autoplan-sent');
      // Once per vehicle and month: opened again, the same report is refused with the spec's text.
      await dialog.getByRole('button', { name: autoplanEn.AutoplanClose }).click();
      await dialog.waitFor({ state: 'hidden' });
      await page.getByRole('button', { name: autoplanEn.AutoplanButton }).click();
      await poll(() => send.isEnabled()).toBe(true);
      await send.click();
      await dialog.getByRole('alert').filter({ hasText: autoplanEn.AutoplanMonthAlreadyReported }).waitFor();
      await shot(page, 'autoplan-refused', [PHONE]);
      const automatic = dialog.getByRole('switch', { name: autoplanEn.AutoplanAutomatic });
      // The switch shows the saved setting: it turns on once the server has it.
      await automatic.click();
      await poll(() => automatic.isChecked()).toBe(true);
      await spoken(page).filter({ hasText: autoplanEn.AutoplanSettingsSaved }).waitFor({ state: 'attached' });
      expect(await readOutbox({ to: 'ABC123', kind: 'autoplan', limit: 10 })).toHaveLength(1);
      // On the 10th the report button is greyed out and says why.
      await page.clock.setSystemTime(wallToInstant(Date.parse(`${month}10T12:00:00Z`), ZONE));
      await dialog.getByRole('button', { name: autoplanEn.AutoplanClose }).click();
      await dialog.waitFor({ state: 'hidden' });
      await page.getByRole('button', { name: autoplanEn.AutoplanButton }).click();
      await dialog.getByText(autoplanEn.AutoplanClosedHint).waitFor();
      expect(await send.isDisabled()).toBe(true);
      await shot(page, 'autoplan-closed', [PHONE]);
      expect(errors).toEqual([]);
    } finally {
      overridePorts({ clock: realClock });
      await context.close();
    }
  });
});
