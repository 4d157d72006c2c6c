/**
 * The device command state machine against DynamoDB Local: saving, cancelling, the 120-second DOUT
 * rule, labels on the unit, answers, time-outs, the list and races between simultaneous commands.
 * The tracker and the live channel are recording ports; the clock is set by the test.
 */
import { randomUUID } from 'node:crypto';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { commandSchema, type Command, type CommandRequest } from '../../shared/schemas/commands';
import { liveCommandMessageSchema } from '../../shared/schemas/live';
import { imeiFrom } from '../../shared/validators/imei';
import { useLocalTables } from '../../test/support/local-tables';
import { getPorts, overridePorts } from '../platform/container';
import { dynamo, tableName } from '../platform/db';
import { ConflictError, NotFoundError } from '../platform/errors';
import type { DeviceCommand, LiveMessage } from '../platform/ports';
import type { UnitItem } from '../domain/unit/schema';
import { getCommandItem, listCommands, newCommandId, type CommandItem } from './command-repository';
import { expireCommands, sendCommand, settleCommand } from './command-service';

const ACCOUNT = `acc-${randomUUID()}`;
let serial = 0;
const nextImei = () => imeiFrom(`35693807${String(300000 + serial++).padStart(6, '0')}`);

let now = Date.parse('2025-05-05T10:00:00.000Z');
const sent: Array<{ imei: string; command: DeviceCommand; protocol: string }> = [];
const live: Array<{ accountId: string; imei: string; message: LiveMessage }> = [];
let sendFails = false;

async function registerUnit(extra: Record<string, unknown> = {}, accountId = ACCOUNT): Promise<string> {
  const imei = nextImei();
  await dynamo().send(
    new PutCommand({
      TableName: tableName('units'),
      Item: { imei, accountId, name: `Unit ${imei}`, vehicleType: 'car', protocol: 'native', createdAt: new Date(now).toISOString(), ...extra },
    }),
  );
  return imei;
}

async function unitItem(imei: string): Promise<UnitItem & Record<string, unknown>> {
  const out = await dynamo().send(new GetCommand({ TableName: tableName('units'), Key: { imei }, ConsistentRead: true }));
  return out.Item as UnitItem & Record<string, unknown>;
}

const send = async (imei: string, request: CommandRequest) => sendCommand(await unitItem(imei), request, getPorts());
const dout = (output: number, on: boolean, extra: Partial<Extract<CommandRequest, { type: 'dout' }>> = {}): CommandRequest => ({ type: 'dout', output, on, ...extra });
const mode = (m: Extract<CommandRequest, { type: 'operatingMode' }>['mode']): CommandRequest => ({ type: 'operatingMode', mode: m });
const stored = async (imei: string, id: string) => (await getCommandItem(imei, id)) as CommandItem;
const liveCommands = (imei: string) => live.filter((l) => l.imei === imei).map((l) => liveCommandMessageSchema.parse(l.message).command);
const statusOf = async (imei: string, id: string) => (await stored(imei, id)).status;

beforeAll(async () => {
  await useLocalTables();
  overridePorts({
    clock: { now: () => new Date(now) },
    devices: {
      async send(imei, command, protocol) {
        if (sendFails) throw new Error('IoT Core unreachable');
        sent.push({ imei, command, protocol });
      },
    },
    live: {
      async publish({ accountId, imei }, message) {
        live.push({ accountId, imei, message });
      },
    },
  });
});

beforeEach(() => {
  now += 3_600_000;
  sent.length = 0;
  live.length = 0;
  sendFails = false;
});

