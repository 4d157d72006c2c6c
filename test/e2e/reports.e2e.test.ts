/**
 * The reports page in real Chromium against the embedded runtime. Trips of last month (in
 * Stockholm) are stored for two demo units the way ingest stores them. demo-admin opens Reports
 * from the sidebar, runs the summary over last month (the default period) for the whole demo
 * fleet and sees the totals row with the two units' kilometres, then the trip log of one unit
 * picked by search, exports it as CSV and downloads the file through the export's link, and runs it
 * over more than a month, which the server makes by a job whose file is the model; the
 * environmental report of the fleet with its CO2 beside the factor; then the eco driving report of
 * the fleet with a harsh braking. axe checks the page with a report once at 390 and 1280 px; with SCREENSHOTS=1
 * it is photographed in English and Swedish into test-results/.
 */
import { readFileSync } from 'node:fs';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getUnitItem } from '../../functions/domain/unit/reads';
import { getPorts } from '../../functions/platform/container';
import { dynamo, tableName } from '../../functions/platform/db';
import type { UnitItem } from '../../functions/domain/unit/schema';
import type { DetectedTrip } from '../../functions/trips/detect';
import { storeDetectedTrips } from '../../functions/trips/store-detected';
import { EVENT_EFFECT_SENDERS, EVENT_RAISED, eventEffect } from '../../functions/events/stage';
import { readUnitDays } from '../../functions/trips/unit-day-reads';
import { demoImei } from '../../infra/local/seed';
import { formatCell } from '../../shared/reports/format';
import { en } from '../../shared/i18n/en';
import { reportsEn } from '../../shared/i18n/features/reports/en';
import { reportsPageEn } from '../../shared/i18n/features/reports-page/en';
import { unitsEn } from '../../shared/i18n/features/units/en';
import { sv } from '../../shared/i18n/sv';
import { addDays, localDayOf, startOfLocalDay } from '../../shared/local-time';
import { previousMonthOf } from '../../web/src/features/triplog/trip-log';
import { eventually } from '../support/eventually';
import { DESKTOP, PHONE, SCREENSHOTS, SHOTS_DIR, checkAndShoot, logInAt, openPage, pickUnit, startBrowserApp, stopBrowserApp, type App } from '../support/browser';

let app: App;
let browser: Browser;

const ZONE = 'Europe/Stockholm';
const MIN = 60_000;
const lastMonth = previousMonthOf(localDayOf(Date.now(), ZONE));
const day = `${lastMonth.from.slice(0, 8)}10`;
/** Two units' drives on the 10th of last month: 12.5 + 7.5 km and 30 km. */
const drives = [
  { imei: demoImei(0), hour: 8, km: 12.5 },
  { imei: demoImei(0), hour: 14, km: 7.5 },
  { imei: demoImei(1), hour: 9, km: 30 },
];

async function storeDrives(): Promise<void> {
  for (const [i, d] of drives.entries()) {
    const start = startOfLocalDay(day, ZONE) + d.hour * 60 * MIN;
    const trip: DetectedTrip = {
      startTs: start,
      stopTs: start + 30 * MIN,
      startLat: 59.33,
      startLon: 18.06,
      stopLat: 59.4,
      stopLon: 17.95,
      distanceM: d.km * 1000,
      startCounterM: 1_000_000 + i * 100_000,
      stopCounterM: 1_000_000 + i * 100_000 + d.km * 1000,
      counterSource: 'tracker',
      maxSpeedKmh: 80,
      movingS: 25 * 60,
      idleS: 5 * 60,
      basis: 'ignition',
    };
    await storeDetectedTrips((await getUnitItem(d.imei)) as UnitItem, [trip], getPorts());
  }
  // The summaries read the units' day rollups, which follow the trip writes through their queue.
  for (const imei of new Set(drives.map((d) => d.imei))) {
    const unit = (await getUnitItem(imei)) as UnitItem;
    const trips = drives.filter((d) => d.imei === imei).length;
    await eventually(() => readUnitDays(unit.accountId, imei, day, day), (days) => days.some((d) => d.trips === trips), `the day rollup of ${imei}`);
  }
}

