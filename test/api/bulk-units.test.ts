/**
 * Bulk unit tasks end to end on the embedded runtime: the request's validation keys, operating
 * mode and DOUT commands per unit through the command service (a tracker on the broker
 * acknowledging), alarm receivers assigned through the receivers' own rules, per-unit results in
 * the order asked, and units the caller may not see (another account's, not granted, unknown) or
 * that are locked by someone else reported and never acted on; departments and tags added to
 * each unit, only the account's own.
 */
import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import mqtt from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BulkUnitResult, BulkUnitsResponse } from '../../shared/schemas/bulk-units';
import type { Command } from '../../shared/schemas/commands';
import type { UnitListItem } from '../../shared/schemas/units';
import { dynamo, tableName } from '../../functions/platform/db';
import type { UnitRecord } from '../../functions/domain/unit/schema';
import type { EmbeddedRuntime } from '../../infra/local/runtime';
import { demoImei } from '../../infra/local/seed';
import { answerCommand, commandTopic } from '../../infra/local/simulator/protocol';
import { SimulatedVehicle } from '../../infra/local/simulator/vehicle';
import { callAs, demoCallers, type Caller, type Reply } from '../support/api-caller';
import { DEMO_REGISTERED_AT } from '../support/positions';
import { startRuntime } from '../support/runtime';
import { eventually } from '../support/eventually';

const BULK = '/api/v1/user/units/bulk';
let rt: EmbeddedRuntime;
let admin: Caller;
let user: Caller;
let other: Caller;
let otherImei: string;
let spare = 0;

const call = <T>(method: string, path: string, who: Caller | null, body?: unknown) => callAs<T>(rt.url, method, path, who, body);
const bulk = (imeis: string[], action: unknown, who: Caller = admin) => call<BulkUnitsResponse>('POST', BULK, who, { imeis, action });
const resultsOf = async (reply: Promise<Reply<BulkUnitsResponse>>): Promise<BulkUnitResult[]> => {
  const r = await reply;
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.data?.results ?? [];
};
const errorsOf = async (reply: Promise<Reply<unknown>>) => {
  const r = await reply;
  expect(r.status, JSON.stringify(r.body)).toBe(422);
  return r.body.errors;
};
const commandsOf = async (imei: string, who: Caller = admin) => (await call<Command[]>('GET', `/api/v1/user/units/${imei}/commands`, who)).body.data ?? [];

async function newUnit(accountId = admin.accountId, extra: Partial<UnitRecord> & Record<string, unknown> = {}): Promise<string> {
  const imei = demoImei(800 + spare++);
  const unit = { imei, accountId, name: `Bulk car ${spare}`, vehicleType: 'car', protocol: 'native', createdAt: DEMO_REGISTERED_AT.toISOString(), ...extra };
  await dynamo().send(new PutCommand({ TableName: tableName('units'), Item: unit }));
  return imei;
}

async function connectTracker(imei: string): Promise<mqtt.MqttClient> {
  const client = await mqtt.connectAsync(rt.mqttUrl, { clientId: imei, reconnectPeriod: 0, connectTimeout: 5000 });
  const vehicle = new SimulatedVehicle({ index: 0, imei, vehicleType: 'car', seed: 3, start: Date.now() });
  client.on('message', (_topic, payload) => {
    const answer = answerCommand('native', vehicle, payload);
    // Not awaited: the test may end the tracker as soon as the answer shows, which can be before
    // the answer's PUBACK reaches it; what the answer did is asserted on the server.
    if (answer) client.publish(answer.topic, answer.payload, { qos: 1 }, () => undefined);
  });
  await client.subscribeAsync(commandTopic('native', imei), { qos: 1 });
  return client;
}

beforeAll(async () => {
  rt = await startRuntime();
  ({ admin, user, other } = await demoCallers());
  otherImei = await newUnit(other.accountId);
});

afterAll(async () => {
  await rt?.stop();
});