describe('sending a command', () => {
  it('saves it pending, sends it to the tracker in its protocol and tells the browsers', async () => {
    const imei = await registerUnit({ protocol: 'teltonika' });
    const command = await send(imei, dout(2, true, { durationSeconds: 60 }));
    const at = new Date(now).toISOString();
    expect(commandSchema.parse(command)).toEqual({
      id: expect.stringMatching(/^\d{13}-[0-9a-f]{16}$/),
      imei,
      type: 'dout',
      params: { output: 2, on: true, durationSeconds: 60 },
      status: 'pending',
      createdAt: at,
      answeredAt: null,
      updatedAt: at,
      error: null,
    });
    expect(sent).toEqual([{ imei, command: { id: command.id, type: 'dout', params: { output: 2, on: true, durationSeconds: 60 } }, protocol: 'teltonika' }]);
    expect(live).toEqual([{ accountId: ACCOUNT, imei, message: { type: 'command', imei, command } }]);
    expect(await stored(imei, command.id)).toMatchObject({ accountId: ACCOUNT, status: 'pending', pendingBucket: 'pending', pendingSince: now });
    // Open commands never expire from under the unit's pointer.
    expect((await stored(imei, command.id)).expiresAt).toBeUndefined();
    expect((await unitItem(imei))['openCommand']).toEqual({ id: command.id, type: 'dout', createdAt: now });
  });

  it('keeps the command pending when the tracker cannot be reached', async () => {
    const imei = await registerUnit();
    sendFails = true;
    const command = await send(imei, mode('fixed1h'));
    expect(command.status).toBe('pending');
    expect(await statusOf(imei, command.id)).toBe('pending');
    expect(liveCommands(imei)).toEqual([command]);
  });

  it('cancels the unacknowledged command, pending or unanswered, and tells the browsers', async () => {
    const imei = await registerUnit();
    const first = await send(imei, mode('fixed24h'));
    now += 1000;
    const second = await send(imei, mode('movement'));
    expect(await stored(imei, first.id)).toMatchObject({ status: 'cancelled', updatedAt: new Date(now).toISOString(), expiresAt: Math.floor(now / 1000) + 90 * 86_400 });
    expect((await stored(imei, first.id)).pendingBucket).toBeUndefined();
    expect(liveCommands(imei).map((c) => [c.id, c.status])).toEqual([
      [first.id, 'pending'],
      [first.id, 'cancelled'],
      [second.id, 'pending'],
    ]);

    now += 121_000;
    await expireCommands(new Date(now), getPorts().live);
    expect(await statusOf(imei, second.id)).toBe('unanswered');
    const third = await send(imei, dout(1, true));
    expect(await statusOf(imei, second.id)).toBe('cancelled');
    expect(await statusOf(imei, third.id)).toBe('pending');
    expect((await unitItem(imei))['openCommand']).toMatchObject({ id: third.id });
  });

  it('refuses a DOUT command while a DOUT command waits for its answer, for 120 seconds', async () => {
    const imei = await registerUnit();
    const first = await send(imei, dout(1, true));
    now += 119_999;
    await expect(send(imei, dout(2, false))).rejects.toEqual(new ConflictError('DoutAwaitingAnswer'));
    expect(await statusOf(imei, first.id)).toBe('pending');
    expect(sent).toHaveLength(1);
    now += 1;
    const second = await send(imei, dout(2, false));
    expect(await statusOf(imei, first.id)).toBe('cancelled');
    expect(second.status).toBe('pending');
  });

  it('allows a DOUT command once the previous one is answered, and after an operating mode change', async () => {
    const imei = await registerUnit();
    const first = await send(imei, dout(1, true));
    await settleCommand(imei, first.id, { ok: true }, new Date(now + 2000), getPorts().live);
    now += 3000;
    const second = await send(imei, dout(1, false));
    expect(await statusOf(imei, first.id)).toBe('acknowledged');
    now += 1000;
    const third = await send(imei, mode('theft'));
    const fourth = await send(imei, dout(3, true));
    expect([await statusOf(imei, second.id), await statusOf(imei, third.id), await statusOf(imei, fourth.id)]).toEqual(['cancelled', 'cancelled', 'pending']);
  });

  it('decides a refusal on the unit as it is now, not as the caller read it before an answer', async () => {
    const imei = await registerUnit();
    const first = await send(imei, dout(1, true));
    const stale = await unitItem(imei);
    await settleCommand(imei, first.id, { ok: true }, new Date(now), getPorts().live);
    expect((await sendCommand(stale, dout(1, false), getPorts())).status).toBe('pending');
  });

  it('saves a DOUT label on the unit: first, further, cleared, and left alone without one', async () => {
    const imei = await registerUnit({ state: { ts: now, lat: 59.3, lon: 18.06, lastSeen: now } });
    await send(imei, dout(1, true, { label: 'Engine heater' }));
    expect((await unitItem(imei))['doutLabels']).toEqual({ '1': 'Engine heater' });
    now += 120_000;
    await send(imei, dout(2, true, { label: 'Lights' }));
    now += 120_000;
    await send(imei, dout(1, false));
    expect((await unitItem(imei))['doutLabels']).toEqual({ '1': 'Engine heater', '2': 'Lights' });
    now += 120_000;
    await send(imei, dout(1, false, { label: '' }));
    const unit = await unitItem(imei);
    expect(unit['doutLabels']).toEqual({ '2': 'Lights' });
    // Ingest's state is untouched: the unit item is updated, never replaced.
    expect(unit['state']).toMatchObject({ lat: 59.3, lon: 18.06 });

    const bare = await registerUnit();
    await send(bare, dout(3, true, { label: '' }));
    expect((await unitItem(bare))['doutLabels']).toBeUndefined();
  });

  it('answers NotFound when the unit vanished or changed hands under a lost race', async () => {
    const imei = await registerUnit();
    const stale = await unitItem(imei);
    await send(imei, mode('fixed6h'));
    await dynamo().send(new PutCommand({ TableName: tableName('units'), Item: { ...(await unitItem(imei)), accountId: 'someone-else' } }));
    await expect(sendCommand(stale, mode('fixed8h'), getPorts())).rejects.toEqual(new NotFoundError());
  });
});

