/**
 * The units list in real Chromium against the embedded runtime: the demo admin sees every demo
 * unit and the demo user only the granted ones; search, sorting by each column with the mouse and
 * the keyboard (aria-sort), the address keeping both, Swedish labels and relative times, the empty
 * state, and a fleet larger than a page: virtualized rows loaded as the list scrolls. Each screen is checked with axe and photographed at 390 and
 * 1280 px into test-results/ (gitignored).
 */
import { join } from 'node:path';
import { BatchWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storeUnitState } from '../support/unit-state';
import { nextState } from '../../functions/ingest/state';
import { dynamo, tableName } from '../../functions/platform/db';
import type { UnitRecord } from '../../functions/domain/unit/schema';
import { DEMO_PASSWORD, demoImei, demoUsers } from '../../infra/local/seed';
import { en } from '../../shared/i18n/en';
import { unitsEn } from '../../shared/i18n/features/units/en';
import { unitsSv } from '../../shared/i18n/features/units/sv';
import { imeiFrom } from '../../shared/validators/imei';
import { relativeTime } from '../../web/src/ui/relative-time';
import { DESKTOP, PHONE, SHOTS_DIR, axeViolations, logInAt, openPage, poll, startBrowserApp, stopBrowserApp, type App, photograph, settle } from '../support/browser';
import { createTestUser } from '../support/sessions';
import { testPosition } from '../support/positions';

const text = (template: string, vars: Record<string, string | number>) => template.replace(/\{\{(\w+)\}\}/g, (_, name: string) => String(vars[name]));

let app: App;
let browser: Browser;
const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

const position = (ts: number) => testPosition(ts, 59.33, 18.06, { speed: 30, heading: 90, ignition: true, movement: true });

/** When Service van 1 was heard last: 2 hours before the file starts. */
let vanSeenAt = 0;
/**
 * How the van's "last seen" reads now: "2 hours ago", except from midnight to 02:00 Stockholm time,
 * when it was seen yesterday (calendar days count from midnight).
 */
const vanSeen = (locale: 'en-GB' | 'sv') => relativeTime(new Date(vanSeenAt).toISOString(), Date.now(), locale, { timeZone: 'Europe/Stockholm' });

beforeAll(async () => {
  ({ app, browser } = await startBrowserApp());
  // Heard from 2 hours and 3 days ago (texts that stay true while the file runs); the others never.
  const now = Date.now();
  vanSeenAt = now - 120 * MINUTE;
  await storeUnitState(demoImei(0), nextState(undefined, position(vanSeenAt), vanSeenAt));
  await storeUnitState(demoImei(2), nextState(undefined, position(now - 3 * DAY), now - 3 * DAY));
  await dynamo().send(
    new UpdateCommand({
      TableName: tableName('units'),
      Key: { imei: demoImei(2) },
      UpdateExpression: 'SET driver = :d, departments = :dep',
      ExpressionAttributeValues: { ':d': 'Kim Berg', ':dep': ['North', 'Haulage'] },
    }),
  );
  await dynamo().send(
    new UpdateCommand({
      TableName: tableName('units'),
      Key: { imei: demoImei(1) },
      UpdateExpression: 'SET driver = :d, departments = :dep',
      ExpressionAttributeValues: { ':d': 'Anna Ek', ':dep': ['South'] },
    }),
  );
});

afterAll(async () => {
  await stopBrowserApp({ app, browser });
});

const UNITS_PATH = '/user/edit-terminal-list';

/** Opens the units list, logging in through the form on the way. */
async function openUnits(username: string, password: string, viewport = DESKTOP, options: { fakeClock?: boolean } = {}) {
  const opened = await openPage(browser, viewport);
  const { page } = opened;
  if (options.fakeClock) await opened.context.clock.install();
  await logInAt(page, app.url, UNITS_PATH, username, password);
  await page.getByRole('table').or(page.getByRole('heading', { name: unitsEn.UnitsEmptyTitle })).waitFor();
  return opened;
}

