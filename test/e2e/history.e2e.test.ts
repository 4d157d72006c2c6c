/**
 * History playback in real Chromium against the embedded runtime: a demo tracker reports a route
 * over MQTT (its native payload, times in the last hour), demo-user opens the unit's history on the
 * map, sees the route with its start and end, plays, pauses and scrubs it, gets the browser's own
 * period check and the empty state. Checked with axe and photographed at 390 and 1280 px into
 * test-results/ (gitignored).
 */
import { join } from 'node:path';
import mqtt from 'mqtt';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoImei } from '../../infra/local/seed';
import { historyEn } from '../../shared/i18n/features/history/en';
import { mapEn } from '../../shared/i18n/features/map/en';
import { trackingEn } from '../../shared/i18n/features/tracking/en';
import { DESKTOP, PHONE, SHOTS_DIR, axeViolations, logInThroughForm, openPage, poll, startBrowserApp, stopBrowserApp, type App } from '../support/browser';

let app: App;
let browser: Browser;

/** Service van 1, granted to demo-user. */
const IMEI = demoImei(0);
const UNIT_NAME = 'Service van 1';
const POINTS = 40;
const STEP_MS = 60_000;

interface Sent {
  ts: number;
  lat: number;
  lon: number;
  spd: number;
  hdg: number;
}

/** 20 minutes north, then 20 minutes east through Stockholm at about 27 km/h, ending 2 minutes ago. */
function route(end: number): Sent[] {
  return Array.from({ length: POINTS }, (_, i) => {
    const north = Math.min(i, 19);
    const east = Math.max(i - 19, 0);
    return { ts: end - (POINTS - 1 - i) * STEP_MS, lat: 59.31 + north * 0.004, lon: 18.03 + east * 0.008, spd: 27 + (i % 5), hdg: i < 19 ? 0 : 90 };
  });
}

let sent: Sent[] = [];

beforeAll(async () => {
  ({ app, browser } = await startBrowserApp());
  sent = route(Date.now() - 2 * 60_000);
  const tracker = await mqtt.connectAsync(app.mqttUrl, { clientId: IMEI, reconnectPeriod: 0, connectTimeout: 5_000 });
  // One buffered batch, as a tracker sends after a coverage gap.
  await tracker.publishAsync(`trackers/${IMEI}/telemetry`, JSON.stringify({ records: sent.map((p) => ({ ...p, sat: 9, ign: true })) }), { qos: 1 });
  await tracker.endAsync();
});

afterAll(async () => {
  await stopBrowserApp({ app, browser });
});

/** The time the panel shows for a point: the app's 'en' formatting in the page's zone. */
const shownTime = (ms: number) => new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'medium', timeZone: 'Europe/Stockholm' }).format(ms);

const logIn = (page: Page) => logInThroughForm(page, app.url);

/** The map page's own controls: the unit in its list, then its History tab. */
async function openHistory(page: Page): Promise<void> {
  await page.getByRole('button', { name: new RegExp(UNIT_NAME) }).click();
  await page.getByRole('tab', { name: mapEn.MapHistoryTab }).click();
  await poll(() => page.getByRole('heading', { name: historyEn.HistoryHeading }).isVisible()).toBe(true);
}

// The labels carry the required mark, and "To" is also in "Today".
const fromInput = (panel: Locator) => panel.getByLabel(new RegExp(`^${historyEn.HistoryFrom}\\b`));
const toInput = (panel: Locator) => panel.getByLabel(new RegExp(`^${historyEn.HistoryTo}\\b`));
const history = (page: Page) => page.getByRole('region', { name: historyEn.HistoryHeading });
const slider = (page: Page) => history(page).getByRole('slider', { name: historyEn.HistoryScrub });
const sliderIndex = async (page: Page) => Number(await slider(page).getAttribute('aria-valuenow'));
const pointOf = (index: number) => historyEn.HistoryPointOf.replace('{{index}}', String(index)).replace('{{count}}', String(POINTS));
const countText = historyEn.HistoryPointCount.replace('{{count}}', String(POINTS));

async function checkScreen(page: Page, name: string): Promise<void> {
  for (const size of [PHONE, DESKTOP]) {
    await page.setViewportSize(size);
    await page.waitForTimeout(400);
    expect(await axeViolations(page), `${name} at ${size.width} px`).toEqual([]);
    await page.screenshot({ path: join(SHOTS_DIR, `history-${name}-${size.width}.png`), fullPage: true });
  }
  await page.setViewportSize(DESKTOP);
}