describe('simultaneous commands for one unit', () => {
  it('leave exactly one unacknowledged command, every other one cancelled', async () => {
    const imei = await registerUnit();
    const unit = await unitItem(imei);
    const modes = ['fixed24h', 'fixed12h', 'fixed8h', 'fixed6h', 'fixed1h', 'realtime5min', 'realtime1min', 'movement', 'theft', 'fixed24h'] as const;
    const results = await Promise.all(modes.map((m) => sendCommand(unit, mode(m), getPorts())));
    const statuses = await Promise.all(results.map((c) => statusOf(imei, c.id)));
    expect(statuses.filter((s) => s === 'pending')).toHaveLength(1);
    expect(statuses.filter((s) => s === 'cancelled')).toHaveLength(9);
    const open = results[statuses.indexOf('pending')] as Command;
    expect((await unitItem(imei))['openCommand']).toMatchObject({ id: open.id });
    expect(sent).toHaveLength(10);
  });

  it('let one of ten DOUT commands through and refuse the others', async () => {
    const imei = await registerUnit();
    const unit = await unitItem(imei);
    const results = await Promise.allSettled(Array.from({ length: 10 }, (_, i) => sendCommand(unit, dout((i % 3) + 1, true), getPorts())));
    const created = results.filter((r): r is PromiseFulfilledResult<Command> => r.status === 'fulfilled');
    expect(created).toHaveLength(1);
    for (const r of results) if (r.status === 'rejected') expect(r.reason).toEqual(new ConflictError('DoutAwaitingAnswer'));
    expect((await listCommands(imei, ACCOUNT, 20)).map((c) => c.status)).toEqual(['pending']);
  });
});

