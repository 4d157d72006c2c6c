/**
 * GET /api/v1/user/units black-box against the embedded runtime: what each caller sees (an account
 * admin all of the account's units, an ordinary user only the granted ones, another account only
 * its own), and 401 without a token or with a session that ended; the paged form (search, order,
 * cursors) over an account of 260 units, an ordinary user's grants across pages, and cursors that are
 * tampered with or belong to another search.
 */
import { randomUUID } from 'node:crypto';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UnitListItem, UnitPage } from '../../shared/schemas/units';
import { getPorts } from '../../functions/platform/container';
import { putAll } from '../../scripts/bench/map-fleet';
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

describe('GET /api/v1/user/units in pages', () => {
  const COUNT = 260;
  const bigImei = (i: number) => demoImei(700 + i);
  // Names out of IMEI order, some with a shared word, some differing only in case.
  const nameOf = (i: number) => `${['Alpha', 'bravo', 'Charlie', 'delta'][i % 4]} ${String((i * 37) % COUNT).padStart(3, '0')}`;
  const SEEN = Date.parse('2026-11-02T08:00:00Z');
  let bigAdmin: string;
  let bigUser: string;
  let granted: string[];

  async function page(token: string, params: Record<string, string>): Promise<{ status: number; body: { data?: UnitPage; message?: string; errors?: Record<string, string[]> }; bytes: number }> {
    const res = await apiFetch(`${rt.url}${PATH}?${new URLSearchParams(params).toString()}`, { headers: { authorization: `Bearer ${token}` } });
    const text = await res.text();
    return { status: res.status, body: JSON.parse(text) as { data?: UnitPage }, bytes: text.length };
  }

  /** Every page of a search, following nextCursor. */
  async function all(token: string, params: Record<string, string>): Promise<{ pages: number; units: UnitListItem[] }> {
    const units: UnitListItem[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const res = await page(token, { ...params, ...(cursor ? { cursor } : {}) });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      units.push(...(res.body.data?.units ?? []));
      cursor = res.body.data?.nextCursor ?? null;
      pages++;
    } while (cursor);
    return { pages, units };
  }

  beforeAll(async () => {
    const owner = await createTestUser();
    bigAdmin = (await loginAs(owner.username, owner.password)).token;
    const createdAt = new Date().toISOString();
    const items: UnitRecord[] = Array.from({ length: COUNT }, (_, i) => ({
      imei: bigImei(i), accountId: owner.accountId, name: nameOf(i), registrationNumber: `PG${String(i).padStart(4, '0')}`,
      vehicleType: 'car', protocol: 'native', createdAt,
    }));
    // Every tenth unit has reported: ingest's state, which the name index does not keep.
    await putAll('units', items.map((u, i) => (i % 10 ? u : { ...u, state: { ts: SEEN + i, lat: 59.3, lon: 18, lastSeen: SEEN + i } })) as unknown as Record<string, unknown>[]);
    // An ordinary user of that account with 40 units granted, spread over the whole name range.
    granted = items.filter((_, i) => i % 6 === 1).slice(0, 40).map((u) => u.imei);
    const username = `pager-${randomUUID().slice(0, 8)}`;
    const userId = randomUUID();
    await getPorts().identity.createUser({ userId, username, email: `${username}@example.se`, password: 'Test-pass1' });
    await dynamo().send(new PutCommand({
      TableName: tableName('users'),
      Item: { userId, accountId: owner.accountId, username, email: `${username}@example.se`, firstName: 'Page', lastName: 'User', lang: 'en', subsiteId: 0, isAdmin: false, isSupport: false, enableTwoFactorAuth: false, unitImeis: granted, createdAt },
    }));
    bigUser = (await loginAs(username, 'Test-pass1')).token;
  });

  it('pages through every unit once, by name, each page small', async () => {
    const first = await page(bigAdmin, { limit: '50' });
    expect(first.status).toBe(200);
    expect(first.body.data?.units).toHaveLength(50);
    expect(first.body.data?.nextCursor).toEqual(expect.any(String));
    const { pages, units } = await all(bigAdmin, { limit: '50' });
    expect(pages).toBeGreaterThanOrEqual(6);
    expect(units.map((u) => u.imei).sort()).toEqual(Array.from({ length: COUNT }, (_, i) => bigImei(i)).sort());
    const names = units.map((u) => `${u.name}\u0000${u.imei}`);
    expect(names).toEqual([...names].sort());
    // Last seen comes with every page and order, though the name index does not keep it.
    const seen = units.filter((u) => u.lastSeen !== null);
    expect(seen.map((u) => u.imei).sort()).toEqual(Array.from({ length: COUNT / 10 }, (_, i) => bigImei(i * 10)).sort());
    expect(seen.every((u) => Date.parse(String(u.lastSeen)) === SEEN + Number(u.imei.slice(8, 14)) - 100_700)).toBe(true);
    expect((await page(bigAdmin, { q: 'pg0120' })).body.data?.units[0]?.lastSeen).toEqual(expect.any(String));
    // 50 units are some 12 KB of JSON: 500 (the most a page holds) stay far under Lambda's 6 MB.
    expect(first.bytes).toBeLessThan(20_000);
  });

  it('orders by name or IMEI, either way round', async () => {
    const desc = await all(bigAdmin, { sort: 'name.desc', limit: '100' });
    const asc = await all(bigAdmin, { sort: 'name.asc', limit: '100' });
    expect(desc.units.map((u) => u.imei)).toEqual(asc.units.map((u) => u.imei).reverse());
    const byImei = await all(bigAdmin, { sort: 'imei.asc', limit: '90' });
    expect(byImei.units.map((u) => u.imei)).toEqual(Array.from({ length: COUNT }, (_, i) => bigImei(i)).sort());
  });

  it('searches on the server: every word, ignoring case, in name, registration number or IMEI', async () => {
    const bravo = await all(bigAdmin, { q: 'BRAVO', limit: '20' });
    expect(bravo.units).toHaveLength(COUNT / 4);
    expect(bravo.units.every((u) => u.name.startsWith('bravo '))).toBe(true);
    const plate = await page(bigAdmin, { q: 'pg0123' });
    expect(plate.body.data).toEqual({ units: [expect.objectContaining({ imei: bigImei(123), registrationNumber: 'PG0123' })], nextCursor: null });
    const words = await all(bigAdmin, { q: `charlie ${bigImei(2).slice(-6)}` });
    expect(words.units.map((u) => u.imei)).toEqual([bigImei(2)]);
    expect((await page(bigAdmin, { q: 'no such unit' })).body.data).toEqual({ units: [], nextCursor: null });
  });

  it("gives an ordinary user only the granted units, across pages and in a search", async () => {
    const { pages, units } = await all(bigUser, { limit: '7' });
    expect(pages).toBe(Math.ceil(granted.length / 7));
    expect(units.map((u) => u.imei).sort()).toEqual([...granted].sort());
    const names = units.map((u) => `${u.name}\u0000${u.imei}`);
    expect(names).toEqual([...names].sort());
    const bravo = await all(bigUser, { q: 'bravo', limit: '3' });
    expect(bravo.units).toHaveLength(granted.filter((imei) => nameOf(Number(imei.slice(8, 14)) - 100_700).startsWith('bravo')).length);
    expect(bravo.units.every((u) => granted.includes(u.imei) && u.name.startsWith('bravo'))).toBe(true);
  });

  it('refuses a tampered cursor and one of another search with 422 InvalidCursor', async () => {
    const first = await page(bigAdmin, { limit: '10' });
    const cursor = first.body.data?.nextCursor ?? '';
    for (const bad of [`${cursor.slice(0, -3)}x!y`, 'AAAA', Buffer.from('[1,"name.asc","",{},"1"]').toString('base64url')]) {
      const res = await page(bigAdmin, { limit: '10', cursor: bad });
      expect(res.status, bad).toBe(422);
      expect(res.body.message).toBe('InvalidCursor');
      expect(res.body.errors).toEqual({ cursor: ['InvalidCursor'] });
    }
    expect((await page(bigAdmin, { limit: '10', q: 'alpha', cursor })).body.message).toBe('InvalidCursor');
    expect((await page(bigAdmin, { limit: '10', sort: 'imei.asc', cursor })).body.message).toBe('InvalidCursor');
  });

  it("never pages into another account: a cursor from another account's list pages the caller's own", async () => {
    const theirs = await page(bigAdmin, { limit: '2' });
    const cursor = theirs.body.data?.nextCursor ?? '';
    // The cursor names a position ('Alpha …'): the demo admin's own units after it, all five.
    const mine = await all(admin, { limit: '2', cursor });
    expect(mine.units.map((u) => u.imei).sort()).toEqual(Array.from({ length: 5 }, (_, i) => demoImei(i)).sort());
    expect((await all(other, { cursor })).units.map((u) => u.imei)).toEqual([otherImei]);
  });

  it('answers the whole list without paging parameters up to 5,000 units, and 422 UnitListTooLarge above', async () => {
    const whole = await apiFetch(`${rt.url}${PATH}`, { headers: { authorization: `Bearer ${bigAdmin}` } });
    expect(((await whole.json()) as { data: UnitListItem[] }).data).toHaveLength(COUNT);
    const large = await createTestUser();
    const createdAt = new Date().toISOString();
    const items = Array.from({ length: 5001 }, (_, i) => ({
      imei: demoImei(2000 + i), accountId: large.accountId, name: `Big ${i}`, vehicleType: 'car', protocol: 'native', createdAt,
    }));
    await putAll('units', items);
    const token = (await loginAs(large.username, large.password)).token;
    const res = await apiFetch(`${rt.url}${PATH}`, { headers: { authorization: `Bearer ${token}` } });
    expect(res.status).toBe(422);
    expect(((await res.json()) as { message: string }).message).toBe('UnitListTooLarge');
    const first = await page(token, { limit: '500' });
    expect(first.body.data?.units).toHaveLength(500);
  });

  it('refuses bad paging values with 422 and translated keys', async () => {
    const bad: Array<Record<string, string>> = [{ limit: '0' }, { limit: '501' }, { limit: 'ten' }, { sort: 'lastSeen.desc' }, { q: 'x'.repeat(101) }];
    for (const params of bad) {
      const res = await page(bigAdmin, params);
      expect(res.status, JSON.stringify(params)).toBe(422);
      expect(Object.values(res.body.errors ?? {}).flat()).toEqual(['InvalidValue']);
    }
  });
});