describe('history playback on the map', () => {
  it('loads the last hour of a unit, draws it, plays, pauses and scrubs it', async () => {
    const { context, page, errors } = await openPage(browser);
    await logIn(page);
    await openHistory(page);
    const panel = history(page);

    // Opened on the last hour, loaded at once, the period folded away to one line; Load asks
    // again for the hour up to now and folds it again.
    await poll(() => panel.getByRole('status').textContent()).toContain(countText);
    const change = panel.getByRole('button', { name: historyEn.HistoryChangePeriod });
    expect(await change.getAttribute('aria-expanded')).toBe('false');
    expect(await fromInput(panel).isVisible()).toBe(false);
    await change.click();
    expect(await change.getAttribute('aria-expanded')).toBe('true');
    expect(await panel.getByRole('radio', { name: historyEn.HistoryLastHour }).isChecked()).toBe(true);
    await panel.getByRole('button', { name: historyEn.HistoryLoad }).click();
    await poll(() => change.getAttribute('aria-expanded')).toBe('false');
    await poll(() => panel.getByRole('status').textContent()).toContain(countText);

    // The route's ends on the map, named with their times. The count above is the same before and
    // after Load, so the route may still be drawn anew: wait for it.
    const first = sent[0] as Sent;
    const last = sent[POINTS - 1] as Sent;
    await poll(() => page.getByRole('img', { name: historyEn.HistoryRouteStart.replace('{{time}}', shownTime(first.ts)) }).isVisible()).toBe(true);
    await poll(() => page.getByRole('img', { name: historyEn.HistoryRouteEnd.replace('{{time}}', shownTime(last.ts)) }).isVisible()).toBe(true);
    const marker = page.getByRole('img', { name: historyEn.HistoryPlaybackPosition });
    await poll(() => marker.isVisible()).toBe(true);
    expect(await panel.getByText(pointOf(1)).isVisible()).toBe(true);
    expect(await panel.getByText(shownTime(first.ts)).isVisible()).toBe(true);
    expect(await panel.getByText(`${first.spd} km/h`).isVisible()).toBe(true);
    await checkScreen(page, 'loaded');

    // 500× plays a minute between points in 120 ms: the marker moves along the route.
    // The segment's radio is visually hidden; its label is what a user clicks.
    await panel.getByText('500×', { exact: true }).click();
    expect(await panel.getByRole('radio', { name: '500×' }).isChecked()).toBe(true);
    const before = await marker.boundingBox();
    await panel.getByRole('button', { name: historyEn.HistoryPlay }).click();
    await poll(() => sliderIndex(page)).toBeGreaterThanOrEqual(5);
    await panel.getByRole('button', { name: historyEn.HistoryPause }).click();
    const paused = await sliderIndex(page);
    expect(paused).toBeLessThan(POINTS - 1);
    expect(await marker.boundingBox()).not.toEqual(before);
    await page.waitForTimeout(500);
    expect(await sliderIndex(page)).toBe(paused);
    await checkScreen(page, 'paused');

    // Scrub with the keyboard: the readings follow the point.
    await slider(page).focus();
    await page.keyboard.press('Home');
    await poll(() => sliderIndex(page)).toBe(0);
    await page.keyboard.press('ArrowRight');
    await poll(() => panel.getByText(pointOf(2)).isVisible()).toBe(true);
    // The slider names the point's time to screen readers and shows it beside the thumb while focused.
    expect(await slider(page).getAttribute('aria-valuetext')).toBe(shownTime((sent[1] as Sent).ts));
    expect(await panel.getByRole('paragraph').filter({ hasText: shownTime((sent[1] as Sent).ts) }).isVisible()).toBe(true);
    await page.keyboard.press('End');
    await poll(() => panel.getByText(pointOf(POINTS)).isVisible()).toBe(true);
    expect(await panel.getByText(`${last.spd} km/h`).isVisible()).toBe(true);

    // Play at the end starts over and stops by itself at the end.
    await panel.getByRole('button', { name: historyEn.HistoryPlay }).click();
    await poll(() => sliderIndex(page)).toBeLessThan(POINTS - 1);
    await poll(() => panel.getByRole('button', { name: historyEn.HistoryPlay }).isVisible()).toBe(true);
    expect(await sliderIndex(page)).toBe(POINTS - 1);

    expect(errors).toEqual([]);
    await context.close();
  });

  it('checks the period in the browser and shows an empty period', async () => {
    const { context, page, errors } = await openPage(browser);
    await logIn(page);
    await openHistory(page);
    const panel = history(page);
    await poll(() => panel.getByRole('status').textContent()).toContain(countText);

    await panel.getByRole('button', { name: historyEn.HistoryChangePeriod }).click();
    const day = 86_400_000;
    const local = (ms: number) => new Date(ms).toLocaleString('sv-SE', { timeZone: 'Europe/Stockholm' }).slice(0, 16).replace(' ', 'T');
    await fromInput(panel).fill(local(Date.now() - 40 * day));
    expect(await panel.getByRole('radio', { name: historyEn.HistoryCustom }).isChecked()).toBe(true);
    await panel.getByRole('button', { name: historyEn.HistoryLoad }).click();
    await poll(() => panel.getByText(trackingEn.HistoryPeriodTooLong).isVisible()).toBe(true);
    expect(await toInput(panel).getAttribute('aria-invalid')).toBe('true');
    // The route on show stays until a period is accepted.
    expect(await panel.getByRole('status').textContent()).toContain(countText);
    await checkScreen(page, 'period-too-long');

    await fromInput(panel).fill(local(Date.now() - 3 * day));
    await toInput(panel).fill(local(Date.now() - 2 * day));
    await panel.getByRole('button', { name: historyEn.HistoryLoad }).click();
    await poll(() => panel.getByText(historyEn.HistoryNoPositions).isVisible()).toBe(true);
    expect(await panel.getByRole('button', { name: historyEn.HistoryPlay }).count()).toBe(0);
    expect(await page.getByRole('img', { name: historyEn.HistoryPlaybackPosition }).count()).toBe(0);
    await checkScreen(page, 'empty');

    await panel.getByRole('button', { name: historyEn.CloseHistory }).click();
    await poll(() => page.getByRole('region', { name: historyEn.HistoryHeading }).count()).toBe(0);
    expect(errors).toEqual([]);
    await context.close();
  });
});