/** The table's body rows in the page (not the virtualizer's spacers) as cell texts, without the bulk tasks' selection column. */
async function rows(page: Page): Promise<string[][]> {
  return page
    .getByRole('table')
    .locator('tbody tr[aria-rowindex]')
    .evaluateAll((trs) =>
      trs.map((tr) => [...tr.querySelectorAll('td')].filter((td) => !td.querySelector('input[type="checkbox"]')).map((td) => (td.textContent ?? '').trim())),
    );
}

const names = async (page: Page) => (await rows(page)).map((r) => r[0]);
const header = (page: Page, name: string) => page.getByRole('columnheader', { name });
const sortButton = (page: Page, name: string) => header(page, name).getByRole('button');

async function checkScreen(page: Page, name: string): Promise<void> {
  for (const size of [PHONE, DESKTOP]) {
    await page.setViewportSize(size);
    await settle(page);
    expect(await axeViolations(page), `${name} at ${size.width} px`).toEqual([]);
    await photograph(page, join(SHOTS_DIR, `units-${name}-${size.width}.png`), { fullPage: true });
  }
}

describe('units list', () => {
  it('shows the demo admin every demo unit, by name, with types, drivers, departments and last seen', async () => {
    const { context, page, errors } = await openUnits(demoUsers.admin.username, DEMO_PASSWORD);
    await poll(() => names(page)).toEqual(['Boat trailer', 'Delivery lorry', 'Excavator', 'Service van 1', 'Service van 2']);
    expect(await page.getByRole('status').filter({ hasText: 'Units: 5' }).isVisible()).toBe(true);
    expect(await rows(page)).toEqual([
      ['Boat trailer', 'MNO345', demoImei(4), 'Trailer', 'None', 'Never', 'None'],
      ['Delivery lorry', 'GHI789', demoImei(2), 'Lorry', 'Kim Berg', '3 days ago', 'NorthHaulage'],
      ['Excavator', 'JKL012', demoImei(3), 'Excavator', 'None', 'Never', 'None'],
      ['Service van 1', 'ABC123', demoImei(0), 'Car', 'None', vanSeen('en-GB'), 'None'],
      ['Service van 2', 'DEF456', demoImei(1), 'Car', 'Anna Ek', 'Never', 'South'],
    ]);
    expect(vanSeen('en-GB')).toMatch(/^(2 hours ago|yesterday)$/);
    expect(await header(page, unitsEn.UnitsColumnName).getAttribute('aria-sort')).toBe('ascending');
    expect(await page.getByRole('link', { name: 'Delivery lorry' }).getAttribute('href')).toBe(`/user/edit-terminal?imei=${demoImei(2)}`);
    // The absolute time, in the browser's zone (Stockholm in these tests), is the relative one's title.
    const seen = page.getByRole('row', { name: /Service van 1/ }).locator('time');
    const [iso, title] = await Promise.all([seen.getAttribute('datetime'), seen.getAttribute('title')]);
    const expected = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'Europe/Stockholm' }).format(new Date(iso ?? ''));
    expect(title).toBe(expected);
    await checkScreen(page, 'admin');

    // On a phone the table scrolls sideways in its own keyboard-reachable region, names pinned.
    await page.setViewportSize(PHONE);
    // The shell's padding follows the sidebar with a transition.
    await settle(page);
    const region = page.getByRole('region', { name: unitsEn.UnitsTableCaption });
    expect(await region.getAttribute('tabindex')).toBe('0');
    expect(await region.evaluate((el) => el.scrollWidth > el.clientWidth)).toBe(true);
    const nameCell = page.getByRole('cell', { name: 'Boat trailer', exact: true });
    const regionBox = await region.boundingBox();
    const before = await nameCell.boundingBox();
    // Only the selection column's checkboxes stand before the names.
    expect((before?.x ?? -1) - (regionBox?.x ?? 0)).toBeLessThan(50);
    await region.evaluate((el) => el.scrollBy(400, 0));
    const box = await nameCell.boundingBox();
    expect(Math.abs((box?.x ?? -1) - (before?.x ?? 0))).toBeLessThan(2);
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await photograph(page, join(SHOTS_DIR, 'units-admin-scrolled-390.png'), { fullPage: true });
    expect(errors).toEqual([]);
    await context.close();
  });

  it('shows the demo user only the units granted to them, and keeps "last seen" true as time passes', async () => {
    const { context, page, errors } = await openUnits(demoUsers.user.username, DEMO_PASSWORD, DESKTOP, { fakeClock: true });
    await poll(() => names(page)).toEqual(['Service van 1', 'Service van 2']);
    expect(await page.getByRole('status').filter({ hasText: 'Units: 2' }).isVisible()).toBe(true);
    expect(await page.getByText('Delivery lorry').count()).toBe(0);
    const seen = page.getByRole('row', { name: /Service van 1/ }).locator('time');
    // The demo's van was last seen 2 hours ago; how that reads depends on the hour (calendar days
    // count from midnight: at 23:30, an hour later it was "yesterday"), so the words follow the rule.
    const lastSeen = (await seen.getAttribute('datetime')) ?? '';
    const reads = async () => relativeTime(lastSeen, await page.evaluate(() => Date.now()), 'en-GB', { timeZone: 'Europe/Stockholm' });
    expect(await page.evaluate(() => Date.now()) - Date.parse(lastSeen)).toBeGreaterThanOrEqual(2 * 3_600_000);
    expect(await seen.textContent()).toBe(await reads());
    await context.clock.fastForward('01:00:00');
    const later = await reads();
    expect(later).toMatch(/^(3 hours ago|yesterday)$/);
    await poll(() => seen.textContent()).toBe(later);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('searches name, plate, IMEI, driver and departments, and keeps the search in the address', async () => {
    const { context, page, errors } = await openUnits(demoUsers.admin.username, DEMO_PASSWORD);
    const search = page.getByRole('textbox', { name: unitsEn.UnitsSearchLabel });
    const cases: Array<[string, string[]]> = [
      ['van', ['Service van 1', 'Service van 2']],
      ['ghi 789', ['Delivery lorry']],
      [demoImei(3).slice(-6), ['Excavator']],
      ['anna', ['Service van 2']],
      ['north', ['Delivery lorry']],
      ['kim haulage', ['Delivery lorry']],
    ];
    for (const [query, expected] of cases) {
      await search.fill(query);
      await poll(() => names(page)).toEqual(expected);
      expect(await page.getByRole('status').textContent()).toBe(`Matching units: ${expected.length}`);
    }
    expect(new URL(page.url()).searchParams.get('q')).toBe('kim haulage');
    await page.reload();
    await poll(() => names(page)).toEqual(['Delivery lorry']);
    expect(await search.inputValue()).toBe('kim haulage');

    await search.fill('tractor');
    await poll(() => page.getByText('No units match “tractor”.').isVisible()).toBe(true);
    await checkScreen(page, 'no-match');
    await page.getByRole('cell').getByRole('button', { name: unitsEn.UnitsClearSearch }).click();
    await poll(() => names(page)).toHaveLength(5);
    expect(await search.inputValue()).toBe('');
    expect(new URL(page.url()).searchParams.has('q')).toBe(false);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('sorts by each column with mouse and keyboard, missing values last, and keeps the order in the address', async () => {
    const { context, page, errors } = await openUnits(demoUsers.admin.username, DEMO_PASSWORD);
    await poll(() => names(page)).toHaveLength(5);

    const sortBy = async (column: string, expected: string[], direction: 'ascending' | 'descending') => {
      await sortButton(page, column).click();
      await poll(() => names(page)).toEqual(expected);
      expect(await header(page, column).getAttribute('aria-sort')).toBe(direction);
      const others = await page.getByRole('columnheader').evaluateAll((ths, c) => ths.filter((th) => th.textContent !== c && !th.querySelector('input[type="checkbox"]')).map((th) => th.getAttribute('aria-sort')), column);
      expect(new Set(others)).toEqual(new Set(['none']));
    };
    await sortBy(unitsEn.UnitsColumnName, ['Service van 2', 'Service van 1', 'Excavator', 'Delivery lorry', 'Boat trailer'], 'descending');
    await sortBy(unitsEn.UnitsColumnRegistrationNumber, ['Service van 1', 'Service van 2', 'Delivery lorry', 'Excavator', 'Boat trailer'], 'ascending');
    await sortBy(unitsEn.UnitsColumnImei, ['Service van 1', 'Service van 2', 'Delivery lorry', 'Excavator', 'Boat trailer'], 'ascending');
    await sortBy(unitsEn.UnitsColumnVehicleType, ['Service van 1', 'Service van 2', 'Excavator', 'Delivery lorry', 'Boat trailer'], 'ascending');
    await sortBy(unitsEn.UnitsColumnDriver, ['Service van 2', 'Delivery lorry', 'Boat trailer', 'Excavator', 'Service van 1'], 'ascending');
    await sortBy(unitsEn.UnitsColumnDriver, ['Delivery lorry', 'Service van 2', 'Boat trailer', 'Excavator', 'Service van 1'], 'descending');
    // Last seen: the newest first on the first click; never-seen units last either way, by name.
    await sortBy(unitsEn.UnitsColumnLastSeen, ['Service van 1', 'Delivery lorry', 'Boat trailer', 'Excavator', 'Service van 2'], 'descending');
    await sortBy(unitsEn.UnitsColumnLastSeen, ['Delivery lorry', 'Service van 1', 'Boat trailer', 'Excavator', 'Service van 2'], 'ascending');
    await sortBy(unitsEn.UnitsColumnDepartments, ['Delivery lorry', 'Service van 2', 'Boat trailer', 'Excavator', 'Service van 1'], 'ascending');
    expect(new URL(page.url()).searchParams.get('sort')).toBe('departments.asc');

    // The keyboard: the header buttons are in the tab order and sort with Enter and Space.
    await sortButton(page, unitsEn.UnitsColumnImei).focus();
    await page.keyboard.press('Enter');
    await poll(() => header(page, unitsEn.UnitsColumnImei).getAttribute('aria-sort')).toBe('ascending');
    await page.keyboard.press('Space');
    await poll(() => header(page, unitsEn.UnitsColumnImei).getAttribute('aria-sort')).toBe('descending');
    expect(await names(page)).toEqual(['Boat trailer', 'Excavator', 'Delivery lorry', 'Service van 2', 'Service van 1']);
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Enter');
    await poll(() => header(page, unitsEn.UnitsColumnRegistrationNumber).getAttribute('aria-sort')).toBe('ascending');

    await page.reload();
    await poll(() => header(page, unitsEn.UnitsColumnRegistrationNumber).getAttribute('aria-sort')).toBe('ascending');
    expect(await names(page)).toEqual(['Service van 1', 'Service van 2', 'Delivery lorry', 'Excavator', 'Boat trailer']);
    await checkScreen(page, 'sorted');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('speaks Swedish: labels, vehicle types and relative times', async () => {
    const { context, page, errors } = await openUnits(demoUsers.admin.username, DEMO_PASSWORD);
    await page.getByLabel(en.Language).selectOption('sv');
    await poll(() => page.getByRole('textbox', { name: unitsSv.UnitsSearchLabel }).isVisible()).toBe(true);
    await poll(() => rows(page)).toEqual([
      ['Boat trailer', 'MNO345', demoImei(4), 'Släpvagn', 'Ingen', 'Aldrig', 'Ingen'],
      ['Delivery lorry', 'GHI789', demoImei(2), 'Lastbil', 'Kim Berg', 'för 3 dagar sedan', 'NorthHaulage'],
      ['Excavator', 'JKL012', demoImei(3), 'Grävmaskin', 'Ingen', 'Aldrig', 'Ingen'],
      ['Service van 1', 'ABC123', demoImei(0), 'Bil', 'Ingen', vanSeen('sv'), 'Ingen'],
      ['Service van 2', 'DEF456', demoImei(1), 'Bil', 'Anna Ek', 'Aldrig', 'South'],
    ]);
    expect(vanSeen('sv')).toMatch(/^(för 2 timmar sedan|i går)$/);
    expect(await page.getByRole('columnheader', { name: unitsSv.UnitsColumnVehicleType }).isVisible()).toBe(true);
    await checkScreen(page, 'swedish');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('says when the list cannot be loaded, and tries again on request', async () => {
    const opened = await openPage(browser, PHONE);
    const { context, page, errors } = opened;
    // The page's clock, to let the list's two retries (1 s and 2 s apart) come without waiting for them.
    await context.clock.install();
    const failing = /\/api\/v1\/user\/units(\?|$)/;
    await page.route(failing, (route) => route.fulfill({ status: 503, contentType: 'text/html', body: '<h1>Service Unavailable</h1>' }));
    await logInAt(page, app.url, UNITS_PATH, demoUsers.admin.username, DEMO_PASSWORD);
    const alert = page.getByRole('alert').filter({ hasText: unitsEn.UnitsLoadFailed });
    await poll(async () => {
      await page.clock.fastForward(1000);
      return alert.isVisible();
    }).toBe(true);
    expect(await alert.textContent()).toContain(en.SomethingWentWrong);
    await checkScreen(page, 'error');

    await page.unroute(failing);
    await alert.getByRole('button', { name: en.TryAgain }).click();
    await poll(() => names(page)).toHaveLength(5);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('tells a user without units so, and splits a large fleet into pages', async () => {
    const owner = await createTestUser();
    const empty = await openUnits(owner.username, owner.password);
    await poll(() => empty.page.getByRole('heading', { name: unitsEn.UnitsEmptyTitle }).isVisible()).toBe(true);
    expect(await empty.page.getByText(unitsEn.UnitsEmpty).isVisible()).toBe(true);
    await checkScreen(empty.page, 'empty');
    expect(empty.errors).toEqual([]);
    await empty.context.close();

    // 120 units: a first page of 100, the rest loaded when the list is scrolled near its end; only
    // the rows in view (and a few beyond) are in the page.
    const createdAt = new Date().toISOString();
    const fleet: UnitRecord[] = Array.from({ length: 120 }, (_, i) => ({
      imei: imeiFrom(`35693804${String(200000 + i).padStart(6, '0')}`),
      accountId: owner.accountId,
      name: `Fleet car ${String(i + 1).padStart(3, '0')}`,
      registrationNumber: `FLT${String(i + 1).padStart(3, '0')}`,
      vehicleType: 'car',
      protocol: 'native',
      createdAt,
    }));
    for (let i = 0; i < fleet.length; i += 25) {
      await dynamo().send(new BatchWriteCommand({ RequestItems: { [tableName('units')]: fleet.slice(i, i + 25).map((Item) => ({ PutRequest: { Item } })) } }));
    }
    const { context, page, errors } = await openUnits(owner.username, owner.password);
    await poll(() => page.getByRole('status').filter({ hasText: text(unitsEn.UnitsShown, { count: 100 }) }).isVisible()).toBe(true);
    const shown = await rows(page);
    expect(shown.length).toBeGreaterThan(5);
    expect(shown.length).toBeLessThan(60);
    expect(await page.getByRole('table').getAttribute('aria-rowcount')).toBe('-1');
    await checkScreen(page, 'pages');
    await page.getByRole('button', { name: unitsEn.UnitsLoadMore }).waitFor();
    await page.mouse.wheel(0, 100_000);
    await poll(() => page.getByRole('status').filter({ hasText: 'Units: 120' }).isVisible()).toBe(true);
    expect(await page.getByRole('table').getAttribute('aria-rowcount')).toBe('121');
    // The rows that came make the page longer: scrolled on to its end.
    await poll(async () => {
      await page.mouse.wheel(0, 100_000);
      return names(page).then((n) => n.at(-1));
    }).toBe('Fleet car 120');
    expect(await page.locator('tbody tr[aria-rowindex]').last().getAttribute('aria-rowindex')).toBe('121');
    expect((await rows(page)).length).toBeLessThan(60);
    expect(await page.getByRole('button', { name: unitsEn.UnitsLoadMore }).count()).toBe(0);

    // A search asks the server, over the whole fleet.
    const searched = page.waitForRequest((request) => new URL(request.url()).searchParams.get('q') === 'flt11');
    await page.getByRole('textbox', { name: unitsEn.UnitsSearchLabel }).fill('FLT11');
    await searched;
    await poll(() => names(page)).toEqual(fleet.slice(109, 119).map((u) => u.name));
    expect(errors).toEqual([]);
    await context.close();
  });
});
