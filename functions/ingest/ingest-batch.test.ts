/**
 * The telemetry handler given a batch of rule events (as the ingest stream hands them over), against
 * DynamoDB Local: writes across messages, one state update and one live message per unit, the
 * same guarantees as one message at a time under redelivery, and retries of failed writes.
 * Faults are injected on the real client (a middleware in front of the real DynamoDB Local), the
 * way DynamoDB itself answers under load: unprocessed items, throttling errors.
 */
import { randomUUID } from 'node:crypto';
import { ProvisionedThroughputExceededException } from '@aws-sdk/client-dynamodb';
import { PutCommand, QueryCommand, GetCommand, type BatchWriteCommandInput, type BatchWriteCommandOutput } from '@aws-sdk/lib-dynamodb';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { IotRuleEvent } from '../../shared/iot-rules';
import { imeiFrom } from '../../shared/validators/imei';
import { useLocalTables } from '../../test/support/local-tables';
import { getPorts, overridePorts } from '../platform/container';
import { dynamo, tableName } from '../platform/db';
import { getUnitItem } from '../domain/unit/reads';
import type { LiveMessage } from '../platform/ports';
import { BatchWriteIncompleteError } from './batch-write';
import { handler } from './handle-telemetry';
import { ingestMessages, TRANSITION_WRITES } from './ingest-message';
import { commitUnitTransition, commitUnitTransitions } from '../domain/unit/transitions';
import type { IngestStage } from './transitions';
import type { UnitState } from './types';
import { deadLettersOf } from '../../test/support/dead-letters';
import { markLiveWatched } from '../domain/account/live-watch';
import { CHUNK_ATTRIBUTE, positionsOfItem } from './position-codec';

const NOW = Math.floor(Date.now() / 1000) * 1000;
const ACCOUNT = `acc-${randomUUID()}`;
let serial = 0;
const nextImei = () => imeiFrom(`35693811${String(300000 + serial++).padStart(6, '0')}`);

let live: Array<{ accountId: string; imei: string; message: LiveMessage }> = [];
/** Every DynamoDB command the handler sent, by name. */
let calls: string[] = [];

async function registerUnit(imei: string = nextImei()): Promise<string> {
  await dynamo().send(new PutCommand({ TableName: tableName('units'), Item: { imei, accountId: ACCOUNT, name: `Unit ${imei}`, vehicleType: 'car', protocol: 'native' } }));
  return imei;
}

function telemetry(imei: string, body: unknown, receivedAt = NOW): IotRuleEvent {
  const raw = typeof body === 'string' ? body : JSON.stringify(body);
  return { payload: Buffer.from(raw).toString('base64'), topic: `trackers/${imei}/telemetry`, imei, receivedAt };
}

const rec = (ts: number, over: Record<string, unknown> = {}) => ({ ts, lat: 59.3293, lon: 18.0686, sat: 9, ...over });

/** The unit's positions items as stored. */
async function items(imei: string) {
  return (await dynamo().send(new QueryCommand({ TableName: tableName('positions'), KeyConditionExpression: 'imei = :i', ExpressionAttributeValues: { ':i': imei }, ConsistentRead: true }))).Items ?? [];
}

/** Every stored position of the unit, oldest first (a chunk holds several). */
async function positions(imei: string) {
  return (await items(imei)).flatMap(positionsOfItem).sort((a, b) => a.ts - b.ts);
}

async function stateOf(imei: string): Promise<UnitState | undefined> {
  return (await dynamo().send(new GetCommand({ TableName: tableName('units'), Key: { imei }, ConsistentRead: true }))).Item?.['state'] as UnitState | undefined;
}

const deadLetters = (imei: string) => deadLettersOf(imei, NOW);

type BatchFault = (input: BatchWriteCommandInput, attempt: number) => 'pass' | 'half' | 'throttle';
let batchFault: BatchFault = () => 'pass';
/** Runs once, before the next update of a unit goes out, alone or in a batch of transitions (another write of the unit coming first). */
let beforeUnitUpdate: (() => Promise<void>) | null = null;
/** BatchWriteItem calls of the current test, the one being answered included. */
let batchAttempt = 0;