describe('the request', () => {
  it('answers every problem with its message key', async () => {
    const mode = { type: 'operatingMode', mode: 'fixed1h' };
    expect(await errorsOf(bulk([], mode))).toEqual({ imeis: ['BulkSelectUnits'] });
    expect(await errorsOf(call('POST', BULK, admin, { action: mode }))).toEqual({ imeis: ['BulkSelectUnits'] });
    expect(await errorsOf(bulk(Array.from({ length: 101 }, (_, i) => demoImei(200 + i)), mode))).toEqual({ imeis: ['BulkTooManyUnits'] });
    expect(await errorsOf(bulk([demoImei(0)], { type: 'projects' }))).toEqual({ 'action.type': ['BulkInvalidAction'] });
    expect(await errorsOf(bulk([demoImei(0)], { type: 'departments' }))).toEqual({ 'action.ids': ['BulkSelectDepartments'] });
    expect(await errorsOf(bulk([demoImei(0)], { type: 'tags', ids: Array.from({ length: 21 }, (_, i) => `t-${i}`) }))).toEqual({ 'action.ids': ['BulkTooManyOrganisationItems'] });
    expect(await errorsOf(bulk([demoImei(0)], { type: 'operatingMode', mode: 'sometimes' }))).toEqual({ 'action.mode': ['InvalidOperatingMode'] });
    expect(await errorsOf(bulk([demoImei(0)], { type: 'dout', output: 4, on: true, durationSeconds: 65_001 }))).toEqual({
      'action.output': ['InvalidOutput'],
      'action.durationSeconds': ['DoutDurationInvalid'],
    });
    expect(await errorsOf(bulk([demoImei(0)], { type: 'alarmReceivers', receiverIds: [] }))).toEqual({ 'action.receiverIds': ['BulkSelectReceivers'] });
    // 100 units is allowed.
    const hundred = await resultsOf(bulk(Array.from({ length: 100 }, (_, i) => demoImei(200 + i)), mode));
    expect(hundred.every((r) => r.error === 'BulkUnitNotFound')).toBe(true);
  });
});

describe('device commands for many units', () => {
  it('sends the operating mode to each unit, answers per unit in order, and never touches units the caller may not see', async () => {
    const [a, b] = [await newUnit(), await newUnit()];
    const tracker = await connectTracker(a);
    try {
      const unknown = demoImei(999);
      const results = await resultsOf(bulk([a, otherImei, b, unknown, a], { type: 'operatingMode', mode: 'realtime5min' }));
      expect(results.map((r) => [r.imei, r.ok, r.error])).toEqual([
        [a, true, null],
        [otherImei, false, 'BulkUnitNotFound'],
        [b, true, null],
        [unknown, false, 'BulkUnitNotFound'],
      ]);
      const [ra, , rb] = results;
      // Each unit got its own pending command; the one whose tracker answered is acknowledged.
      await eventually(() => commandsOf(a), (c) => c[0]?.id === ra?.commandId && c[0]?.status === 'acknowledged', 'the acknowledged mode');
      expect((await commandsOf(b))[0]).toMatchObject({ id: rb?.commandId, type: 'operatingMode', status: 'pending', params: { mode: 'realtime5min' } });
      expect(await commandsOf(otherImei, other)).toEqual([]);
    } finally {
      await tracker.endAsync();
    }
  });

  it('switches an output on many units; a unit whose DOUT awaits its answer is refused alone', async () => {
    const [answering, silent] = [await newUnit(), await newUnit()];
    const tracker = await connectTracker(answering);
    try {
      const dout = { type: 'dout', output: 2, on: true, durationSeconds: 30 };
      const first = await resultsOf(bulk([answering, silent], dout));
      expect(first.map((r) => r.ok)).toEqual([true, true]);
      await eventually(() => commandsOf(answering), (c) => c[0]?.status === 'acknowledged', 'the answer');
      const second = await resultsOf(bulk([answering, silent], { ...dout, on: false }));
      expect(second.map((r) => [r.imei, r.ok, r.error])).toEqual([
        [answering, true, null],
        [silent, false, 'DoutAwaitingAnswer'],
      ]);
      expect((await commandsOf(silent)).map((c) => c.status)).toEqual(['pending']);
    } finally {
      await tracker.endAsync();
    }
  });

  it('gives an ordinary user their granted units only, and refuses a unit locked by someone else', async () => {
    const notGranted = await newUnit();
    const results = await resultsOf(bulk([demoImei(0), notGranted], { type: 'operatingMode', mode: 'fixed24h' }, user));
    expect(results.map((r) => [r.imei, r.ok, r.error])).toEqual([
      [demoImei(0), true, null],
      [notGranted, false, 'BulkUnitNotFound'],
    ]);
    expect(await commandsOf(notGranted)).toEqual([]);
    const locked = await newUnit(admin.accountId, { lockedBy: user.userId, lockedByName: 'Erik Lind', lockedAt: new Date().toISOString() });
    const refused = await resultsOf(bulk([locked], { type: 'operatingMode', mode: 'fixed24h' }));
    expect(refused).toEqual([{ imei: locked, ok: false, error: 'TrackerIsLocked', commandId: null }]);
    expect(await commandsOf(locked)).toEqual([]);
    // The locker may.
    const mine = await newUnit(admin.accountId, { lockedBy: admin.userId, lockedByName: 'Alva Andersson', lockedAt: new Date().toISOString() });
    expect((await resultsOf(bulk([mine], { type: 'operatingMode', mode: 'fixed24h' })))[0]).toMatchObject({ ok: true, error: null });
  });
});

