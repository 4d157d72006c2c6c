/**
 * GET /api/v1/user/units black-box against the embedded runtime: what each caller sees (an account
 * admin all of the account's units, an ordinary user only the granted ones, another account only
 * its own), and 401 without a token or with a session that ended.
 */
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UnitListItem } from '../../shared/schemas/units';
import { dynamo, tableName } from '../../functions/platform/db';
import type { UnitRecord } from '../../functions/domain/unit/schema';
import { DEMO_PASSWORD, demoImei, demoUsers } from '../../infra/local/seed';
import type { EmbeddedRuntime } from '../../infra/local/runtime';
import { apiFetch } from '../support/http';
import { startRuntime } from '../support/runtime';
import { createTestUser, loginAs } from '../support/sessions';

const PATH = '/api/v1/user/units';
const otherImei = demoImei(600);

let rt: EmbeddedRuntime;
let admin: string;
let user: string;
let other: string;

async function units(token?: string): Promise<{ status: number; body: { success?: boolean; data?: UnitListItem[]; message?: string } }> {
  const res = await apiFetch(`${rt.url}${PATH}`, token ? { headers: { authorization: `Bearer ${token}` } } : {});
  return { status: res.status, body: (await res.json()) as { data?: UnitListItem[] } };
}

beforeAll(async () => {
  rt = await startRuntime();
  admin = (await loginAs(demoUsers.admin.username, DEMO_PASSWORD)).token;
  user = (await loginAs(demoUsers.user.username, DEMO_PASSWORD)).token;
  const stranger = await createTestUser();
  other = (await loginAs(stranger.username, stranger.password)).token;
  const account = await dynamo().send(new GetCommand({ TableName: tableName('users'), Key: { userId: stranger.userId } }));
  const unit: UnitRecord = {
    imei: otherImei,
    accountId: String(account.Item?.['accountId']),
    name: 'Other van',
    registrationNumber: 'XYZ987',
    vehicleType: 'van',
    protocol: 'native',
    createdAt: new Date().toISOString(),
  };
  await dynamo().send(new PutCommand({ TableName: tableName('units'), Item: unit }));
});

afterAll(async () => {
  await rt?.stop();
});

describe('GET /api/v1/user/units', () => {
  it('answers every unit of the account to its admin, by name', async () => {
    const res = await units(admin);
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(true);
    expect(res.body.data?.map((u) => [u.name, u.registrationNumber, u.imei])).toEqual([
      ['Boat trailer', 'MNO345', demoImei(4)],
      ['Delivery lorry', 'GHI789', demoImei(2)],
      ['Excavator', 'JKL012', demoImei(3)],
      ['Service van 1', 'ABC123', demoImei(0)],
      ['Service van 2', 'DEF456', demoImei(1)],
    ]);
    expect(res.body.data?.every((u) => u.lastSeen === null && u.driver === null && u.departments.length === 0)).toBe(true);
  });

  it('answers an ordinary user only the units granted to them', async () => {
    const res = await units(user);
    expect(res.status).toBe(200);
    expect(res.body.data?.map((u) => u.imei)).toEqual([demoImei(0), demoImei(1)]);
  });

  it("never answers another account's units", async () => {
    const res = await units(other);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual([
      { imei: otherImei, name: 'Other van', registrationNumber: 'XYZ987', vehicleType: 'van', color: '#1971c2', symbol: 'van', driver: null, departments: [], tags: [], lastSeen: null },
    ]);
    expect((await units(admin)).body.data?.some((u) => u.imei === otherImei)).toBe(false);
  });

  it('answers 401 without a token or with a forged one', async () => {
    expect(await units()).toEqual({ status: 401, body: { message: 'Unauthenticated.' } });
    expect(await units(`${admin.slice(0, -4)}AAAA`)).toEqual({ status: 401, body: { message: 'Unauthenticated.' } });
  });
});