beforeAll(async () => {
  await useLocalTables();
  await dynamo().send(new PutCommand({ TableName: tableName('accounts'), Item: { accountId: ACCOUNT, name: 'Batch AB', retentionDays: 30 } }));
  dynamo().middlewareStack.add(
    (next, context) => async (args) => {
      calls.push(context.commandName ?? '?');
      const unitUpdate =
        (context.commandName === 'UpdateItemCommand' && (args.input as { TableName?: string }).TableName === tableName('units')) ||
        (context.commandName === 'BatchExecuteStatementCommand' && (args.input as { Statements: Array<{ Statement: string }> }).Statements.some((st) => st.Statement.startsWith(`UPDATE "${tableName('units')}"`)));
      if (unitUpdate && beforeUnitUpdate) {
        const first = beforeUnitUpdate;
        beforeUnitUpdate = null;
        await first();
      }
      if (context.commandName !== 'BatchWriteItemCommand') return next(args);
      const input = args.input as BatchWriteCommandInput;
      const fault = batchFault(input, batchAttempt++);
      if (fault === 'throttle') {
        throw new ProvisionedThroughputExceededException({ message: 'Throughput exceeds the current capacity', $metadata: { httpStatusCode: 400 } });
      }
      if (fault === 'pass') return next(args);
      // What DynamoDB does under load: it writes some of the items and hands back the rest.
      const [table, requests] = Object.entries(input.RequestItems ?? {})[0] as [string, NonNullable<BatchWriteCommandInput['RequestItems']>[string]];
      const keep = requests.slice(0, Math.ceil(requests.length / 2));
      const out = await next({ ...args, input: { ...input, RequestItems: { [table]: keep } } });
      (out.output as BatchWriteCommandOutput).UnprocessedItems = { [table]: requests.slice(keep.length) };
      return out;
    },
    { step: 'initialize', name: 'faults' },
  );
});

beforeEach(async () => {
  // A browser watches the account (marked in this process: ingest reads nothing for it).
  await markLiveWatched([ACCOUNT]);
  live = [];
  calls = [];
  batchFault = () => 'pass';
  batchAttempt = 0;
  overridePorts({
    live: {
      async publish({ accountId, imei }, message) {
        live.push({ accountId, imei, message });
      },
    },
  });
});

afterEach(() => {
  batchFault = () => 'pass';
  beforeUnitUpdate = null;
});

const count = (name: string) => calls.filter((c) => c === name).length;

describe('two writers of one unit', () => {
  /** A stage that keeps every device time it was shown, fresh or late. */
  const seenStage: IngestStage<number[]> = {
    name: 'seen',
    parse: (stored) => (Array.isArray(stored) ? (stored as number[]) : undefined),
    run: ({ previous, positions, late }) => ({ state: [...(previous ?? []), ...positions.map((p) => p.ts), ...late.map((p) => p.ts)].sort((a, b) => a - b) }),
  };
  const ingest = (events: IotRuleEvent[]) => ingestMessages(events, getPorts(), { stages: [seenStage], senders: {} });

  it('shows the stages the positions a batch stored fresh when another write moved the unit past them first', async () => {
    // The demo history's stream fills a unit's past while the live stream drives it on: the
    // history's batch plans its positions as fresh, then loses its transition to the live batch.
    const imei = await registerUnit();
    beforeUnitUpdate = async () => {
      await ingest([telemetry(imei, rec(NOW - 10_000))]);
    };
    await ingest([telemetry(imei, { records: [rec(NOW - 50_000), rec(NOW - 40_000, { lat: 59.33 })] })]);
    expect(beforeUnitUpdate).toBeNull();
    expect(await stateOf(imei)).toMatchObject({ ts: NOW - 10_000 });
    const unit = await getUnitItem(imei, { consistent: true });
    expect(unit?.stages?.['seen']).toEqual([NOW - 50_000, NOW - 40_000, NOW - 10_000]);
  });

  it('writes the units of a batch side by side, and decides again alone the one another write moved first', async () => {
    const [a, b] = [await registerUnit(), await registerUnit()];
    beforeUnitUpdate = async () => {
      await ingest([telemetry(a, rec(NOW - 10_000))]);
    };
    calls = [];
    const results = await ingest([telemetry(a, rec(NOW - 40_000)), telemetry(b, rec(NOW - 30_000))]);
    expect(beforeUnitUpdate).toBeNull();
    // b's transition was written by the batch's request; a's lost there and was decided again from the stored item.
    expect(results.map((r) => r.stateAdvanced)).toEqual([false, true]);
    expect(await stateOf(a)).toMatchObject({ ts: NOW - 10_000 });
    expect(await stateOf(b)).toMatchObject({ ts: NOW - 30_000 });
    expect((await getUnitItem(a, { consistent: true }))?.stages?.['seen']).toEqual([NOW - 40_000, NOW - 10_000]);
    expect((await getUnitItem(b, { consistent: true }))?.stages?.['seen']).toEqual([NOW - 30_000]);
    // Embedded, an UpdateItem per unit of the batch (TRANSITION_WRITES), the other write's, and a's once decided again.
    expect(count('BatchExecuteStatementCommand')).toBe(0);
    expect(count('UpdateItemCommand')).toBe(4);
  });
});

