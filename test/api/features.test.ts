/**
 * Account features enforced by the server, black-box against the embedded runtime: a route that
 * names a feature (shared/routes.ts `feature`) answers 403 with the feature's message key while the
 * caller's account has it off, and answers again as soon as it is back on. The routes the commands
 * page and the trip log use without the map stay open.
 */
import { PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dynamo, tableName } from '../../functions/platform/db';
import type { AccountFeatures } from '../../shared/features';
import type { UnitRecord } from '../../functions/domain/unit/schema';
import { demoImei } from '../../infra/local/seed';
import type { EmbeddedRuntime } from '../../infra/local/runtime';
import { call } from '../support/http';
import { startRuntime } from '../support/runtime';
import { createTestUser, loginAs, type TestUser } from '../support/sessions';

const REALTIME_UNITS = '/api/v1/user/realtime/units';
const imei = demoImei(700);

let rt: EmbeddedRuntime;
let owner: TestUser;
let token: string;

const get = (path: string) => call<{ success: boolean; data?: unknown; message?: string; errors?: unknown }>(rt.url, 'GET', path, undefined, { token });

/** Sets flags of the account in its record, as support would. */
async function setFeatures(changes: Partial<AccountFeatures>): Promise<void> {
  const names = Object.keys(changes);
  await dynamo().send(
    new UpdateCommand({
      TableName: tableName('accounts'),
      Key: { accountId: owner.accountId },
      UpdateExpression: `SET ${names.map((_, i) => `features.#f${i} = :v${i}`).join(', ')}`,
      ExpressionAttributeNames: Object.fromEntries(names.map((name, i) => [`#f${i}`, name])),
      ExpressionAttributeValues: Object.fromEntries(names.map((name, i) => [`:v${i}`, changes[name as keyof AccountFeatures]])),
    }),
  );
}

beforeAll(async () => {
  rt = await startRuntime({ seed: false });
  owner = await createTestUser();
  ({ token } = await loginAs(owner.username, owner.password));
  const unit: UnitRecord = { imei, accountId: owner.accountId, name: 'Feature van', vehicleType: 'van', protocol: 'native', createdAt: new Date().toISOString() };
  await dynamo().send(new PutCommand({ TableName: tableName('units'), Item: unit }));
});

afterAll(async () => {
  await rt?.stop();
});

describe('the real-time map feature', () => {
  it('answers GET /user/realtime/units while the account has the map, 403 RealtimeMapNotIncluded while it has not, and again when it is back', async () => {
    const on = await get(REALTIME_UNITS);
    expect(on.status).toBe(200);
    expect((on.body.data as { imei: string }[]).map((u) => u.imei)).toEqual([imei]);

    await setFeatures({ realtimeMap: false });
    const off = await get(REALTIME_UNITS);
    expect(off).toMatchObject({ status: 403, body: { success: false, message: 'RealtimeMapNotIncluded', errors: 'RealtimeMapNotIncluded' } });
    // The settings the browser reads say the same.
    expect((await get('/api/v1/user/settings')).body.data).toMatchObject({ realtime_map: false });

    await setFeatures({ realtimeMap: true });
    const back = await get(REALTIME_UNITS);
    expect(back.status).toBe(200);
    expect(back.body).toEqual(on.body);
  });

  it('leaves open what the commands page and the trip log use without the map', async () => {
    await setFeatures({ realtimeMap: false });
    try {
      const positions = `/api/v1/user/units/${imei}/positions?${new URLSearchParams({ from: '2025-03-10T07:00:00Z', to: '2025-03-10T09:00:00Z' }).toString()}`;
      for (const path of [
        '/api/v1/user/live/connection',
        positions,
        `/api/v1/user/trackers/${imei}/latest-position`,
        `/api/v1/user/units/${imei}/commands`,
        '/api/v1/user/units',
        '/api/v1/user/settings',
      ]) {
        expect((await get(path)).status, path).toBe(200);
      }
    } finally {
      await setFeatures({ realtimeMap: true });
    }
  });

  it('does not let another flag stand in for the map', async () => {
    await setFeatures({ realtimeMap: false, carBooking: true, rfid: true, safeReturnHome: true });
    try {
      expect((await get(REALTIME_UNITS)).status).toBe(403);
    } finally {
      await setFeatures({ realtimeMap: true, carBooking: false, rfid: false, safeReturnHome: false });
    }
  });

  it('shows the requirement and its 403 in the OpenAPI document', async () => {
    const doc = (await call<{ paths: Record<string, Record<string, Record<string, unknown>>> }>(rt.url, 'GET', '/api/docs')).body;
    const operation = doc.paths[REALTIME_UNITS]?.['get'];
    expect(operation?.['x-feature']).toBe('realtimeMap');
    // The feature's refusal, beside an API key's missing scope (the route is open to keys with units:read).
    expect(operation?.['responses']).toMatchObject({
      '403': { content: { 'application/json': { schema: { properties: { message: { enum: expect.arrayContaining(['RealtimeMapNotIncluded']) } } } } } },
    });
    expect(doc.paths['/api/v1/user/live/connection']?.['get']?.['x-feature']).toBeUndefined();
  });
});
