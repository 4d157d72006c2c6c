/**
 * The fleet overview in real Chromium against the embedded runtime, in English: an administrator
 * makes it the start page with its switch, logs in again and lands on it; the figures show what
 * the fleet did (units moving and parked, a trip today, a low-battery alarm, a unit overdue for
 * service, a month with unattested trips), and each figure's link leads to the page that explains
 * it (the map filtered by status, the trip log of the day, the alerts of the last 24 hours and of
 * service, the attest status of the month). axe once at 390 and once at 1280 px. Swedish and
 * Norwegian: languages.e2e.test.ts. What each figure counts: test/api/fleet-overview.test.ts.
 * Photographs with SCREENSHOTS=1 (with SCREENSHOTS=1) into test-results/tour-fleet/.
 */
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import mqtt from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD, demoImei, demoUsers } from '../../infra/local/seed';
import { en } from '../../shared/i18n/en';
import { fleetEn as f } from '../../shared/i18n/features/fleet/en';
import { eventsEn } from '../../shared/i18n/features/events/en';
import { mapEn } from '../../shared/i18n/features/map/en';
import { tripsEn } from '../../shared/i18n/features/trips/en';
import { addDays, localDayOf, startOfLocalDay } from '../../shared/local-time';
import { addMonthsToDay } from '../../shared/schemas/trips';
import { getUnitItem } from '../../functions/domain/unit/reads';
import type { UnitItem } from '../../functions/domain/unit/schema';
import { nextState } from '../../functions/ingest/state';
import { getPorts } from '../../functions/platform/container';
import { storeDetectedTrips } from '../../functions/trips/store-detected';
import { callAs, callerFor } from '../support/api-caller';
import { type App, checkAndShoot, logInAs, openPage, poll, SHOTS_DIR, startBrowserApp, stopBrowserApp } from '../support/browser';
import { testPosition } from '../support/positions';
import { storeUnitState } from '../support/unit-state';

const SHOTS = join(SHOTS_DIR, 'tour-fleet');
const ZONE = 'Europe/Stockholm';
let app: App;
let browser: Browser;
const today = localDayOf(Date.now(), ZONE);
const lastMonth = addMonthsToDay(`${today.slice(0, 7)}-01`, -1).slice(0, 7);
const text = (template: string, vars: Record<string, string | number>) => template.replace(/\{\{(\w+)\}\}/g, (_, name: string) => String(vars[name]));

async function storeTrip(imei: string, startTs: number, distanceM: number): Promise<void> {
  const trip = { startTs, stopTs: startTs + 20 * 60_000, startLat: 59.33, startLon: 18.06, stopLat: 59.4, stopLon: 17.95, distanceM, startCounterM: 0, stopCounterM: distanceM, counterSource: 'computed', maxSpeedKmh: 70, basis: 'ignition' } as const;
  await storeDetectedTrips((await getUnitItem(imei)) as UnitItem, [trip], getPorts());
}

beforeAll(async () => {
  ({ app, browser } = await startBrowserApp());
  const now = Date.now();
  // Service van 1 drives, Service van 2 is parked, and so is Service van 3, with a low battery (an alarm).
  await storeUnitState(demoImei(0), nextState(undefined, testPosition(now - 10_000, 59.33, 18.06, { speed: 48, ignition: true }), now - 10_000));
  await storeUnitState(demoImei(1), nextState(undefined, testPosition(now - 10_000, 59.34, 18.07, { speed: 0, ignition: false }), now - 10_000));
  const tracker = await mqtt.connectAsync(app.mqttUrl, { clientId: demoImei(2), reconnectPeriod: 0 });
  await tracker.publishAsync(`trackers/${demoImei(2)}/telemetry`, JSON.stringify({ ts: now - 5_000, lat: 59.35, lon: 18.05, sat: 9, spd: 0, ign: false, bat: 3.2 }), { qos: 1 });
  await tracker.endAsync();
  await storeTrip(demoImei(0), startOfLocalDay(today, ZONE) + 5 * 60_000, 12_300);
  await storeTrip(demoImei(1), startOfLocalDay(`${lastMonth}-12`, ZONE) + 9 * 3_600_000, 4_000);
  const admin = await callerFor(demoUsers.admin.username, DEMO_PASSWORD);
  const overdue = { serviceIntervals: [{ name: 'Inspection', kind: 'date', every: 12, lastService: addMonthsToDay(today, -13) }] };
  expect((await callAs(app.url, 'PUT', `/api/v1/user/units/${demoImei(1)}`, admin, overdue)).status).toBe(200);
}, 120_000);