describe('a batch of messages', () => {
  it('stores every position of several messages of one unit and advances its state once, to the newest', async () => {
    const [a, b] = [await registerUnit(), await registerUnit()];
    const batch = [
      telemetry(a, rec(NOW - 40_000, { ign: true, odo: 1000 }), NOW - 3000),
      telemetry(b, rec(NOW - 35_000), NOW - 2500),
      telemetry(a, { records: [rec(NOW - 30_000), rec(NOW - 20_000, { lat: 59.33 })] }, NOW - 2000),
      telemetry(a, rec(NOW - 25_000), NOW - 1000),
    ];
    calls = [];
    const results = await handler(batch);

    expect(results.map((r) => r.stored)).toEqual([1, 1, 2, 1]);
    expect((await positions(a)).map((p) => p['ts'])).toEqual([NOW - 40_000, NOW - 30_000, NOW - 25_000, NOW - 20_000]);
    // Each position keeps the receive time of its own message.
    expect((await positions(a)).map((p) => p['receivedAt'])).toEqual([NOW - 3000, NOW - 2000, NOW - 1000, NOW - 2000]);
    // The newest record wins; what an older one of the batch reported carries over to it.
    expect(await stateOf(a)).toMatchObject({ ts: NOW - 20_000, lat: 59.33, ignition: true, odometer: 1000, lastSeen: NOW - 2000 });
    expect(await stateOf(b)).toMatchObject({ ts: NOW - 35_000 });

    // One state update per unit (embedded, an UpdateItem each: TRANSITION_WRITES), and one live message per unit; the message that carried the state says so.
    expect(count('BatchExecuteStatementCommand')).toBe(0);
    expect(count('UpdateItemCommand')).toBe(2);
    expect(count('PutItemCommand')).toBe(0);
    expect(count('BatchWriteItemCommand')).toBe(1);
    expect(results.map((r) => r.stateAdvanced)).toEqual([false, true, true, false]);
    expect(results.map((r) => r.published)).toEqual([false, true, true, false]);
    expect(live.map((l) => [l.imei, l.message['ts']])).toEqual(
      expect.arrayContaining([
        [a, new Date(NOW - 20_000).toISOString()],
        [b, new Date(NOW - 35_000).toISOString()],
      ]),
    );
    expect(live).toHaveLength(2);
  });

  it('writes more than 25 positions in full requests of 25', async () => {
    const imei = await registerUnit();
    const batch = Array.from({ length: 60 }, (_, m) => telemetry(imei, rec(NOW - 600_000 + m * 1000)));
    const results = await handler(batch);
    expect(results.reduce((s, r) => s + r.stored, 0)).toBe(60);
    expect(await positions(imei)).toHaveLength(60);
    expect(count('BatchWriteItemCommand')).toBe(3);
    expect(count('UpdateItemCommand')).toBe(1);
  });

  it("keeps a buffered message's positions in one item, and each message of one record in its own", async () => {
    const imei = await registerUnit();
    const buffered = Array.from({ length: 10 }, (_, r) => rec(NOW - 300_000 + r * 5000, { spd: 40 + r }));
    const results = await handler([telemetry(imei, { records: buffered }, NOW - 2000), telemetry(imei, rec(NOW - 100_000), NOW - 1000), telemetry(imei, rec(NOW - 90_000), NOW - 1000)]);
    expect(results.map((r) => r.stored)).toEqual([10, 1, 1]);
    const stored = await items(imei);
    // The chunk is keyed by its oldest position; the single records are items as before.
    expect(stored.map((i) => [i['ts'], CHUNK_ATTRIBUTE in i])).toEqual([
      [NOW - 300_000, true],
      [NOW - 100_000, false],
      [NOW - 90_000, false],
    ]);
    expect((await positions(imei)).map((p) => [p.ts, p.speed, p.receivedAt])).toEqual([
      ...buffered.map((r) => [r.ts, (r as Record<string, unknown>)['spd'], NOW - 2000]),
      [NOW - 100_000, undefined, NOW - 1000],
      [NOW - 90_000, undefined, NOW - 1000],
    ]);
    expect(count('BatchWriteItemCommand')).toBe(1);
  });

  it('stores a late position that a chunk already holds only once, as a duplicate the stages have seen', async () => {
    const imei = await registerUnit();
    const buffered = Array.from({ length: 5 }, (_, r) => rec(NOW - 60_000 + r * 5000));
    await handler([telemetry(imei, { records: buffered })]);
    await handler([telemetry(imei, rec(NOW - 10_000))]);
    // The tracker sends the buffer again (its positions are late now), with one it had not sent.
    calls = [];
    const [again] = await handler([telemetry(imei, { records: [...buffered, rec(NOW - 30_000 + 2500)] })]);
    expect(again).toMatchObject({ stored: 1, duplicates: 5 });
    expect(count('PutItemCommand')).toBe(1);
    expect((await positions(imei)).map((p) => p.ts)).toEqual([...buffered.map((r) => r.ts), NOW - 30_000 + 2500, NOW - 10_000].sort((a, b) => a - b));
  });

  it('changes nothing when the whole batch is delivered again, whatever the receive time or the cache', async () => {
    const [a, b] = [await registerUnit(), await registerUnit()];
    const batch = [
      telemetry(a, { records: [rec(NOW - 30_000), rec(NOW - 20_000, { ign: true })] }),
      telemetry(b, rec(NOW - 15_000)),
      telemetry(a, rec(NOW - 10_000)),
    ];
    await handler(batch);
    const before = { a: await positions(a), b: await positions(b), stateA: await stateOf(a), stateB: await stateOf(b) };
    expect(live).toHaveLength(2);

    // The same events (a retry), and the same messages received later (the tracker sent them again).
    const later = batch.map((e) => ({ ...e, receivedAt: NOW + 7000 }));
    for (const again of [batch, later]) {
      calls = [];
      const results = await handler(again);
      expect(results.map((r) => [r.stored, r.duplicates, r.stateAdvanced, r.published])).toEqual([
        [0, 2, false, false],
        [0, 1, false, false],
        [0, 1, false, false],
      ]);
      expect(count('BatchWriteItemCommand')).toBe(0);
      expect(count('UpdateItemCommand')).toBe(0);
      expect(count('BatchExecuteStatementCommand')).toBe(0);
    }
    expect({ a: await positions(a), b: await positions(b), stateA: await stateOf(a), stateB: await stateOf(b) }).toEqual(before);
    expect(live).toHaveLength(2);
  });

  it('counts a message delivered twice within one batch once', async () => {
    const imei = await registerUnit();
    const event = telemetry(imei, { records: [rec(NOW - 2000), rec(NOW - 1000)] });
    const results = await handler([event, { ...event, receivedAt: NOW + 50 }]);
    expect(results.map((r) => [r.stored, r.duplicates])).toEqual([
      [2, 0],
      [0, 2],
    ]);
    expect((await positions(imei)).map((p) => p['receivedAt'])).toEqual([NOW, NOW]);
    expect(live).toHaveLength(1);
  });

  it('stores a late message of the batch, put only if new, and keeps the newer state', async () => {
    const imei = await registerUnit();
    await handler(telemetry(imei, rec(NOW - 10_000, { lat: 59.34 })));
    calls = [];
    const results = await handler([telemetry(imei, rec(NOW - 60_000, { lat: 59.335 })), telemetry(imei, rec(NOW - 10_000, { lat: 59.34 }))]);
    expect(results.map((r) => [r.stored, r.duplicates, r.stateAdvanced])).toEqual([
      [1, 0, false],
      [0, 1, false],
    ]);
    expect(count('PutItemCommand')).toBe(2);
    // The state stays; trip detection notes the late position (the next trip it closes is re-detected from there),
    // and in Stockholm the passage stage re-detects its window: an effect, claimed and then removed.
    expect(count('UpdateItemCommand')).toBe(3);
    expect((await getUnitItem(imei, { consistent: true }))?.stages?.['trips']).toMatchObject({ dirtyFrom: NOW - 60_000 });
    expect((await positions(imei)).map((p) => p['ts'])).toEqual([NOW - 60_000, NOW - 10_000]);
    expect(await stateOf(imei)).toMatchObject({ ts: NOW - 10_000, lat: 59.34 });
    expect(live).toHaveLength(1);
  });

  it('keeps a dead letter per bad message with its reason, and the good ones of the batch go in', async () => {
    const good = await registerUnit();
    const unknown = nextImei();
    const broken = telemetry(good, '{"ts": 1, "lat":', NOW + 1);
    const results = await handler([broken, telemetry(unknown, rec(NOW - 1000)), telemetry(good, rec(NOW - 1000)), broken]);
    expect(results.map((r) => [r.outcome, r.reason])).toEqual([
      ['deadLetter', 'MalformedJson'],
      ['deadLetter', 'UnknownUnit'],
      ['positions', undefined],
      ['deadLetter', 'MalformedJson'],
    ]);
    // The same event twice is the same letter, written once.
    expect(await deadLetters(good)).toMatchObject([{ reason: 'MalformedJson', payload: Buffer.from('{"ts": 1, "lat":').toString('base64') }]);
    expect(await deadLetters(unknown)).toMatchObject([{ reason: 'UnknownUnit' }]);
    expect(await positions(good)).toHaveLength(1);
  });

  it('lets a record with a number DynamoDB cannot store cost only itself, not its message nor the batch', async () => {
    const [a, b, c] = [await registerUnit(), await registerUnit(), await registerUnit()];
    // As trackers write them: JSON.stringify cannot make 1e400, and JSON.parse makes it Infinity.
    const batch = [
      telemetry(a, `{"records":[{"ts":${NOW - 3000},"lat":59.3293,"lon":18.06,"sat":9},{"ts":${NOW - 2000},"lat":1e400,"lon":18.06,"sat":9},{"ts":${NOW - 1000},"lat":59.3294,"lon":18.06,"sat":9}]}`),
      telemetry(b, rec(NOW - 1500)),
      telemetry(c, `{"ts":${NOW - 500},"lat":59.3293,"lon":18.06,"sat":9,"odo":12345678901234567890}`),
    ];
    calls = [];
    const results = await handler(batch);

    expect(results.map((r) => [r.outcome, r.stored, r.rejected])).toEqual([
      ['positions', 2, 1],
      ['positions', 1, 0],
      ['positions', 0, 1],
    ]);
    expect((await positions(a)).map((p) => p['ts'])).toEqual([NOW - 3000, NOW - 1000]);
    expect(await positions(b)).toHaveLength(1);
    expect(await positions(c)).toEqual([]);
    // One request held every good position of the batch, another the dead letters; neither failed.
    expect(count('BatchWriteItemCommand')).toBe(2);
    expect(await stateOf(a)).toMatchObject({ ts: NOW - 1000, lat: 59.3294 });
    expect(await stateOf(c)).toBeUndefined();

    const [letter] = await deadLetters(a);
    expect(letter).toMatchObject({ reason: 'NumberOutOfRange', detail: 'lat: 1e400 is out of range', recordIndex: 1 });
    expect(Buffer.from(letter?.payload ?? '', 'base64').toString()).toBe(`{"ts":${NOW - 2000},"lat":1e400,"lon":18.06,"sat":9}`);
    expect(await deadLetters(c)).toMatchObject([{ reason: 'NumberOutOfRange', detail: 'odo: 12345678901234567890 is out of range' }]);
    expect(await deadLetters(b)).toEqual([]);
  });
});

