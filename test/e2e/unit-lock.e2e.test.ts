/**
 * The access lock and the output confirmation in real Chromium against the embedded runtime.
 * demo-user locks Service van 1 (through the API, as the unit editor's lock panel does); demo-admin
 * then finds it on the map without a position and is told (Swedish and Norwegian: languages.e2e.test.ts) that
 * it is locked and by whom, in its details, commands and events. An output labelled as an
 * immobiliser asks for a confirmation naming the unit and the output before anything reaches the
 * tracker (this test plays the tracker over MQTT); cancelling sends nothing. demo-user locks and
 * unlocks Service van 2 in the unit editor's lock panel, each after a confirmation, and sees both in
 * the lock log. axe and screenshots at 390 and 1280 px (with SCREENSHOTS=1) into test-results/unit-lock/.
 */
import { join } from 'node:path';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import mqtt, { type MqttClient } from 'mqtt';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dynamo, tableName } from '../../functions/platform/db';
import { DEMO_PASSWORD, demoImei, demoUsers } from '../../infra/local/seed';
import { en } from '../../shared/i18n/en';
import { commandsEn } from '../../shared/i18n/features/commands/en';
import { eventsEn } from '../../shared/i18n/features/events/en';
import { mapEn } from '../../shared/i18n/features/map/en';
import { unitLockEn } from '../../shared/i18n/features/unit-lock/en';
import { translateKey } from '../../shared/i18n/index';
import { callAs, callerFor } from '../support/api-caller';
import { type App, checkAndShoot, logInAt, openPage, poll, SHOTS_DIR, startBrowserApp, stopBrowserApp } from '../support/browser';

let app: App;
let browser: Browser;
let tracker: MqttClient;

const SHOTS = join(SHOTS_DIR, 'unit-lock');
/** Service van 1 (locked by demo-user) and Service van 2 (its DOUT1 is the immobiliser). */
const LOCKED = demoImei(0);
const GUARDED = demoImei(1);
const LOCKER = `${demoUsers.user.firstName} ${demoUsers.user.lastName}`;
const received: { id: string; type: string; params: Record<string, unknown> }[] = [];
const text = (template: string, vars: Record<string, string | number>) => template.replace(/\{\{(\w+)\}\}/g, (_, name: string) => String(vars[name]));

beforeAll(async () => {
  ({ app, browser } = await startBrowserApp());
  // Both units report once, so that a position is there to be hidden.
  for (const imei of [LOCKED, GUARDED]) {
    const client = await mqtt.connectAsync(app.mqttUrl, { clientId: imei, reconnectPeriod: 0, connectTimeout: 5_000 });
    await client.publishAsync(`trackers/${imei}/telemetry`, JSON.stringify({ ts: Date.now() - 5_000, lat: 59.3326, lon: 18.0649, spd: 0, ign: false }), { qos: 1 });
    if (imei === GUARDED) tracker = client;
    else await client.endAsync();
  }
  tracker.on('message', (_topic, payload) => received.push(JSON.parse(payload.toString('utf8')) as (typeof received)[number]));
  await tracker.subscribeAsync(`trackers/${GUARDED}/commands`, { qos: 1 });
  await dynamo().send(
    new UpdateCommand({ TableName: tableName('units'), Key: { imei: GUARDED }, UpdateExpression: 'SET doutLabels = :l', ExpressionAttributeValues: { ':l': { '1': 'Startspärr' } } }),
  );
  const user = await callerFor(demoUsers.user.username, DEMO_PASSWORD);
  const locked = await callAs(app.url, 'POST', `/api/v1/user/units/${LOCKED}/lock`, user);
  expect(locked.status).toBe(200);
});

afterAll(async () => {
  await tracker?.endAsync();
  await stopBrowserApp({ app, browser });
});

async function logInAsAdmin(page: Page): Promise<void> {
  await page.goto(`${app.url}/`);
  await page.getByRole('textbox', { name: en.UsernameOrEmail }).fill(demoUsers.admin.username);
  await page.getByRole('textbox', { name: en.Password, exact: true }).fill(DEMO_PASSWORD);
  await page.getByRole('button', { name: en.Login, exact: true }).click();
  await page.waitForURL(/\/user\/realtime-tracking$/);
}

