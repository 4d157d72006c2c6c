/**
 * API keys end to end on the embedded runtime (docs/api.md API keys,
 * docs/decisions/0045-api-keys-and-typed-client.md): a key is shown once and stored as a hash only,
 * reads what its scopes allow and gets 403 elsewhere (administration and support routes
 * included), answers 401 at once after revocation (also while calls race the revoke), never reaches
 * another account, has its own rate limit, and every call goes into its call log.
 */
import { QueryCommand, ScanCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_ACTIVE_API_KEYS, API_KEY_RATE_LIMIT, type ApiKeyCallList, type ApiKeyCreated, type ApiKeyList, type ApiKeyScope } from '../../shared/schemas/api-keys';
import type { UnitListItem } from '../../shared/schemas/units';
import { apiKeyHash } from '../../functions/platform/api-key-format';
import { dynamo, tableName } from '../../functions/platform/db';
import type { EmbeddedRuntime } from '../../infra/local/runtime';
import { demoImei } from '../../infra/local/seed';
import { callAs, demoCallers, type Caller } from '../support/api-caller';
import { apiFetch } from '../support/http';
import { startRuntime } from '../support/runtime';

const BASE = '/api/v1/administration/api-keys';
let rt: EmbeddedRuntime;
let admin: Caller;
let user: Caller;
let other: Caller;

const call = <T>(method: string, path: string, who: Caller | null, body?: unknown) => callAs<T>(rt.url, method, path, who, body);
const asKey = (key: string): Caller => ({ token: key, userId: '', accountId: '' });
let named = 0;
async function createKey(scopes: ApiKeyScope[], who: Caller = admin): Promise<ApiKeyCreated> {
  const res = await call<ApiKeyCreated>('POST', BASE, who, { name: `Integration ${named++}`, scopes });
  expect(res.status).toBe(201);
  return res.body.data!;
}
const DAY = new Date().toISOString().slice(0, 10);

beforeAll(async () => {
  rt = await startRuntime();
  ({ admin, user, other } = await demoCallers());
}, 120_000);

afterAll(async () => {
  await rt?.stop();
});

