/**
 * Device commands end to end on the embedded runtime: POST and GET over HTTP, trackers on the MQTT
 * broker answering with the simulator's own logic (native acks on trackers/{imei}/ack, Teltonika
 * `{RSP}` on {imei}/data through the ingest rule), the browser's live channel over WebSocket with
 * what GET /live/connection hands out, and the time-out job run with the clock port moved on.
 */
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import mqtt from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMMANDS_LIST_LIMIT, type Command } from '../../shared/schemas/commands';
import { liveCommandMessageSchema } from '../../shared/schemas/live';
import type { LiveConnection, RealtimeUnit } from '../../shared/schemas/tracking';
import { handler as commandTimeouts } from '../../functions/jobs/command-timeouts';
import { overridePorts } from '../../functions/platform/container';
import { dynamo, tableName } from '../../functions/platform/db';
import type { UnitRecord } from '../../functions/domain/unit/schema';
import type { EmbeddedRuntime } from '../../infra/local/runtime';
import { DEMO_PASSWORD, demoImei, demoUsers } from '../../infra/local/seed';
import { answerCommand, commandTopic } from '../../infra/local/simulator/protocol';
import { SimulatedVehicle } from '../../infra/local/simulator/vehicle';
import { apiFetch } from '../support/http';
import { startRuntime } from '../support/runtime';
import { createTestUser, loginAs } from '../support/sessions';
import { eventually as waitFor } from '../support/eventually';

interface Caller {
  token: string;
  accountId: string;
}
interface Reply<T> {
  status: number;
  body: { success?: boolean; data?: T; message?: string; errors?: unknown };
}

let rt: EmbeddedRuntime;
let admin: Caller;
let user: Caller;
let other: Caller;
/** The clock port runs this far ahead of the wall clock; it only ever grows. */
let offsetMs = 0;
const teltonikaImei = demoImei(700);
const otherImei = demoImei(701);
let spareUnits = 0;

async function caller(username: string, password: string): Promise<Caller> {
  const { token } = await loginAs(username, password);
  const res = await apiFetch(`${rt.url}/api/v1/user/live/connection`, { headers: { authorization: `Bearer ${token}` } });
  const topic = ((await res.json()) as { data: LiveConnection }).data.topics[0] ?? '';
  return { token, accountId: topic.split('/')[1] ?? '' };
}