describe('answers', () => {
  it('acknowledge a command once; a redelivery, a cancelled or an unknown command change nothing', async () => {
    const imei = await registerUnit();
    const command = await send(imei, mode('realtime1min'));
    const answeredAt = new Date(now + 5000);
    const settled = await settleCommand(imei, command.id, { ok: true }, answeredAt, getPorts().live);
    expect(settled).toEqual({ ...command, status: 'acknowledged', answeredAt: answeredAt.toISOString(), updatedAt: answeredAt.toISOString(), error: null });
    expect(liveCommands(imei).at(-1)).toEqual(settled);
    const unit = await unitItem(imei);
    expect(unit['operatingMode']).toBe('realtime1min');
    expect(unit['openCommand']).toBeUndefined();
    expect((await stored(imei, command.id)).pendingBucket).toBeUndefined();

    live.length = 0;
    expect(await settleCommand(imei, command.id, { ok: false }, new Date(now + 9000), getPorts().live)).toBeNull();
    expect(await stored(imei, command.id)).toMatchObject({ status: 'acknowledged', answeredAt: answeredAt.toISOString() });

    const first = await send(imei, dout(1, true));
    await send(imei, mode('fixed1h'));
    expect(await settleCommand(imei, first.id, { ok: true }, new Date(now), getPorts().live)).toBeNull();
    expect(await statusOf(imei, first.id)).toBe('cancelled');
    expect(await settleCommand(imei, newCommandId(new Date(now)), { ok: true }, new Date(now), getPorts().live)).toBeNull();
    expect(liveCommands(imei).map((c) => c.status)).toEqual(['pending', 'cancelled', 'pending']);
  });

  it('fail a command with the key for its type, keeping what the tracker said for support', async () => {
    const imei = await registerUnit({ operatingMode: 'fixed24h' });
    const m = await send(imei, mode('theft'));
    expect(await settleCommand(imei, m.id, { ok: false, deviceError: 'InvalidParams' }, new Date(now), getPorts().live)).toMatchObject({ status: 'failed', error: 'ModeChangeFailed' });
    expect(await stored(imei, m.id)).toMatchObject({ deviceError: 'InvalidParams' });
    expect((await unitItem(imei))['operatingMode']).toBe('fixed24h');
    const d = await send(imei, dout(2, true));
    expect(await settleCommand(imei, d.id, { ok: false }, new Date(now), getPorts().live)).toMatchObject({ status: 'failed', error: 'CommandFailed' });
    // A failed DOUT command is answered: the next one may go at once.
    expect((await send(imei, dout(2, true))).status).toBe('pending');
  });

  it('still acknowledge an unanswered command', async () => {
    const imei = await registerUnit();
    const command = await send(imei, mode('fixed12h'));
    now += 120_000;
    expect((await expireCommands(new Date(now), getPorts().live)).map((c) => c.id)).toContain(command.id);
    expect(await settleCommand(imei, command.id, { ok: true }, new Date(now + 60_000), getPorts().live)).toMatchObject({ status: 'acknowledged' });
    expect((await unitItem(imei))['operatingMode']).toBe('fixed12h');
  });
});

describe('time-outs', () => {
  it('mark pending commands unanswered once they waited 120 seconds, once, and tell the browsers', async () => {
    const imei = await registerUnit();
    const old = await send(imei, mode('fixed1h'));
    const other = await registerUnit();
    now += 60_000;
    const young = await send(other, mode('fixed1h'));
    const answeredImei = await registerUnit();
    const answered = await send(answeredImei, dout(1, true));
    await settleCommand(answeredImei, answered.id, { ok: true }, new Date(now), getPorts().live);
    live.length = 0;

    now += 60_000;
    const changed = await expireCommands(new Date(now), getPorts().live);
    expect(changed.map((c) => c.id)).toContain(old.id);
    expect(changed.map((c) => c.id)).not.toContain(young.id);
    expect(changed.map((c) => c.id)).not.toContain(answered.id);
    expect(liveCommands(imei)).toEqual([{ ...old, status: 'unanswered', updatedAt: new Date(now).toISOString() }]);
    const item = await stored(imei, old.id);
    expect(item.status).toBe('unanswered');
    expect([item.answeredAt, item.pendingBucket, item.pendingSince, item.expiresAt]).toEqual([undefined, undefined, undefined, undefined]);
    expect(await statusOf(other, young.id)).toBe('pending');
    expect(await statusOf(answeredImei, answered.id)).toBe('acknowledged');

    expect((await expireCommands(new Date(now), getPorts().live)).map((c) => c.id)).not.toContain(old.id);
  });
});

describe('the list', () => {
  it('holds a unit’s commands of this account, newest first, at most the limit', async () => {
    const imei = await registerUnit();
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      now += 1;
      ids.push((await send(imei, mode('fixed24h'))).id);
    }
    const list = await listCommands(imei, ACCOUNT, 3);
    expect(list.map((c) => c.id)).toEqual(ids.slice(-3).reverse());
    expect(list.map((c) => c.status)).toEqual(['pending', 'cancelled', 'cancelled']);
    expect(await listCommands(imei, 'another-account', 3)).toEqual([]);
  });
});