describe('failed writes', () => {
  it('sends again what DynamoDB hands back unprocessed, until every position is stored', async () => {
    const imei = await registerUnit();
    batchFault = (_input, attempt) => (attempt < 3 ? 'half' : 'pass');
    const results = await handler(Array.from({ length: 20 }, (_, i) => telemetry(imei, rec(NOW - 100_000 + i * 1000))));
    expect(results.map((r) => r.stored)).toEqual(Array(20).fill(1));
    expect(await positions(imei)).toHaveLength(20);
    // 20 items (a message of one record each): 10 written, then 5, then 3, then the last 2.
    expect(count('BatchWriteItemCommand')).toBe(4);
  });

  it('retries a batch write that is throttled outright', async () => {
    const imei = await registerUnit();
    batchFault = (_input, attempt) => (attempt < 2 ? 'throttle' : 'pass');
    const [result] = await handler([telemetry(imei, { records: [rec(NOW - 2000), rec(NOW - 1000)] })]);
    expect(result).toMatchObject({ stored: 2, stateAdvanced: true, published: true });
    expect(count('BatchWriteItemCommand')).toBe(3);
  });

  it('throws when the writes keep failing, moves no state, and loses nothing when the batch is delivered again', async () => {
    const imei = await registerUnit();
    const batch = [telemetry(imei, rec(NOW - 3000)), telemetry(imei, { records: [rec(NOW - 2000), rec(NOW - 1000)] })];
    batchFault = () => 'throttle';
    await expect(handler(batch)).rejects.toBeInstanceOf(BatchWriteIncompleteError);
    expect(count('BatchWriteItemCommand')).toBe(8);
    // Positions first, state after: nothing points at a position that is not stored.
    expect(await stateOf(imei)).toBeUndefined();
    // Live went out as the writes started (best effort: the map shows the decided state at once).
    expect(live.map((l) => l.message['ts'])).toEqual([new Date(NOW - 1000).toISOString()]);

    // The caller (the stream's event source mapping, or the embedded stream) retries the same batch once DynamoDB takes writes again.
    batchFault = () => 'pass';
    const results = await handler(batch);
    expect(results.map((r) => r.stored)).toEqual([1, 2]);
    expect((await positions(imei)).map((p) => p['ts'])).toEqual([NOW - 3000, NOW - 2000, NOW - 1000]);
    expect(await stateOf(imei)).toMatchObject({ ts: NOW - 1000 });
    // The retry shows the same state once more; a state once stored is not shown again.
    expect(live.map((l) => l.message['ts'])).toEqual([new Date(NOW - 1000).toISOString(), new Date(NOW - 1000).toISOString()]);
    expect((await handler(batch)).map((r) => r.published)).toEqual([false, false]);
    expect(live).toHaveLength(2);
  });

  it('retries only transient failures: a malformed request fails at once', async () => {
    const imei = await registerUnit();
    // Past DynamoDB's 400 KB item limit: a validation error, which no retry can fix.
    const huge = { ts: NOW - 1000, lat: 59.3, lon: 18, rfid: 'x'.repeat(500_000) };
    await expect(handler([telemetry(imei, huge)])).rejects.toMatchObject({ name: 'ValidationException' });
    expect(count('BatchWriteItemCommand')).toBe(1);
  });
});

