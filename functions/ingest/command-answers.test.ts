/**
 * Teltonika answers (`{ "RSP": "..." }`): which answers fit which command (with the texts the
 * simulated FMB and the firmware send), and, against DynamoDB Local, how an answer settles the
 * unit's open command and nothing else.
 */
import { randomUUID } from 'node:crypto';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import type { CommandRequest } from '../../shared/schemas/commands';
import { imeiFrom } from '../../shared/validators/imei';
import { encodeDeviceCommand } from '../platform/adapters/device-encoding';
import { answerTeltonikaCommand } from '../../infra/local/simulator/protocol';
import { SimulatedVehicle } from '../../infra/local/simulator/vehicle';
import { useLocalTables } from '../../test/support/local-tables';
import { getPorts, overridePorts } from '../platform/container';
import { dynamo, tableName } from '../platform/db';
import type { LiveMessage } from '../platform/ports';
import { getUnitItem } from '../domain/unit/reads';
import { getCommandItem } from '../units/command-repository';
import { sendCommand } from '../units/command-service';
import { judgeTeltonikaAnswer, recordCommandAnswer } from './command-answers';

const imei = imeiFrom('35693807600000');

/** What the simulated FMB answers to the bytes the server sends for this command. */
function simulatedAnswer(request: CommandRequest): string {
  const vehicle = new SimulatedVehicle({ index: 0, imei, vehicleType: 'car', seed: 1, start: Date.UTC(2025, 0, 1) });
  const params = request.type === 'dout' ? { output: request.output, on: request.on, ...(request.durationSeconds ? { durationSeconds: request.durationSeconds } : {}) } : { mode: request.mode };
  const sent = encodeDeviceCommand(imei, { id: 'x', type: request.type, params }, 'teltonika');
  return (JSON.parse(answerTeltonikaCommand(vehicle, sent.payload)?.payload ?? '{}') as { RSP: string }).RSP;
}

const dout = (output: number, on: boolean) => ({ type: 'dout' as const, params: { output, on } });
const mode = (m: 'fixed1h' | 'realtime1min') => ({ type: 'operatingMode' as const, params: { mode: m } });

describe('judging a Teltonika answer', () => {
  it('acknowledges setdigout answers reporting the output in the state asked for', () => {
    expect(judgeTeltonikaAnswer(dout(2, true), simulatedAnswer({ type: 'dout', output: 2, on: true, durationSeconds: 30 }))).toEqual({ ok: true });
    expect(judgeTeltonikaAnswer(dout(3, false), simulatedAnswer({ type: 'dout', output: 3, on: false }))).toEqual({ ok: true });
    expect(judgeTeltonikaAnswer(dout(1, true), 'DOUT1:1 Timeout:INFINITY')).toEqual({ ok: true });
    expect(judgeTeltonikaAnswer(dout(2, false), 'DOUT1:1 DOUT2:0 Timeout:60s')).toEqual({ ok: true });
  });

  it('does not take an answer to another command for this one', () => {
    expect(judgeTeltonikaAnswer(dout(1, true), simulatedAnswer({ type: 'dout', output: 2, on: true }))).toBeNull();
    expect(judgeTeltonikaAnswer(dout(1, true), 'DOUT1:0 Timeout:INFINITY')).toBeNull();
    expect(judgeTeltonikaAnswer(dout(1, true), simulatedAnswer({ type: 'operatingMode', mode: 'fixed1h' }))).toBeNull();
    expect(judgeTeltonikaAnswer(mode('fixed1h'), simulatedAnswer({ type: 'operatingMode', mode: 'realtime1min' }))).toBeNull();
    expect(judgeTeltonikaAnswer(mode('fixed1h'), simulatedAnswer({ type: 'dout', output: 1, on: true }))).toBeNull();
    expect(judgeTeltonikaAnswer(mode('fixed1h'), 'Ver:03.28.07 GPS:1 Sat:9')).toBeNull();
  });

  it('acknowledges setparam answers echoing every value of the operating mode', () => {
    expect(judgeTeltonikaAnswer(mode('realtime1min'), simulatedAnswer({ type: 'operatingMode', mode: 'realtime1min' }))).toEqual({ ok: true });
    const echo = simulatedAnswer({ type: 'operatingMode', mode: 'fixed1h' });
    expect(judgeTeltonikaAnswer(mode('fixed1h'), echo.replace(/;/g, '; '))).toEqual({ ok: true });
    expect(judgeTeltonikaAnswer(mode('fixed1h'), echo.split(';').slice(0, 4).join(';'))).toBeNull();
  });

  it("acknowledges the eco thresholds by their echo, not by an operating mode's", () => {
    const eco = { type: 'ecoThresholds' as const, params: { sensitivity: 'sensitive' as const, accelerationG: 0.25, brakingG: 0.28, corneringG: 0.35 } };
    expect(judgeTeltonikaAnswer(eco, 'New value 11000:1;11004:2.5;11005:2.7;11006:3.4;11008:1')).toEqual({ ok: true });
    expect(judgeTeltonikaAnswer(eco, 'New value 11000:1;11004:3.6;11005:3.7;11006:3.7;11008:1')).toBeNull();
    expect(judgeTeltonikaAnswer(eco, simulatedAnswer({ type: 'operatingMode', mode: 'fixed1h' }))).toBeNull();
  });

  it('fails the command on a refusal, keeping the text', () => {
    expect(judgeTeltonikaAnswer(dout(1, true), 'DOUT1 Is disabled from CFG')).toEqual({ ok: false, deviceError: 'DOUT1 Is disabled from CFG' });
    expect(judgeTeltonikaAnswer(dout(2, true), 'DOUT is disabled from CFG')).toMatchObject({ ok: false });
    expect(judgeTeltonikaAnswer(dout(2, true), 'DOUT1 Is disabled from CFG')).toBeNull();
    expect(judgeTeltonikaAnswer(mode('fixed1h'), 'Param ID:10000 does not exist')).toMatchObject({ ok: false });
    expect(judgeTeltonikaAnswer(mode('fixed1h'), 'Invalid parameter value')).toMatchObject({ ok: false });
  });
});

