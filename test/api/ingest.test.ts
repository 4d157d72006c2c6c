/**
 * Tracker ingest end to end on the embedded runtime: a tracker publishes over MQTT (TCP), the rule
 * bridge hands the message to the telemetry handler, the position lands in DynamoDB, the unit's
 * state moves and the live update goes out through the local broker.
 *
 * A burst of messages goes through the bridge in batches (the handler writes across them); what a
 * burst stores, and that a redelivered burst changes nothing, is the same as one by one. A record
 * holding a number DynamoDB cannot store costs only itself, never the other records of the batch.
 *
 * The live message is observed at the LiveBus port, wrapped around the runtime's own adapter so
 * that the real publish to the broker still happens and must succeed: the broker refuses live
 * subscriptions to TCP clients (only browsers over WebSocket, through the live authorizer, may read
 * them). The demo account counts as watched (as when its map is open: the authorizer's mark, made
 * in this process); the live-only-while-watched test uses an account of its own that nobody watches
 * until a browser connects over WebSocket with what GET /live/connection hands out.
 */
import { GetCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import mqtt from 'mqtt';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { DeadLetterItem } from '../../functions/ingest/dead-letters';
import type { UnitState } from '../../functions/ingest/types';
import { getPorts, overridePorts } from '../../functions/platform/container';
import { dynamo, tableName } from '../../functions/platform/db';
import type { LiveMessage } from '../../functions/platform/ports';
import type { UnitRecord } from '../../functions/domain/unit/schema';
import type { EmbeddedRuntime } from '../../infra/local/runtime';
import { demoImei } from '../../infra/local/seed';
import { startRuntime } from '../support/runtime';
import { createTestUser, loginAs } from '../support/sessions';
import { apiFetch } from '../support/http';
import { markLiveWatched } from '../../functions/domain/account/live-watch';
import type { LiveConnection } from '../../shared/schemas/tracking';
import { eventually as waitFor } from '../support/eventually';
import { positionsOfItem } from '../../functions/ingest/position-codec';

let rt: EmbeddedRuntime;
let accountId: string;
const live: Array<{ accountId: string; imei: string; message: LiveMessage }> = [];
// Per unit: a previous test's last live message may still arrive after the list is cleared.
const liveOf = (imei: string) => live.filter((l) => l.imei === imei);

beforeAll(async () => {
  rt = await startRuntime();
  const unit = await dynamo().send(new GetCommand({ TableName: tableName('units'), Key: { imei: demoImei(0) } }));
  accountId = String(unit.Item?.['accountId']);
  const realBus = getPorts().live;
  overridePorts({
    live: {
      async publish(audience, message) {
        await realBus.publish(audience, message);
        live.push({ accountId: audience.accountId, imei: audience.imei, message });
      },
    },
  });
});
afterAll(async () => {
  await rt?.stop();
});
beforeEach(async () => {
  await markLiveWatched([accountId]);
  live.length = 0;
});

function connectTracker(imei: string): Promise<mqtt.MqttClient> {
  return new Promise((resolve, reject) => {
    const c = mqtt.connect(rt.mqttUrl, { clientId: imei, reconnectPeriod: 0, connectTimeout: 5000 });
    c.once('connect', () => resolve(c));
    c.once('error', reject);
  });
}

/** The rule bridge runs after the broker's PUBACK, so results are awaited, not assumed. */
const eventually = <T>(read: () => Promise<T>, done: (value: T) => boolean, what: string) => waitFor(read, done, what, { timeoutMs: 10_000, everyMs: 50 });

const positions = async (imei: string) =>
  ((await dynamo().send(new QueryCommand({ TableName: tableName('positions'), KeyConditionExpression: 'imei = :i', ExpressionAttributeValues: { ':i': imei } })))
    .Items ?? []).flatMap(positionsOfItem).sort((a, b) => a.ts - b.ts);

const stateOf = async (imei: string) =>
  (await dynamo().send(new GetCommand({ TableName: tableName('units'), Key: { imei } }))).Item?.['state'] as UnitState | undefined;

/** A unit of the demo account, as registration writes it, registered at `at`. */
async function registerUnit(imei: string, at: Date, account: string = accountId): Promise<string> {
  const unit: UnitRecord = { imei, accountId: account, name: `Unit ${imei}`, vehicleType: 'car', protocol: 'native', createdAt: at.toISOString() };
  await dynamo().send(new PutCommand({ TableName: tableName('units'), Item: unit }));
  return imei;
}

const deadLetters = async (imei: string) =>
  ((
    await dynamo().send(
      new QueryCommand({
        TableName: tableName('deadLetters'),
        KeyConditionExpression: '#d = :d',
        FilterExpression: 'imei = :i',
        ExpressionAttributeNames: { '#d': 'day' },
        ExpressionAttributeValues: { ':d': new Date().toISOString().slice(0, 10), ':i': imei },
      }),
    )
  ).Items ?? []) as DeadLetterItem[];

describe('tracker ingest over MQTT', () => {
  it('stores a native position published by a tracker, moves its state and publishes it live', async () => {
    const imei = demoImei(2);
    const ts = Date.now() - 5000;
    const tracker = await connectTracker(imei);
    await tracker.publishAsync(`trackers/${imei}/telemetry`, JSON.stringify({ ts, lat: 59.3326, lon: 18.0649, spd: 37, ign: true, sat: 10 }), { qos: 1 });

    const [stored] = await eventually(() => positions(imei), (items) => items.length === 1, 'the position');
    expect(stored).toMatchObject({ imei, ts, lat: 59.3326, lon: 18.0649, speed: 37, ignition: true, sats: 10 });
    expect(stored?.['expiresAt']).toBe(Math.floor(ts / 1000) + 395 * 86_400);
    // The state follows its positions (it is written once they are stored).
    const state = await eventually(() => stateOf(imei), (s) => s?.ts === ts, 'the state');
    expect(state).toMatchObject({ ts, lat: 59.3326, lon: 18.0649, speed: 37, ignition: true });

    const [sent] = await eventually(async () => liveOf(imei), (l) => l.length === 1, 'the live message');
    expect(sent).toEqual({
      accountId,
      imei,
      message: expect.objectContaining({ type: 'position', imei, ts: new Date(ts).toISOString(), lat: 59.3326, lon: 18.0649, speed: 37, ignition: true }),
    });

    // The same message again (QoS 1 redelivery) adds nothing; the next one goes in and live.
    await tracker.publishAsync(`trackers/${imei}/telemetry`, JSON.stringify({ ts, lat: 59.3326, lon: 18.0649, spd: 37, ign: true, sat: 10 }), { qos: 1 });
    await tracker.publishAsync(`trackers/${imei}/telemetry`, JSON.stringify({ ts: ts + 1000, lat: 59.3327, lon: 18.0649, sat: 10 }), { qos: 1 });
    await eventually(() => positions(imei), (items) => items.length === 2, 'the next position');
    await eventually(async () => liveOf(imei), (l) => l.length === 2, 'the next live message');
    expect((await positions(imei)).map((p) => p['ts'])).toEqual([ts, ts + 1000]);
    // The state is written after live goes out (decision 0003): awaited, not assumed.
    await eventually(() => stateOf(imei), (state) => state?.ts === ts + 1000, 'the next state');
    expect(liveOf(imei).map((l) => l.message['ts'])).toEqual([new Date(ts).toISOString(), new Date(ts + 1000).toISOString()]);
    await tracker.endAsync();
  });

  it('stores the positions of a tracker publishing through Basic Ingest, as provisioned, and refuses another IMEI’s Basic Ingest topic', async () => {
    const [imei, other] = [await registerUnit(demoImei(204), new Date(Date.now() - 86_400_000)), await registerUnit(demoImei(205), new Date(Date.now() - 86_400_000))];
    const ts = Date.now() - 4000;
    const tracker = await connectTracker(imei);
    await tracker.publishAsync(
      `$aws/rules/TrackingPortal_trackerTelemetry/trackers/${imei}/telemetry`,
      JSON.stringify({ records: [{ ts, lat: 59.3326, lon: 18.0649, spd: 20, sat: 9 }, { ts: ts + 1000, lat: 59.3327, lon: 18.0649, spd: 21, sat: 9 }] }),
      { qos: 1 },
    );
    await eventually(() => positions(imei), (items) => items.length === 2, 'the positions sent through Basic Ingest');
    expect((await positions(imei)).map((p) => [p['ts'], p['lat']])).toEqual([
      [ts, 59.3326],
      [ts + 1000, 59.3327],
    ]);
    await eventually(() => stateOf(imei), (state) => state?.ts === ts + 1000, 'the state');
    await eventually(async () => liveOf(imei), (l) => l.some((m) => m.message['ts'] === new Date(ts + 1000).toISOString()), 'the live message');
    // The plain topic stays accepted on the same connection (docs/api.md).
    await tracker.publishAsync(`trackers/${imei}/telemetry`, JSON.stringify({ ts: ts + 2000, lat: 59.3328, lon: 18.0649, sat: 9 }), { qos: 1 });
    await eventually(() => positions(imei), (items) => items.length === 3, 'the position on the plain topic');

    // Another IMEI's Basic Ingest topic: refused as its plain topic is, the connection closed, nothing stored.
    const closed = new Promise<void>((r) => tracker.once('close', () => r()));
    const refused = tracker.publishAsync(`$aws/rules/TrackingPortal_trackerTelemetry/trackers/${other}/telemetry`, JSON.stringify({ ts, lat: 57.7, lon: 11.9, sat: 9 }), { qos: 1 });
    await closed;
    tracker.end(true);
    await expect(refused).rejects.toThrow();
    // A message of the other tracker itself afterwards is the first and only one stored for it.
    const own = await connectTracker(other);
    await own.publishAsync(`$aws/rules/TrackingPortal_trackerTelemetry/trackers/${other}/telemetry`, JSON.stringify({ ts: ts + 500, lat: 57.7089, lon: 11.9746, sat: 8 }), { qos: 1 });
    await eventually(() => positions(other), (items) => items.length >= 1, "the other tracker's own position");
    expect((await positions(other)).map((p) => p['ts'])).toEqual([ts + 500]);
    expect(await positions(imei)).toHaveLength(3);
    await own.endAsync();
  });

  it('publishes nothing live for an account nobody watches, and publishes once a browser’s live connection is authorized', async () => {
    const stranger = await createTestUser();
    const imei = await registerUnit(demoImei(206), new Date(Date.now() - 86_400_000), stranger.accountId);
    const tracker = await connectTracker(imei);
    const ts = Date.now() - 20_000;
    await tracker.publishAsync(`trackers/${imei}/telemetry`, JSON.stringify({ ts, lat: 59.3326, lon: 18.0649, sat: 9 }), { qos: 1 });
    await eventually(() => stateOf(imei), (state) => state?.ts === ts, 'the state of the unwatched unit');
    // The live publish would go out as the positions are written, before the state: nothing went.
    await rt.settled();
    expect(liveOf(imei)).toEqual([]);

    // A browser of the account opens the map: its WebSocket connection's subscription is authorized.
    const { token } = await loginAs(stranger.username, stranger.password);
    const res = await apiFetch(`${rt.url}/api/v1/user/live/connection`, { headers: { authorization: `Bearer ${token}` } });
    const c = ((await res.json()) as { data: LiveConnection }).data;
    const browser = await mqtt.connectAsync(c.url, { clientId: c.clientId, username: c.username, password: c.password, reconnectPeriod: 0, connectTimeout: 5000 });
    try {
    const granted = await browser.subscribeAsync(`live/${stranger.accountId}/units/+`, { qos: 0 });
    expect(granted[0]?.qos).toBe(0);
    const received = new Promise<{ topic: string; ts: unknown }>((resolve) =>
      browser.on('message', (topic, payload) => resolve({ topic, ts: (JSON.parse(payload.toString()) as { ts?: unknown }).ts })),
    );

    await tracker.publishAsync(`trackers/${imei}/telemetry`, JSON.stringify({ ts: ts + 10_000, lat: 59.3327, lon: 18.0649, sat: 9 }), { qos: 1 });
    expect(await received).toEqual({ topic: `live/${stranger.accountId}/units/${imei}`, ts: new Date(ts + 10_000).toISOString() });
    // Recorded once the broker has it (the browser may get it first).
    await eventually(async () => liveOf(imei), (l) => l.length === 1, 'the live publish');
    expect(liveOf(imei).map((l) => l.message['ts'])).toEqual([new Date(ts + 10_000).toISOString()]);
    } finally {
      await Promise.all([browser.endAsync(true), tracker.endAsync(true)]);
    }
  });

  it('dead-letters a malformed message with its reason and goes on with the next one', async () => {
    const imei = demoImei(3);
    const tracker = await connectTracker(imei);
    await tracker.publishAsync(`trackers/${imei}/telemetry`, '{"ts": 17, "lat":', { qos: 1 });
    await tracker.publishAsync(`trackers/${imei}/telemetry`, JSON.stringify({ ts: Date.now() - 1000, lat: 59.1, lon: 18.1 }), { qos: 1 });

    const [letter] = await eventually(() => deadLetters(imei), (l) => l.length === 1, 'the dead letter');
    expect(letter).toMatchObject({ reason: 'MalformedJson', topic: `trackers/${imei}/telemetry`, payload: Buffer.from('{"ts": 17, "lat":').toString('base64') });
    await eventually(() => positions(imei), (items) => items.length === 1, 'the good position after it');
    await tracker.endAsync();
  });

  it("takes a Teltonika position on the device's default {imei}/data topic", async () => {
    const imei = demoImei(4);
    const ts = Date.now() - 2000;
    const tracker = await connectTracker(imei);
    const doc = { state: { reported: { ts, latlng: '57.7089,11.9746', alt: '12', ang: '90', sat: '8', sp: '54', '239': 1, '240': 1, '66': 13950, '67': 4020, '16': 125_000 } } };
    // And an element no firmware sends, an object with a key `__proto__` (JSON.parse makes it an own key): kept as its text.
    const text = `${JSON.stringify(doc).slice(0, -3)},"5":{"__proto__":{"x":1}}}}}`;
    await tracker.publishAsync(`${imei}/data`, text, { qos: 1 });

    const [stored] = await eventually(() => positions(imei), (items) => items.length === 1, 'the Teltonika position');
    expect(stored).toMatchObject({ ts, lat: 57.7089, lon: 11.9746, speed: 54, heading: 90, ignition: true, movement: true, extVolts: 13.95, batVolts: 4.02, odometer: 125_000 });
    expect(stored?.['io']).toEqual({ '5': '{"__proto__":{"x":1}}', '16': 125_000, '66': 13950, '67': 4020, '239': 1, '240': 1 });
    await eventually(async () => liveOf(imei), (l) => l.length === 1, 'the live message');
    await tracker.endAsync();
  });

  it('lets a record with lat 1e400 cost only itself: the good records of its message and another tracker’s message of the batch are stored', async () => {
    const [a, b] = [await registerUnit(demoImei(200), new Date(Date.now() - 86_400_000)), await registerUnit(demoImei(201), new Date(Date.now() - 86_400_000))];
    const ts = Date.now() - 10_000;
    // As a tracker writes it: JSON.stringify cannot make 1e400, and JSON.parse makes it Infinity,
    // which DynamoDB refuses, with every other item of the request.
    const bad = `{"ts":${ts + 1000},"lat":1e400,"lon":18.0649,"sat":9}`;
    const batch = `{"records":[{"ts":${ts},"lat":59.3326,"lon":18.0649,"sat":9},${bad},{"ts":${ts + 2000},"lat":59.3327,"lon":18.0649,"sat":9}]}`;
    const [ta, tb] = await Promise.all([connectTracker(a), connectTracker(b)]);
    // Sent together (one batch when their IMEIs share a stream lane; ingest-batch.test.ts covers the batch itself).
    await Promise.all([
      ta.publishAsync(`trackers/${a}/telemetry`, batch, { qos: 1 }),
      tb.publishAsync(`trackers/${b}/telemetry`, JSON.stringify({ ts: ts + 500, lat: 57.7089, lon: 11.9746, sat: 8 }), { qos: 1 }),
    ]);

    await eventually(() => positions(a), (items) => items.length === 2, 'the good records of the message');
    await eventually(() => positions(b), (items) => items.length === 1, "the other tracker's message");
    expect((await positions(a)).map((p) => [p['ts'], p['lat']])).toEqual([
      [ts, 59.3326],
      [ts + 2000, 59.3327],
    ]);
    await eventually(() => stateOf(a), (state) => state?.ts === ts + 2000, 'the state from the newest good record');
    await eventually(() => stateOf(b), (state) => state?.ts === ts + 500, "the other tracker's state");

    const [letter] = await eventually(() => deadLetters(a), (l) => l.length === 1, 'the dead letter of the bad record');
    expect(letter).toMatchObject({ reason: 'NumberOutOfRange', detail: 'lat: 1e400 is out of range', recordIndex: 1, topic: `trackers/${a}/telemetry` });
    expect(Buffer.from(letter?.payload ?? '', 'base64').toString()).toBe(bad);
    // Nothing failed as a whole: no rule action dead-lettered either message.
    expect(await deadLetters(b)).toEqual([]);
    await Promise.all([ta.endAsync(), tb.endAsync()]);
  });

  it('stores a Teltonika position whose IO value is beyond 2^53 with the value’s exact digits', async () => {
    const imei = await registerUnit(demoImei(202), new Date(Date.now() - 86_400_000));
    const ts = Date.now() - 3000;
    const tracker = await connectTracker(imei);
    // IO 78 (iButton) = 0x1234567890ABCDEF, an 8-byte element the firmware writes as a JSON number.
    await tracker.publishAsync(`${imei}/data`, `{"state":{"reported":{"ts":${ts},"latlng":"57.7089,11.9746","sat":8,"sp":"30","239":1,"78":1311768467294899695}}}`, {
      qos: 1,
    });

    const [stored] = await eventually(() => positions(imei), (items) => items.length === 1, 'the Teltonika position');
    expect(stored).toMatchObject({ ts, lat: 57.7089, lon: 11.9746, speed: 30, ignition: true, rfid: '1234567890ABCDEF', io: { '239': 1, '78': '1311768467294899695' } });
    await eventually(() => stateOf(imei), (state) => state?.ts === ts, 'the state');
    expect(await deadLetters(imei)).toEqual([]);
    await tracker.endAsync();
  });

  it("never makes a position from before a unit's registration its state: what a re-registered IMEI's tracker had buffered", async () => {
    const registeredAt = Date.now() - 30 * 60_000;
    const imei = await registerUnit(demoImei(203), new Date(registeredAt));
    const tracker = await connectTracker(imei);
    const fix = (ts: number, lat: number) => ({ ts, lat, lon: 18.0649, sat: 9 });
    await tracker.publishAsync(`trackers/${imei}/telemetry`, JSON.stringify({ records: [fix(registeredAt - 20 * 60_000, 59.33), fix(registeredAt - 60_000, 59.331)] }), { qos: 1 });
    await eventually(() => positions(imei), (items) => items.length === 2, 'the buffered positions');

    await tracker.publishAsync(`trackers/${imei}/telemetry`, JSON.stringify(fix(registeredAt + 60_000, 59.332)), { qos: 1 });
    await eventually(() => stateOf(imei), (state) => state?.ts === registeredAt + 60_000, 'the state from after the registration');
    // The buffered positions were stored, yet neither became the state nor went out live.
    expect(await positions(imei)).toHaveLength(3);
    expect(liveOf(imei).map((l) => l.message['ts'])).toEqual([new Date(registeredAt + 60_000).toISOString()]);
    await tracker.endAsync();
  });

  it('takes a burst from several trackers in batches: every position stored, each state the newest, and a redelivered burst changes nothing', async () => {
    const imeis = [demoImei(0), demoImei(1)];
    const start = Date.now() - 120_000;
    const messages = imeis.flatMap((imei) =>
      Array.from({ length: 30 }, (_, i) => ({ imei, body: JSON.stringify({ ts: start + i * 1000, lat: 59.3 + i * 1e-4, lon: 18.06, sat: 9, spd: 20 }) })),
    );
    // Interleaved and out of order, as QoS 1 deliveries from many devices arrive.
    const shuffled = [...messages].sort(() => Math.random() - 0.5);
    const trackers = new Map(await Promise.all(imeis.map(async (imei) => [imei, await connectTracker(imei)] as const)));
    const send = () => Promise.all(shuffled.map((m) => trackers.get(m.imei)?.publishAsync(`trackers/${m.imei}/telemetry`, m.body, { qos: 1 })));
    await send();

    for (const imei of imeis) {
      await eventually(() => positions(imei), (items) => items.length === 30, `the burst of ${imei}`);
      await eventually(() => stateOf(imei), (state) => state?.ts === start + 29_000, `the newest state of ${imei}`);
      await eventually(async () => liveOf(imei), (l) => l.some((m) => m.message['ts'] === new Date(start + 29_000).toISOString()), 'the newest live message');
      // Each live message of a unit is newer than the one before: a state never goes back.
      const sent = liveOf(imei).map((l) => Date.parse(String(l.message['ts'])));
      expect(sent).toEqual([...sent].sort((a, b) => a - b));
      expect(new Set(sent).size).toBe(sent.length);
    }
    const before = { positions: await Promise.all(imeis.map(positions)), states: await Promise.all(imeis.map(stateOf)), live: live.length };

    await send();
    // A message after the redelivered burst shows when the bridge has handled it.
    await trackers.get(imeis[0]!)?.publishAsync(`trackers/${imeis[0]}/telemetry`, JSON.stringify({ ts: start + 60_000, lat: 59.31, lon: 18.06, sat: 9 }), { qos: 1 });
    await eventually(() => stateOf(imeis[0]!), (state) => state?.ts === start + 60_000, 'the message after the redelivery');
    const after = await Promise.all(imeis.map(positions));
    expect(after[0]?.filter((p) => p['ts'] !== start + 60_000)).toEqual(before.positions[0]);
    expect(after[1]).toEqual(before.positions[1]);
    expect(await stateOf(imeis[1]!)).toEqual(before.states[1]);
    expect(live.length).toBe(before.live + 1);
    await Promise.all([...trackers.values()].map((t) => t.endAsync()));
  });
});

