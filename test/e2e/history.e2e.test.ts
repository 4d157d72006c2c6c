/**
 * History playback in real Chromium against the embedded runtime: a demo tracker reports a route
 * over MQTT (its native payload, times in the last hour, with one five-minute stop), demo-user opens
 * the unit's history on the map, sees the route with its start and end, plays, pauses and scrubs
 * it, gets the browser's own period check and the empty state; the speed chart and its words, the
 * stop on the map and in the list; the deep link (history-url.ts) opening a period, naming a unit
 * the user does not have, and leading to the trip log for an account without the map. Checked with
 * axe and photographed at 390 and 1280 px into test-results/ (gitignored).
 */
import { join } from 'node:path';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import mqtt from 'mqtt';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dynamo, tableName } from '../../functions/platform/db';
import { demoImei } from '../../infra/local/seed';
import { en } from '../../shared/i18n/en';
import { historyEn } from '../../shared/i18n/features/history/en';
import { mapEn } from '../../shared/i18n/features/map/en';
import { trackingEn } from '../../shared/i18n/features/tracking/en';
import { historyUrl } from '../../web/src/features/history/history-url';
import { DESKTOP, PHONE, SHOTS_DIR, axeViolations, logInThroughForm, openPage, poll, startBrowserApp, stopBrowserApp, type App, photograph, settle, SCREENSHOTS, untilStill } from '../support/browser';
import { typeDate } from '../support/date-input';
import { createTestUser } from '../support/sessions';

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
  ign: boolean;
}

/** Points 20 to 24 stand still with the ignition off: a stop from point 20 until moving again at 25. */
const STOP_FIRST = 20;
const STOP_LAST = 24;
const STOP_MINUTES = STOP_LAST + 1 - STOP_FIRST;

/**
 * 20 minutes north, then east through Stockholm at about 27 km/h with a five-minute stop on the way,
 * ending 2 minutes ago.
 */
function route(end: number): Sent[] {
  return Array.from({ length: POINTS }, (_, i) => {
    const still = i >= STOP_FIRST && i <= STOP_LAST;
    const step = i < STOP_FIRST ? i : still ? STOP_FIRST : i - STOP_MINUTES + 1;
    const north = Math.min(step, 19);
    const east = Math.max(step - 19, 0);
    return { ts: end - (POINTS - 1 - i) * STEP_MS, lat: 59.31 + north * 0.004, lon: 18.03 + east * 0.008, spd: still ? 0 : 27 + (i % 5), hdg: i < 19 ? 0 : 90, ign: !still };
  });
}

let sent: Sent[] = [];