describe('recording a Teltonika answer', () => {
  const accountId = `acc-${randomUUID()}`;
  const live: LiveMessage[] = [];
  let now = Date.parse('2025-07-01T06:00:00.000Z');

  beforeAll(async () => {
    await useLocalTables();
    overridePorts({ clock: { now: () => new Date(now) }, devices: { send: async () => {} }, live: { publish: async (_audience, m) => void live.push(m) } });
    await dynamo().send(new PutCommand({ TableName: tableName('units'), Item: { imei, accountId, name: 'Pool car', vehicleType: 'car', protocol: 'teltonika' } }));
  });

  const send = async (request: CommandRequest) => {
    const unit = (await getUnitItem(imei, { consistent: true }))!;
    return sendCommand(unit, request, getPorts());
  };
  const unit = async () => (await dynamo().send(new GetCommand({ TableName: tableName('units'), Key: { imei }, ConsistentRead: true }))).Item ?? {};

  it('settles the open command it fits, keeps the text on the unit, and ignores answers to cancelled commands', async () => {
    const first = await send({ type: 'dout', output: 1, on: true });
    now += 1000;
    const second = await send({ type: 'operatingMode', mode: 'fixed1h' });
    live.length = 0;

    // The cancelled DOUT command reached the device anyway and is answered first.
    const late = simulatedAnswer({ type: 'dout', output: 1, on: true });
    expect(await recordCommandAnswer(imei, { text: late, receivedAt: now + 2000 })).toBe(true);
    expect((await unit())['lastCommandAnswer']).toEqual({ text: late, receivedAt: now + 2000 });
    expect((await getCommandItem(imei, first.id))?.status).toBe('cancelled');
    expect((await getCommandItem(imei, second.id))?.status).toBe('pending');
    expect(live).toEqual([]);

    await recordCommandAnswer(imei, { text: simulatedAnswer({ type: 'operatingMode', mode: 'fixed1h' }), receivedAt: now + 3000 });
    const answeredAt = new Date(now + 3000).toISOString();
    expect(await getCommandItem(imei, second.id)).toMatchObject({ status: 'acknowledged', answeredAt });
    expect(await unit()).toMatchObject({ operatingMode: 'fixed1h' });
    expect(live).toEqual([{ type: 'command', imei, command: { ...second, status: 'acknowledged', answeredAt, updatedAt: answeredAt } }]);

    // Redelivered: kept already, settles nothing more.
    expect(await recordCommandAnswer(imei, { text: 'New value 10000:3600', receivedAt: now + 3000 })).toBe(false);
    expect(live).toHaveLength(1);
  });

  it('fails the open command on a refusal', async () => {
    now += 60_000;
    const command = await send({ type: 'dout', output: 3, on: true, durationSeconds: 10 });
    await recordCommandAnswer(imei, { text: 'DOUT3 Is disabled from CFG', receivedAt: now + 500 });
    expect(await getCommandItem(imei, command.id)).toMatchObject({ status: 'failed', error: 'CommandFailed', deviceError: 'DOUT3 Is disabled from CFG' });
    expect((await unit())['openCommand']).toBeUndefined();
  });
});
