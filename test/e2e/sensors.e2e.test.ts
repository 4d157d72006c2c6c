/**
 * BLE sensors in real Chromium against the embedded runtime, in the unit editor
 * (/user/edit-terminal?imei=...). demo-admin opens the Bluetooth sensors section of Service van 1
 * (0 of 4), is told what an empty add form lacks, adds a temperature sensor by its MAC (typed
 * without separators, masked as typed) with an upper limit; a tracker on the MQTT broker (answering
 * as the simulator does) acknowledges the pairing and the sensor shows as paired; a record with a
 * reading above the limit shows the reading, its time and the alarm. A MAC the tracker cannot hear
 * is refused by the tracker (CouldNotPair) and can be sent again; the limits are edited; a sensor is
 * unpaired after a confirmation (Swedish and Norwegian: languages.e2e.test.ts). Every screen is checked
 * with axe and photographed at 390 and 1280 px (with SCREENSHOTS=1) into test-results/sensors/.
 */
import { join } from 'node:path';
import mqtt from 'mqtt';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoImei } from '../../infra/local/seed';
import { answerCommand, commandTopic } from '../../infra/local/simulator/protocol';
import { SimulatedVehicle } from '../../infra/local/simulator/vehicle';
import { sensorsEn, type SensorsMessages } from '../../shared/i18n/features/sensors/en';
import { type App, logInAt, openPage, poll, shooter, SHOTS_DIR, startBrowserApp, stopBrowserApp } from '../support/browser';

let app: App;
let browser: Browser;
let tracker: mqtt.MqttClient;

const SHOTS = join(SHOTS_DIR, 'sensors');
const IMEI = demoImei(0);
/** The sensor in the van, in the tracker's range. */
const IN_RANGE = 'AC23F4100A01';
/** A sensor somewhere else: the tracker refuses to pair it. */
const FAR_AWAY = 'AC23F4100B02';

const text = (template: string, vars: Record<string, string | number>) => template.replace(/\{\{(\w+)\}\}/g, (_, name: string) => String(vars[name]));

beforeAll(async () => {
  ({ app, browser } = await startBrowserApp());
  tracker = await mqtt.connectAsync(app.mqttUrl, { clientId: IMEI, reconnectPeriod: 0 });
  const vehicle = new SimulatedVehicle({ index: 0, imei: IMEI, vehicleType: 'car', seed: 5, start: Date.now(), sensors: [{ mac: IN_RANGE, kind: 'reefer' }] });
  tracker.on('message', (_topic, payload) => {
    const answer = answerCommand('native', vehicle, payload);
    // Not awaited: the test may end the tracker as soon as the answer shows, which can be before
    // the answer's PUBACK reaches it; what the answer did is asserted on the server.
    if (answer) tracker.publish(answer.topic, answer.payload, { qos: 1 }, () => undefined);
  });
  await tracker.subscribeAsync(commandTopic('native', IMEI), { qos: 1 });
});

afterAll(async () => {
  await tracker?.endAsync();
  await stopBrowserApp({ app, browser });
});

/** Logs in on the way to the unit editor and opens its sensors section (an accordion item of the editor, closed at first). */
async function openSensors(page: Page, texts: SensorsMessages = sensorsEn): Promise<void> {
  await logInAt(page, app.url, `/user/edit-terminal?imei=${IMEI}`);
  const control = page.getByRole('button', { name: texts.SensorsTitle, exact: true });
  await poll(() => control.isVisible()).toBe(true);
  if ((await control.getAttribute('aria-expanded')) !== 'true') await control.click();
  await poll(() => section(page, texts).isVisible()).toBe(true);
}

/** The section, under its heading. */
const section = (page: Page, texts: SensorsMessages = sensorsEn) => page.getByTestId('unit-sensors').filter({ has: page.getByRole('heading', { name: texts.SensorsTitle, level: 3 }) });
const card = (page: Page, name: string) => page.getByRole('listitem', { name });

/** A modal covers the viewport only: its picture is the viewport. */
const shot = shooter(SHOTS);

async function publishReading(temp: number): Promise<void> {
  await tracker.publishAsync(`trackers/${IMEI}/telemetry`, JSON.stringify({ ts: Date.now() - 1000, lat: 59.33, lon: 18.06, sat: 9, ble: [{ mac: IN_RANGE, temp, hum: 55, bat: 2.95 }] }), { qos: 1 });
}