describe('creating and listing keys', () => {
  it('shows the key once, lists it by prefix and stores only its SHA-256', async () => {
    const res = await call<ApiKeyCreated>('POST', BASE, admin, { name: '  Payroll  ', scopes: ['trips:read', 'units:read', 'units:read'] });
    expect(res.status).toBe(201);
    const { id, key } = res.body.data!;
    expect(key).toMatch(/^tpk_[A-Za-z0-9_-]{43}$/);

    const list = await call<ApiKeyList>('GET', BASE, admin);
    expect(list.body.data?.maxActive).toBe(MAX_ACTIVE_API_KEYS);
    const listed = list.body.data?.keys.find((k) => k.id === id);
    expect(listed).toMatchObject({ name: 'Payroll', prefix: key.slice(0, 10), scopes: ['units:read', 'trips:read'], lastUsedAt: null, revokedAt: null, createdBy: 'demo-admin' });
    expect(JSON.stringify(list.body)).not.toContain(key.slice(10));

    // Every item of the table, of every account: the key itself is nowhere, its hash is.
    const items = (await dynamo().send(new ScanCommand({ TableName: tableName('apiKeys') }))).Items ?? [];
    expect(JSON.stringify(items)).not.toContain(key.slice(4));
    const hashed = items.filter((i) => i['pk'] === `hash#${apiKeyHash(key)}`);
    expect(hashed).toHaveLength(1);
    expect(hashed[0]).toMatchObject({ keyId: id, accountId: admin.accountId, scopes: ['units:read', 'trips:read'] });
  });

  it('refuses bad names and scopes with their keys, and ordinary users', async () => {
    const refused = async (body: unknown) => (await call('POST', BASE, admin, body)).body.errors;
    expect(await refused({ name: ' ', scopes: ['units:read'] })).toEqual({ name: ['ApiKeyNameRequired'] });
    expect(await refused({ name: 'x'.repeat(101), scopes: ['units:read'] })).toEqual({ name: ['ApiKeyNameTooLong'] });
    expect(await refused({ name: 'ok', scopes: [] })).toEqual({ scopes: ['ApiKeyScopesRequired'] });
    expect(await refused({ name: 'ok', scopes: ['admin'] })).toEqual({ 'scopes.0': ['InvalidApiKeyScope'] });
    expect((await call('POST', BASE, admin, { name: 'x'.repeat(100), scopes: ['units:read'] })).status).toBe(201);
    const asUser = await call('POST', BASE, user, { name: 'mine', scopes: ['units:read'] });
    expect([asUser.status, asUser.body.message]).toEqual([403, 'NoAccessToAdministratorPages']);
    expect((await call('GET', BASE, user)).status).toBe(403);
  });

  it(`holds an account to ${MAX_ACTIVE_API_KEYS} active keys however creates race, and a revoke frees a place`, async () => {
    const { other: fresh } = await demoCallers();
    const answers = await Promise.all(
      Array.from({ length: MAX_ACTIVE_API_KEYS + 4 }, (_, i) => call<ApiKeyCreated>('POST', BASE, fresh, { name: `k${i}`, scopes: ['events:read'] })),
    );
    expect(answers.filter((a) => a.status === 201)).toHaveLength(MAX_ACTIVE_API_KEYS);
    const refusals = answers.filter((a) => a.status !== 201);
    expect(refusals.map((a) => [a.status, a.body.message])).toEqual(Array.from({ length: 4 }, () => [422, 'TooManyApiKeys']));
    const first = answers.find((a) => a.status === 201)!.body.data!;
    expect((await call('DELETE', `${BASE}/${first.id}`, fresh)).status).toBe(200);
    expect((await call('POST', BASE, fresh, { name: 'again', scopes: ['events:read'] })).status).toBe(201);
    expect((await call('POST', BASE, fresh, { name: 'one too many', scopes: ['events:read'] })).body.message).toBe('TooManyApiKeys');
  }, 60_000);
});

describe('what a key may call', () => {
  it('reads the whole account with units:read and nothing its scopes do not hold', async () => {
    const { key } = await createKey(['units:read']);
    const units = await call<UnitListItem[]>('GET', '/api/v1/user/units', asKey(key));
    expect(units.status).toBe(200);
    const admins = await call<UnitListItem[]>('GET', '/api/v1/user/units', admin);
    expect(units.body.data?.map((u) => u.imei).sort()).toEqual(admins.body.data?.map((u) => u.imei).sort());
    expect((await call('GET', `/api/v1/user/trackers/${demoImei(0)}/latest-position`, asKey(key))).status).toBe(200);
    expect((await call('GET', '/api/v1/user/geofences', asKey(key))).status).toBe(200);

    const scopeMissing = [
      ['GET', `/api/v1/user/trips?imei=${demoImei(0)}&from=${DAY}&to=${DAY}`],
      ['GET', `/api/v1/user/events?from=${DAY}T00:00:00Z&to=${DAY}T23:00:00Z`],
      ['POST', `/api/v1/user/units/${demoImei(0)}/commands`],
      ['POST', '/api/v1/user/geofences'],
    ] as const;
    for (const [method, path] of scopeMissing) {
      const res = await call(method, path, asKey(key), method === 'POST' ? {} : undefined);
      expect([path, res.status, res.body.message]).toEqual([path, 403, 'ApiKeyScopeMissing']);
    }
    const closed = [
      ['GET', BASE],
      ['POST', BASE],
      ['GET', '/api/v1/administration/alarm-receivers'],
      ['GET', '/api/v1/support/accounts?q=demo'],
      ['GET', '/api/v1/user/profile'],
      ['GET', '/api/v1/user/settings'],
    ] as const;
    for (const [method, path] of closed) {
      const res = await call(method, path, asKey(key), method === 'POST' ? { name: 'escalate', scopes: ['units:read'] } : undefined);
      expect([path, res.status, res.body.message]).toEqual([path, 403, 'ApiKeyNotAllowed']);
    }
  });

  it('reads trips and events with those scopes', async () => {
    const { key } = await createKey(['trips:read', 'events:read']);
    expect((await call('GET', `/api/v1/user/trips?imei=${demoImei(0)}&from=${DAY}&to=${DAY}`, asKey(key))).status).toBe(200);
    expect((await call('GET', `/api/v1/user/events?from=${DAY}T00:00:00Z&to=${DAY}T23:00:00Z`, asKey(key))).status).toBe(200);
    expect((await call('GET', '/api/v1/user/units', asKey(key))).body.message).toBe('ApiKeyScopeMissing');
  });

  it('answers 401 for a key that is no key, and a login token still works as before', async () => {
    expect((await call('GET', '/api/v1/user/units', asKey(`tpk_${'A'.repeat(43)}`))).status).toBe(401);
    expect((await call('GET', '/api/v1/user/units', asKey('tpk_short'))).status).toBe(401);
    expect((await call('GET', '/api/v1/user/units', admin)).status).toBe(200);
  });
});

