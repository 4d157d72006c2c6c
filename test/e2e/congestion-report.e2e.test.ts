/**
 * The congestion tax report page in real Chromium against the embedded runtime: two passages of a
 * demo unit on a charged day of last month are stored as the passage stage stores them; demo-admin
 * opens /user/create-triplog/congestionreportnew, which opens the reports page on the congestion
 * kind, runs it for that unit over last month (the default) and sees its passages and total; the
 * trip log's route view of the first passage's trip lists it. axe checks each screen once at 390
 * and 1280 px; with SCREENSHOTS=1 they are photographed (the report in Swedish too).
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { putPassage } from '../../functions/congestion/passage-repository';
import { getUnitItem } from '../../functions/domain/unit/reads';
import { getPorts } from '../../functions/platform/container';
import { storeDetectedTrips } from '../../functions/trips/store-detected';
import { demoImei } from '../../infra/local/seed';
import { exemptReason } from '../../shared/congestion/calendar';
import { en } from '../../shared/i18n/en';
import { reportsEn } from '../../shared/i18n/features/reports/en';
import { reportsPageEn } from '../../shared/i18n/features/reports-page/en';
import { reportsPageSv } from '../../shared/i18n/features/reports-page/sv';
import { tripsEn } from '../../shared/i18n/features/trips/en';
import { addDays, localDayOf, startOfLocalDay } from '../../shared/local-time';
import { formatCell } from '../../shared/reports/format';
import { previousMonthOf } from '../../web/src/features/triplog/trip-log';
import { DESKTOP, PHONE, SCREENSHOTS, SHOTS_DIR, checkAndShoot, logInAt, openPage, pickUnit, poll, startBrowserApp, stopBrowserApp, type App } from '../support/browser';

let app: App;
let browser: Browser;
const ZONE = 'Europe/Stockholm';
const lastMonth = previousMonthOf(localDayOf(Date.now(), ZONE));
/** The first day of last month the tax charges. */
let day = lastMonth.from;
while (exemptReason(day, 'stockholm') && day < lastMonth.to) day = addDays(day, 1);

beforeAll(async () => {
  ({ app, browser } = await startBrowserApp());
  const unit = (await getUnitItem(demoImei(0)))!;
  const at = (hours: number) => startOfLocalDay(day, ZONE) + hours * 3_600_000;
  // 06:10 (15 SEK) and 10:00 (11 SEK) in either season.
  await putPassage(unit.accountId, unit.imei, { stationId: 'sth-danvikstull', city: 'stockholm', station: 'Danvikstull', direction: 'in', time: at(6 + 1 / 6), uncertain: false });
  await putPassage(unit.accountId, unit.imei, { stationId: 'sth-liljeholmsbron', city: 'stockholm', station: 'Liljeholmsbron', direction: 'out', time: at(10), uncertain: true });
  // The first passage's trip, for the trip log's route view.
  await storeDetectedTrips(
    unit,
    [
      {
        startTs: at(6),
        stopTs: at(6.5),
        startLat: 59.31,
        startLon: 18.12,
        stopLat: 59.33,
        stopLon: 18.06,
        distanceM: 5_000,
        startCounterM: 1_000_000,
        stopCounterM: 1_005_000,
        counterSource: 'computed',
        maxSpeedKmh: 50,
        basis: 'ignition',
      },
    ],
    getPorts(),
  );
});

afterAll(async () => {
  await stopBrowserApp({ app, browser });
});

describe('congestion tax report page', () => {
  it('opens on the congestion report and shows the unit’s passages and total', async () => {
    const { context, page, errors } = await openPage(browser);
    try {
      await logInAt(page, app.url, '/user/create-triplog/congestionreportnew');
      await poll(() => page.getByTestId('report-kind').inputValue()).toBe(reportsEn.ReportTitle_congestion);
      await pickUnit(page.getByTestId('report-units'), reportsPageEn.RptUnits, 'Service van 1');
      await page.getByRole('button', { name: reportsPageEn.RptRun }).click();
      await page.getByTestId('report-view').waitFor();
      const view = page.getByTestId('report-view');
      await poll(() => view.textContent()).toContain('Liljeholmsbron');
      await poll(() => view.getByTestId('report-totals-row').first().textContent()).toContain(formatCell(26, 'money', 'en'));
      await checkAndShoot(page, SHOTS_DIR, 'congestion-report', { sizes: [PHONE, DESKTOP] });
      if (SCREENSHOTS) {
        await page.getByRole('combobox', { name: en.Language }).selectOption('sv');
        await page.getByRole('button', { name: reportsPageSv.RptRun }).click();
        await poll(() => view.textContent()).toContain('Trängselskatt');
        await checkAndShoot(page, SHOTS_DIR, 'congestion-report-sv', { sizes: [PHONE, DESKTOP], axe: false });
      }
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('lists a trip’s passages in its route view', async () => {
    const { context, page, errors } = await openPage(browser);
    try {
      await logInAt(page, app.url, `/user/create-triplog?${new URLSearchParams({ imei: demoImei(0), from: day, to: day })}`);
      await page.locator('[data-trip-id]').first().getByRole('checkbox').check();
      await page.getByRole('button', { name: tripsEn.TripShowOnMap }).click();
      const passages = page.getByTestId('trip-passages');
      await poll(() => passages.textContent()).toContain('Danvikstull');
      expect(await passages.getByRole('listitem').count()).toBe(1);
      await checkAndShoot(page, SHOTS_DIR, 'congestion-trip-passages', { sizes: [PHONE, DESKTOP] });
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