describe('BLE sensors in the unit editor', () => {
  it('adds a sensor, sees it paired and reading with its alarm, handles a refusal, edits and unpairs it', async () => {
    const { context, page, errors } = await openPage(browser);
    await openSensors(page);
    await poll(() => section(page).getByText(text(sensorsEn.SensorsCount, { count: 0, max: 4 })).isVisible()).toBe(true);
    expect(await section(page).getByText(sensorsEn.SensorsNone).isVisible()).toBe(true);
    await shot(page, 'sensors-empty');

    // An empty form: what is missing is said beside each field.
    await section(page).getByRole('button', { name: sensorsEn.SensorAdd }).click();
    const dialog = page.getByRole('dialog', { name: sensorsEn.SensorAddTitle });
    await poll(() => dialog.isVisible()).toBe(true);
    await dialog.getByRole('button', { name: sensorsEn.SensorSave }).click();
    await poll(() => dialog.getByText(sensorsEn.MacInvalid).isVisible()).toBe(true);
    expect(await dialog.getByText(sensorsEn.SensorNameRequired).isVisible()).toBe(true);
    await shot(page, 'sensor-add-errors', { fullPage: false });

    // The MAC typed as printed on the sensor, lower case and without separators: masked as typed.
    const macBox = dialog.getByRole('textbox', { name: sensorsEn.SensorMac });
    await macBox.pressSequentially(IN_RANGE.toLowerCase());
    expect(await macBox.inputValue()).toBe('AC:23:F4:10:0A:01');
    await dialog.getByRole('textbox', { name: sensorsEn.SensorName }).fill('Cold room');
    await dialog.getByRole('textbox', { name: sensorsEn.SensorTempMax }).fill('70');
    await dialog.getByRole('button', { name: sensorsEn.SensorSave }).click();
    await poll(() => dialog.getByText(sensorsEn.TemperatureOutOfRange).isVisible()).toBe(true);
    await dialog.getByRole('textbox', { name: sensorsEn.SensorTempMax }).fill('8');
    await dialog.getByRole('button', { name: sensorsEn.SensorSave }).click();
    await poll(() => dialog.isVisible()).toBe(false);

    // The tracker acknowledges: paired.
    const coldRoom = card(page, 'Cold room');
    await poll(() => coldRoom.getByText(sensorsEn.SensorStatusPaired, { exact: true }).isVisible()).toBe(true);
    expect(await section(page).getByText(text(sensorsEn.SensorsCount, { count: 1, max: 4 })).isVisible()).toBe(true);

    // A reading above the limit: the value, its time and the alarm (the live channel refreshes the section).
    await publishReading(9.5);
    await poll(() => coldRoom.getByText(/9\.5 °C/).isVisible()).toBe(true);
    await poll(() => coldRoom.getByText(sensorsEn.SensorAlarmTempHigh).isVisible()).toBe(true);
    expect(await coldRoom.getByText(/Last reading/).isVisible()).toBe(true);
    await shot(page, 'sensors-paired');

    // A sensor the tracker cannot hear: refused, and offered again.
    await section(page).getByRole('button', { name: sensorsEn.SensorAdd }).click();
    await dialog.getByRole('textbox', { name: sensorsEn.SensorMac }).fill(FAR_AWAY);
    await dialog.getByRole('textbox', { name: sensorsEn.SensorName }).fill('Trailer door');
    await dialog.getByRole('combobox', { name: sensorsEn.SensorKind }).selectOption('door');
    await dialog.getByRole('checkbox', { name: sensorsEn.SensorDoorAlarm }).check();
    await dialog.getByRole('button', { name: sensorsEn.SensorSave }).click();
    await poll(() => dialog.isVisible()).toBe(false);
    const door = card(page, 'Trailer door');
    await poll(() => door.getByText(sensorsEn.CouldNotPair).isVisible()).toBe(true);
    expect(await door.getByRole('button', { name: sensorsEn.SensorPairAgain }).isVisible()).toBe(true);
    await shot(page, 'sensors-refused');

    // The same MAC once more: refused by the server, said at the field.
    await section(page).getByRole('button', { name: sensorsEn.SensorAdd }).click();
    await dialog.getByRole('textbox', { name: sensorsEn.SensorMac }).fill(IN_RANGE);
    await dialog.getByRole('textbox', { name: sensorsEn.SensorName }).fill('Again');
    await dialog.getByRole('button', { name: sensorsEn.SensorSave }).click();
    await poll(() => dialog.getByText(sensorsEn.SensorAlreadyPaired).isVisible()).toBe(true);
    await dialog.getByRole('button', { name: sensorsEn.SensorCancel }).click();

    // Edit the limits.
    await coldRoom.getByRole('button', { name: sensorsEn.SensorEdit }).click();
    const edit = page.getByRole('dialog', { name: text(sensorsEn.SensorEditTitle, { name: 'Cold room' }) });
    await poll(() => edit.getByRole('textbox', { name: sensorsEn.SensorTempMax }).inputValue()).toBe('8');
    await edit.getByRole('textbox', { name: sensorsEn.SensorTempMin }).fill('2');
    await edit.getByRole('textbox', { name: sensorsEn.SensorTempMax }).fill('12');
    await shot(page, 'sensor-edit', { fullPage: false });
    await edit.getByRole('button', { name: sensorsEn.SensorSave }).click();
    await poll(() => edit.isVisible()).toBe(false);
    // Saved: opened again, the dialog reads the new limits back.
    await coldRoom.getByRole('button', { name: sensorsEn.SensorEdit }).click();
    await poll(() => edit.getByRole('textbox', { name: sensorsEn.SensorTempMax }).inputValue()).toBe('12');
    expect(await edit.getByRole('textbox', { name: sensorsEn.SensorTempMin }).inputValue()).toBe('2');
    await edit.getByRole('button', { name: sensorsEn.SensorCancel }).click();
    await poll(() => edit.isVisible()).toBe(false);

    // Unpair after a confirmation.
    await door.getByRole('button', { name: sensorsEn.SensorUnpair }).click();
    const confirm = page.getByRole('dialog', { name: text(sensorsEn.SensorUnpairTitle, { name: 'Trailer door' }) });
    await poll(() => confirm.isVisible()).toBe(true);
    await shot(page, 'sensor-unpair', { fullPage: false });
    await confirm.getByRole('button', { name: sensorsEn.SensorUnpairConfirm }).click();
    await poll(() => door.count()).toBe(0);
    expect(await section(page).getByText(text(sensorsEn.SensorsCount, { count: 1, max: 4 })).isVisible()).toBe(true);
    expect(errors).toEqual([]);
    await context.close();
  }, 180_000);
});