beforeAll(async () => {
  ({ app, browser } = await startBrowserApp());
  sent = route(Date.now() - 2 * 60_000);
  const tracker = await mqtt.connectAsync(app.mqttUrl, { clientId: IMEI, reconnectPeriod: 0, connectTimeout: 5_000 });
  // One buffered batch, as a tracker sends after a coverage gap.
  await tracker.publishAsync(`trackers/${IMEI}/telemetry`, JSON.stringify({ records: sent.map((p) => ({ ...p, sat: 9 })) }), { qos: 1 });
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
    await settle(page);
    expect(await axeViolations(page), `${name} at ${size.width} px`).toEqual([]);
    await photograph(page, join(SHOTS_DIR, `history-${name}-${size.width}.png`), { fullPage: true });
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
    // Load reads the positions again.
    const reloaded = page.waitForResponse((response) => /\/api\/v1\/user\/units\/[^/]+\/positions/.test(new URL(response.url()).pathname));
    await panel.getByRole('button', { name: historyEn.HistoryLoad }).click();
    expect((await reloaded).status()).toBe(200);
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
    expect(await panel.getByText(`${first.spd} km/h`, { exact: true }).isVisible()).toBe(true);
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
    await poll(() => panel.getByRole('button', { name: historyEn.HistoryPlay }).isVisible()).toBe(true);
    await checkScreen(page, 'paused');
    // Many frames later (two sizes, settled, each looked at by axe) it has not moved on.
    expect(await sliderIndex(page)).toBe(paused);

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
    expect(await panel.getByText(`${last.spd} km/h`, { exact: true }).isVisible()).toBe(true);

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
    await typeDate(fromInput(panel), local(Date.now() - 40 * day));
    expect(await panel.getByRole('radio', { name: historyEn.HistoryCustom }).isChecked()).toBe(true);
    await panel.getByRole('button', { name: historyEn.HistoryLoad }).click();
    await poll(() => panel.getByText(trackingEn.HistoryPeriodTooLong).isVisible()).toBe(true);
    expect(await toInput(panel).getAttribute('aria-invalid')).toBe('true');
    // The route on show stays until a period is accepted.
    expect(await panel.getByRole('status').textContent()).toContain(countText);
    await checkScreen(page, 'period-too-long');

    await typeDate(fromInput(panel), local(Date.now() - 3 * day));
    await typeDate(toInput(panel), local(Date.now() - 2 * day));
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

const chart = (page: Page) => history(page).getByRole('slider', { name: historyEn.HistorySpeedChart });
const chartIndex = async (page: Page) => Number(await chart(page).getAttribute('aria-valuenow'));
/** The stop's duration as the app writes it in 'en' (en-GB), and the stop's name on the map and in the list. */
const stopDuration = `${STOP_MINUTES} mins`;
/** The locator's x once two reads a quarter second apart agree (the map has stopped moving). */
async function steadyX(locator: Locator): Promise<number | undefined> {
  let last = (await locator.boundingBox())?.x;
  for (let i = 0; i < 40; i++) {
    await new Promise((resolve) => setTimeout(resolve, 250));
    const now = (await locator.boundingBox())?.x;
    if (now === last) return now;
    last = now;
  }
  throw new Error('The playback marker kept moving for 10 s');
}

const stopName = () => new RegExp(`^Stop 1, .+, ${stopDuration}$`);

describe('the speed chart and the stops', () => {
  it('draws the speed over the period with its words, moves the marker from the chart, and shows the stop', async () => {
    const { context, page, errors } = await openPage(browser);
    await logIn(page);
    await openHistory(page);
    const panel = history(page);
    await poll(() => panel.getByRole('status').textContent()).toContain(countText);

    // The chart is drawn (uPlot's canvas, loaded lazily) and says what it shows in words.
    await poll(() => page.locator('[data-testid="history-speed-chart"] canvas').count()).toBeGreaterThan(0);
    const canvas = page.locator('[data-testid="history-speed-chart"] canvas').first();
    expect((await canvas.boundingBox())?.width).toBeGreaterThan(250);
    const figure = panel.getByRole('figure', { name: historyEn.HistorySpeedChart });
    const top = Math.max(...sent.map((p) => p.spd));
    const topAt = sent.find((p) => p.spd === top) as Sent;
    const minute = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'Europe/Stockholm' }).format(topAt.ts);
    expect(await figure.textContent()).toContain(historyEn.HistoryTopSpeed.replace('{{speed}}', `${top} km/h`).replace('{{time}}', minute));

    // The keyboard moves playback from the chart as from the scrub slider.
    await chart(page).focus();
    await page.keyboard.press('End');
    await poll(() => sliderIndex(page)).toBe(POINTS - 1);
    expect(await chartIndex(page)).toBe(POINTS - 1);
    await page.keyboard.press('Home');
    await page.keyboard.press('ArrowRight');
    await poll(() => sliderIndex(page)).toBe(1);
    expect(await chart(page).getAttribute('aria-valuetext')).toBe(`${shownTime((sent[1] as Sent).ts)}, ${(sent[1] as Sent).spd} km/h`);

    // Pointing at the chart shows that moment on the map and in the readings, leaving it returns;
    // a click moves playback there.
    const marker = page.getByRole('img', { name: historyEn.HistoryPlaybackPosition });
    // The map may still be easing into the route's bounds: measure the marker once it stands still.
    const atStart = await steadyX(marker);
    const box = (await canvas.boundingBox()) as { x: number; y: number; width: number; height: number };
    await page.mouse.move(box.x + box.width * 0.75, box.y + box.height / 2);
    await poll(async () => (await marker.boundingBox())?.x).not.toBe(atStart);
    await poll(() => panel.getByText(pointOf(2)).isVisible()).toBe(false);
    expect(await sliderIndex(page)).toBe(1);
    await page.mouse.move(box.x + box.width * 0.75, box.y + box.height + 80);
    await poll(async () => (await marker.boundingBox())?.x).toBe(atStart);
    expect(await panel.getByText(pointOf(2)).isVisible()).toBe(true);
    await page.mouse.click(box.x + box.width * 0.75, box.y + box.height / 2);
    await poll(() => sliderIndex(page)).toBeGreaterThan(POINTS / 2);

    // The stop: in the list and on the map with its duration; the marker opens its times.
    const stops = panel.getByRole('region', { name: historyEn.HistoryStops });
    expect(await stops.getByRole('listitem').count()).toBe(1);
    const entry = stops.getByRole('button', { name: stopName() });
    expect(await entry.textContent()).toContain(stopDuration);
    const stopMarker = page.getByTestId('realtime-map').getByRole('button', { name: stopName() });
    await poll(() => stopMarker.isVisible()).toBe(true);
    await stopMarker.click();
    const details = page.getByRole('group', { name: stopName() });
    await poll(() => details.isVisible()).toBe(true);
    const arrived = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'Europe/Stockholm' }).format((sent[STOP_FIRST] as Sent).ts);
    const left = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'Europe/Stockholm' }).format((sent[STOP_LAST + 1] as Sent).ts);
    const detailText = await details.textContent();
    expect(detailText).toContain(`${historyEn.HistoryStopArrived}${arrived}`);
    expect(detailText).toContain(`${historyEn.HistoryStopLeft}${left}`);
    expect(detailText).toContain(`${historyEn.HistoryStopDuration}${stopDuration}`);
    expect(await stopMarker.getAttribute('aria-expanded')).toBe('true');
    await checkScreen(page, 'chart-stop');
    await details.getByRole('button', { name: historyEn.HistoryCloseStop }).click();
    await poll(() => details.count()).toBe(0);

    // The list entry moves playback to the stop and opens it.
    await entry.click();
    await poll(() => sliderIndex(page)).toBe(STOP_FIRST);
    await poll(() => details.isVisible()).toBe(true);
    await photograph(stops, join(SHOTS_DIR, 'history-stop-list-1280.png'));

    expect(errors).toEqual([]);
    await context.close();
  });
});

