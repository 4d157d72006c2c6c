/**
 * Black-box tests of the tracking read API and the live channel against the embedded runtime:
 * what each caller sees (admin, ordinary user, another account), the positions contract, and a
 * real mqtt.js client over WebSocket subscribing with what GET /live/connection hands out.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DeleteCommand, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import mqtt from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPENFREEMAP_STYLE_URL, type LiveConnection, type MapConfig, type MapUnit, type Position as ApiPosition, type RealtimeUnit } from '../../shared/schemas/tracking';
import { storePosition } from '../../functions/ingest/repository';
import { storeUnitState } from '../support/unit-state';
import { liveTopicsOf } from '../../shared/mqtt-topics';
import { nextState } from '../../functions/ingest/state';
import { dynamo, tableName } from '../../functions/platform/db';
import { sessionItemId } from '../../functions/domain/session/schema';
import type { UnitRecord } from '../../functions/domain/unit/schema';
import { startLocalBroker, type LocalBroker } from '../../infra/local/broker';
import { authorizeLiveSubscribe } from '../../infra/local/live-authorizer';
import { DEMO_PASSWORD, demoImei, demoUsers } from '../../infra/local/seed';
import type { EmbeddedRuntime } from '../../infra/local/runtime';
import { apiFetch } from '../support/http';
import { startRuntime } from '../support/runtime';
import { createTestUser, loginAs } from '../support/sessions';
import { testPosition } from '../support/positions';

interface Caller {
  token: string;
  userId: string;
  sessionId: string;
  accountId: string;
}

let rt: EmbeddedRuntime;
let admin: Caller;
let user: Caller;
let other: Caller;
const otherImei = demoImei(600);
const T0 = Date.parse('2025-03-10T08:00:00.000Z');

const position = (ts: number, lat: number, lon: number, speed?: number) => testPosition(ts, lat, lon, { speed, ignition: true });

async function caller(login: { token: string; userId: string; sessionId: string }): Promise<Caller> {
  const me = await dynamo().send(new GetCommand({ TableName: tableName('users'), Key: { userId: login.userId } }));
  return { ...login, accountId: String(me.Item?.['accountId']) };
}

async function get<T>(path: string, who?: Caller): Promise<{ status: number; body: { success?: boolean; data?: T; message?: string; errors?: unknown } }> {
  const res = await apiFetch(`${rt.url}${path}`, who ? { headers: { authorization: `Bearer ${who.token}` } } : {});
  return { status: res.status, body: (await res.json()) as { data?: T } };
}

beforeAll(async () => {
  rt = await startRuntime();
  admin = await caller(await loginAs(demoUsers.admin.username, DEMO_PASSWORD));
  user = await caller(await loginAs(demoUsers.user.username, DEMO_PASSWORD));
  const stranger = await createTestUser();
  other = await caller(await loginAs(stranger.username, stranger.password));
  const unit: UnitRecord = { imei: otherImei, accountId: other.accountId, name: 'Other van', vehicleType: 'van', protocol: 'native', createdAt: new Date(T0).toISOString() };
  await dynamo().send(new PutCommand({ TableName: tableName('units'), Item: unit }));

  // As ingest stores them: late positions first, the latest state on the unit.
  for (const minute of [30, 10, 20, 0]) {
    await storePosition(demoImei(0), position(T0 + minute * 60_000, 59.3 + minute / 1000, 18.06, minute), T0 + minute * 60_000, 395);
  }
  await storeUnitState(demoImei(0), nextState(undefined, position(T0 + 30 * 60_000, 59.33, 18.06, 30), T0 + 30 * 60_000));
  await storePosition(otherImei, position(T0, 55.6, 13.0), T0, 395);
  await storeUnitState(otherImei, nextState(undefined, position(T0, 55.6, 13.0), T0));
});

afterAll(async () => {
  await rt?.stop();
});

const positionsPath = (imei: string, from = '2025-03-10T07:00:00Z', to = '2025-03-10T09:00:00Z') =>
  `/api/v1/user/units/${imei}/positions?${new URLSearchParams({ from, to }).toString()}`;

describe('GET /api/v1/user/realtime/units', () => {
  it('answers every unit of the account to an admin, the granted ones to a user, its own to another account', async () => {
    const all = await get<RealtimeUnit[]>('/api/v1/user/realtime/units', admin);
    expect(all.status).toBe(200);
    expect(all.body.data).toHaveLength(5);
    expect(all.body.data?.find((u) => u.imei === demoImei(0))?.state).toMatchObject({ lat: 59.33, lon: 18.06, speed: 30, ts: '2025-03-10T08:30:00.000Z' });

    const mine = await get<RealtimeUnit[]>('/api/v1/user/realtime/units', user);
    expect(mine.body.data?.map((u) => u.imei).sort()).toEqual([demoImei(0), demoImei(1)].sort());

    const theirs = await get<RealtimeUnit[]>('/api/v1/user/realtime/units', other);
    expect(theirs.body.data?.map((u) => [u.imei, u.name, u.symbol])).toEqual([[otherImei, 'Other van', 'van']]);
  });

  it('answers 401 without a token', async () => {
    const res = await get('/api/v1/user/realtime/units');
    expect(res).toEqual({ status: 401, body: { message: 'Unauthenticated.' } });
  });
});

describe('GET /api/v1/user/realtime/units?view=map (the map\'s pages)', () => {
  type Page = { units: MapUnit[]; next: string | null };
  const pagePath = (limit: number, cursor?: string | null) => `/api/v1/user/realtime/units?${new URLSearchParams({ view: 'map', limit: String(limit), ...(cursor ? { cursor } : {}) }).toString()}`;

  async function allPages(who: Caller, limit: number): Promise<Page[]> {
    const pages: Page[] = [];
    let cursor: string | null = null;
    do {
      const res: { status: number; body: { data?: Page } } = await get<Page>(pagePath(limit, cursor), who);
      expect(res.status).toBe(200);
      pages.push(res.body.data as Page);
      cursor = res.body.data?.next ?? null;
    } while (cursor && pages.length < 20);
    return pages;
  }

  it('pages an admin through every unit of the account once, in IMEI order, in the compact form', async () => {
    const pages = await allPages(admin, 2);
    expect(pages.map((p) => p.units.length)).toEqual([2, 2, 1]);
    expect(pages.at(-1)?.next).toBeNull();
    const imeis = pages.flatMap((p) => p.units.map((u) => u.imei));
    const full = await get<RealtimeUnit[]>('/api/v1/user/realtime/units', admin);
    expect(imeis).toEqual(full.body.data?.map((u) => u.imei).sort());
    const van = pages.flatMap((p) => p.units).find((u) => u.imei === demoImei(0));
    // Only what the map draws and its list shows: no driver, outputs or voltages.
    expect(van && Object.keys(van).sort()).toEqual(['color', 'imei', 'name', 'operatingMode', 'registrationNumber', 'state', 'symbol', 'vehicleType']);
    expect(van?.state).toEqual({ ts: '2025-03-10T08:30:00.000Z', lat: 59.33, lon: 18.06, speed: 30, heading: null, ignition: true, movement: null, lastSeen: '2025-03-10T08:30:00.000Z' });
  });

  it('answers the last page without a next cursor when the units end exactly at the limit', async () => {
    const pages = await allPages(admin, 5);
    expect(pages.map((p) => [p.units.length, p.next])).toEqual([[5, null]]);
  });

  it('shows an ordinary user only the granted units on every page, and another account only its own', async () => {
    const pages = await allPages(user, 1);
    expect(pages.map((p) => p.units.map((u) => u.imei))).toEqual([[demoImei(0), demoImei(1)].sort().slice(0, 1), [demoImei(0), demoImei(1)].sort().slice(1)]);
    const theirs = await allPages(other, 1);
    expect(theirs.flatMap((p) => p.units.map((u) => u.imei))).toEqual([otherImei]);
  });

  it('refuses a changed cursor and another user\'s cursor with InvalidCursor', async () => {
    const first = (await get<Page>(pagePath(1), admin)).body.data as Page;
    const cursor = first.next as string;
    const [version, , check] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as [number, string[], string];
    // The next page made to start after another account's unit, or with a character changed.
    const forged = Buffer.from(JSON.stringify([version, [otherImei], check])).toString('base64url');
    const changed = `${cursor.slice(0, -2)}${cursor.endsWith('A') ? 'B' : 'A'}${cursor.slice(-1)}`;
    for (const [bad, who] of [[forged, admin], [changed, admin], [cursor, user], [cursor, other], ['not-a-cursor', admin]] as const) {
      const res = await get(pagePath(1, bad), who);
      expect(res.status, bad).toBe(422);
      expect(res.body.errors).toEqual({ cursor: ['InvalidCursor'] });
    }
  });

  it('refuses paging without view=map and a page size out of range with translated keys', async () => {
    expect((await get('/api/v1/user/realtime/units?limit=2', admin)).body.errors).toEqual({ view: ['InvalidRealtimeView'] });
    expect((await get('/api/v1/user/realtime/units?view=list', admin)).body.errors).toEqual({ view: ['InvalidRealtimeView'] });
    for (const limit of ['0', '5001', '2.5', 'ten']) {
      const res = await get(`/api/v1/user/realtime/units?view=map&limit=${limit}`, admin);
      expect(res.status, limit).toBe(422);
      expect(res.body.errors, limit).toEqual({ limit: ['InvalidPageLimit'] });
    }
  });

  it('answers one unit in full with imei, nothing for a unit the caller may not see', async () => {
    const one = await get<RealtimeUnit[]>(`/api/v1/user/realtime/units?imei=${demoImei(0)}`, user);
    const full = await get<RealtimeUnit[]>('/api/v1/user/realtime/units', user);
    expect(one.body.data).toEqual(full.body.data?.filter((u) => u.imei === demoImei(0)));
    expect((await get<RealtimeUnit[]>(`/api/v1/user/realtime/units?imei=${demoImei(2)}`, user)).body.data).toEqual([]);
    expect((await get<RealtimeUnit[]>(`/api/v1/user/realtime/units?imei=${otherImei}`, admin)).body.data).toEqual([]);
  });
});

describe('GET /api/v1/user/units/{imei}/positions', () => {
  it('answers the positions of the period in time order', async () => {
    const res = await get<ApiPosition[]>(positionsPath(demoImei(0)), user);
    expect(res.status).toBe(200);
    expect(res.body.data?.map((p) => [p.ts, p.speed])).toEqual([
      ['2025-03-10T08:00:00.000Z', 0],
      ['2025-03-10T08:10:00.000Z', 10],
      ['2025-03-10T08:20:00.000Z', 20],
      ['2025-03-10T08:30:00.000Z', 30],
    ]);
    const window = await get<ApiPosition[]>(positionsPath(demoImei(0), '2025-03-10T09:05:00+01:00', '2025-03-10T08:20:00Z'), user);
    expect(window.body.data?.map((p) => p.ts)).toEqual(['2025-03-10T08:10:00.000Z', '2025-03-10T08:20:00.000Z']);
  });

  it('validates the period: at most 30 days, end after start, real dates', async () => {
    const cases: [string, Record<string, string[]>][] = [
      [positionsPath(demoImei(0), '2025-02-01T00:00:00Z', '2025-03-05T00:00:00Z'), { to: ['HistoryPeriodTooLong'] }],
      [positionsPath(demoImei(0), '2025-03-10T09:00:00Z', '2025-03-10T09:00:00Z'), { to: ['EndDateMustBeAfterStart'] }],
      [positionsPath(demoImei(0), '2025-03-10', '2025-03-10T09:00:00Z'), { from: ['InvalidDate'] }],
      [`/api/v1/user/units/${demoImei(0)}/positions`, { from: ['InvalidDate'], to: ['InvalidDate'] }],
      [positionsPath('35693803100000'), { imei: ['InvalidImei'] }],
    ];
    for (const [path, errors] of cases) {
      const res = await get(path, admin);
      expect(res.status, path).toBe(422);
      expect(res.body).toEqual({ success: false, message: 'ValidationFailed', errors });
    }
  });

  it("answers 404 for another account's unit, a unit not granted, and an unknown one", async () => {
    const refusals: [string, Caller][] = [
      [positionsPath(demoImei(0)), other],
      [positionsPath(otherImei), admin],
      [positionsPath(demoImei(3)), user],
      [positionsPath(demoImei(800)), admin],
    ];
    for (const [path, who] of refusals) {
      const res = await get(path, who);
      expect(res.status, path).toBe(404);
      expect(res.body).toEqual({ success: false, message: 'NotFound', errors: 'NotFound' });
    }
    expect((await get(positionsPath(demoImei(3)), admin)).body).toEqual({ success: true, data: [] });
  });
});

describe('an IMEI registered again by a new owner', () => {
  it("shows the new owner none of the previous owner's positions or state, only what came after the registration", async () => {
    const imei = demoImei(601);
    const at = (minute: number) => T0 + minute * 60_000;
    const register = async (accountId: string, minute: number) => {
      const unit: UnitRecord = { imei, accountId, name: 'Second-hand tracker', vehicleType: 'car', protocol: 'native', createdAt: new Date(at(minute)).toISOString() };
      await dynamo().send(new PutCommand({ TableName: tableName('units'), Item: unit }));
    };
    // The previous owner's history and latest state.
    await register(other.accountId, -24 * 60);
    for (const minute of [0, 10]) await storePosition(imei, position(at(minute), 55.6 + minute / 1000, 13.0, minute), at(minute), 395);
    await storeUnitState(imei, nextState(undefined, position(at(10), 55.61, 13.0, 10), at(10)));
    expect((await get<ApiPosition[]>(positionsPath(imei), other)).body.data).toHaveLength(2);

    // The unit is given up and registered anew: a new record, owner and registration time. Its
    // positions are keyed by the IMEI alone and stay until the retention ends.
    await dynamo().send(new DeleteCommand({ TableName: tableName('units'), Key: { imei } }));
    const buyer = await createTestUser();
    const newOwner = await caller(await loginAs(buyer.username, buyer.password));
    await register(newOwner.accountId, 20);
    expect((await get<ApiPosition[]>(positionsPath(imei), newOwner)).body).toEqual({ success: true, data: [] });
    expect((await get(`/api/v1/user/trackers/${imei}/latest-position`, newOwner)).body).toEqual({ success: true, data: null });
    expect((await get<RealtimeUnit[]>('/api/v1/user/realtime/units', newOwner)).body.data).toMatchObject([{ imei, state: null }]);

    await storePosition(imei, position(at(30), 59.3, 18.0, 30), at(30), 395);
    expect((await get<ApiPosition[]>(positionsPath(imei), newOwner)).body.data?.map((p) => p.ts)).toEqual([new Date(at(30)).toISOString()]);
    // Nor does the previous owner see the unit any more.
    expect((await get(positionsPath(imei), other)).status).toBe(404);
  });
});

describe('GET /api/v1/user/trackers/{imei}/latest-position', () => {
  it('answers the latest position, null before the first, 404 across accounts and grants', async () => {
    expect((await get(`/api/v1/user/trackers/${demoImei(0)}/latest-position`, user)).body).toEqual({
      success: true,
      data: { Latitude: 59.33, Longitude: 18.06 },
    });
    expect((await get(`/api/v1/user/trackers/${demoImei(1)}/latest-position`, user)).body).toEqual({ success: true, data: null });
    expect((await get(`/api/v1/user/trackers/${otherImei}/latest-position`, other)).body.data).toEqual({ Latitude: 55.6, Longitude: 13 });
    for (const [imei, who] of [[demoImei(0), other], [otherImei, admin], [demoImei(2), user]] as const) {
      expect((await get(`/api/v1/user/trackers/${imei}/latest-position`, who)).status).toBe(404);
    }
  });
});

describe('GET /api/v1/user/geocode/reverse', () => {
  it('answers the address nearest a coordinate, 422 for impossible ones', async () => {
    expect((await get('/api/v1/user/geocode/reverse?lat=57.7089&lon=11.9746', user)).body).toEqual({ success: true, data: { address: 'Göteborg, SE' } });
    const bad = await get('/api/v1/user/geocode/reverse?lat=-91&lon=181', user);
    expect(bad.status).toBe(422);
    expect(bad.body.errors).toEqual({ lat: ['InvalidCoordinates'], lon: ['InvalidCoordinates'] });
  });
});

describe('GET /api/v1/user/map/config', () => {
  it('offers OpenFreeMap in the embedded runtime without MAP_STYLE_URL (the web app falls back to its offline map), 401 without a token', async () => {
    const res = await get<MapConfig>('/api/v1/user/map/config', user);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ styleUrl: null, styles: [{ id: 'streets', url: OPENFREEMAP_STYLE_URL }] });
    expect((await get('/api/v1/user/map/config')).status).toBe(401);
  });
});

describe('live channel', () => {
  let server: Server;
  let broker: LocalBroker;
  let wsUrl: string;

  beforeAll(async () => {
    // The runtime's broker gets this authorizer once infra/local/runtime.ts wires it; until then a
    // broker of the test's own, with the same WebSocket listener and the runtime's handler environment.
    broker = await startLocalBroker({
      port: 0,
      host: '127.0.0.1',
      rules: [],
      onRuleOutput: () => undefined,
      authorizeLiveSubscribe,
    });
    server = createServer((_req, res) => res.writeHead(404).end());
    broker.attachWebSocket(server, '/mqtt');
    await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
    wsUrl = `ws://127.0.0.1:${(server.address() as AddressInfo).port}/mqtt`;
  });

  afterAll(async () => {
    await broker?.stop();
    await new Promise<void>((done) => (server ? server.close(() => done()) : done()));
  });

  const connection = async (who: Caller) => {
    const res = await get<LiveConnection>('/api/v1/user/live/connection', who);
    expect(res.status).toBe(200);
    return res.body.data as LiveConnection;
  };

  const open = (c: Pick<LiveConnection, 'clientId' | 'username' | 'password'>) =>
    new Promise<mqtt.MqttClient>((resolve, reject) => {
      const client = mqtt.connect(wsUrl, { clientId: c.clientId, username: c.username, password: c.password, reconnectPeriod: 0, connectTimeout: 5000 });
      client.once('connect', () => resolve(client));
      client.once('error', reject);
    });

  const granted = async (client: mqtt.MqttClient, topic: string) => (await client.subscribeAsync(topic, { qos: 0 }))[0]?.qos === 0;
  const refused = async (client: mqtt.MqttClient, topic: string) =>
    client.subscribeAsync(topic, { qos: 0 }).then(
      () => false,
      (error: Error) => /Subscribe error/.test(error.message),
    );

  const firstMessage = (client: mqtt.MqttClient) =>
    new Promise<{ topic: string; payload: unknown }>((resolve) =>
      client.once('message', (topic, payload) => resolve({ topic, payload: JSON.parse(payload.toString()) as unknown })),
    );

  it('hands out the runtime’s WebSocket, a client id of the caller, the token and its topics', async () => {
    const a = await connection(admin);
    expect(a).toEqual({
      url: rt.wsUrl,
      clientId: expect.stringMatching(new RegExp(`^web-${admin.userId}-[0-9a-f]{24}$`)),
      username: admin.userId,
      password: admin.token,
      // The account's units, and what is addressed to the admin alone (a unit they locked).
      topics: [`live/${admin.accountId}/units/+`, `live/${admin.accountId}/users/${admin.userId}/units/+`],
    });
    expect((await connection(admin)).clientId).not.toBe(a.clientId);
    expect((await connection(user)).topics).toEqual([`live/${user.accountId}/users/${user.userId}/units/+`]);
    expect((await connection(other)).topics).toEqual([`live/${other.accountId}/units/+`, `live/${other.accountId}/users/${other.userId}/units/+`]);
    expect((await get('/api/v1/user/live/connection')).status).toBe(401);
  });

  it('lets an admin subscribe to its account and receive its units, never another account’s', async () => {
    const client = await open(await connection(admin));
    try {
      expect(await granted(client, `live/${admin.accountId}/units/+`)).toBe(true);
      expect(await refused(client, `live/${other.accountId}/units/+`)).toBe(true);
      expect(await refused(client, `live/${other.accountId}/units/${otherImei}`)).toBe(true);
      expect(await refused(client, 'live/#')).toBe(true);

      const arrived = firstMessage(client);
      await broker.publish(`live/${other.accountId}/units/${otherImei}`, JSON.stringify({ type: 'position', lat: 1 }), 0);
      await broker.publish(`live/${admin.accountId}/units/${demoImei(4)}`, JSON.stringify({ type: 'position', lat: 59.4, lon: 18.1 }), 0);
      expect(await arrived).toEqual({ topic: `live/${admin.accountId}/units/${demoImei(4)}`, payload: { type: 'position', lat: 59.4, lon: 18.1 } });
    } finally {
      await client.endAsync();
    }
  });

  it('lets a user subscribe to granted units only', async () => {
    const c = await connection(user);
    const client = await open(c);
    try {
      for (const topic of c.topics) expect(await granted(client, topic)).toBe(true);
      // The granted units' own topics too (few units), never another unit's, the account's or another user's.
      expect(await granted(client, `live/${user.accountId}/units/${demoImei(1)}`)).toBe(true);
      expect(await refused(client, `live/${user.accountId}/units/${demoImei(2)}`)).toBe(true);
      expect(await refused(client, `live/${user.accountId}/units/+`)).toBe(true);
      expect(await refused(client, `live/${user.accountId}/users/${admin.userId}/units/+`)).toBe(true);

      // What the live bus sends for a unit (on the topics of its audience) reaches the user on their own topic when the unit names them.
      const arrived = firstMessage(client);
      const send = async (imei: string, viewers: string[], payload: object) => {
        for (const topic of liveTopicsOf({ accountId: user.accountId, imei, viewers })) await broker.publish(topic, JSON.stringify(payload), 0);
      };
      await send(demoImei(2), [], { type: 'position', n: 'not granted' });
      await send(demoImei(1), [user.userId], { type: 'event', n: 'granted' });
      expect((await arrived).payload).toEqual({ type: 'event', n: 'granted' });
    } finally {
      await client.endAsync();
    }
  });

  it("refuses another account's token on the first account's topics", async () => {
    const client = await open(await connection(other));
    try {
      expect(await granted(client, `live/${other.accountId}/units/+`)).toBe(true);
      expect(await refused(client, `live/${admin.accountId}/units/+`)).toBe(true);
      expect(await refused(client, `live/${admin.accountId}/units/${demoImei(0)}`)).toBe(true);
    } finally {
      await client.endAsync();
    }
  });

  it("refuses a token under someone else's client id, a forged token, and a session that ended", async () => {
    const a = await connection(admin);
    const u = await connection(user);
    const attempts = [
      { ...a, clientId: u.clientId },
      { ...a, password: `${a.password.slice(0, -4)}AAAA` },
      { ...a, password: '' },
    ];
    for (const attempt of attempts) {
      const client = await open(attempt);
      try {
        expect(await refused(client, `live/${admin.accountId}/units/+`)).toBe(true);
      } finally {
        await client.endAsync();
      }
    }

    const late = await loginAs(demoUsers.user.username, DEMO_PASSWORD);
    const c = await connection({ ...user, ...late });
    await dynamo().send(new DeleteCommand({ TableName: tableName('tokens'), Key: { id: sessionItemId(late.sessionId) } }));
    const client = await open(c);
    try {
      expect(await refused(client, c.topics[0] ?? '')).toBe(true);
    } finally {
      await client.endAsync();
    }
  });
});
