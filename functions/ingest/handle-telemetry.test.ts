/**
 * The telemetry handler against DynamoDB Local: storage, idempotence, order tolerance, the latest
 * state, dead letters and the live channel (a recording LiveBus in place of the broker).
 */
import { randomUUID } from 'node:crypto';
import { GetCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { IotRuleEvent } from '../../shared/iot-rules';
import { unitStateSchema } from '../../shared/schemas/tracking';
import { imeiFrom } from '../../shared/validators/imei';
import { useLocalTables } from '../../test/support/local-tables';
import { overridePorts } from '../platform/container';
import { dynamo, tableName } from '../platform/db';
import type { LiveMessage } from '../platform/ports';
import { DEAD_LETTER_PAYLOAD_BYTES } from './dead-letters';
import { handler } from './handle-telemetry';
import { DEFAULT_RETENTION_DAYS } from './repository';
import { storeUnitState } from '../../test/support/unit-state';
import type { UnitState } from './types';
import { deadLettersOf } from '../../test/support/dead-letters';
import { markLiveWatched } from '../domain/account/live-watch';
import { positionsOfItem } from './position-codec';

const NOW = Math.floor(Date.now() / 1000) * 1000;
const ACCOUNT = `acc-${randomUUID()}`;
const RETENTION_DAYS = 30;
let serial = 0;
const nextImei = () => imeiFrom(`35693809${String(200000 + serial++).padStart(6, '0')}`);

let live: Array<{ accountId: string; imei: string; message: LiveMessage }> = [];
let liveFails = false;

async function registerUnit(imei: string, accountId = ACCOUNT): Promise<string> {
  await dynamo().send(new PutCommand({ TableName: tableName('units'), Item: { imei, accountId, name: `Unit ${imei}`, vehicleType: 'car', protocol: 'native' } }));
  await dynamo().send(new PutCommand({ TableName: tableName('inventory'), Item: { imei, registered: true, accountId } }));
  return imei;
}

function telemetry(imei: string, body: unknown, receivedAt = NOW, topic = `trackers/${imei}/telemetry`): IotRuleEvent {
  const raw = typeof body === 'string' ? body : JSON.stringify(body);
  return { payload: Buffer.from(raw).toString('base64'), topic, imei, receivedAt };
}

async function positions(imei: string) {
  const out = await dynamo().send(new QueryCommand({ TableName: tableName('positions'), KeyConditionExpression: 'imei = :i', ExpressionAttributeValues: { ':i': imei }, ConsistentRead: true }));
  return (out.Items ?? []).flatMap(positionsOfItem).sort((a, b) => a.ts - b.ts);
}

async function unitItem(imei: string) {
  return (await dynamo().send(new GetCommand({ TableName: tableName('units'), Key: { imei }, ConsistentRead: true }))).Item;
}

async function stateOf(imei: string): Promise<UnitState | undefined> {
  return (await unitItem(imei))?.['state'] as UnitState | undefined;
}

const deadLetters = (imei: string) => deadLettersOf(imei, NOW);

const rec = (ts: number, over: Record<string, unknown> = {}) => ({ ts, lat: 59.3293, lon: 18.0686, sat: 9, ...over });

beforeAll(async () => {
  await useLocalTables();
  await dynamo().send(new PutCommand({ TableName: tableName('accounts'), Item: { accountId: ACCOUNT, name: 'Ingest AB', retentionDays: RETENTION_DAYS } }));
});

beforeEach(async () => {
  // A browser watches the account (its live authorization marked it in this process).
  await markLiveWatched([ACCOUNT]);
  live = [];
  liveFails = false;
  overridePorts({
    live: {
      async publish({ accountId, imei }, message) {
        if (liveFails) throw new Error('broker down');
        live.push({ accountId, imei, message });
      },
    },
  });
});

describe('native positions', () => {
  it('stores a single record with the TTL of the account, sets the state and publishes it live', async () => {
    const imei = await registerUnit(nextImei());
    const ts = NOW - 30_000;
    const result = await handler(
      telemetry(imei, rec(ts, { spd: 63, hdg: 181, ign: true, mov: true, odo: 42_000, hrs: 7200, pwr: 13.7, bat: 4.05, din: { '2': true }, dout: { '1': false }, rfid: 'CARD-7' })),
    );
    expect(result).toMatchObject({ outcome: 'positions', stored: 1, duplicates: 0, stateAdvanced: true, published: true });

    const [stored] = await positions(imei);
    expect(stored).toEqual({
      imei,
      ts,
      lat: 59.3293,
      lon: 18.0686,
      sats: 9,
      speed: 63,
      heading: 181,
      ignition: true,
      movement: true,
      odometer: 42_000,
      engineSeconds: 7200,
      extVolts: 13.7,
      batVolts: 4.05,
      din: { '2': true },
      dout: { '1': false },
      rfid: 'CARD-7',
      receivedAt: NOW,
      expiresAt: Math.floor(ts / 1000) + RETENTION_DAYS * 86_400,
    });

    const state = await stateOf(imei);
    expect(state).toEqual({
      ts,
      lat: 59.3293,
      lon: 18.0686,
      speed: 63,
      heading: 181,
      sats: 9,
      ignition: true,
      movement: true,
      extVolts: 13.7,
      batVolts: 4.05,
      din: { '2': true },
      dout: { '1': false },
      odometer: 42_000,
      engineSeconds: 7200,
      lastSeen: NOW,
    });
    expect(live).toEqual([
      {
        accountId: ACCOUNT,
        imei,
        message: {
          type: 'position',
          imei,
          ts: new Date(ts).toISOString(),
          lat: 59.3293,
          lon: 18.0686,
          speed: 63,
          heading: 181,
          alt: null,
          ignition: true,
          movement: true,
          extVolts: 13.7,
          batVolts: 4.05,
          din: { '2': true },
          dout: { '1': false },
          odometer: 42_000,
          engineSeconds: 7200,
          lastSeen: new Date(NOW).toISOString(),
        },
      },
    ]);
    // The browser parses it with the same schema as GET /realtime/units.
    expect(unitStateSchema.safeParse(live[0]?.message).success).toBe(true);
    // The unit item keeps its other attributes.
    expect(await unitItem(imei)).toMatchObject({ name: `Unit ${imei}`, accountId: ACCOUNT });
  });

  it('stores every record of a buffered batch and publishes only the newest', async () => {
    const imei = await registerUnit(nextImei());
    const tss = [NOW - 50_000, NOW - 40_000, NOW - 30_000];
    const result = await handler(telemetry(imei, { records: [rec(tss[1]!), rec(tss[2]!, { lat: 59.33 }), rec(tss[0]!)] }));
    expect(result).toMatchObject({ stored: 3, stateAdvanced: true, published: true });
    expect((await positions(imei)).map((p) => p['ts'])).toEqual(tss);
    expect(await stateOf(imei)).toMatchObject({ ts: tss[2], lat: 59.33 });
    expect(live).toHaveLength(1);
    expect(live[0]?.message).toMatchObject({ type: 'position', ts: new Date(tss[2]!).toISOString() });
  });

  it('uses the default retention of 13 months when the account sets none', async () => {
    const account = `acc-${randomUUID()}`;
    await dynamo().send(new PutCommand({ TableName: tableName('accounts'), Item: { accountId: account, name: 'No retention' } }));
    await markLiveWatched([account]);
    const imei = await registerUnit(nextImei(), account);
    await handler(telemetry(imei, rec(NOW - 1000)));
    const [stored] = await positions(imei);
    expect(stored?.['expiresAt']).toBe(Math.floor((NOW - 1000) / 1000) + DEFAULT_RETENTION_DAYS * 86_400);
    expect(DEFAULT_RETENTION_DAYS).toBe(395);
    expect(live[0]?.accountId).toBe(account);
  });
});

describe('idempotence and order', () => {
  it('changes nothing when the same message is delivered again, not even lastSeen, and publishes once', async () => {
    const imei = await registerUnit(nextImei());
    const message = { records: [rec(NOW - 20_000), rec(NOW - 10_000, { ign: true })] };
    const first = await handler(telemetry(imei, message, NOW));
    const before = { positions: await positions(imei), state: await stateOf(imei) };

    const again = await handler(telemetry(imei, message, NOW + 5000));
    expect(first).toMatchObject({ stored: 2, stateAdvanced: true, published: true });
    expect(again).toMatchObject({ stored: 0, duplicates: 2, stateAdvanced: false, published: false });
    expect(await positions(imei)).toEqual(before.positions);
    expect(await stateOf(imei)).toEqual(before.state);
    expect(live).toHaveLength(1);

    // Also when this instance forgot the unit (a retry landing on another instance).
    expect(await handler(telemetry(imei, message, NOW + 9000))).toMatchObject({ stored: 0, stateAdvanced: false, published: false });
    expect(await stateOf(imei)).toEqual(before.state);
  });

  it('stores a late message but keeps the newer state and does not publish it', async () => {
    const imei = await registerUnit(nextImei());
    await handler(telemetry(imei, rec(NOW - 10_000, { lat: 59.34 })));
    const newer = await stateOf(imei);
    const late = await handler(telemetry(imei, rec(NOW - 60_000, { lat: 59.335 }), NOW + 1000));
    expect(late).toMatchObject({ stored: 1, stateAdvanced: false, published: false });
    expect((await positions(imei)).map((p) => p['ts'])).toEqual([NOW - 60_000, NOW - 10_000]);
    expect(await stateOf(imei)).toEqual(newer);
    expect(live).toHaveLength(1);
  });

  it('compares every batch with the state stored now, whoever wrote it (no per-instance cache)', async () => {
    const imei = await registerUnit(nextImei());
    await handler(telemetry(imei, rec(NOW - 60_000)));
    // Another writer advances the state between two batches.
    const other: UnitState = { ...(await stateOf(imei))!, ts: NOW - 5000, lat: 59.4, lastSeen: NOW };
    expect(await storeUnitState(imei, other)).toBe(true);

    const result = await handler(telemetry(imei, rec(NOW - 30_000)));
    // Screened against the stored state (11 km from it in 25 s: a jump), neither state nor live.
    expect(result).toMatchObject({ stored: 0, stateAdvanced: false, published: false });
    expect(await stateOf(imei)).toEqual(other);
    expect(await handler(telemetry(imei, rec(NOW - 4000, { lat: 59.4 })))).toMatchObject({ stateAdvanced: true });
    expect(await stateOf(imei)).toMatchObject({ ts: NOW - 4000 });
  });

  it('ends with the newest state when many messages of one unit race', async () => {
    const imei = await registerUnit(nextImei());
    // Twelve at once: six times what a retry beside its original makes, within the retries a lost transition gets.
    const tss = Array.from({ length: 12 }, (_, i) => NOW - 100_000 + i * 1000);
    const shuffled = [...tss].sort(() => Math.random() - 0.5);
    const results = await Promise.all(shuffled.map((ts) => handler(telemetry(imei, rec(ts, { odo: ts - NOW + 100_000 })))));

    expect((await positions(imei)).map((p) => p['ts'])).toEqual(tss);
    const state = await stateOf(imei);
    expect(state).toMatchObject({ ts: tss.at(-1), odometer: 11_000 });
    // The stream never races calls for one unit; when they do race (a retry beside its original),
    // each transition is conditional on the revision it was computed from, and a loser recomputes.
    expect(results.filter((r) => r.stateAdvanced).length).toBeGreaterThanOrEqual(1);
    // Whatever order the writes landed in, the newest state was among those sent live.
    expect(live.map((l) => l.message['ts'])).toContain(new Date(tss.at(-1)!).toISOString());
  });

  it("never makes a position from before the unit's registration its state (an IMEI registered again)", async () => {
    const imei = nextImei();
    const registeredAt = NOW - 60_000;
    await dynamo().send(
      new PutCommand({
        TableName: tableName('units'),
        Item: { imei, accountId: ACCOUNT, name: 'Re-registered', vehicleType: 'car', protocol: 'native', createdAt: new Date(registeredAt).toISOString() },
      }),
    );
    // What the tracker buffered for its previous owner arrives after the new registration.
    const before = await handler(telemetry(imei, { records: [rec(registeredAt - 20_000), rec(registeredAt - 1)] }));
    expect(before).toMatchObject({ stored: 2, stateAdvanced: false, published: false });
    expect(await stateOf(imei)).toBeUndefined();
    expect(live).toEqual([]);

    const after = await handler(telemetry(imei, { records: [rec(registeredAt - 10_000), rec(registeredAt), rec(registeredAt + 5000)] }));
    expect(after).toMatchObject({ stored: 3, stateAdvanced: true, published: true });
    expect(await stateOf(imei)).toMatchObject({ ts: registeredAt + 5000 });
    expect((await positions(imei)).map((p) => p['ts'])).toEqual([registeredAt - 20_000, registeredAt - 10_000, registeredAt - 1, registeredAt, registeredAt + 5000]);
  });

  it('drops repeated device times within one message', async () => {
    const imei = await registerUnit(nextImei());
    const result = await handler(telemetry(imei, { records: [rec(NOW - 1000), rec(NOW - 1000, { lat: 59.3294 })] }));
    expect(result).toMatchObject({ stored: 1, duplicates: 1 });
    expect(await positions(imei)).toHaveLength(1);
  });
});

describe('filtered positions', () => {
  it.each([
    ['Zero', { lat: 0, lon: 0 }],
    ['NoFix', { sat: 0 }],
    ['Invalid', { lat: 123 }],
    ['Future', { ts: NOW + 3_600_000 }],
    ['Past', { ts: NOW - (RETENTION_DAYS + 1) * 86_400_000 }],
    ['MaxSpeed', { spd: 900 }],
  ])('%s: neither stored nor shown, and the good record beside it still counts', async (reason, over) => {
    const imei = await registerUnit(nextImei());
    const result = await handler(telemetry(imei, { records: [rec(NOW - 2000, over), rec(NOW - 60_000)] }));
    expect(result).toMatchObject({ stored: 1, filtered: { [reason]: 1 }, stateAdvanced: true });
    expect((await positions(imei)).map((p) => p['ts'])).toEqual([NOW - 60_000]);
    expect(await stateOf(imei)).toMatchObject({ ts: NOW - 60_000 });
  });

  it('Jump: a position an impossible distance from the current state', async () => {
    const imei = await registerUnit(nextImei());
    await handler(telemetry(imei, rec(NOW - 60_000)));
    const result = await handler(telemetry(imei, rec(NOW - 30_000, { lat: 61 })));
    expect(result).toMatchObject({ stored: 0, filtered: { Jump: 1 }, stateAdvanced: false, published: false });
    expect(await stateOf(imei)).toMatchObject({ ts: NOW - 60_000 });
  });
});

describe('dead letters', () => {
  it('keeps malformed JSON with its reason, and the next message of the unit still goes in', async () => {
    const imei = await registerUnit(nextImei());
    const bad = '{"ts": 1, "lat":';
    expect(await handler(telemetry(imei, bad))).toMatchObject({ outcome: 'deadLetter', reason: 'MalformedJson' });
    const [letter] = await deadLetters(imei);
    expect(letter).toMatchObject({
      reason: 'MalformedJson',
      topic: `trackers/${imei}/telemetry`,
      imei,
      payload: Buffer.from(bad).toString('base64'),
      payloadBytes: bad.length,
      payloadTruncated: false,
      receivedAt: new Date(NOW).toISOString(),
      expiresAt: NOW / 1000 + 30 * 86_400,
    });
    expect(letter?.detail).toEqual(expect.any(String));

    expect(await handler(telemetry(imei, rec(NOW - 1000)))).toMatchObject({ stored: 1, stateAdvanced: true });
  });

  it.each([
    ['a missing field', { ts: NOW - 1000, lat: 59.3 }, 'MissingField', 'lon: required'],
    ['a wrong type', { ts: NOW - 1000, lat: 59.3, lon: 18, ign: 'yes' }, 'WrongType', 'ign: expected a boolean, got string'],
    ['an unknown format', [1, 2, 3], 'UnknownFormat', expect.any(String)],
  ])('keeps a message with %s as sent', async (_name, body, reason, detail) => {
    const imei = await registerUnit(nextImei());
    expect(await handler(telemetry(imei, body))).toMatchObject({ stored: 0 });
    expect(await deadLetters(imei)).toMatchObject([{ reason, detail, payload: Buffer.from(JSON.stringify(body)).toString('base64') }]);
    expect(await positions(imei)).toEqual([]);
    expect(await stateOf(imei)).toBeUndefined();
  });

  it('keeps only the bad record of a batch, with its place, and stores the rest', async () => {
    const imei = await registerUnit(nextImei());
    const bad = { ts: NOW - 2000, lat: 'north', lon: 18 };
    const result = await handler(telemetry(imei, { records: [rec(NOW - 3000), bad, rec(NOW - 1000)] }));
    expect(result).toMatchObject({ stored: 2, rejected: 1, stateAdvanced: true });
    expect(await deadLetters(imei)).toMatchObject([{ reason: 'WrongType', recordIndex: 1, payload: Buffer.from(JSON.stringify(bad)).toString('base64') }]);
  });

  it('refuses an IMEI that is no unit (UnknownUnit) and one that is in stock but not registered (Unregistered)', async () => {
    const unknown = nextImei();
    expect(await handler(telemetry(unknown, rec(NOW - 1000)))).toMatchObject({ outcome: 'deadLetter', reason: 'UnknownUnit' });
    const stock = nextImei();
    await dynamo().send(new PutCommand({ TableName: tableName('inventory'), Item: { imei: stock, registered: false } }));
    expect(await handler(telemetry(stock, rec(NOW - 1000)))).toMatchObject({ outcome: 'deadLetter', reason: 'Unregistered' });
    expect(await handler(telemetry('not-an-imei', rec(NOW - 1000), NOW, 'trackers/not-an-imei/telemetry'))).toMatchObject({ reason: 'UnknownUnit' });

    expect(await deadLetters(unknown)).toMatchObject([{ reason: 'UnknownUnit' }]);
    expect(await deadLetters(stock)).toMatchObject([{ reason: 'Unregistered' }]);
    expect(await positions(unknown)).toEqual([]);
    // No unit item appears for them (the state update never creates one).
    expect(await unitItem(unknown)).toBeUndefined();
    expect(await unitItem(stock)).toBeUndefined();
    expect(live).toEqual([]);
  });

  it('writes a dead letter once when the same event is retried', async () => {
    const imei = await registerUnit(nextImei());
    const event = telemetry(imei, '{"broken"');
    await handler(event);
    await handler(event);
    expect(await deadLetters(imei)).toHaveLength(1);
    // The same bytes received at another time are another letter.
    await handler({ ...event, receivedAt: NOW + 1 });
    expect(await deadLetters(imei)).toHaveLength(2);
  });

  it('keeps a batch of mostly garbage as one letter, and still stores its good records', async () => {
    const imei = await registerUnit(nextImei());
    const body = { records: [rec(NOW - 1000), ...Array.from({ length: 11 }, (_, i) => ({ ts: NOW - 2000 - i, lat: 'x', lon: 1 }))] };
    const result = await handler(telemetry(imei, body));
    expect(result).toMatchObject({ stored: 1, rejected: 11 });
    expect(await deadLetters(imei)).toMatchObject([
      { reason: 'WrongType', detail: '11 of 12 records rejected; [1] lat: expected a number, got string', payload: Buffer.from(JSON.stringify(body)).toString('base64') },
    ]);
  });

  it('cuts a huge payload to a bounded size', async () => {
    const imei = await registerUnit(nextImei());
    const huge = `{"junk":"${'x'.repeat(50_000)}`;
    await handler(telemetry(imei, huge));
    const [letter] = await deadLetters(imei);
    expect(letter).toMatchObject({ reason: 'MalformedJson', payloadBytes: huge.length, payloadTruncated: true });
    expect(Buffer.from(letter!.payload, 'base64')).toHaveLength(DEAD_LETTER_PAYLOAD_BYTES);
  });
});

describe('Teltonika', () => {
  it('takes positions on the {imei}/data topic and keeps the raw IO', async () => {
    const imei = await registerUnit(nextImei());
    const doc = { state: { reported: { ts: NOW - 5000, latlng: '51.4462749,5.4539066', alt: '22', ang: '227', sat: '9', sp: '0', '239': 1, '66': 12450, '16': 10922, evt: 239 } } };
    const result = await handler(telemetry(imei, doc, NOW, `${imei}/data`));
    expect(result).toMatchObject({ stored: 1, stateAdvanced: true });
    expect((await positions(imei))[0]).toMatchObject({ lat: 51.4462749, lon: 5.4539066, ignition: true, extVolts: 12.45, odometer: 10922, io: { '239': 1, '66': 12450, '16': 10922, evt: 239 } });
    expect(await stateOf(imei)).toMatchObject({ ignition: true, extVolts: 12.45, heading: 227 });
  });

  it('stores the position with an 8-byte IO value beyond 2^53 as its exact digits', async () => {
    const imei = await registerUnit(nextImei());
    // IO 78 (iButton) = 0x1234567890ABCDEF: JSON.parse alone would make it 1311768467294899700.
    const doc = `{"state":{"reported":{"ts":${NOW - 5000},"latlng":"51.4462749,5.4539066","sat":9,"239":1,"78":1311768467294899695}}}`;
    const result = await handler(telemetry(imei, doc, NOW, `${imei}/data`));
    expect(result).toMatchObject({ stored: 1, rejected: 0, stateAdvanced: true });
    expect((await positions(imei))[0]).toMatchObject({ ignition: true, rfid: '1234567890ABCDEF', io: { '239': 1, '78': '1311768467294899695' } });
    expect(await deadLetters(imei)).toEqual([]);
  });

  it('records a command answer on the unit instead of dead-lettering it', async () => {
    const imei = await registerUnit(nextImei());
    const result = await handler(telemetry(imei, { RSP: 'DOUT1:1 Timeout:60' }, NOW, `${imei}/data`));
    expect(result).toMatchObject({ outcome: 'commandAnswer', stored: 0 });
    expect((await unitItem(imei))?.['lastCommandAnswer']).toEqual({ text: 'DOUT1:1 Timeout:60', receivedAt: NOW });
    // An older answer delivered late does not replace it.
    await handler(telemetry(imei, { RSP: 'older' }, NOW - 1000, `${imei}/data`));
    expect((await unitItem(imei))?.['lastCommandAnswer']).toEqual({ text: 'DOUT1:1 Timeout:60', receivedAt: NOW });
    expect(await deadLetters(imei)).toEqual([]);
    expect(await positions(imei)).toEqual([]);
  });
});

describe('live only while watched', () => {
  it('stores the position and state of an account nobody watches without publishing it live, and publishes once a browser is authorized', async () => {
    const unwatched = `acc-${randomUUID()}`;
    await dynamo().send(new PutCommand({ TableName: tableName('accounts'), Item: { accountId: unwatched, name: 'Nobody looks AB' } }));
    const imei = await registerUnit(nextImei(), unwatched);
    await handler(telemetry(imei, rec(NOW - 60_000)));
    expect(await positions(imei)).toHaveLength(1);
    expect((await stateOf(imei))?.ts).toBe(NOW - 60_000);
    expect(live).toEqual([]);

    await markLiveWatched([unwatched]);
    await handler(telemetry(imei, rec(NOW - 30_000)));
    expect(live.map((l) => [l.accountId, l.imei, l.message['ts']])).toEqual([[unwatched, imei, new Date(NOW - 30_000).toISOString()]]);
  });
});

describe('live channel failures', () => {
  it('keeps the stored position and state when the live publish fails', async () => {
    const imei = await registerUnit(nextImei());
    liveFails = true;
    const result = await handler(telemetry(imei, rec(NOW - 1000)));
    expect(result).toMatchObject({ stored: 1, stateAdvanced: true, published: false });
    expect(await stateOf(imei)).toMatchObject({ ts: NOW - 1000 });
  });
});
