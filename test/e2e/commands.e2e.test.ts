/**
 * Device commands in real Chromium against the embedded runtime: demo-user selects a unit on the map
 * and sends DOUT and operating-mode commands; this test plays the tracker over MQTT (it receives the
 * commands on trackers/{imei}/commands and answers on trackers/{imei}/ack when the test says so).
 * Shown: browser validation, pending then acknowledged, the DOUT lock while an answer is awaited,
 * a failed answer, the browser's own 120-second rule (a fast-forwarded page clock) and the server's
 * 409 DoutAwaitingAnswer it then meets, the aria-live announcements; axe and screenshots at 390 and
 * 1280 px into test-results/ (gitignored).
 */
import { join } from 'node:path';
import mqtt, { type MqttClient } from 'mqtt';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoImei } from '../../infra/local/seed';
import { commandsEn } from '../../shared/i18n/features/commands/en';
import { mapEn } from '../../shared/i18n/features/map/en';
import { translateKey } from '../../shared/i18n/index';
import { DESKTOP, PHONE, SHOTS_DIR, axeViolations, logInThroughForm, openPage, poll, startBrowserApp, stopBrowserApp, type App, photograph, settle } from '../support/browser';

let app: App;
let browser: Browser;
let tracker: MqttClient;

/** Service van 1, granted to demo-user. */
const IMEI = demoImei(0);
const UNIT_NAME = 'Service van 1';

interface Received {
  id: string;
  type: string;
  params: Record<string, unknown>;
}
const received: Received[] = [];

const text = (key: keyof typeof commandsEn, vars: Record<string, string | number> = {}) => translateKey('en', key, vars);
/** Several axe runs and round trips through the runtime per test. */
const TEST_TIMEOUT_MS = 180_000;
const pendingPrefix = commandsEn.CommandPending.slice(0, commandsEn.CommandPending.indexOf('{{'));

beforeAll(async () => {
  ({ app, browser } = await startBrowserApp());
  tracker = await mqtt.connectAsync(app.mqttUrl, { clientId: IMEI, reconnectPeriod: 0, connectTimeout: 5_000 });
  tracker.on('message', (_topic, payload) => received.push(JSON.parse(payload.toString('utf8')) as Received));
  await tracker.subscribeAsync(`trackers/${IMEI}/commands`, { qos: 1 });
  // A position with the outputs off, so the unit has a state to show.
  await tracker.publishAsync(
    `trackers/${IMEI}/telemetry`,
    JSON.stringify({ ts: Date.now() - 5_000, lat: 59.3326, lon: 18.0649, spd: 0, ign: false, dout: { '1': false, '2': false, '3': false } }),
    { qos: 1 },
  );
});

afterAll(async () => {
  await tracker?.endAsync();
  await stopBrowserApp({ app, browser });
});

async function answer(command: Received, ok: boolean, error?: string): Promise<void> {
  await tracker.publishAsync(`trackers/${IMEI}/ack`, JSON.stringify({ id: command.id, ok, ...(error ? { error } : {}) }), { qos: 1 });
}

async function nextCommand(count: number): Promise<Received> {
  await poll(() => received.length).toBe(count);
  return received[count - 1] as Received;
}

async function openCommands(page: Page): Promise<void> {
  await logInThroughForm(page, app.url);
  await page.getByRole('button', { name: new RegExp(UNIT_NAME) }).first().click();
  await page.getByRole('tab', { name: mapEn.MapCommandsTab }).click();
  await poll(() => page.getByRole('heading', { name: commandsEn.DoutHeading }).isVisible()).toBe(true);
}

/** The fieldset of one output, named by its legend ("Output DOUT1: Heater"). */
const dout = (page: Page, output: number) => page.getByRole('group', { name: new RegExp(`^${text('DoutName', { output })}\\b`) });
const switchButton = (page: Page, output: number, on: boolean) =>
  dout(page, output).getByRole('button', { name: text(on ? 'DoutSwitchOnNamed' : 'DoutSwitchOffNamed', { output }) });