async function call<T>(method: 'GET' | 'POST', path: string, who: Caller, body?: unknown): Promise<Reply<T>> {
  const res = await apiFetch(`${rt.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${who.token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: res.status, body: (await res.json()) as Reply<T>['body'] };
}

const post = (imei: string, body: unknown, who: Caller = admin) => call<Command>('POST', `/api/v1/user/units/${imei}/commands`, who, body);
const list = async (imei: string, who: Caller = admin) => (await call<Command[]>('GET', `/api/v1/user/units/${imei}/commands`, who)).body.data ?? [];
const statusOf = async (imei: string, id: string) => (await list(imei)).find((c) => c.id === id)?.status;

/** A further unit of the demo account, so that each test starts without open commands. */
async function addUnit(accountId: string, protocol: UnitRecord['protocol'] = 'native', imei = demoImei(720 + spareUnits++)): Promise<string> {
  const unit: UnitRecord = { imei, accountId, name: `Unit ${imei}`, vehicleType: 'car', protocol, createdAt: new Date().toISOString() };
  await dynamo().send(new PutCommand({ TableName: tableName('units'), Item: unit }));
  return imei;
}

const eventually = <T>(read: () => Promise<T>, done: (value: T) => boolean, what: string) => waitFor(read, done, what, { timeoutMs: 10_000, everyMs: 50 });

interface Tracker {
  /** Commands as received on the tracker's command topic. */
  received: unknown[];
  /** When false the tracker stays silent (poor coverage). */
  answering: boolean;
  client: mqtt.MqttClient;
}

/** A tracker on the broker answering as the simulated fleet does (infra/local/simulator/protocol.ts). */
async function connectTracker(imei: string, protocol: UnitRecord['protocol'] = 'native'): Promise<Tracker> {
  const client = await new Promise<mqtt.MqttClient>((resolve, reject) => {
    const c = mqtt.connect(rt.mqttUrl, { clientId: imei, reconnectPeriod: 0, connectTimeout: 5000 });
    c.once('connect', () => resolve(c));
    c.once('error', reject);
  });
  const vehicle = new SimulatedVehicle({ index: 0, imei, vehicleType: 'car', seed: 7, start: Date.now() });
  const tracker: Tracker = { received: [], answering: true, client };
  client.on('message', (_topic, payload) => {
    tracker.received.push(JSON.parse(payload.toString()));
    const answer = tracker.answering ? answerCommand(protocol, vehicle, payload) : null;
    // Not awaited: the test may end the tracker as soon as the answer shows, which can be before
    // the answer's PUBACK reaches it; what the answer did is asserted on the server.
    if (answer) client.publish(answer.topic, answer.payload, { qos: 1 }, () => undefined);
  });
  await client.subscribeAsync(commandTopic(protocol, imei), { qos: 1 });
  return tracker;
}

beforeAll(async () => {
  rt = await startRuntime();
  overridePorts({ clock: { now: () => new Date(Date.now() + offsetMs) } });
  admin = await caller(demoUsers.admin.username, DEMO_PASSWORD);
  user = await caller(demoUsers.user.username, DEMO_PASSWORD);
  const stranger = await createTestUser();
  other = await caller(stranger.username, stranger.password);
  await addUnit(admin.accountId, 'teltonika', teltonikaImei);
  await addUnit(other.accountId, 'native', otherImei);
});

afterAll(async () => {
  await rt?.stop();
});

describe('POST /api/v1/user/units/{imei}/commands: validation', () => {
  it('answers 422 with the keys of the DOUT limits and of unknown commands', async () => {
    const imei = demoImei(2);
    const cases: Array<[unknown, Record<string, string[]>]> = [
      [{ type: 'dout', output: 0, on: true }, { output: ['InvalidOutput'] }],
      [{ type: 'dout', output: 4, on: true }, { output: ['InvalidOutput'] }],
      [{ type: 'dout', output: 1, on: true, durationSeconds: 0 }, { durationSeconds: ['DoutDurationInvalid'] }],
      [{ type: 'dout', output: 1, on: true, durationSeconds: 65001 }, { durationSeconds: ['DoutDurationInvalid'] }],
      [{ type: 'dout', output: 1, on: true, label: 'x'.repeat(21) }, { label: ['DoutLabelTooLong'] }],
      [{ type: 'operatingMode', mode: 'fixed2h' }, { mode: ['InvalidOperatingMode'] }],
      [{ type: 'reboot' }, { type: ['InvalidCommandType'] }],
    ];
    for (const [body, errors] of cases) {
      const res = await post(imei, body);
      expect(res, JSON.stringify(body)).toEqual({ status: 422, body: { success: false, message: 'ValidationFailed', errors } });
    }
    expect(await list(imei)).toEqual([]);
  });

  it('takes the limits themselves: 65000 seconds and a 20-character label (trimmed)', async () => {
    const imei = await addUnit(admin.accountId);
    const res = await post(imei, { type: 'dout', output: 3, on: true, durationSeconds: 65000, label: `  ${'L'.repeat(20)}  ` });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ params: { output: 3, on: true, durationSeconds: 65000 }, status: 'pending' });
    const units = (await call<RealtimeUnit[]>('GET', '/api/v1/user/realtime/units', admin)).body.data ?? [];
    expect(units.find((u) => u.imei === imei)?.doutLabels).toEqual({ '3': 'L'.repeat(20) });
  });
});

describe('the command state machine', () => {
  it('sends a native command to the tracker, which acknowledges it; the user’s browser sees both states live', async () => {
    const imei = demoImei(0);
    const tracker = await connectTracker(imei);
    const conn = (await call<LiveConnection>('GET', '/api/v1/user/live/connection', user)).body.data as LiveConnection;
    const browser = await mqtt.connectAsync(conn.url, { clientId: conn.clientId, username: conn.username, password: conn.password, reconnectPeriod: 0 });
    const seen: Command[] = [];
    browser.on('message', (_t, payload) => {
      const parsed = liveCommandMessageSchema.safeParse(JSON.parse(payload.toString()));
      if (parsed.success) seen.push(parsed.data.command);
    });
    try {
      expect((await browser.subscribeAsync(conn.topics, { qos: 0 })).every((g) => g.qos === 0)).toBe(true);

      const res = await post(imei, { type: 'dout', output: 1, on: true, durationSeconds: 60, label: 'Heater' }, user);
      expect(res.status).toBe(201);
      const command = res.body.data as Command;
      expect(command).toMatchObject({ imei, type: 'dout', params: { output: 1, on: true, durationSeconds: 60 }, status: 'pending', answeredAt: null, error: null });

      await eventually(async () => tracker.received, (r) => r.length === 1, 'the command at the tracker');
      expect(tracker.received).toEqual([{ id: command.id, type: 'dout', params: { output: 1, on: true, durationSeconds: 60 } }]);
      const [acked] = await eventually(() => list(imei, user), (l) => l[0]?.status === 'acknowledged', 'the acknowledgement');
      expect(acked).toMatchObject({ id: command.id, status: 'acknowledged', answeredAt: expect.any(String) });

      await eventually(async () => seen, (s) => s.length === 2, 'both live messages');
      expect(seen.map((c) => [c.id, c.status])).toEqual([
        [command.id, 'pending'],
        [command.id, 'acknowledged'],
      ]);

      // Acknowledged: another DOUT command may go at once.
      expect((await post(imei, { type: 'dout', output: 1, on: false }, user)).status).toBe(201);
    } finally {
      await browser.endAsync();
      await tracker.client.endAsync();
    }
  });

  it('sends a Teltonika command as text to {imei}/commands and takes the device’s {RSP} answer', async () => {
    const tracker = await connectTracker(teltonikaImei, 'teltonika');
    try {
      const res = await post(teltonikaImei, { type: 'dout', output: 1, on: true, durationSeconds: 60 });
      expect(res.status).toBe(201);
      await eventually(async () => tracker.received, (r) => r.length === 1, 'the command at the device');
      expect(tracker.received).toEqual([{ CMD: 'setdigout 1?? 60' }]);
      await eventually(() => statusOf(teltonikaImei, res.body.data?.id ?? ''), (s) => s === 'acknowledged', 'the RSP answer');

      const mode = await post(teltonikaImei, { type: 'operatingMode', mode: 'realtime5min' });
      await eventually(() => statusOf(teltonikaImei, mode.body.data?.id ?? ''), (s) => s === 'acknowledged', 'the setparam answer');
      expect(tracker.received[1]).toEqual({ CMD: expect.stringMatching(/^setparam 10000:3600;10005:3600;10050:300;10055:300;/) });
      const units = (await call<RealtimeUnit[]>('GET', '/api/v1/user/realtime/units', admin)).body.data ?? [];
      expect(units.find((u) => u.imei === teltonikaImei)?.operatingMode).toBe('realtime5min');
    } finally {
      await tracker.client.endAsync();
    }
  });

  it('refuses a DOUT command for 120 seconds while the previous one waits, then cancels that one', async () => {
    const imei = await addUnit(admin.accountId);
    const first = await post(imei, { type: 'dout', output: 2, on: true });
    expect(first.status).toBe(201);
    const refused = await post(imei, { type: 'dout', output: 3, on: true });
    expect(refused).toEqual({ status: 409, body: { success: false, message: 'DoutAwaitingAnswer', errors: 'DoutAwaitingAnswer' } });

    offsetMs += 120_000;
    const second = await post(imei, { type: 'dout', output: 3, on: true });
    expect(second.status).toBe(201);
    expect((await list(imei)).map((c) => [c.id, c.status])).toEqual([
      [second.body.data?.id, 'pending'],
      [first.body.data?.id, 'cancelled'],
    ]);
  });

  it('marks a command unanswered after 120 seconds, still takes its late acknowledgement, and lets the next command cancel an unanswered one', async () => {
    const imei = await addUnit(admin.accountId);
    const tracker = await connectTracker(imei);
    tracker.answering = false;
    try {
      const first = (await post(imei, { type: 'operatingMode', mode: 'fixed24h' })).body.data as Command;
      offsetMs += 121_000;
      await commandTimeouts({ job: 'command-timeouts' });
      expect(await statusOf(imei, first.id)).toBe('unanswered');

      // The unit comes back into coverage and answers.
      await tracker.client.publishAsync(`trackers/${imei}/ack`, JSON.stringify({ id: first.id, ok: true }), { qos: 1 });
      await eventually(() => statusOf(imei, first.id), (s) => s === 'acknowledged', 'the late acknowledgement');

      const second = (await post(imei, { type: 'operatingMode', mode: 'fixed12h' })).body.data as Command;
      offsetMs += 121_000;
      await commandTimeouts({ job: 'command-timeouts' });
      expect(await statusOf(imei, second.id)).toBe('unanswered');
      const third = (await post(imei, { type: 'dout', output: 1, on: true })).body.data as Command;
      expect((await list(imei)).map((c) => [c.id, c.status])).toEqual([
        [third.id, 'pending'],
        [second.id, 'cancelled'],
        [first.id, 'acknowledged'],
      ]);
      // An answer to the cancelled command changes nothing.
      await tracker.client.publishAsync(`trackers/${imei}/ack`, JSON.stringify({ id: second.id, ok: true }), { qos: 1 });
      await tracker.client.publishAsync(`trackers/${imei}/ack`, JSON.stringify({ id: third.id, ok: false, error: 'Busy' }), { qos: 1 });
      await eventually(() => statusOf(imei, third.id), (s) => s === 'failed', 'the failure');
      expect(await statusOf(imei, second.id)).toBe('cancelled');
      expect((await list(imei))[0]).toMatchObject({ id: third.id, status: 'failed', error: 'CommandFailed' });
    } finally {
      await tracker.client.endAsync();
    }
  });

  it('leaves exactly one unacknowledged command after ten simultaneous ones', async () => {
    const imei = await addUnit(admin.accountId);
    const modes = ['fixed24h', 'fixed12h', 'fixed8h', 'fixed6h', 'fixed1h', 'realtime5min', 'realtime1min', 'movement', 'theft', 'fixed1h'];
    const replies = await Promise.all(modes.map((mode) => post(imei, { type: 'operatingMode', mode })));
    expect(replies.map((r) => r.status)).toEqual(Array(10).fill(201));
    const statuses = (await list(imei)).map((c) => c.status);
    expect(statuses).toHaveLength(10);
    expect(statuses.filter((s) => s === 'pending')).toHaveLength(1);
    expect(statuses.filter((s) => s === 'cancelled')).toHaveLength(9);

    const douts = await addUnit(admin.accountId);
    const doutReplies = await Promise.all(Array.from({ length: 10 }, () => post(douts, { type: 'dout', output: 1, on: true })));
    expect(doutReplies.map((r) => r.status).sort()).toEqual([201, ...Array(9).fill(409)]);
    expect((await list(douts)).map((c) => c.status)).toEqual(['pending']);
  });

  it(`lists at most ${COMMANDS_LIST_LIMIT} commands, newest first`, async () => {
    const imei = await addUnit(admin.accountId);
    const ids: string[] = [];
    for (let i = 0; i < COMMANDS_LIST_LIMIT + 2; i++) ids.push((await post(imei, { type: 'operatingMode', mode: 'movement' })).body.data?.id ?? '');
    const listed = await list(imei);
    expect(listed.map((c) => c.id)).toEqual(ids.slice(-COMMANDS_LIST_LIMIT).reverse());
  });
});

describe('access', () => {
  it("answers 404 for another account's unit and for a unit not granted, on POST and GET", async () => {
    const attempts: Array<[string, Caller]> = [
      [demoImei(0), other],
      [otherImei, admin],
      [demoImei(3), user],
      [demoImei(800), admin],
    ];
    for (const [imei, who] of attempts) {
      const sent = await post(imei, { type: 'operatingMode', mode: 'theft' }, who);
      expect(sent, imei).toEqual({ status: 404, body: { success: false, message: 'NotFound', errors: 'NotFound' } });
      const read = await call('GET', `/api/v1/user/units/${imei}/commands`, who);
      expect(read, imei).toEqual({ status: 404, body: { success: false, message: 'NotFound', errors: 'NotFound' } });
    }
    expect((await post(otherImei, { type: 'operatingMode', mode: 'theft' }, other)).status).toBe(201);
    expect((await list(otherImei, other)).map((c) => c.status)).toEqual(['pending']);
  });

  it('answers 401 without a token', async () => {
    const res = await apiFetch(`${rt.url}/api/v1/user/units/${demoImei(0)}/commands`);
    expect(res.status).toBe(401);
  });
});