afterAll(async () => {
  await stopBrowserApp({ app, browser });
});

/** A figure's link by its label and value, with which its name starts (it goes on to say where it leads). */
const figure = (page: Page, label: string, value: string) => page.getByRole('link', { name: new RegExp(`^${label.replace(/[(),]/g, '\\$&')} ${value}\\b`) });

describe('the fleet overview as start page', () => {
  it('is chosen with its switch, opens after login, shows the figures and links each to the page that explains it', async () => {
    // Choosing it: from the sidebar, the switch.
    const first = await openPage(browser);
    await logInAs(first.page, app.url);
    await first.page.getByRole('link', { name: en.FleetOverview }).first().click();
    await first.page.getByRole('switch', { name: f.FleetMakeLanding }).check({ force: true });
    await poll(() => first.page.getByText(f.FleetLandingSaved).isVisible()).toBe(true);
    expect(first.errors).toEqual([]);
    await first.context.close();

    // The next login lands there.
    const { context, page, errors } = await openPage(browser);
    await logInAs(page, app.url);
    expect(new URL(page.url()).pathname).toBe('/user/fleet-overview');
    await poll(() => figure(page, f.FleetMoving, '1').isVisible()).toBe(true);
    expect(await page.getByRole('switch', { name: f.FleetMakeLanding }).isChecked()).toBe(true);
    expect(await figure(page, f.FleetParked, '2').isVisible()).toBe(true);
    expect(await figure(page, f.FleetToday, '12.3 km').isVisible()).toBe(true);
    await poll(() => figure(page, f.FleetAlarms, '1').isVisible()).toBe(true);
    expect(await figure(page, f.FleetService, '1').isVisible()).toBe(true);
    expect(await figure(page, f.FleetUnattested, '1').isVisible()).toBe(true);
    await checkAndShoot(page, SHOTS, 'fleet-overview');

    // Each figure leads to the page that explains it.
    const monday = addDays(today, -((new Date(`${today}T00:00:00Z`).getUTCDay() + 6) % 7));
    const links: [string, string, string][] = [
      [f.FleetMoving, '1', '/user/realtime-tracking?status=moving'],
      [f.FleetIdling, '0', '/user/realtime-tracking?status=idling'],
      [f.FleetParked, '2', '/user/realtime-tracking?status=parked'],
      [f.FleetOffline, '\\d+', '/user/realtime-tracking?status=offline'],
      [f.FleetToday, '12.3 km', `/user/create-triplog/reports?kind=summary&from=${today}&to=${today}`],
      [f.FleetThisWeek, '[\\d.]+ km', `/user/create-triplog/reports?kind=summary&from=${monday}&to=${today}`],
      [f.FleetAlarms, '1', '/user/alerts?period=24h'],
      [f.FleetService, '1', '/user/alerts?period=30d&type=serviceDue'],
      [f.FleetUnattested, '1', `/administration/attest-status?month=${lastMonth}`],
    ];
    for (const [label, value, href] of links) expect(await figure(page, label, value).getAttribute('href'), label).toBe(href);

    await figure(page, f.FleetMoving, '1').click();
    const filter = page.getByRole('group', { name: mapEn.MapStatusFilterLabel });
    await poll(() => filter.getByRole('checkbox', { name: new RegExp(`^${mapEn.MapStatusMoving}`) }).isChecked()).toBe(true);
    expect(await filter.getByRole('checkbox', { name: new RegExp(`^${mapEn.MapStatusParked}`) }).isChecked()).toBe(false);
    await page.goBack();

    // Today's distance of every unit: the summary report by unit, run at once for today.
    await figure(page, f.FleetToday, '12.3 km').click();
    await page.waitForURL(/\/reports\?kind=summary/);
    const report = page.getByRole('table').filter({ hasText: 'Service van 1' });
    await poll(() => report.getByText(/\b12\.3\b/).first().isVisible()).toBe(true);
    await page.goBack();

    await figure(page, f.FleetAlarms, '1').click();
    await poll(() => page.getByRole('heading', { name: en.Alerts }).isVisible()).toBe(true);
    await poll(() => page.getByText(text(eventsEn.EventLowBattery, { volts: 3.2 })).first().isVisible()).toBe(true);
    await page.goBack();

    await figure(page, f.FleetUnattested, '1').click();
    await poll(() => page.getByRole('heading', { name: en.AttestStatus }).isVisible()).toBe(true);
    expect(await page.getByLabel(tripsEn.AttestMonth).inputValue()).toBe(lastMonth);
    expect(errors).toEqual([]);
    await context.close();
  });
});