describe('a unit locked by someone else', () => {
  it('shows on the map without its position, naming the locker', async () => {
    const { context, page, errors } = await openPage(browser);
    await logInAsAdmin(page);
    await page.getByRole('button', { name: /Service van 1/ }).first().click();
    const details = page.getByRole('tabpanel');
    await poll(() => details.getByText(text(unitLockEn.TrackerIsLocked, { lockedBy: LOCKER })).isVisible()).toBe(true);
    expect(await details.getByText(unitLockEn.TrackerIsLockedTitle, { exact: true }).isVisible()).toBe(true);
    // Nothing of where it is: no history to open.
    expect(await page.getByRole('tab', { name: mapEn.MapHistoryTab }).isDisabled()).toBe(true);
    await checkAndShoot(page, SHOTS, 'locked-details-en', { fullPage: false });

    // Its commands and its events are refused with the same words.
    await page.getByRole('tab', { name: mapEn.MapCommandsTab }).click();
    await poll(() => page.getByRole('tabpanel').getByText(text(unitLockEn.TrackerIsLocked, { lockedBy: LOCKER })).isVisible()).toBe(true);
    await page.getByRole('tab', { name: eventsEn.MapEvents }).click();
    await poll(() => page.getByRole('tabpanel').getByText(text(unitLockEn.TrackerIsLocked, { lockedBy: LOCKER })).isVisible()).toBe(true);
    await checkAndShoot(page, SHOTS, 'locked-events-en', { fullPage: false });
    await page.getByRole('button', { name: mapEn.MapBackToList }).click();
    expect(errors).toEqual([]);
    await context.close();
  }, 180_000);
});

describe('an immobiliser output', () => {
  const doutGroup = (page: Page, output: number) =>
    page.getByRole('group', { name: new RegExp(`^${translateKey('en', 'DoutName', { output })}\\b`) });
  const switchOn = (page: Page, output: number) => doutGroup(page, output).getByRole('button', { name: translateKey('en', 'DoutSwitchOnNamed', { output }) });

  // One page for both tests: the second goes on where the first left the unit's commands.
  let opened: Awaited<ReturnType<typeof openPage>> | undefined;
  afterAll(() => opened?.context.close());

  it('is switched only after a confirmation naming the unit and the output', async () => {
    opened = await openPage(browser);
    const { page, errors } = opened;
    await logInAsAdmin(page);
    await page.getByRole('button', { name: /Service van 2/ }).first().click();
    await page.getByRole('tab', { name: mapEn.MapCommandsTab }).click();
    await poll(() => page.getByRole('heading', { name: commandsEn.DoutHeading }).isVisible()).toBe(true);

    // Cancelled: nothing reaches the tracker, nor even the server.
    const commandPosts: string[] = [];
    page.on('request', (request) => {
      if (request.method() === 'POST' && /\/commands$/.test(new URL(request.url()).pathname)) commandPosts.push(request.url());
    });
    await switchOn(page, 1).click();
    const output = translateKey('en', 'DoutNameLabelled', { output: 1, label: 'Startspärr' });
    const dialog = page.getByRole('dialog', { name: text(unitLockEn.OutputConfirmTitle, { output, state: unitLockEn.OutputConfirmOn }) });
    await poll(() => dialog.isVisible()).toBe(true);
    expect(await dialog.getByText(text(unitLockEn.OutputConfirmBody, { output, unit: 'Service van 2' })).isVisible()).toBe(true);
    await checkAndShoot(page, SHOTS, 'output-confirm', { fullPage: false });
    // The close button carries the same name; the dialog's own Cancel has it as text.
    await dialog.getByRole('button', { name: unitLockEn.OutputConfirmCancel }).filter({ hasText: unitLockEn.OutputConfirmCancel }).click();
    await poll(() => dialog.isVisible()).toBe(false);
    expect(commandPosts).toEqual([]);
    expect(received).toHaveLength(0);

    // Confirmed: the command goes out.
    await switchOn(page, 1).click();
    await poll(() => dialog.isVisible()).toBe(true);
    await dialog.getByRole('button', { name: text(unitLockEn.OutputConfirmSend, { state: unitLockEn.OutputConfirmOn }) }).click();
    await poll(() => received.length).toBe(1);
    expect(commandPosts).toHaveLength(1);
    expect(received[0]).toMatchObject({ type: 'dout', params: { output: 1, on: true } });
    expect(errors).toEqual([]);
  }, 120_000);

  it('asks nothing for an output that is neither', async () => {
    if (!opened) throw new Error('the first test opened no page');
    const { page, errors } = opened;
    const before = received.length;
    // The first command is still waiting for its answer: answer it, so the outputs are free again.
    const first = received[0];
    if (first) await tracker.publishAsync(`trackers/${GUARDED}/ack`, JSON.stringify({ id: first.id, ok: true }), { qos: 1 });
    await poll(() => switchOn(page, 2).isEnabled()).toBe(true);
    await switchOn(page, 2).click();
    await poll(() => received.length).toBe(before + 1);
    expect(received[before]).toMatchObject({ type: 'dout', params: { output: 2, on: true } });
    expect(await page.getByRole('dialog').count()).toBe(0);
    expect(errors).toEqual([]);
  }, 120_000);
});

