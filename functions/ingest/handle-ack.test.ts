/**
 * The `commandAck` rule handler against DynamoDB Local: native acknowledgements settle the command
 * they name, once; malformed ones become dead letters with a reason and never throw.
 */
import { randomUUID } from 'node:crypto';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { IotRuleEvent } from '../../shared/iot-rules';
import { imeiFrom } from '../../shared/validators/imei';
import { useLocalTables } from '../../test/support/local-tables';
import { getPorts, overridePorts } from '../platform/container';
import { dynamo, tableName } from '../platform/db';
import type { LiveMessage } from '../platform/ports';
import { getUnitItem } from '../domain/unit/reads';
import { getCommandItem } from '../units/command-repository';
import { sendCommand } from '../units/command-service';
import { handler } from './handle-ack';
import { deadLettersOf } from '../../test/support/dead-letters';

const NOW = Date.parse('2025-04-02T12:00:00.000Z');
const ACCOUNT = `acc-${randomUUID()}`;
let serial = 0;
const live: LiveMessage[] = [];

async function unitWithCommand(type: 'dout' | 'operatingMode' = 'operatingMode') {
  const imei = imeiFrom(`35693807${String(500000 + serial++).padStart(6, '0')}`);
  await dynamo().send(new PutCommand({ TableName: tableName('units'), Item: { imei, accountId: ACCOUNT, name: 'Car', vehicleType: 'car', protocol: 'native' } }));
  const unit = (await getUnitItem(imei, { consistent: true }))!;
  const request = type === 'dout' ? ({ type, output: 1, on: true } as const) : ({ type, mode: 'movement' } as const);
  const command = await sendCommand(unit, request, getPorts());
  live.length = 0;
  return { imei, command };
}

const ack = (imei: string, body: unknown, receivedAt = NOW + 4000, topic = `trackers/${imei}/ack`): IotRuleEvent => ({
  payload: Buffer.from(typeof body === 'string' ? body : JSON.stringify(body)).toString('base64'),
  topic,
  imei,
  receivedAt,
});

const deadLetters = (imei: string) => deadLettersOf(imei, NOW);

beforeAll(async () => {
  await useLocalTables();
  overridePorts({
    clock: { now: () => new Date(NOW) },
    devices: { send: async () => {} },
    live: { publish: async (_audience, message) => void live.push(message) },
  });
});
beforeEach(() => {
  live.length = 0;
});

describe('command acknowledgements', () => {
  it('acknowledge the command with that id at the time the broker received the answer, once', async () => {
    const { imei, command } = await unitWithCommand();
    expect(await handler(ack(imei, { id: command.id, ok: true }))).toEqual({ outcome: 'acknowledged' });
    const answeredAt = new Date(NOW + 4000).toISOString();
    expect(await getCommandItem(imei, command.id)).toMatchObject({ status: 'acknowledged', answeredAt });
    expect(live).toEqual([{ type: 'command', imei, command: { ...command, status: 'acknowledged', answeredAt, updatedAt: answeredAt } }]);

    expect(await handler(ack(imei, { id: command.id, ok: false, error: 'late duplicate' }, NOW + 9000))).toEqual({ outcome: 'ignored' });
    expect(await getCommandItem(imei, command.id)).toMatchObject({ status: 'acknowledged', answeredAt });
    expect(live).toHaveLength(1);
  });

  it('fail the command when the tracker says it could not', async () => {
    const { imei, command } = await unitWithCommand('dout');
    expect(await handler(ack(imei, { id: command.id, ok: false, error: 'InvalidParams' }))).toEqual({ outcome: 'failed' });
    expect(await getCommandItem(imei, command.id)).toMatchObject({ status: 'failed', error: 'CommandFailed', deviceError: 'InvalidParams' });
  });

  it('change nothing for an unknown id or another unit’s command, without a dead letter', async () => {
    const { imei, command } = await unitWithCommand();
    const other = await unitWithCommand();
    expect(await handler(ack(imei, { id: '0000000000000-0000000000000000', ok: true }))).toEqual({ outcome: 'ignored' });
    expect(await handler(ack(other.imei, { id: command.id, ok: true }))).toEqual({ outcome: 'ignored' });
    expect((await getCommandItem(imei, command.id))?.status).toBe('pending');
    expect(await deadLetters(imei)).toEqual([]);
    expect(live).toEqual([]);
  });

  it('dead-letter malformed acknowledgements with the reason', async () => {
    const { imei, command } = await unitWithCommand();
    const cases: Array<[unknown, string]> = [
      ['{"id":', 'MalformedJson'],
      [[{ id: command.id, ok: true }], 'UnknownFormat'],
      [{ id: command.id }, 'MissingField'],
      [{ id: command.id, ok: 'yes' }, 'WrongType'],
      [{ id: 'x'.repeat(65), ok: true }, 'InvalidValue'],
    ];
    for (const [i, [body, reason]] of cases.entries()) {
      expect(await handler(ack(imei, body, NOW + i)), reason).toEqual({ outcome: 'deadLetter', reason });
    }
    expect((await deadLetters(imei)).map((d) => d.reason).sort()).toEqual(cases.map(([, reason]) => reason).sort());
    expect(await handler(ack('not-an-imei', { id: command.id, ok: true }, NOW, 'trackers/not-an-imei/ack'))).toEqual({ outcome: 'deadLetter', reason: 'UnknownUnit' });
    expect((await getCommandItem(imei, command.id))?.status).toBe('pending');
  });
});
