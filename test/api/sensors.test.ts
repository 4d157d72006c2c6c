/**
 * BLE sensors end to end on the embedded runtime: every validation key, the MAC's uniqueness across
 * accounts and the 4-sensor limit under concurrent adds (DynamoDB Local's transactions decide),
 * pairing acknowledged by a tracker on the MQTT broker answering as the simulator does (and a
 * refusal), readings from telemetry published over MQTT (native `ble` and Teltonika BLE IO
 * elements), a threshold alarm raised once (hysteresis, redelivery), unpairing that frees the MAC
 * and sends the command, and another account's or a not-granted user's token answered 404.
 */
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import mqtt from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventList } from '../../shared/schemas/events';
import type { Sensor, SensorList } from '../../shared/schemas/sensors';
import { dynamo, tableName } from '../../functions/platform/db';
import type { UnitRecord } from '../../functions/domain/unit/schema';
import type { EmbeddedRuntime } from '../../infra/local/runtime';
import { demoImei } from '../../infra/local/seed';
import { answerCommand, commandTopic } from '../../infra/local/simulator/protocol';
import { SimulatedVehicle } from '../../infra/local/simulator/vehicle';
import { callAs, demoCallers, type Caller, type Reply } from '../support/api-caller';
import { startRuntime } from '../support/runtime';
import { unitWithCopies } from '../support/unit-state';
import { eventually } from '../support/eventually';

let rt: EmbeddedRuntime;
let admin: Caller;
let user: Caller;
let other: Caller;
let spare = 0;

/** 12 hex digits with 4 and 1 as the 6th and 7th. */
const mac = (n: number) => `AC23F41${n.toString(16).toUpperCase().padStart(5, '0')}`;
let macs = 0;
const freshMac = () => mac(0x10000 + macs++);

const call = <T>(method: string, path: string, who: Caller | null, body?: unknown) => callAs<T>(rt.url, method, path, who, body);
const base = (imei: string) => `/api/v1/user/units/${imei}/sensors`;
const add = (imei: string, body: unknown, who: Caller = admin) => call<SensorList>('POST', base(imei), who, body);
const list = async (imei: string, who: Caller = admin) => {
  const r = await call<SensorList>('GET', base(imei), who);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.data!.sensors;
};
const errorsOf = async (reply: Promise<Reply<unknown>>) => {
  const r = await reply;
  expect(r.status, JSON.stringify(r.body)).toBe(422);
  return r.body.errors;
};

async function newUnit(accountId: string, protocol: UnitRecord['protocol'] = 'native'): Promise<string> {
  const imei = demoImei(800 + spare++);
  const unit: UnitRecord = { imei, accountId, name: `Sensor unit ${imei}`, vehicleType: 'lorry', protocol, createdAt: new Date(Date.now() - 86_400_000).toISOString() };
  await dynamo().send(new PutCommand({ TableName: tableName('units'), Item: unit }));
  return imei;
}

interface Tracker {
  received: Array<{ type?: string; params?: { mac?: string } }>;
  client: mqtt.MqttClient;
}

/** A native tracker on the broker with BLE sensors in range, answering commands as the simulated fleet does. */
async function connectTracker(imei: string, inRange: string[]): Promise<Tracker> {
  const client = await mqtt.connectAsync(rt.mqttUrl, { clientId: imei, reconnectPeriod: 0, connectTimeout: 5000 });
  const vehicle = new SimulatedVehicle({ index: 0, imei, vehicleType: 'car', seed: 3, start: Date.now(), sensors: inRange.map((m) => ({ mac: m, kind: 'reefer' as const })) });
  const tracker: Tracker = { received: [], client };
  client.on('message', (_topic, payload) => {
    tracker.received.push(JSON.parse(payload.toString()) as Tracker['received'][number]);
    const answer = answerCommand('native', vehicle, payload);
    // Not awaited: the test may end the tracker as soon as the answer shows, which can be before
    // the answer's PUBACK reaches it; what the answer did is asserted on the server.
    if (answer) client.publish(answer.topic, answer.payload, { qos: 1 }, () => undefined);
  });
  await client.subscribeAsync(commandTopic('native', imei), { qos: 1 });
  return tracker;
}