beforeAll(async () => {
  ({ app, browser } = await startBrowserApp());
  await storeDrives();
  // Service van 1 runs on diesel at 0.6 l per 10 km (the environmental report); the other has no fuel settings (the demo's taken away).
  await dynamo().send(
    new UpdateCommand({ TableName: tableName('units'), Key: { imei: demoImei(0) }, UpdateExpression: 'SET fuelType = :f, consumption = :c, co2 = :z REMOVE idleConsumption', ExpressionAttributeValues: { ':f': 'diesel', ':c': 0.6, ':z': 0 } }),
  );
  await dynamo().send(new UpdateCommand({ TableName: tableName('units'), Key: { imei: demoImei(1) }, UpdateExpression: 'REMOVE fuelType, consumption, idleConsumption' }));
});

afterAll(async () => {
  await stopBrowserApp({ app, browser });
});

/** Picks an option of one of the form's selects (Mantine's combobox: click, then the option). */
async function choose(page: Page, testId: string, option: string): Promise<void> {
  await page.getByTestId(testId).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

const text = (template: string, vars: Record<string, string>) => template.replace(/\{\{(\w+)\}\}/g, (_, name: string) => vars[name] ?? '');

async function run(page: Page): Promise<void> {
  await page.getByRole('button', { name: reportsPageEn.RptRun }).click();
  await page.getByTestId('report-view').waitFor();
}

describe('reports page', () => {
  it('demo-admin runs the summary of the fleet and the trip log of one unit', async () => {
    const { context, page, errors } = await openPage(browser);
    try {
      await logInAt(page, app.url, '/user/create-triplog/reports');

      // The summary over last month (the default) for all units: one table with the fleet's totals row.
      await choose(page, 'report-kind', reportsEn.ReportTitle_summary);
      await run(page);
      await expect.poll(() => page.getByRole('heading', { level: 2 }).first().textContent()).toBe(reportsEn.ReportTitle_summary);
      const totals = page.getByTestId('report-totals-row');
      await expect.poll(() => totals.count()).toBe(1);
      // 50 km over the fleet, written as every report writes a distance.
      await expect.poll(() => totals.textContent()).toContain(formatCell(50, 'km', 'en'));
      await checkAndShoot(page, SHOTS_DIR, 'reports-summary', { sizes: [PHONE, DESKTOP] });

      // The environmental report of the fleet: 20 km of diesel, 1.2 l × 2.66 kg/l of CO2 with its factor beside it.
      await choose(page, 'report-kind', reportsEn.ReportTitle_environmental);
      await run(page);
      await expect.poll(() => page.getByRole('heading', { level: 2 }).first().textContent()).toBe(reportsEn.ReportTitle_environmental);
      await expect.poll(() => page.getByTestId('report-totals-row').first().textContent()).toContain(formatCell(3.192, 'mass', 'en'));
      await expect.poll(() => page.getByText('2.660 kg/l').count()).toBeGreaterThan(0);
      await checkAndShoot(page, SHOTS_DIR, 'reports-environmental', { sizes: [PHONE, DESKTOP] });

      // The trip log of Service van 1, picked by search: its two trips and their 20 km in its totals row.
      await choose(page, 'report-kind', reportsEn.ReportTitle_tripLog);
      // The shared unit picker: the server searches as the user types, Space toggles the active option.
      const picker = page.getByTestId('report-units');
      await pickUnit(picker, reportsPageEn.RptUnits, 'Service van 1');
      await expect.poll(() => picker.getByText(text(unitsEn.UnitPickerSelected, { count: '1' })).isVisible()).toBe(true);
      await checkAndShoot(page, SHOTS_DIR, 'reports-unit-picker', { sizes: [PHONE, DESKTOP] });
      await run(page);
      await expect.poll(() => page.getByRole('heading', { level: 2 }).first().textContent()).toBe(reportsEn.ReportTitle_tripLog);
      await expect.poll(() => page.getByRole('heading', { level: 3 }).allTextContents()).toEqual([expect.stringMatching(/^Service van 1/)]);
      const table = page.getByTestId('report-table').first();
      await expect.poll(() => table.locator('tbody tr').count()).toBe(2);
      await expect.poll(() => table.getByTestId('report-totals-row').textContent()).toContain(formatCell(20, 'km', 'en'));

      // The same trip log as CSV: the export job's progress, then its link, which downloads the file.
      await page.getByRole('button', { name: text(reportsPageEn.RptExportAs, { format: 'CSV' }) }).click();
      const link = page.getByTestId('report-download');
      await link.waitFor({ timeout: 30_000 });
      const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
      expect(download.suggestedFilename()).toBe(`tripLog-${lastMonth.from}-${lastMonth.to}.csv`);
      const csv = readFileSync(await download.path(), 'utf8');
      // Its two trips and its totals line, as the screen showed them.
      const lines = csv.split('\r\n');
      expect(lines.filter((line) => line.startsWith(`Service van 1,ABC123,${day},`))).toHaveLength(2);
      expect(lines.find((line) => line.startsWith('Service van 1,ABC123,Total,'))).toContain(`,${formatCell(20, 'km', 'en', { plain: true })},`);

      // Over more than a month the trip log is made by a job whose file is the model: the same trips.
      const longFrom = addDays(lastMonth.from, -31);
      await page.getByRole('textbox', { name: reportsPageEn.RptFrom }).fill(longFrom);
      await page.getByRole('textbox', { name: reportsPageEn.RptFrom }).press('Tab');
      await run(page);
      await expect.poll(() => page.getByTestId('report-view').textContent(), { timeout: 30_000 }).toContain(`${longFrom} – ${lastMonth.to}`);
      await expect.poll(() => page.getByTestId('report-table').first().locator('tbody tr').count()).toBe(2);

      if (SCREENSHOTS) {
        await checkAndShoot(page, SHOTS_DIR, 'reports-triplog', { sizes: [PHONE, DESKTOP], axe: false });
        // The report is asked for again in the language chosen (a job, as it covers more than a month).
        for (const [lang, title, languageLabel] of [['sv', 'Körjournal', en.Language], ['no', 'Kjørebok', sv.Language]] as const) {
          await page.getByRole('combobox', { name: languageLabel }).selectOption(lang);
          await expect.poll(() => page.getByTestId('report-view').textContent(), { timeout: 30_000 }).toContain(`${title}${longFrom}`);
          await checkAndShoot(page, SHOTS_DIR, `reports-triplog-${lang}`, { sizes: [PHONE, DESKTOP], axe: false });
        }
      }
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('demo-admin runs the eco driving report: the score, its breakdown and the events', async () => {
    // A harsh braking on the 30 km drive: 3.33 per 100 km, 6.67 points, and 5 of its 30 minutes idling
    // (16.7 %, 8.33 points): 85. The fleet: 1 braking in 50 km (4 points), the same idle share: 88.
    const unit = (await getUnitItem(demoImei(1))) as UnitItem;
    const ts = startOfLocalDay(day, ZONE) + 9 * 60 * MIN + 10 * MIN;
    const effect = eventEffect({ type: 'harshBraking', ts, key: 'harsh', lat: 59.35, lon: 18.02, alarm: false, details: { g: 0.45, ms: 700, speed: 60 } });
    await EVENT_EFFECT_SENDERS[EVENT_RAISED]!({ ...effect, status: 'sending', at: Date.now() }, unit, getPorts());
    const { context, page, errors } = await openPage(browser);
    try {
      await logInAt(page, app.url, '/user/create-triplog/reports');
      await choose(page, 'report-kind', reportsEn.ReportTitle_ecoDriving);
      await run(page);
      await expect.poll(() => page.getByRole('heading', { level: 2 }).first().textContent()).toBe(reportsEn.ReportTitle_ecoDriving);
      const totals = page.getByTestId('report-totals-row').first();
      await expect.poll(() => totals.textContent()).toContain(formatCell(50, 'km', 'en'));
      await expect.poll(() => totals.locator('td').allTextContents()).toContain('88');
      await expect.poll(() => page.getByTestId('report-view').textContent()).toContain('0.45 g');
      await checkAndShoot(page, SHOTS_DIR, 'reports-eco', { sizes: [PHONE, DESKTOP] });
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