describe('revoking', () => {
  it('answers 401 from the next call on, keeps the key listed as revoked, and revoking again changes nothing', async () => {
    const { id, key } = await createKey(['units:read']);
    expect((await call('GET', '/api/v1/user/units', asKey(key))).status).toBe(200);
    expect((await call('DELETE', `${BASE}/${id}`, admin)).status).toBe(200);
    expect((await call('GET', '/api/v1/user/units', asKey(key))).status).toBe(401);
    const listed = (await call<ApiKeyList>('GET', BASE, admin)).body.data?.keys.find((k) => k.id === id);
    expect(listed?.revokedAt).toEqual(expect.any(String));
    expect((await call('DELETE', `${BASE}/${id}`, admin)).status).toBe(200);
    expect((await call('DELETE', `${BASE}/ak-0000000000000000`, admin)).body.message).toBe('ApiKeyNotFound');
  });

  it('leaves no call through once a revoke that raced calls has answered', async () => {
    const { id, key } = await createKey(['units:read']);
    const racing = Array.from({ length: 12 }, () => call('GET', '/api/v1/user/units?limit=1', asKey(key)));
    const revoked = await call('DELETE', `${BASE}/${id}`, admin);
    expect(revoked.status).toBe(200);
    const during = await Promise.all(racing);
    expect(during.every((r) => r.status === 200 || r.status === 401)).toBe(true);
    const after = await Promise.all(Array.from({ length: 6 }, () => call('GET', '/api/v1/user/units?limit=1', asKey(key))));
    expect(after.map((r) => r.status)).toEqual(Array.from({ length: 6 }, () => 401));
  });
});

describe('accounts stay apart', () => {
  it("never shows, revokes or logs another account's keys, and another account's key sees none of this account's units", async () => {
    const mine = await createKey(['units:read']);
    const theirs = await createKey(['units:read'], other);
    expect((await call<ApiKeyList>('GET', BASE, other)).body.data?.keys.map((k) => k.id)).toEqual([theirs.id]);
    expect((await call('DELETE', `${BASE}/${mine.id}`, other)).status).toBe(404);
    expect((await call('GET', `${BASE}/${mine.id}/calls`, other)).status).toBe(404);
    expect((await call('GET', '/api/v1/user/units', asKey(mine.key))).status).toBe(200);

    const seen = await call<UnitListItem[]>('GET', '/api/v1/user/units', asKey(theirs.key));
    expect(seen.body.data).toEqual([]);
    expect((await call('GET', `/api/v1/user/trackers/${demoImei(0)}/latest-position`, asKey(theirs.key))).status).toBe(404);
  });
});