beforeAll(async () => {
  rt = await startRuntime();
  ({ admin, user, other } = await demoCallers());
});

afterAll(async () => {
  await rt?.stop();
});

describe('adding a sensor: validation', () => {
  it('answers each rule with its key per field', async () => {
    const imei = await newUnit(admin.accountId);
    const ok = { mac: freshMac(), name: 'Probe', kind: 'temperature' };
    expect(await errorsOf(add(imei, { ...ok, mac: 'AC23F4' }))).toEqual({ mac: ['MacInvalid'] });
    expect(await errorsOf(add(imei, { ...ok, mac: 'AC23F31ABCDE' }))).toEqual({ mac: ['MacInvalid'] }); // 6th and 7th not 4 and 1
    expect(await errorsOf(add(imei, { ...ok, mac: 'AC23F41ABCDG' }))).toEqual({ mac: ['MacInvalid'] }); // not hex
    expect(await errorsOf(add(imei, { ...ok, mac: 12 }))).toEqual({ mac: ['MacInvalid'] });
    expect(await errorsOf(add(imei, { ...ok, name: '  ' }))).toEqual({ name: ['SensorNameRequired'] });
    expect(await errorsOf(add(imei, { ...ok, name: 'x'.repeat(31) }))).toEqual({ name: ['SensorNameTooLong'] });
    expect(await errorsOf(add(imei, { ...ok, kind: 'smoke' }))).toEqual({ kind: ['InvalidSensorKind'] });
    expect(await errorsOf(add(imei, { ...ok, thresholds: { tempMin: -21 } }))).toEqual({ 'thresholds.tempMin': ['TemperatureOutOfRange'] });
    expect(await errorsOf(add(imei, { ...ok, thresholds: { tempMax: 60.5 } }))).toEqual({ 'thresholds.tempMax': ['TemperatureOutOfRange'] });
    expect(await errorsOf(add(imei, { ...ok, thresholds: { humMin: -1, humMax: 101 } }))).toEqual({
      'thresholds.humMin': ['HumidityOutOfRange'],
      'thresholds.humMax': ['HumidityOutOfRange'],
    });
    expect(await errorsOf(add(imei, { ...ok, thresholds: { tempMin: 8, tempMax: 8 } }))).toEqual({ 'thresholds.tempMax': ['ThresholdMinAboveMax'] });
    expect(await errorsOf(add(imei, { ...ok, thresholds: { humMin: 80, humMax: 20 } }))).toEqual({ 'thresholds.humMax': ['ThresholdMinAboveMax'] });
    expect(await list(imei)).toEqual([]);

    // Separators and lower case are accepted and stored as 12 upper-case digits; the limits themselves are valid.
    const created = await add(imei, { ...ok, mac: 'ac:23:f4:1a:bc:de', thresholds: { tempMin: -20, tempMax: 60, humMin: 0, humMax: 100 } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.data!.sensors.map((s) => s.mac)).toEqual(['AC23F41ABCDE']);
    expect(await errorsOf(add(imei, { ...ok, mac: 'AC23F41ABCDE' }))).toEqual({ mac: ['SensorAlreadyPaired'] });
  });
});

describe('concurrency', () => {
  it('lets exactly one of two accounts adding the same MAC at once have it', async () => {
    const mine = await newUnit(admin.accountId);
    const theirs = await newUnit(other.accountId);
    const contested = freshMac();
    const replies = await Promise.all([
      add(mine, { mac: contested, name: 'Mine', kind: 'door' }),
      add(theirs, { mac: contested, name: 'Theirs', kind: 'door' }, other),
    ]);
    expect(replies.map((r) => r.status).sort()).toEqual([201, 422]);
    const loser = replies.find((r) => r.status === 422)!;
    expect(loser.body.errors).toEqual({ mac: ['MacInUse'] });
    const held = [...(await list(mine)), ...(await list(theirs, other))];
    expect(held.map((s) => s.mac)).toEqual([contested]);
  });

  it('lets six simultaneous adds to one unit take exactly its four slots', async () => {
    const imei = await newUnit(admin.accountId);
    const replies = await Promise.all(Array.from({ length: 6 }, (_, i) => add(imei, { mac: freshMac(), name: `Probe ${i}`, kind: 'temperature' })));
    expect(replies.filter((r) => r.status === 201)).toHaveLength(4);
    const refused = replies.filter((r) => r.status !== 201);
    expect(refused.map((r) => [r.status, r.body.errors])).toEqual([
      [422, { sensors: ['AllSensorSlotsTaken'] }],
      [422, { sensors: ['AllSensorSlotsTaken'] }],
    ]);
    const sensors = await list(imei);
    expect(sensors).toHaveLength(4);
    // The copies ingest reads agree with the sensors, one for one.
    const copies = (await unitWithCopies(imei))?.sensors ?? {};
    expect(Object.keys(copies).sort()).toEqual(sensors.map((s) => s.id).sort());
    expect(await errorsOf(add(imei, { mac: freshMac(), name: 'Fifth', kind: 'tag' }))).toEqual({ sensors: ['AllSensorSlotsTaken'] });
  });
});

describe('pairing over MQTT', () => {
  it('is pending until the tracker acknowledges, then paired; a refusal stays pending with CouldNotPair and can be sent again', async () => {
    const imei = await newUnit(admin.accountId);
    const inRange = freshMac();
    const tracker = await connectTracker(imei, [inRange]);
    try {
      const created = await add(imei, { mac: inRange, name: 'Reefer', kind: 'temperature' });
      expect(created.status).toBe(201);
      const [sent] = created.body.data!.sensors;
      // The answer may already be in; either way the sensor ends paired, by the tracker's acknowledgement.
      expect(['pending', 'paired']).toContain(sent!.status);
      const paired = await eventually(() => list(imei), (s) => s[0]?.status === 'paired', 'the pairing acknowledged');
      expect(paired[0]).toMatchObject({ status: 'paired', command: null, error: null });
      expect(tracker.received).toContainEqual(expect.objectContaining({ type: 'pairSensor', params: { mac: inRange } }));

      // A MAC the tracker cannot hear: it answers { ok: false }.
      const absent = freshMac();
      expect((await add(imei, { mac: absent, name: 'Far away', kind: 'humidity' })).status).toBe(201);
      const refused = await eventually(() => list(imei), (s) => s[1]?.error === 'CouldNotPair', 'the refusal');
      expect(refused[1]).toMatchObject({ mac: absent, status: 'pending', command: { status: 'failed' } });
      // The paired one stays paired.
      expect(refused[0]!.status).toBe('paired');

      const again = await call<SensorList>('POST', `${base(imei)}/${refused[1]!.id}/pair`, admin);
      expect(again.status).toBe(200);
      expect(tracker.received.filter((c) => c.type === 'pairSensor' && c.params?.mac === absent)).toHaveLength(2);
      const pairedAgain = await call<SensorList>('POST', `${base(imei)}/${refused[0]!.id}/pair`, admin);
      expect(pairedAgain.status).toBe(409);
      expect(pairedAgain.body.message).toBe('SensorPairedAlready');
    } finally {
      await tracker.client.endAsync();
    }
  });

  it('unpairs: the sensor goes and its MAC is free at once, and the tracker is told', async () => {
    const imei = await newUnit(admin.accountId);
    const theirs = await newUnit(other.accountId);
    const m = freshMac();
    const tracker = await connectTracker(imei, [m]);
    try {
      const created = await add(imei, { mac: m, name: 'Door', kind: 'door' });
      const id = created.body.data!.sensors[0]!.id;
      const removed = await call<SensorList>('DELETE', `${base(imei)}/${id}`, admin);
      expect(removed.status).toBe(200);
      expect(removed.body.data!.sensors).toEqual([]);
      expect(await unitWithCopies(imei).then((u) => u?.sensors)).toEqual({});
      await eventually(async () => tracker.received, (r) => r.some((c) => c.type === 'unpairSensor' && c.params?.mac === m), 'the unpair command');
      expect((await add(theirs, { mac: m, name: 'Now theirs', kind: 'door' }, other)).status).toBe(201);
      expect((await call('DELETE', `${base(imei)}/${id}`, admin)).status).toBe(404);
    } finally {
      await tracker.client.endAsync();
    }
  });

  it("pairs a Teltonika tracker's sensor at once (configured in the device) and reads its BLE IO elements by slot", async () => {
    const imei = await newUnit(admin.accountId, 'teltonika');
    await add(imei, { mac: freshMac(), name: 'Slot one', kind: 'temperature' });
    await add(imei, { mac: freshMac(), name: 'Slot two', kind: 'humidity' });
    const sensors = await list(imei);
    expect(sensors.map((s) => [s.name, s.status])).toEqual([
      ['Slot one', 'paired'],
      ['Slot two', 'paired'],
    ]);
    const client = await mqtt.connectAsync(rt.mqttUrl, { clientId: imei, reconnectPeriod: 0 });
    const ts = Date.now() - 60_000;
    // IO 25/26: temperature in 0.01 C; 86/104: humidity %; 29/20: battery %. 3000 is the firmware's "sensor not found".
    const reported = { ts, latlng: '59.33,18.06', sat: '9', sp: '0', ang: '0', alt: '20', '25': -1850, '86': 40, '29': 90, '26': 3000, '104': 55, '20': 12 };
    await client.publishAsync(`${imei}/data`, JSON.stringify({ state: { reported } }), { qos: 1 });
    await client.endAsync();
    const read = await eventually(() => list(imei), (s) => s.every((x) => x.lastReading !== null), 'the readings');
    expect(read[0]!.lastReading).toEqual({ time: new Date(ts).toISOString(), temp: -18.5, hum: 40, door: null, bat: null, batPct: 90 });
    expect(read[1]!.lastReading).toEqual({ time: new Date(ts).toISOString(), temp: null, hum: 55, door: null, bat: null, batPct: 12 });
  });
});

describe('readings and threshold alarms from native telemetry', () => {
  it('shows the last reading with its time and raises one sensorAlarm per episode (hysteresis, redelivery)', async () => {
    const imei = await newUnit(admin.accountId);
    const probe = freshMac();
    const door = freshMac();
    await add(imei, { mac: probe, name: 'Cold room', kind: 'temperature', thresholds: { tempMax: 8 } });
    await add(imei, { mac: door, name: 'Rear door', kind: 'door', thresholds: { doorOpen: true } });
    // A MAC the unit does not have is ignored.
    const stranger = freshMac();

    const client = await mqtt.connectAsync(rt.mqttUrl, { clientId: imei, reconnectPeriod: 0 });
    const t0 = Date.now() - 10 * 60_000;
    const send = (i: number, temp: number, doorOpen: boolean) =>
      client.publishAsync(
        `trackers/${imei}/telemetry`,
        JSON.stringify({ ts: t0 + i * 30_000, lat: 59.33, lon: 18.06, sat: 9, ble: [{ mac: probe, temp, hum: 60, bat: 2.9 }, { mac: door, door: doorOpen, bat: 3 }, { mac: stranger, temp: 99 }] }),
        { qos: 1 },
      );
    await send(0, 5, false);
    await send(1, 9.2, false); // above 8: alarm
    await send(1, 9.2, false); // redelivered: nothing
    await send(2, 8.2, true); // within the 0.5 C margin: still the same episode; the door opens: alarm
    await send(3, 7.4, true); // cleared; the door still open: no new alarm
    await send(4, 8.6, false); // a new episode: alarm
    await client.endAsync();

    const sensors = await eventually(() => list(imei), (s) => s[0]?.lastReading?.time === new Date(t0 + 4 * 30_000).toISOString(), 'the last reading');
    expect(sensors[0]).toMatchObject({ name: 'Cold room', lastReading: { temp: 8.6, hum: 60, bat: 2.9, door: null }, alarms: ['tempHigh'] });
    expect(sensors[1]).toMatchObject({ name: 'Rear door', lastReading: { door: false, bat: 3, temp: null }, alarms: [] });

    const query = `imei=${imei}&from=${encodeURIComponent(new Date(t0 - 60_000).toISOString())}&to=${encodeURIComponent(new Date().toISOString())}`;
    const events = await eventually(
      async () => (await call<EventList>('GET', `/api/v1/user/events?${query}`, admin)).body.data?.events ?? [],
      (e) => e.filter((x) => x.type === 'sensorAlarm').length >= 3,
      'the sensor alarms',
    );
    // Once everything sent is handled, nothing further arrived (redelivery and the margin raise nothing).
    await rt.settled();
    const alarms = ((await call<EventList>('GET', `/api/v1/user/events?${query}`, admin)).body.data?.events ?? []).filter((e) => e.type === 'sensorAlarm');
    expect(events.length).toBeGreaterThanOrEqual(alarms.length);
    expect(alarms.map((e) => [new Date(e.time).toISOString(), e.details['sensor'], e.details['alarm']]).sort()).toEqual(
      [
        [new Date(t0 + 30_000).toISOString(), 'Cold room', 'tempHigh'],
        [new Date(t0 + 60_000).toISOString(), 'Rear door', 'doorOpen'],
        [new Date(t0 + 120_000).toISOString(), 'Cold room', 'tempHigh'],
      ].sort(),
    );
    expect(alarms.find((e) => e.details['alarm'] === 'tempHigh')?.details['reading']).toMatch(/°C \(max 8 °C\)$/);
  });

  it('edits the thresholds and the name, with the same rules', async () => {
    const imei = await newUnit(admin.accountId);
    const created = await add(imei, { mac: freshMac(), name: 'Probe', kind: 'temperature' });
    const id = created.body.data!.sensors[0]!.id;
    expect(await errorsOf(call('PUT', `${base(imei)}/${id}`, admin, { name: '', thresholds: { tempMin: 70 } }))).toEqual({
      name: ['SensorNameRequired'],
      'thresholds.tempMin': ['TemperatureOutOfRange'],
    });
    const saved = await call<SensorList>('PUT', `${base(imei)}/${id}`, admin, { name: 'Freezer', thresholds: { tempMin: -20, tempMax: -15, lowBattery: true } });
    expect(saved.status).toBe(200);
    expect(saved.body.data!.sensors[0]).toMatchObject<Partial<Sensor>>({
      name: 'Freezer',
      thresholds: { tempMin: -20, tempMax: -15, humMin: null, humMax: null, doorOpen: false, lowBattery: true },
    });
    expect((await unitWithCopies(imei))?.sensors?.[id]).toMatchObject({ name: 'Freezer', thresholds: { tempMin: -20, tempMax: -15, lowBattery: true } });
    expect((await call('PUT', `${base(imei)}/0000000000000-nothere`, admin, { name: 'X', thresholds: {} })).status).toBe(404);
  });
});

describe('who may', () => {
  it("answers another account's unit and sensors 404, and a user's unit not granted to them 404", async () => {
    const imei = await newUnit(admin.accountId);
    const created = await add(imei, { mac: freshMac(), name: 'Probe', kind: 'temperature' });
    const id = created.body.data!.sensors[0]!.id;
    for (const who of [other, user]) {
      expect((await call('GET', base(imei), who)).status).toBe(404);
      expect((await add(imei, { mac: freshMac(), name: 'Mine now', kind: 'tag' }, who)).status).toBe(404);
      expect((await call('PUT', `${base(imei)}/${id}`, who, { name: 'Mine now', thresholds: {} })).status).toBe(404);
      expect((await call('POST', `${base(imei)}/${id}/pair`, who)).status).toBe(404);
      expect((await call('DELETE', `${base(imei)}/${id}`, who)).status).toBe(404);
    }
    expect((await call('GET', base(imei), null)).status).toBe(401);
    expect(await list(imei)).toHaveLength(1);
    expect((await list(imei))[0]!.name).toBe('Probe');
  });
});

describe("the alarm receivers' BLE tab", () => {
  it('lists the sensors, assigns a receiver to one, and its alarm reaches that receiver by e-mail', async () => {
    const imei = await newUnit(admin.accountId);
    const created = await add(imei, { mac: freshMac(), name: 'Milk tank', kind: 'temperature', thresholds: { tempMax: 6 } });
    const sensor = created.body.data!.sensors[0]!;
    const receiver = await call<{ id: string }>('POST', '/api/v1/administration/alarm-receivers', admin, {
      member_id: null, name: 'Dairy manager', email: 'dairy@example.se', push_notification: false, function_alarm: 1, security_alarm: 0,
    });
    expect(receiver.status, JSON.stringify(receiver.body)).toBe(200);
    const receiverId = receiver.body.data!.id;

    const options = await call<{ gps: unknown[]; ble: Array<{ id: string; Name: string; SerialNumber: string; IsSelected: number }> }>(
      'POST', '/api/v1/administration/alarm-receivers/units', admin, { memberId: null, receiverId },
    );
    expect(options.status).toBe(200);
    expect(options.body.data!.ble).toContainEqual({ id: sensor.id, Name: 'Milk tank', SerialNumber: sensor.mac.match(/.{2}/g)!.join(':'), IsSelected: 0 });

    // Another account's sensor id is unknown here; this account's is taken.
    const theirs = await newUnit(other.accountId);
    const theirSensor = (await add(theirs, { mac: freshMac(), name: 'Theirs', kind: 'tag' }, other)).body.data!.sensors[0]!;
    const refused = await call('POST', '/api/v1/administration/alarm-receivers/assign', admin, { receiver_id: receiverId, terminals: [{ terminal_id: theirSensor.id, device_type: 'ble' }] });
    expect(refused.status).toBe(422);
    const assigned = await call('POST', '/api/v1/administration/alarm-receivers/assign', admin, { receiver_id: receiverId, terminals: [{ terminal_id: sensor.id, device_type: 'ble' }] });
    expect(assigned.status, JSON.stringify(assigned.body)).toBe(200);
    const after = await call<{ ble: Array<{ id: string; IsSelected: number }> }>('POST', '/api/v1/administration/alarm-receivers/units', admin, { memberId: null, receiverId });
    expect(after.body.data!.ble.find((b) => b.id === sensor.id)?.IsSelected).toBe(1);
    const ofSensor = await call<{ alarmReceivers: Array<{ id: string; total_ble_units: number }> }>('GET', `/api/v1/administration/alarm-receivers/ble/${sensor.id}`, admin);
    expect(ofSensor.body.data!.alarmReceivers.map((r) => [r.id, r.total_ble_units])).toEqual([[receiverId, 1]]);
    expect((await call('GET', `/api/v1/administration/alarm-receivers/ble/${theirSensor.id}`, admin)).status).toBe(404);

    // The receiver has the sensor, not its GPS unit: the sensor's alarm reaches it once.
    const client = await mqtt.connectAsync(rt.mqttUrl, { clientId: imei, reconnectPeriod: 0 });
    const t0 = Date.now() - 60_000;
    for (const [i, temp] of [4, 7.5, 7.9].entries()) {
      await client.publishAsync(`trackers/${imei}/telemetry`, JSON.stringify({ ts: t0 + i * 10_000, lat: 59.33, lon: 18.06, sat: 9, ble: [{ mac: sensor.mac, temp }] }), { qos: 1 });
    }
    await client.endAsync();
    const outbox = async () => (await call<Array<{ subject?: string; text: string }>>('GET', `/api/dev/outbox?to=${encodeURIComponent('dairy@example.se')}&kind=email`, null)).body.data ?? [];
    const mails = await eventually(outbox, (m) => m.length >= 1, 'the alarm e-mail');
    await rt.settled();
    expect(await outbox()).toHaveLength(1);
    expect(mails[0]!.text).toContain('Milk tank');
  });
});
