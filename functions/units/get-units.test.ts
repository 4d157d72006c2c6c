/**
 * The units list handler against DynamoDB Local, with the latest state written by ingest's own
 * repository: the list shape (no position, no commands), last seen as the receive time, and a
 * unit's own colour, driver and departments once stored.
 */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { beforeAll, describe, expect, it } from 'vitest';
import type { UnitListItem } from '../../shared/schemas/units';
import { DEMO_PASSWORD, demoImei, demoUsers, seedDemo } from '../../infra/local/seed';
import { useLocalTables } from '../../test/support/local-tables';
import { loginAs } from '../../test/support/sessions';
import { storeUnitState } from '../../test/support/unit-state';
import { nextState } from '../ingest/state';
import { dynamo, tableName } from '../platform/db';
import { handler } from './get-units';
import { testPosition } from '../../test/support/positions';

async function list(token: string): Promise<{ status: number; data: UnitListItem[] }> {
  const event = {
    version: '2.0',
    routeKey: 'GET /api/v1/user/units',
    rawPath: '/api/v1/user/units',
    rawQueryString: '',
    headers: { authorization: `Bearer ${token}` },
    requestContext: { requestId: 't', http: { method: 'GET', path: '/api/v1/user/units' } },
    isBase64Encoded: false,
  } as unknown as APIGatewayProxyEventV2;
  const res = (await handler(event, {} as Context)) as APIGatewayProxyStructuredResultV2;
  return { status: res.statusCode ?? 0, data: (JSON.parse(String(res.body)) as { data: UnitListItem[] }).data };
}

const position = (ts: number) => testPosition(ts, 59.33, 18.06, { speed: 12, heading: 90, ignition: true, movement: true });

let admin: string;
let user: string;
const T0 = Date.parse('2025-03-10T08:00:00.000Z');

beforeAll(async () => {
  await useLocalTables();
  await seedDemo();
  admin = (await loginAs(demoUsers.admin.username, DEMO_PASSWORD)).token;
  user = (await loginAs(demoUsers.user.username, DEMO_PASSWORD)).token;
  // Device time T0, received 90 s later (a buffered record): last seen is when it was heard from.
  await storeUnitState(demoImei(0), nextState(undefined, position(T0), T0 + 90_000));
  await dynamo().send(
    new UpdateCommand({
      TableName: tableName('units'),
      Key: { imei: demoImei(1) },
      UpdateExpression: 'SET color = :c, symbol = :s, driver = :d, departments = :dep',
      ExpressionAttributeValues: { ':c': '#ff0000', ':s': 'bus', ':d': 'Kim Berg', ':dep': ['North', 'Service'] },
    }),
  );
});

describe('GET /api/v1/user/units', () => {
  it('answers the list shape: last seen from the receive time, null before the first report', async () => {
    const { status, data } = await list(user);
    expect(status).toBe(200);
    expect(data).toEqual([
      {
        imei: demoImei(0),
        name: 'Service van 1',
        registrationNumber: 'ABC123',
        vehicleType: 'car',
        color: '#1c7ed6',
        symbol: 'car',
        driver: null,
        departments: [],
        tags: [],
        lastSeen: '2025-03-10T08:01:30.000Z',
      },
      {
        imei: demoImei(1),
        name: 'Service van 2',
        registrationNumber: 'DEF456',
        vehicleType: 'car',
        color: '#ff0000',
        symbol: 'bus',
        driver: 'Kim Berg',
        departments: ['North', 'Service'],
        tags: [],
        lastSeen: null,
      },
    ]);
  });

  it('lists every unit of the account to an admin, by name', async () => {
    const { data } = await list(admin);
    expect(data.map((u) => [u.name, u.vehicleType, u.symbol])).toEqual([
      ['Boat trailer', 'trailer', 'trailer'],
      ['Delivery lorry', 'lorry', 'truck'],
      ['Excavator', 'excavator', 'machine'],
      ['Service van 1', 'car', 'car'],
      ['Service van 2', 'car', 'bus'],
    ]);
  });
});
