/**
 * RFID cards and readers end to end on the embedded runtime: every validation key, the account's
 * RFID flag (403 RfidNotIncluded), card ids unique when adds race, pairing through the device
 * command service acknowledged (or refused) by a tracker on the MQTT broker, a reader that belongs
 * to one unit also when two pairings race, another account's token answered 404 or nothing, and a
 * card read in telemetry checking its owner in as the driver exactly once.
 */
import { GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import mqtt from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RfidCard, RfidCardList } from '../../shared/schemas/rfid';
import { dynamo, tableName } from '../../functions/platform/db';
import type { UnitRecord } from '../../functions/domain/unit/schema';
import type { EmbeddedRuntime } from '../../infra/local/runtime';
import { demoImei } from '../../infra/local/seed';
import { answerCommand, commandTopic } from '../../infra/local/simulator/protocol';
import { SimulatedVehicle } from '../../infra/local/simulator/vehicle';
import { callAs, callerFor, demoCallers, type Caller, type Reply } from '../support/api-caller';
import { DEMO_REGISTERED_AT } from '../support/positions';
import { startRuntime } from '../support/runtime';
import { createTestUser } from '../support/sessions';
import { eventually } from '../support/eventually';

const ADMIN = '/api/v1/administration/rfid-cards';
const APP = '/api/v1/user/rfid-cards';
let rt: EmbeddedRuntime;
let admin: Caller;
let user: Caller;
let other: Caller;
let noRfid: Caller;
let otherImei: string;
let spare = 0;
let cards = 0;

const call = <T>(method: string, path: string, who: Caller | null, body?: unknown) => callAs<T>(rt.url, method, path, who, body);
const add = (body: unknown, who: Caller = admin) => call<{ cardId: string }>('POST', APP, who, body);
const list = async (who: Caller = admin) => (await call<RfidCardList>('GET', ADMIN, who)).body.data as RfidCardList;
const update = (id: string, body: unknown, who: Caller = admin) => call<RfidCard>('PUT', `${ADMIN}/${id}`, who, body);
const pair = (id: string, body: unknown, who: Caller = admin) => call<RfidCard>('POST', `${ADMIN}/${id}/pair`, who, body);
const unpair = (id: string, who: Caller = admin) => call<RfidCard>('POST', `${ADMIN}/${id}/unpair`, who);
const remove = (id: string, who: Caller = admin) => call<null>('DELETE', `${ADMIN}/${id}`, who);
const errorsOf = async (reply: Promise<Reply<unknown>>) => {
  const r = await reply;
  expect(r.status, JSON.stringify(r.body)).toBe(422);
  return r.body.errors;
};
const cardOf = async (id: string, who: Caller = admin) => (await list(who)).cards.find((c) => c.cardId === id);

/** A unit of an account of its own (not granted to the demo's ordinary user). */
async function newUnit(accountId = admin.accountId, protocol: UnitRecord['protocol'] = 'native'): Promise<string> {
  const imei = demoImei(600 + spare++);
  const unit: UnitRecord = { imei, accountId, name: `Reader car ${spare}`, vehicleType: 'car', protocol, createdAt: DEMO_REGISTERED_AT.toISOString() };
  await dynamo().send(new PutCommand({ TableName: tableName('units'), Item: unit }));
  return imei;
}

/** A card of the demo account owned by the admin; answers its id. */
async function newCard(extra: Record<string, unknown> = {}, who: Caller = admin): Promise<string> {
  const cardId = `CARD-${++cards}-${Math.random().toString(16).slice(2, 8).toUpperCase()}`;
  const r = await add({ cardId, name: `Card ${cards}`, ...extra }, who);
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return cardId;
}

