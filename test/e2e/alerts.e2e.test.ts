/**
 * Events in real Chromium against the embedded runtime: Service van 1 (granted to demo-user) has a
 * zone around the depot, and its tracker reports leaving it over MQTT. demo-user opens /user/alerts
 * and sees the exit as a sent alarm; a second exit arriving while the page is open shows up by
 * itself (the live channel). The Events tab of the unit on the map lists it too and links to all
 * alerts. Checked with axe and photographed at 390 and 1280 px (with SCREENSHOTS=1) into test-results/alerts/ (Swedish
 * and Norwegian: languages.e2e.test.ts).
 */
import { join } from 'node:path';
import mqtt from 'mqtt';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { putUnitCopies } from '../../functions/domain/unit/copies';
import { getUnitItem } from '../../functions/domain/unit/reads';
import type { UnitZone } from '../../functions/domain/unit/schema';
import { demoImei, demoUsers } from '../../infra/local/seed';
import { eventsEn } from '../../shared/i18n/features/events/en';
import { en } from '../../shared/i18n/en';
import { type App, checkAndShoot, DESKTOP, logInAt, logInThroughForm, openPage, poll, SHOTS_DIR, startBrowserApp, stopBrowserApp } from '../support/browser';

let app: App;
let browser: Browser;
const SHOTS = join(SHOTS_DIR, 'alerts');
const IMEI = demoImei(0);
const DEPOT: UnitZone = { name: 'Depot', lat: 59.33, lon: 18.06, radius: 300, alarm: true, active: true, theftMode: false, off: [], timeZone: 'Europe/Stockholm' };
const north = (m: number) => DEPOT.lat + m / 111_195;
let tracker: mqtt.MqttClient;
let clock = Date.now() - 10 * 60_000;

async function drive(metres: number[]): Promise<void> {
  for (const m of metres) {
    clock += 60_000;
    await tracker.publishAsync(`trackers/${IMEI}/telemetry`, JSON.stringify({ ts: Math.min(clock, Date.now()), lat: north(m), lon: DEPOT.lon, sat: 9, spd: 30 }), { qos: 1 });
  }
}

beforeAll(async () => {
  ({ app, browser } = await startBrowserApp());
  const unit = await getUnitItem(IMEI);
  await putUnitCopies(IMEI, unit!.accountId, { zones: { depot: DEPOT } });
  tracker = await mqtt.connectAsync(app.mqttUrl, { clientId: IMEI, reconnectPeriod: 0 });
  await drive([0, 50, 900]);
});

afterAll(async () => {
  await tracker?.endAsync();
  await stopBrowserApp({ app, browser });
});

const shot = (page: Page, name: string) => checkAndShoot(page, SHOTS, name);

/** The event list only: the live announcement for screen readers says the same words. */
const list = (page: Page) => page.locator('.events-list');
const left = (texts: { EventGeofenceExit: string }) => texts.EventGeofenceExit.replace('{{geofence}}', DEPOT.name);

describe('alerts', () => {
  it('lists the exit as a sent alarm, adds a new one live', async () => {
    const { context, page, errors } = await openPage(browser, DESKTOP);
    await logInAt(page, app.url, '/user/alerts', demoUsers.user.username);
    await expect.poll(() => list(page).getByText(left(eventsEn)).count(), { timeout: 15_000 }).toBe(1);
    await expect(list(page).getByText(eventsEn.AlertsAlarmSent).count()).resolves.toBe(1);
    await shot(page, 'alerts-en');

    // Back in, and out again while the page is open: the list grows by itself.
    await drive([100, 1000]);
    await expect.poll(() => list(page).getByText(left(eventsEn)).count(), { timeout: 15_000 }).toBe(2);
    await expect(list(page).getByText(eventsEn.EventGeofenceEnter.replace('{{geofence}}', DEPOT.name)).count()).resolves.toBe(1);

    // Filtered by type through the URL, as the picker writes it.
    await page.goto(`${app.url}/user/alerts?type=geofenceEnter`);
    await poll(() => list(page).getByText(eventsEn.EventGeofenceEnter.replace('{{geofence}}', DEPOT.name)).count()).toBe(1);
    expect(await list(page).getByText(left(eventsEn)).count()).toBe(0);

    expect(errors).toEqual([]);
    await context.close();
  });

  it("shows the unit's events on the map and links to all alerts", async () => {
    const { context, page, errors } = await openPage(browser, DESKTOP);
    await logInThroughForm(page, app.url);
    await page.getByRole('button', { name: /Service van 1/ }).first().click();
    await page.getByRole('tab', { name: eventsEn.MapEvents }).click();
    await poll(() => list(page).getByText(left(eventsEn)).count()).toBeGreaterThan(0);
    await shot(page, 'map-events-en');
    await page.getByRole('link', { name: eventsEn.MapEventsAll }).click();
    await page.waitForURL((url) => url.pathname === '/user/alerts' && url.searchParams.get('imei') === IMEI);
    await poll(() => page.getByRole('heading', { name: en.Alerts, level: 1 }).isVisible()).toBe(true);
    expect(errors).toEqual([]);
    await context.close();
  });
});