describe('alarm receivers for many units', () => {
  const receiverUnits = async (id: string) =>
    ((await dynamo().send(new GetCommand({ TableName: tableName('alarmReceivers'), Key: { accountId: admin.accountId, id }, ConsistentRead: true }))).Item?.['gpsImeis'] ?? []) as string[];

  async function newReceiver(name: string): Promise<string> {
    const r = await call<{ id: string }>('POST', '/api/v1/administration/alarm-receivers', admin, {
      member_id: null, name, email: `${name.toLowerCase().replace(/\s/g, '')}@example.se`, country_code: '46', phone: '', push_notification: false, function_alarm: 1, security_alarm: 1,
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return r.body.data?.id as string;
  }

  it("adds the units to each receiver's units, keeping the ones it had; foreign units are reported, not added", async () => {
    const [had, a, b] = [await newUnit(), await newUnit(), await newUnit()];
    const [first, second] = [await newReceiver('Night guard'), await newReceiver('Day guard')];
    expect((await call('POST', '/api/v1/administration/alarm-receivers/assign', admin, { receiver_id: first, terminals: [{ terminal_id: had, device_type: 'gps' }] })).status).toBe(200);
    const results = await resultsOf(bulk([a, otherImei, b], { type: 'alarmReceivers', receiverIds: [first, second] }));
    expect(results.map((r) => [r.imei, r.ok, r.error])).toEqual([
      [a, true, null],
      [otherImei, false, 'BulkUnitNotFound'],
      [b, true, null],
    ]);
    expect((await receiverUnits(first)).sort()).toEqual([had, a, b].sort());
    expect((await receiverUnits(second)).sort()).toEqual([a, b].sort());
  });

  it('refuses an unknown receiver, and ordinary users', async () => {
    const unit = await newUnit();
    const known = await newReceiver('Known guard');
    expect(await errorsOf(bulk([unit], { type: 'alarmReceivers', receiverIds: [known, 'ar-0000000000000000'] }))).toEqual({ 'action.receiverIds.1': ['BulkReceiverNotFound'] });
    expect(await receiverUnits(known)).toEqual([]);
    const forbidden = await bulk([demoImei(0)], { type: 'alarmReceivers', receiverIds: [known] }, user);
    expect([forbidden.status, forbidden.body.errors]).toEqual([403, 'NoAccessToAdministratorPages']);
  });

  it('leaves a locked unit as it is', async () => {
    const locked = await newUnit(admin.accountId, { lockedBy: admin.userId, lockedByName: 'Alva Andersson', lockedAt: new Date().toISOString() });
    const open = await newUnit();
    const receiver = await newReceiver('Lock guard');
    const results = await resultsOf(bulk([locked, open], { type: 'alarmReceivers', receiverIds: [receiver] }));
    expect(results.map((r) => [r.ok, r.error])).toEqual([
      [false, 'UnitIsLocked'],
      [true, null],
    ]);
    expect(await receiverUnits(receiver)).toEqual([open]);
    await dynamo().send(new UpdateCommand({ TableName: tableName('units'), Key: { imei: locked }, UpdateExpression: 'REMOVE lockedBy, lockedByName, lockedAt' }));
    expect((await resultsOf(bulk([locked, open], { type: 'alarmReceivers', receiverIds: [receiver] }))).map((r) => r.ok)).toEqual([true, true]);
  });
});

describe('departments and tags', () => {
  const unitsNamed = async (imeis: string[]) => {
    const list = (await call<UnitListItem[]>('GET', '/api/v1/user/units', admin)).body.data ?? [];
    return imeis.map((imei) => list.find((u) => u.imei === imei));
  };
  const newItem = async (kind: 'departments' | 'tags', name: string, who: Caller = admin) => {
    const r = await call<{ id: string }>('POST', `/api/v1/administration/organisation/${kind}`, who, { name });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    return r.body.data?.id as string;
  };

  it('adds departments and tags to each unit, keeping what it carried; foreign units are reported, not touched', async () => {
    const [a, b] = [await newUnit(), await newUnit()];
    const [north, south] = [await newItem('departments', 'North depot'), await newItem('departments', 'South depot')];
    const cold = await newItem('tags', 'Cold chain');
    expect((await call('PUT', `/api/v1/administration/organisation/departments/${north}/assignments`, admin, { imeis: [a] })).status).toBe(200);

    const results = await resultsOf(bulk([a, otherImei, b], { type: 'departments', ids: [north, south] }));
    expect(results.map((r) => [r.imei, r.ok, r.error, r.commandId])).toEqual([
      [a, true, null, null],
      [otherImei, false, 'BulkUnitNotFound', null],
      [b, true, null, null],
    ]);
    expect((await resultsOf(bulk([b], { type: 'tags', ids: [cold] }))).map((r) => r.ok)).toEqual([true]);
    const [ua, ub] = await unitsNamed([a, b]);
    expect(ua?.departments.slice().sort()).toEqual(['North depot', 'South depot']);
    expect(ub?.departments.slice().sort()).toEqual(['North depot', 'South depot']);
    expect(ub?.tags).toEqual(['Cold chain']);
    // Another account's unit carries nothing of ours.
    const foreign = await dynamo().send(new GetCommand({ TableName: tableName('units'), Key: { imei: otherImei } }));
    expect(foreign.Item?.['departmentIds']).toBeUndefined();
  });

  it("refuses an item that is not the account's, an empty choice, and ordinary users", async () => {
    const unit = await newUnit();
    const mine = await newItem('tags', 'Leased');
    const stranger = await newItem('tags', 'Theirs', other);
    expect(await errorsOf(bulk([unit], { type: 'tags', ids: [mine, stranger] }))).toEqual({ 'action.ids.1': ['BulkOrganisationItemNotFound'] });
    expect(await errorsOf(bulk([unit], { type: 'departments', ids: [] }))).toEqual({ 'action.ids': ['BulkSelectDepartments'] });
    const [untouched] = await unitsNamed([unit]);
    expect(untouched?.tags).toEqual([]);
    const forbidden = await bulk([demoImei(0)], { type: 'tags', ids: [mine] }, user);
    expect([forbidden.status, forbidden.body.errors]).toEqual([403, 'NoAccessToAdministratorPages']);
  });
});