describe('commitUnitTransitions', () => {
  const state = (ts: number) => ({ ts, lat: 59.33, lon: 18.06, lastSeen: ts });
  /** Three units read at revision 0; the second then moved on (another write), so its transition must be refused. */
  async function threeUnits() {
    const imeis = [await registerUnit(), await registerUnit(), await registerUnit()];
    const read = await Promise.all(imeis.map(async (imei) => (await getUnitItem(imei, { consistent: true }))!));
    expect(await commitUnitTransition(read[1]!, { state: state(NOW - 5000), stages: {}, effects: {} })).toBe(true);
    calls = [];
    return read.map((from, i) => ({ from, next: { state: state(NOW - i * 1000), stages: { seen: [i] }, effects: {} } }));
  }

  it('writes up to 25 as the statements of one BatchExecuteStatement (AWS), each applied or refused on its own', async () => {
    const list = await threeUnits();
    expect(await commitUnitTransitions(list, (work) => work(), TRANSITION_WRITES.aws.perRequest)).toEqual([true, false, true]);
    expect([count('BatchExecuteStatementCommand'), count('UpdateItemCommand')]).toEqual([1, 0]);
    expect(await Promise.all(list.map(({ from }) => stateOf(from.imei)))).toEqual([state(NOW), state(NOW - 5000), state(NOW - 2000)]);
    expect((await getUnitItem(list[2]!.from.imei, { consistent: true }))?.rev).toBe(1);
  });

  it('writes each as an UpdateItem with the same answers (embedded)', async () => {
    const list = await threeUnits();
    expect(await commitUnitTransitions(list, (work) => work(), TRANSITION_WRITES.embedded.perRequest)).toEqual([true, false, true]);
    expect([count('BatchExecuteStatementCommand'), count('UpdateItemCommand')]).toEqual([0, 3]);
    expect(await Promise.all(list.map(({ from }) => stateOf(from.imei)))).toEqual([state(NOW), state(NOW - 5000), state(NOW - 2000)]);
  });

  it('fills each request up to the statements per request it is given', async () => {
    const lists = await Promise.all(Array.from({ length: 3 }, () => threeUnits()));
    calls = [];
    expect(await commitUnitTransitions(lists.flat(), (work) => work(), 4)).toEqual(lists.flatMap(() => [true, false, true]));
    expect([count('BatchExecuteStatementCommand'), count('UpdateItemCommand')]).toEqual([3, 0]);
  });
});