describe('the history deep link', () => {
  it('opens a unit’s history over the linked period and keeps the address in step', async () => {
    const { context, page, errors } = await openPage(browser, PHONE);
    await logIn(page);
    const from = sent[10] as Sent;
    const to = sent[30] as Sent;
    const link = historyUrl(IMEI, from.ts, to.ts);
    await page.goto(`${app.url}${link}`);
    const panel = history(page);
    await poll(() => panel.isVisible()).toBe(true);
    expect(await page.getByRole('heading', { name: UNIT_NAME }).isVisible()).toBe(true);
    expect(await page.getByRole('tab', { name: mapEn.MapHistoryTab }).getAttribute('aria-selected')).toBe('true');
    await poll(() => panel.getByRole('status').textContent()).toContain(historyEn.HistoryPointCount.replace('{{count}}', '21'));
    await poll(() => page.getByRole('img', { name: historyEn.HistoryRouteStart.replace('{{time}}', shownTime(from.ts)) }).count()).toBe(1);
    expect(await page.getByRole('img', { name: historyEn.HistoryRouteEnd.replace('{{time}}', shownTime(to.ts)) }).count()).toBe(1);
    await poll(() => page.locator('[data-testid="history-speed-chart"] canvas').count()).toBeGreaterThan(0);
    expect(new URL(page.url()).search).toBe(link.slice(link.indexOf('?')));
    // The route was fitted as the map came up, not taken over by the fit to all units.
    await poll(() => page.getByTestId('realtime-map').getAttribute('data-units-drawn')).not.toBeNull();
    const mapBox = (await page.getByTestId('realtime-map').boundingBox()) as { x: number; y: number; width: number; height: number };
    const stopBox = (await page.getByTestId('realtime-map').getByRole('button', { name: /^Stop 1, / }).boundingBox()) as { x: number; y: number };
    expect(stopBox.x).toBeGreaterThan(mapBox.x);
    expect(stopBox.x).toBeLessThan(mapBox.x + mapBox.width);
    expect(stopBox.y).toBeGreaterThan(mapBox.y);
    expect(stopBox.y).toBeLessThan(mapBox.y + mapBox.height);
    if (SCREENSHOTS) await untilStill(page.getByTestId('realtime-map'));
    await photograph(page, join(SHOTS_DIR, 'history-deep-link-phone-first.png'));
    await checkScreen(page, 'deep-link');

    // Another period is written into the address (replacing the entry); closing the history removes it.
    await panel.getByRole('button', { name: historyEn.HistoryChangePeriod }).click();
    await panel.getByText(historyEn.HistoryLastHour, { exact: true }).click();
    await panel.getByRole('button', { name: historyEn.HistoryLoad }).click();
    await poll(() => panel.getByRole('status').textContent()).toContain(countText);
    await poll(() => new URL(page.url()).searchParams.get('from')).not.toBe(new Date(from.ts).toISOString());
    expect(new URL(page.url()).searchParams.get('history')).toBe(IMEI);
    // Closing the history removes it, also when the close comes in the moment between the address
    // taking a new period and the router handing that address to the page (a transition, which a
    // click overtakes): the page must not take its own replaced address for a link to follow.
    await page.evaluate((closeName) => {
      const replace = window.history.replaceState.bind(window.history);
      window.history.replaceState = (...args: Parameters<History['replaceState']>) => {
        replace(...args);
        window.history.replaceState = replace;
        queueMicrotask(() => (document.querySelector(`button[aria-label="${closeName}"]`) as HTMLButtonElement | null)?.click());
      };
    }, historyEn.CloseHistory);
    await panel.getByRole('button', { name: historyEn.HistoryChangePeriod }).click();
    await panel.getByText(historyEn.HistoryLast7Days, { exact: true }).click();
    await panel.getByRole('button', { name: historyEn.HistoryLoad }).click();
    await poll(() => history(page).count()).toBe(0);
    await poll(() => new URL(page.url()).search).toBe('');
    // Whatever the router had yet to deliver has arrived two frames on.
    await settle(page);
    expect(new URL(page.url()).search).toBe('');
    expect(await history(page).count()).toBe(0);

    // Back or forward to a link of the unit on show with another period (the router hands the page
    // the address): the address keeps that link, here with a period the API refuses, and is not
    // written over with the period still on show when the link came.
    const follow = (url: string) =>
      page.evaluate((next) => {
        window.history.pushState(null, '', next);
        window.dispatchEvent(new PopStateEvent('popstate'));
      }, url);
    const linkedCount = historyEn.HistoryPointCount.replace('{{count}}', '21');
    await follow(link);
    await poll(() => panel.getByRole('status').textContent()).toContain(linkedCount);
    const refused = historyUrl(IMEI, to.ts - 40 * 86_400_000, to.ts);
    await follow(refused);
    await poll(() => panel.getByText(trackingEn.HistoryPeriodTooLong).isVisible()).toBe(true);
    await settle(page);
    expect(new URL(page.url()).search).toBe(refused.slice(refused.indexOf('?')));
    // Back or forward in the moment after closing a history, while the router has yet to hand the
    // page the address without it: the link is followed, not written over with no history.
    await page.evaluate(
      ({ closeName, next }) => {
        const replace = window.history.replaceState.bind(window.history);
        window.history.replaceState = (...args: Parameters<History['replaceState']>) => {
          replace(...args);
          window.history.replaceState = replace;
          queueMicrotask(() => {
            window.history.pushState(null, '', next);
            window.dispatchEvent(new PopStateEvent('popstate'));
          });
        };
        (document.querySelector(`button[aria-label="${closeName}"]`) as HTMLButtonElement | null)?.click();
      },
      { closeName: historyEn.CloseHistory, next: link },
    );
    await poll(() => panel.getByRole('status').textContent()).toContain(linkedCount);
    expect(new URL(page.url()).search).toBe(link.slice(link.indexOf('?')));

    // A unit the user does not have: a notice over the list, no history.
    await page.goto(`${app.url}${historyUrl(demoImei(990), from.ts, to.ts)}`);
    await poll(() => page.getByRole('alert').filter({ hasText: historyEn.HistoryLinkUnitMissing }).isVisible()).toBe(true);
    expect(await history(page).count()).toBe(0);

    expect(errors).toEqual([]);
    await context.close();
  });

  it('leads to the trip log for an account without the real-time map, where no history is offered', async () => {
    const user = await createTestUser();
    await dynamo().send(
      new UpdateCommand({
        TableName: tableName('accounts'),
        Key: { accountId: user.accountId },
        UpdateExpression: 'SET features.realtimeMap = :off',
        ExpressionAttributeValues: { ':off': false },
      }),
    );
    const { context, page } = await openPage(browser);
    await page.goto(`${app.url}/`);
    await page.getByRole('textbox', { name: en.UsernameOrEmail }).fill(user.username);
    await page.getByRole('textbox', { name: en.Password, exact: true }).fill(user.password);
    await page.getByRole('button', { name: en.Login, exact: true }).click();
    await page.waitForURL(`${app.url}/user/create-triplog`);
    await page.goto(`${app.url}${historyUrl(IMEI, (sent[0] as Sent).ts, (sent[39] as Sent).ts)}`);
    await page.waitForURL(`${app.url}/user/create-triplog`);
    expect(await page.getByRole('region', { name: historyEn.HistoryHeading }).count()).toBe(0);
    await context.close();
  });
});