describe('rate limit and call log', () => {
  it(`answers 429 with retry-after past ${API_KEY_RATE_LIMIT} calls in a window, per key`, async () => {
    const { key } = await createKey(['units:read']);
    const { key: second } = await createKey(['units:read']);
    let limited: Response | undefined;
    // A fixed window: the limit is reached within two windows' worth of calls whatever the start.
    for (let sent = 0; !limited && sent < 2 * API_KEY_RATE_LIMIT + 20; sent += 20) {
      const batch = await Promise.all(
        Array.from({ length: 20 }, () => apiFetch(`${rt.url}/api/v1/user/geofences`, { headers: { authorization: `Bearer ${key}` } })),
      );
      limited = batch.find((r) => r.status === 429);
      await Promise.all(batch.map((r) => r.text()));
    }
    expect(limited?.status).toBe(429);
    expect(Number(limited?.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await call('GET', '/api/v1/user/geofences', asKey(second))).status).toBe(200);
  }, 120_000);

  it('logs every call with operation, method, path, status and client, newest first in pages, and notes the last use', async () => {
    const { id, key } = await createKey(['units:read']);
    await call('GET', '/api/v1/user/units', asKey(key));
    await call('GET', `/api/v1/user/trips?imei=${demoImei(0)}&from=${DAY}&to=${DAY}`, asKey(key));
    await call('GET', BASE, asKey(key));
    await call('GET', `/api/v1/user/trackers/${demoImei(1)}/latest-position`, asKey(key));

    const page = await call<ApiKeyCallList>('GET', `${BASE}/${id}/calls?limit=2`, admin);
    expect(page.status).toBe(200);
    // The call to an administration route is refused before the key is looked up: not a call of the key.
    expect(page.body.data?.calls.map((c) => [c.operationId, c.method, c.status])).toEqual([
      ['getLatestPosition', 'GET', 200],
      ['getTrips', 'GET', 403],
    ]);
    expect(page.body.data?.calls[0]).toMatchObject({ path: `/api/v1/user/trackers/${demoImei(1)}/latest-position`, client: '127.0.0.1' });
    const next = await call<ApiKeyCallList>('GET', `${BASE}/${id}/calls?limit=2&cursor=${page.body.data?.nextCursor}`, admin);
    expect(next.body.data?.calls.map((c) => c.operationId)).toEqual(['getUnits']);
    expect(next.body.data?.nextCursor).toBeNull();
    // A cursor is bound to its key: on another key it is refused.
    const { id: another } = await createKey(['units:read']);
    expect((await call('GET', `${BASE}/${another}/calls?cursor=${page.body.data?.nextCursor}`, admin)).body.message).toBe('InvalidCursor');

    const stored = await dynamo().send(new QueryCommand({ TableName: tableName('apiKeyCalls'), KeyConditionExpression: 'keyId = :k', ExpressionAttributeValues: { ':k': id } }));
    const day = 86_400;
    for (const item of stored.Items ?? []) expect(Number(item['expiresAt']) - Date.now() / 1000).toBeGreaterThan(89 * day);
    const listed = (await call<ApiKeyList>('GET', BASE, admin)).body.data?.keys.find((k) => k.id === id);
    expect(Date.parse(listed?.lastUsedAt ?? '')).toBeGreaterThan(Date.now() - 120_000);
  });
});

describe('the published OpenAPI document', () => {
  it('is public and names the API key scheme and each operation\'s scope', async () => {
    const res = await call<{ paths: Record<string, Record<string, { 'x-api-key-scope'?: string }>>; components: { securitySchemes: Record<string, unknown> } }>(
      'GET',
      '/api/v1/openapi.json',
      null,
    );
    expect(res.status).toBe(200);
    expect(res.body.data?.components.securitySchemes['apiKey']).toBeDefined();
    expect(res.body.data?.paths['/api/v1/user/units']?.['get']?.['x-api-key-scope']).toBe('units:read');
    expect(res.body.data?.paths['/api/v1/administration/api-keys']?.['get']?.['x-api-key-scope']).toBeUndefined();
  });
});