const announcement = (page: Page) => page.getByRole('tabpanel').getByRole('status');
const shownText = (locator: Locator, value: string) => locator.getByText(value, { exact: false }).first().isVisible();

/** Screenshots at both widths; axe too, where the screen shows something the others did not. */
async function checkScreen(page: Page, name: string, focus: Locator, axe = true): Promise<void> {
  for (const size of [PHONE, DESKTOP]) {
    await page.setViewportSize(size);
    await settle(page);
    await focus.scrollIntoViewIfNeeded();
    if (axe) expect(await axeViolations(page), `${name} at ${size.width} px`).toEqual([]);
    await photograph(page, join(SHOTS_DIR, `commands-${name}-${size.width}.png`));
  }
  await page.setViewportSize(DESKTOP);
}

describe('device commands on the map', () => {
  it('switches DOUT1 on for 60 s with a label: pending with the outputs locked, then acknowledged', async () => {
    const { context, page, errors } = await openPage(browser);
    await openCommands(page);
    const out1 = dout(page, 1);
    await poll(() => shownText(out1, commandsEn.DoutCurrentlyOff)).toBe(true);
    await poll(() => shownText(page.getByRole('tabpanel'), commandsEn.CommandsNone)).toBe(true);

    // The browser checks the duration with the shared rule; nothing reaches the tracker.
    const duration = out1.getByRole('textbox', { name: commandsEn.DoutDuration });
    await duration.fill('70000');
    await switchButton(page, 1, true).click();
    await poll(() => shownText(out1, commandsEn.DoutDurationInvalid)).toBe(true);
    expect(await duration.getAttribute('aria-invalid')).toBe('true');
    expect(received).toHaveLength(0);
    await checkScreen(page, 'dout-invalid', out1);

    await duration.fill('60');
    const label = out1.getByRole('textbox', { name: commandsEn.DoutLabel });
    await label.fill('Heater');
    expect(await shownText(out1, text('DoutLabelCharactersLeft', { count: 14 }))).toBe(true);
    await switchButton(page, 1, true).click();

    const sent = await nextCommand(1);
    expect(sent).toMatchObject({ type: 'dout', params: { output: 1, on: true, durationSeconds: 60 } });
    await poll(() => shownText(out1, pendingPrefix)).toBe(true);
    expect(await shownText(out1, text('CommandDoutOnFor', { output: 1, seconds: 60 }))).toBe(true);
    // The label was saved with the command and names the output now.
    await poll(() => shownText(out1, text('DoutNameLabelled', { output: 1, label: 'Heater' }))).toBe(true);
    await poll(() => announcement(page).textContent()).toBe(
      text('CommandAnnouncement', { command: text('CommandDoutOnFor', { output: 1, seconds: 60 }), status: commandsEn.CommandPendingAnnouncement }),
    );

    // While it awaits the answer every output is locked, and the reason is shown.
    for (const output of [1, 2, 3]) {
      expect(await switchButton(page, output, true).isDisabled()).toBe(true);
      expect(await switchButton(page, output, false).isDisabled()).toBe(true);
    }
    const lockPrefix = commandsEn.DoutLocked.slice(0, commandsEn.DoutLocked.indexOf('{{'));
    expect(await shownText(page.getByRole('tabpanel'), lockPrefix)).toBe(true);
    expect(await switchButton(page, 2, true).getAttribute('aria-describedby')).toBeTruthy();
    await checkScreen(page, 'dout-pending', out1);

    await answer(sent, true);
    await poll(() => shownText(out1, commandsEn.CommandAcknowledged)).toBe(true);
    expect(await switchButton(page, 2, true).isDisabled()).toBe(false);
    expect(await shownText(page.getByRole('tabpanel'), lockPrefix)).toBe(false);
    await poll(() => announcement(page).textContent()).toBe(
      text('CommandAnnouncement', { command: text('CommandDoutOnFor', { output: 1, seconds: 60 }), status: commandsEn.CommandAcknowledged }),
    );
    await checkScreen(page, 'dout-acknowledged', out1, false);

    expect(errors).toEqual([]);
    await context.close();
  }, TEST_TIMEOUT_MS);

  it('changes the operating mode, and shows a failed change', async () => {
    const { context, page, errors } = await openPage(browser);
    await openCommands(page);
    const before = received.length;
    const modes = page.getByRole('radiogroup', { name: commandsEn.OperatingModeChoose });
    expect(await shownText(page.getByRole('tabpanel'), commandsEn.OperatingModeCurrentUnknown)).toBe(true);
    expect(await shownText(modes, commandsEn.OperatingModeFixed1hDescription)).toBe(true);
    expect(await shownText(page.getByRole('tabpanel'), commandsEn.OperatingModeNextContact)).toBe(true);

    // Nothing chosen: the shared schema's message, and nothing sent.
    const send = page.getByRole('button', { name: commandsEn.OperatingModeSend });
    await send.click();
    await poll(() => shownText(page.getByRole('tabpanel'), commandsEn.InvalidOperatingMode)).toBe(true);
    expect(received).toHaveLength(before);

    await modes.getByRole('radio', { name: commandsEn.OperatingModeTheft }).check();
    await send.click();
    const theft = await nextCommand(before + 1);
    expect(theft).toMatchObject({ type: 'operatingMode', params: { mode: 'theft' } });
    const summary = text('CommandModeSummary', { mode: commandsEn.OperatingModeTheft });
    await poll(() => shownText(page.getByRole('tabpanel'), summary)).toBe(true);
    await checkScreen(page, 'mode-pending', send, false);

    await answer(theft, true);
    await poll(() => shownText(page.getByRole('tabpanel'), text('OperatingModeCurrent', { mode: commandsEn.OperatingModeTheft }))).toBe(true);
    await poll(() => announcement(page).textContent()).toBe(text('CommandAnnouncement', { command: summary, status: commandsEn.CommandAcknowledged }));

    await modes.getByRole('radio', { name: commandsEn.OperatingModeMovement }).check();
    await send.click();
    const movement = await nextCommand(before + 2);
    expect(movement).toMatchObject({ type: 'operatingMode', params: { mode: 'movement' } });
    await answer(movement, false, 'unsupported');
    await poll(() => shownText(page.getByRole('tabpanel'), commandsEn.ModeChangeFailed)).toBe(true);
    // The mode the tracker last acknowledged stays the current one.
    expect(await shownText(page.getByRole('tabpanel'), text('OperatingModeCurrent', { mode: commandsEn.OperatingModeTheft }))).toBe(true);
    await checkScreen(page, 'mode-failed', send);

    expect(errors).toEqual([]);
    await context.close();
  }, TEST_TIMEOUT_MS);

  it('shows the poor-coverage message at 120 s by its own clock, and the server refusing DOUT until its own 120 s', async () => {
    const { context, page, errors } = await openPage(browser);
    await page.clock.install();
    await openCommands(page);
    const before = received.length;
    const out2 = dout(page, 2);
    await switchButton(page, 2, false).click();
    await nextCommand(before + 1);
    await poll(() => shownText(out2, pendingPrefix)).toBe(true);
    expect(await switchButton(page, 3, true).isDisabled()).toBe(true);

    // The server's time-out job has not run (its clock is real): the browser applies the rule itself.
    await page.clock.fastForward(121_000);
    await poll(() => shownText(out2, commandsEn.NoDeviceResponse)).toBe(true);
    expect(await switchButton(page, 3, true).isDisabled()).toBe(false);
    await poll(() => announcement(page).textContent()).toBe(
      text('CommandAnnouncement', { command: text('CommandDoutOff', { output: 2 }), status: commandsEn.NoDeviceResponse }),
    );

    // The server still counts the real seconds and answers 409, shown translated.
    await switchButton(page, 3, true).click();
    await poll(() => shownText(dout(page, 3), commandsEn.DoutAwaitingAnswer)).toBe(true);
    expect(received).toHaveLength(before + 1);
    await checkScreen(page, 'dout-unanswered-409', dout(page, 3));

    expect(errors).toEqual([]);
    await context.close();
  }, TEST_TIMEOUT_MS);
});