interface Tracker {
  client: mqtt.MqttClient;
  received: unknown[];
}
/** A native tracker on the broker answering commands as the simulated fleet does, or refusing them. */
async function connectTracker(imei: string, refuse = false): Promise<Tracker> {
  const client = await mqtt.connectAsync(rt.mqttUrl, { clientId: imei, reconnectPeriod: 0, connectTimeout: 5000 });
  const vehicle = new SimulatedVehicle({ index: 0, imei, vehicleType: 'car', seed: 7, start: Date.now() });
  const tracker: Tracker = { client, received: [] };
  client.on('message', (_topic, payload) => {
    const command = JSON.parse(payload.toString()) as { id: string };
    tracker.received.push(command);
    const answer = refuse
      ? { topic: `trackers/${imei}/ack`, payload: JSON.stringify({ id: command.id, ok: false, error: 'ReaderFull' }) }
      : answerCommand('native', vehicle, payload);
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
  await dynamo().send(new UpdateCommand({ TableName: tableName('accounts'), Key: { accountId: other.accountId }, UpdateExpression: 'SET features.rfid = :t', ExpressionAttributeValues: { ':t': true } }));
  otherImei = await newUnit(other.accountId);
  const plain = await createTestUser();
  noRfid = await callerFor(plain.username, plain.password);
});

afterAll(async () => {
  await rt?.stop();
});

describe('the account feature and roles', () => {
  it('answers 403 RfidNotIncluded to an account without RFID, on every route', async () => {
    for (const [method, path, body] of [
      ['GET', ADMIN, undefined],
      ['POST', APP, { cardId: 'A1', name: 'x' }],
      ['PUT', `${ADMIN}/A1`, { name: 'x', userId: noRfid.userId }],
      ['DELETE', `${ADMIN}/A1`, undefined],
      ['POST', `${ADMIN}/A1/pair`, { imei: demoImei(0), readerId: 'R1' }],
      ['POST', `${ADMIN}/A1/unpair`, undefined],
    ] as const) {
      const r = await call(method, path, noRfid, body);
      expect([r.status, r.body.errors], `${method} ${path}`).toEqual([403, 'RfidNotIncluded']);
    }
  });

  it('keeps the card pages to admins; an ordinary user adds cards of their own in the app only', async () => {
    expect((await call('GET', ADMIN, user)).status).toBe(403);
    expect(await errorsOf(add({ cardId: 'USERS-OTHER', name: 'Not mine', userId: admin.userId }, user))).toEqual({ userId: ['RfidCardOwnerInvalid'] });
    const own = await newCard({}, user);
    const card = await cardOf(own);
    expect(card).toMatchObject({ userId: user.userId, userName: 'Erik Lind', reader: null });
    expect((await update(own, { name: 'x', userId: user.userId }, user)).status).toBe(403);
  });
});

describe('adding and editing cards: validation', () => {
  it('answers every field problem of an add with its message key', async () => {
    expect(await errorsOf(add({ name: 'Card' }))).toEqual({ cardId: ['RfidCardIdRequired'] });
    expect(await errorsOf(add({ cardId: '   ', name: 'Card' }))).toEqual({ cardId: ['RfidCardIdRequired'] });
    expect(await errorsOf(add({ cardId: 'no spaces', name: 'Card' }))).toEqual({ cardId: ['RfidCardIdInvalid'] });
    expect(await errorsOf(add({ cardId: 'A'.repeat(33), name: 'Card' }))).toEqual({ cardId: ['RfidCardIdInvalid'] });
    expect(await errorsOf(add({ cardId: 'OK1', name: ' ' }))).toEqual({ name: ['RfidCardNameRequired'] });
    expect(await errorsOf(add({ cardId: 'OK1' }))).toEqual({ name: ['RfidCardNameRequired'] });
    expect(await errorsOf(add({ cardId: 'OK1', name: 'x'.repeat(51) }))).toEqual({ name: ['RfidCardNameTooLong'] });
    expect(await errorsOf(add({ cardId: 'OK1', name: 'Card', description: 'x'.repeat(201) }))).toEqual({ description: ['RfidDescriptionTooLong'] });
    expect(await errorsOf(add({ cardId: 'OK1', name: 'Card', userId: other.userId }))).toEqual({ userId: ['RfidCardOwnerInvalid'] });
    // The edges are accepted, and a lower-case id is stored upper case.
    const r = await add({ cardId: `a${'b'.repeat(31)}`, name: 'x'.repeat(50), description: 'd'.repeat(200), userId: user.userId });
    expect([r.status, r.body.data]).toEqual([201, { cardId: `A${'B'.repeat(31)}` }]);
  });

  it('answers every field problem of an edit with its key, and saves name, owner and description', async () => {
    const id = await newCard();
    expect(await errorsOf(update(id, { name: '', description: 'x'.repeat(201) }))).toEqual({
      name: ['RfidCardNameRequired'],
      userId: ['RfidCardOwnerRequired'],
      description: ['RfidDescriptionTooLong'],
    });
    expect(await errorsOf(update(id, { name: 'Van key', userId: other.userId }))).toEqual({ userId: ['RfidCardOwnerInvalid'] });
    const saved = await update(id, { name: 'Van key', userId: user.userId, description: 'Blue tag' });
    expect(saved.status).toBe(200);
    expect(saved.body.data).toMatchObject({ cardId: id, name: 'Van key', userId: user.userId, userName: 'Erik Lind', description: 'Blue tag', reader: null });
    expect(await cardOf(id)).toEqual(saved.body.data);
    expect((await update('NO-SUCH-CARD', { name: 'x', userId: user.userId })).body.errors).toBe('RfidCardNotFound');
  });

  it('keeps card ids unique in the account when adds of one id race', async () => {
    const id = `RACE-${Date.now()}`;
    const replies = await Promise.all(
      ['', 'x', 'y', 'z', 'w', 'v'].map((suffix, i) => add({ cardId: i % 2 ? id.toLowerCase() : id, name: `Racer ${suffix}` })),
    );
    expect(replies.filter((r) => r.status === 201)).toHaveLength(1);
    for (const r of replies.filter((x) => x.status !== 201)) expect([r.status, r.body.errors]).toEqual([422, { cardId: ['RfidCardIdTaken'] }]);
    expect((await list()).cards.filter((c) => c.cardId === id)).toHaveLength(1);
    // Another account may have the same id.
    expect((await add({ cardId: id, name: 'Theirs' }, other)).status).toBe(201);
  });

  it('lists the cards by name with the users to choose an owner from; a new account has none', async () => {
    const data = await list();
    const names = data.cards.map((c) => c.name);
    expect(names).toEqual([...names].sort((a, b) => new Intl.Collator('en', { sensitivity: 'base', numeric: true }).compare(a, b)));
    expect(data.users.map((u) => u.name)).toEqual(expect.arrayContaining(['Alva Andersson', 'Erik Lind']));
    const fresh = await createTestUser();
    const freshCaller = await callerFor(fresh.username, fresh.password);
    await dynamo().send(new UpdateCommand({ TableName: tableName('accounts'), Key: { accountId: fresh.accountId }, UpdateExpression: 'SET features.rfid = :t', ExpressionAttributeValues: { ':t': true } }));
    expect((await list(freshCaller)).cards).toEqual([]);
  });
});

describe('pairing a card with a unit\'s reader', () => {
  it('validates the unit and the reader id', async () => {
    const id = await newCard();
    expect(await errorsOf(pair(id, { imei: '123', readerId: '' }))).toEqual({ imei: ['RfidUnitNotFound'], readerId: ['RfidReaderIdRequired'] });
    expect(await errorsOf(pair(id, { imei: demoImei(0), readerId: 'bad reader' }))).toEqual({ readerId: ['RfidReaderIdInvalid'] });
    expect(await errorsOf(pair(id, { imei: otherImei, readerId: 'R-OTHER' }))).toEqual({ imei: ['RfidUnitNotFound'] });
    expect(await errorsOf(pair(id, { imei: await newUnit(admin.accountId, 'teltonika'), readerId: 'R-TELTONIKA' }))).toEqual({ imei: ['RfidPairNotSupported'] });
    expect((await pair('NO-SUCH-CARD', { imei: demoImei(0), readerId: 'R1' })).status).toBe(404);
  });

  it('sends pairRfid to the tracker: pending, then paired once it acknowledges over MQTT', async () => {
    const imei = await newUnit();
    const tracker = await connectTracker(imei);
    try {
      const id = await newCard();
      const reader = `R-ACK-${spare}`;
      const r = await pair(id, { imei, readerId: reader.toLowerCase() });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      expect(r.body.data?.reader).toMatchObject({ imei, readerId: reader, unitName: expect.stringMatching(/^Reader car/) });
      expect(['pending', 'paired']).toContain(r.body.data?.reader?.status);
      const paired = await eventually(() => cardOf(id), (c) => c?.reader?.status === 'paired', 'the acknowledged pairing');
      expect(tracker.received).toEqual([{ id: paired?.reader?.commandId, type: 'pairRfid', params: { readerId: reader, cardId: id, paired: true } }]);
      // Unpairing tells the reader to forget the card.
      const off = await unpair(id);
      expect([off.status, off.body.data?.reader]).toEqual([200, null]);
      await eventually(async () => tracker.received, (m) => m.length === 2, 'the unpair command');
      expect(tracker.received[1]).toMatchObject({ type: 'pairRfid', params: { readerId: reader, cardId: id, paired: false } });
      expect((await unpair(id)).body.errors).toBe('RfidCardNotPaired');
    } finally {
      await tracker.client.endAsync();
    }
  });

  it('shows a refused pairing as failed', async () => {
    const imei = await newUnit();
    const tracker = await connectTracker(imei, true);
    try {
      const id = await newCard();
      expect((await pair(id, { imei, readerId: `R-NO-${spare}` })).status).toBe(200);
      await eventually(() => cardOf(id), (c) => c?.reader?.status === 'failed', 'the refused pairing');
    } finally {
      await tracker.client.endAsync();
    }
  });

  it('keeps a reader on one unit when pairings on two units race, and frees it once no card is paired with it', async () => {
    const [u1, u2] = [await newUnit(), await newUnit()];
    const reader = `R-RACE-${Date.now()}`;
    const ids = await Promise.all([newCard(), newCard(), newCard(), newCard()]);
    const replies = await Promise.all(ids.map((id, i) => pair(id, { imei: i % 2 ? u2 : u1, readerId: reader })));
    const winners = replies.filter((r) => r.status === 200);
    const unit = winners[0]?.body.data?.reader?.imei;
    expect(unit).toBeDefined();
    // Every pairing that won put the reader on the same unit; every other was refused.
    for (const r of winners) expect(r.body.data?.reader?.imei).toBe(unit);
    for (const r of replies.filter((x) => x.status !== 200)) expect([r.status, r.body.errors]).toEqual([409, 'RfidReaderAlreadyPaired']);
    expect(winners.length).toBeGreaterThanOrEqual(1);
    expect(winners.length).toBeLessThanOrEqual(2);
    const otherUnit = unit === u1 ? u2 : u1;
    // While a card is paired with it the reader stays; unpaired, it may go on the other unit.
    expect((await pair(ids[0] as string, { imei: otherUnit, readerId: reader })).body.errors).toBe('RfidReaderAlreadyPaired');
    for (const r of winners) expect((await unpair(r.body.data?.cardId as string)).status).toBe(200);
    const moved = await pair(ids[0] as string, { imei: otherUnit, readerId: reader });
    expect([moved.status, moved.body.data?.reader?.imei]).toEqual([200, otherUnit]);
  });
});

describe('another account', () => {
  it('gets nothing of this account\'s cards', async () => {
    const id = await newCard();
    expect((await list(other)).cards.map((c) => c.cardId)).not.toContain(id);
    expect((await update(id, { name: 'Mine now', userId: other.userId }, other)).status).toBe(404);
    expect((await pair(id, { imei: otherImei, readerId: 'R-THEIRS' }, other)).status).toBe(404);
    expect((await unpair(id, other)).status).toBe(404);
    expect((await remove(id, other)).status).toBe(404);
    expect((await cardOf(id))?.name).toMatch(/^Card /);
  });
});

describe('deleting a card', () => {
  it('deletes it, unpairing it from its reader first', async () => {
    const imei = await newUnit();
    const tracker = await connectTracker(imei);
    try {
      const id = await newCard();
      const reader = `R-DEL-${spare}`;
      expect((await pair(id, { imei, readerId: reader })).status).toBe(200);
      expect((await remove(id)).status).toBe(200);
      expect(await cardOf(id)).toBeUndefined();
      await eventually(async () => tracker.received, (m) => m.length === 2, 'the unpair command');
      expect(tracker.received[1]).toMatchObject({ type: 'pairRfid', params: { readerId: reader, cardId: id, paired: false } });
      expect((await remove(id)).body.errors).toBe('RfidCardNotFound');
      // The reader is free again.
      expect((await pair(await newCard(), { imei: await newUnit(), readerId: reader })).status).toBe(200);
    } finally {
      await tracker.client.endAsync();
    }
  });
});

describe('a card read in telemetry', () => {
  const checkIns = async (imei: string) =>
    ((await dynamo().send(new QueryCommand({ TableName: tableName('driverCheckIns'), KeyConditionExpression: 'imei = :i', ExpressionAttributeValues: { ':i': imei }, ConsistentRead: true }))).Items ?? []) as Array<{
      driverId: string;
      fromTs: number;
      createdAt: number;
    }>;

  it('checks the card\'s owner in as the driver from the trip\'s start, once however often the message is delivered', async () => {
    const imei = await newUnit();
    const id = await newCard();
    expect((await update(id, { name: 'Erik\'s card', userId: user.userId })).status).toBe(200);
    const tracker = await mqtt.connectAsync(rt.mqttUrl, { clientId: imei, reconnectPeriod: 0 });
    try {
      const start = Date.now() - 10 * 60_000;
      const records = [
        { ts: start, lat: 59.33, lon: 18.06, ign: true, sat: 9 },
        { ts: start + 30_000, lat: 59.331, lon: 18.06, ign: true, spd: 20, sat: 9, rfid: id.toLowerCase() },
        { ts: start + 70_000, lat: 59.332, lon: 18.06, ign: true, spd: 30, sat: 9, rfid: id },
      ];
      const message = JSON.stringify({ records });
      await tracker.publishAsync(`trackers/${imei}/telemetry`, message, { qos: 1 });
      const found = await eventually(() => checkIns(imei), (c) => c.length >= 1, 'the check-in');
      expect(found).toEqual([expect.objectContaining({ driverId: user.userId, fromTs: start })]);
      const first = found[0]?.createdAt;
      // Redelivered: nothing more.
      await tracker.publishAsync(`trackers/${imei}/telemetry`, message, { qos: 1 });
      await tracker.publishAsync(`trackers/${imei}/telemetry`, JSON.stringify({ ts: start + 110_000, lat: 59.333, lon: 18.06, ign: true, sat: 9, rfid: id }), { qos: 1 });
      const unitTs = async () => (await dynamo().send(new GetCommand({ TableName: tableName('units'), Key: { imei }, ConsistentRead: true }))).Item?.['state']?.ts as number | undefined;
      await eventually(unitTs, (ts) => ts === start + 110_000, 'the last record');
      await rt.settled();
      // One check-in, written once (a second send would have written it again, later).
      expect(await checkIns(imei)).toEqual([expect.objectContaining({ driverId: user.userId, fromTs: start, createdAt: first })]);
      const unit = (await call<Array<{ imei: string; driver: string | null }>>('GET', '/api/v1/user/units', admin)).body.data?.find((u) => u.imei === imei);
      expect(unit?.driver).toBe('Erik Lind');
    } finally {
      await tracker.endAsync();
    }
  });

  it('notes a card the account does not have, checking nobody in', async () => {
    const imei = await newUnit();
    const tracker = await mqtt.connectAsync(rt.mqttUrl, { clientId: imei, reconnectPeriod: 0 });
    try {
      const unknown = `STRANGER-${spare}`;
      await tracker.publishAsync(`trackers/${imei}/telemetry`, JSON.stringify({ ts: Date.now() - 60_000, lat: 59.33, lon: 18.06, ign: true, rfid: unknown }), { qos: 1 });
      const noted = await eventually(async () => (await list()).unknownReads.find((r) => r.cardId === unknown), (r) => r !== undefined, 'the note');
      expect(noted).toMatchObject({ imei, reads: 1, unitName: expect.stringMatching(/^Reader car/) });
      expect(await checkIns(imei)).toEqual([]);
      // Added in the app, it is no longer unknown.
      expect((await add({ cardId: unknown, name: 'Found' })).status).toBe(201);
      expect((await list()).unknownReads.find((r) => r.cardId === unknown)).toBeUndefined();
    } finally {
      await tracker.endAsync();
    }
  });
});
