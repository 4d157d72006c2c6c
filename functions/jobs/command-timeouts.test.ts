/**
 * The `command-timeouts` job as the scheduler calls it (`handler({ job })`), against DynamoDB Local:
 * "now" comes from the clock port, so 120 seconds pass without waiting.
 */
import { randomUUID } from 'node:crypto';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { imeiFrom } from '../../shared/validators/imei';
import { useLocalTables } from '../../test/support/local-tables';
import { getPorts, overridePorts } from '../platform/container';
import { dynamo, tableName } from '../platform/db';
import type { LiveMessage } from '../platform/ports';
import { sendCommand } from '../units/command-service';
import { getUnitItem } from '../domain/unit/reads';
import { handler } from './command-timeouts';

let now = Date.parse('2025-06-01T08:00:00.000Z');
const live: Array<{ accountId: string; imei: string; message: LiveMessage }> = [];

beforeAll(async () => {
  await useLocalTables();
  overridePorts({
    clock: { now: () => new Date(now) },
    devices: { send: async () => {} },
    live: { publish: async ({ accountId: accountId, imei: imei }, message) => void live.push({ accountId, imei, message }) },
  });
});

describe('job command-timeouts', () => {
  it('turns commands pending for 120 seconds into unanswered ones and publishes each once', async () => {
    const accountId = `acc-${randomUUID()}`;
    const imei = imeiFrom('35693807400000');
    await dynamo().send(new PutCommand({ TableName: tableName('units'), Item: { imei, accountId, name: 'Van', vehicleType: 'van', protocol: 'native' } }));
    const unit = (await getUnitItem(imei, { consistent: true }))!;
    const command = await sendCommand(unit, { type: 'operatingMode', mode: 'fixed6h' }, getPorts());
    live.length = 0;

    now += 119_999;
    expect(await handler({ job: 'command-timeouts' })).toEqual({ unanswered: 0 });
    now += 1;
    expect(await handler({ job: 'command-timeouts' })).toEqual({ unanswered: 1 });
    expect(await handler({ job: 'command-timeouts' })).toEqual({ unanswered: 0 });
    expect(live).toEqual([
      { accountId, imei, message: { type: 'command', imei, command: { ...command, status: 'unanswered', updatedAt: new Date(now).toISOString() } } },
    ]);
  });
});