describe("the unit editor's access lock", () => {
  it('locks and unlocks a unit after a confirmation each, and logs both', async () => {
    const { context, page, errors } = await openPage(browser);
    await logInAt(page, app.url, `/user/edit-terminal?imei=${GUARDED}`, demoUsers.user.username);
    await page.getByRole('button', { name: unitLockEn.LockTitle, exact: true }).click();
    await poll(() => page.getByText(unitLockEn.LockStateUnlocked).isVisible()).toBe(true);

    // Lock: asked first; cancelling changes nothing.
    await page.getByRole('button', { name: unitLockEn.LockAction }).click();
    const lockDialog = page.getByRole('dialog', { name: unitLockEn.LockConfirmTitle });
    await poll(() => lockDialog.isVisible()).toBe(true);
    // The pointer is left where "Lock unit" was, which on a phone is over the dialog's button: its hover colour is no state to check.
    await page.mouse.move(0, 0);
    await checkAndShoot(page, SHOTS, 'editor-lock-confirm', { fullPage: false });
    await lockDialog.getByRole('button', { name: unitLockEn.LockCancel, exact: true }).last().click();
    await poll(() => lockDialog.isVisible()).toBe(false);
    expect(await page.getByText(unitLockEn.LockStateUnlocked).isVisible()).toBe(true);
    await page.getByRole('button', { name: unitLockEn.LockAction }).click();
    await lockDialog.getByRole('button', { name: unitLockEn.LockConfirm, exact: true }).click();
    await poll(() => page.getByRole('status').filter({ hasText: unitLockEn.LockDone }).isVisible()).toBe(true);
    await poll(() => page.getByText(/^Locked by you since /).isVisible()).toBe(true);
    await checkAndShoot(page, SHOTS, 'editor-locked');

    // Everybody else is refused now.
    const admin = await callerFor(demoUsers.admin.username, DEMO_PASSWORD);
    expect((await callAs(app.url, 'GET', `/api/v1/user/trackers/${GUARDED}/latest-position`, admin)).status).toBe(423);

    // Unlock by the locker: asked, done, and both changes in the log.
    await page.getByRole('button', { name: unitLockEn.UnlockAction }).click();
    await page.getByRole('dialog', { name: unitLockEn.UnlockConfirmTitle }).getByRole('button', { name: unitLockEn.UnlockConfirm, exact: true }).click();
    await poll(() => page.getByRole('status').filter({ hasText: unitLockEn.UnlockDone }).isVisible()).toBe(true);
    const log = page.getByRole('table', { name: unitLockEn.LockLogTitle });
    await poll(() => log.getByRole('row').count()).toBe(3);
    expect(await log.getByText(unitLockEn.LockLogLocked, { exact: true }).count()).toBe(1);
    expect(await log.getByText(unitLockEn.LockLogUnlocked, { exact: true }).count()).toBe(1);
    expect((await callAs(app.url, 'GET', `/api/v1/user/trackers/${GUARDED}/latest-position`, admin)).status).toBe(200);
    expect(errors).toEqual([]);
    await context.close();
  }, 120_000);
});
