/**
 * The tracking read handlers against DynamoDB Local, with positions and latest states written by
 * ingest's own repository (so the stored shape is the real one), and the offline geocoder.
 */
import { BatchWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { beforeAll, describe, expect, it } from 'vitest';
import type { MapUnit, MapUnitsPage, Position as ApiPosition, RealtimeUnit } from '../../shared/schemas/tracking';
import { DEMO_PASSWORD, demoImei, demoUsers, seedDemo } from '../../infra/local/seed';
import { useLocalTables } from '../../test/support/local-tables';
import { loginAs } from '../../test/support/sessions';
import { storePosition } from '../ingest/repository';
import { storeUnitState } from '../../test/support/unit-state';
import { nextState } from '../ingest/state';
import { getPorts } from '../platform/container';
import { dynamo, tableName } from '../platform/db';
import type { Address, Geocoder } from '../platform/ports';
import { createGeocodeCache, roundCoordinate } from './geocode-cache';
import { handler as latestPosition } from './get-latest-position';
import { handler as positionsHandler } from './get-positions';
import { handler as realtimeUnits } from './get-realtime-units';
import { handler as reverseGeocode } from './get-reverse-geocode';
import { queryPositions, unitPositions } from './position-repository';
import { getUnitItem, getUnitItemsByImei, queryAccountUnitsPage } from '../domain/unit/reads';
import { MAP_UNIT } from '../domain/unit/schema';
import { toMapUnit } from './stored-shape';
import { DEMO_REGISTERED_AT, testPosition } from '../../test/support/positions';

type Handler = (event: APIGatewayProxyEventV2, context: Context) => Promise<unknown>;

async function call(h: Handler, token: string, opts: { params?: Record<string, string>; query?: Record<string, string> } = {}) {
  const event = {
    version: '2.0',
    routeKey: 'GET /test',
    rawPath: '/test',
    rawQueryString: new URLSearchParams(opts.query ?? {}).toString(),
    headers: { authorization: `Bearer ${token}` },
    ...(opts.params ? { pathParameters: opts.params } : {}),
    ...(opts.query ? { queryStringParameters: opts.query } : {}),
    requestContext: { requestId: 't', http: { method: 'GET', path: '/test' } },
    isBase64Encoded: false,
  } as unknown as APIGatewayProxyEventV2;
  const res = (await h(event, {} as Context)) as APIGatewayProxyStructuredResultV2;
  return { status: res.statusCode, body: JSON.parse(String(res.body)) as { success: boolean; data: unknown; message?: string; errors?: unknown } };
}

const position = testPosition;
/** What MAP_UNIT reads of a units item. */
const MAP_FIELD_NAMES = MAP_UNIT.attributes ?? [];

let admin: string;
let user: string;
const T0 = Date.parse('2025-03-10T08:00:00.000Z');

beforeAll(async () => {
  await useLocalTables();
  await seedDemo(DEMO_REGISTERED_AT);
  admin = (await loginAs(demoUsers.admin.username, DEMO_PASSWORD)).token;
  user = (await loginAs(demoUsers.user.username, DEMO_PASSWORD)).token;
});

describe('GET /user/realtime/units', () => {
  it('maps the state ingest stores: ISO times, null for what was not reported, inputs carried over', async () => {
    const imei = demoImei(0);
    const p = position(T0, 59.3326, 18.0649, { speed: 42.5, heading: 90, ignition: true, din: { '2': true }, odometer: 12_345 });
    await storeUnitState(imei, nextState(undefined, p, T0 + 1500));

    const { status, body } = await call(realtimeUnits, admin);
    expect(status).toBe(200);
    const units = body.data as RealtimeUnit[];
    const van = units.find((u) => u.imei === imei);
    expect(van).toEqual({
      imei,
      name: 'Service van 1',
      registrationNumber: 'ABC123',
      vehicleType: 'car',
      color: '#1c7ed6',
      symbol: 'car',
      driver: null,
      departments: [],
      doutLabels: {},
      operatingMode: null,
      state: {
        ts: '2025-03-10T08:00:00.000Z',
        lat: 59.3326,
        lon: 18.0649,
        speed: 42.5,
        heading: 90,
        alt: null,
        ignition: true,
        movement: null,
        extVolts: null,
        batVolts: null,
        din: { '2': true },
        dout: {},
        odometer: 12_345,
        engineSeconds: null,
        lastSeen: '2025-03-10T08:00:01.500Z',
      },
    });
    expect(units.filter((u) => u.imei !== imei).every((u) => u.state === null)).toBe(true);
  });

  it('lists the whole account for an admin and only granted units for a user, by name', async () => {
    const all = (await call(realtimeUnits, admin)).body.data as RealtimeUnit[];
    expect(all.map((u) => u.name)).toEqual(['Boat trailer', 'Delivery lorry', 'Excavator', 'Service van 1', 'Service van 2']);
    expect(Object.fromEntries(all.map((u) => [u.vehicleType, u.symbol]))).toEqual({
      trailer: 'trailer',
      lorry: 'truck',
      excavator: 'machine',
      car: 'car',
    });
    const mine = (await call(realtimeUnits, user)).body.data as RealtimeUnit[];
    expect(mine.map((u) => u.imei).sort()).toEqual([demoImei(0), demoImei(1)].sort());
  });

  it("uses a unit's own colour, symbol, driver and departments once they are stored", async () => {
    const imei = demoImei(2);
    await dynamo().send(
      new UpdateCommand({
        TableName: tableName('units'),
        Key: { imei },
        UpdateExpression: 'SET color = :c, symbol = :s, driver = :d, departments = :dep',
        ExpressionAttributeValues: { ':c': '#ff0000', ':s': 'bus', ':d': 'Kim Berg', ':dep': ['North', 'Service'] },
      }),
    );
    const lorry = ((await call(realtimeUnits, admin)).body.data as RealtimeUnit[]).find((u) => u.imei === imei);
    expect(lorry).toMatchObject({ color: '#ff0000', symbol: 'bus', driver: 'Kim Berg', departments: ['North', 'Service'] });
  });
});

describe('GET /user/realtime/units?view=map', () => {
  it("answers each unit as the full answer's fields the map needs, page by page, with the same states", async () => {
    const full = (await call(realtimeUnits, admin)).body.data as RealtimeUnit[];
    const compact: MapUnit[] = [];
    let cursor: string | null = null;
    do {
      const page = (await call(realtimeUnits, admin, { query: { view: 'map', limit: '3', ...(cursor ? { cursor } : {}) } })).body.data as MapUnitsPage;
      compact.push(...page.units);
      cursor = page.next;
    } while (cursor);
    expect(compact.map((u) => u.imei)).toEqual(full.map((u) => u.imei).sort());
    for (const unit of full) {
      const { driver: _d, departments: _dep, doutLabels: _o, state, ...shown } = unit;
      const mapState = state && { ts: state.ts, lat: state.lat, lon: state.lon, speed: state.speed, heading: state.heading, ignition: state.ignition, movement: state.movement, lastSeen: state.lastSeen };
      expect(compact.find((u) => u.imei === unit.imei)).toEqual({ ...shown, state: mapState });
    }
    expect(compact.some((u) => u.state !== null)).toBe(true);
  });

  it("reads only what the map shows of each item, the same as the whole item's map view, for an admin and a user", async () => {
    // A unit with everything else a unit item carries: stage states, effects, zones, its own marker and a lock.
    const imei = demoImei(1);
    await dynamo().send(
      new UpdateCommand({
        TableName: tableName('units'),
        Key: { imei },
        UpdateExpression: 'SET stages = :s, effects = :e, zones = :z, color = :c, symbol = :y, lockedBy = :l, lockedByName = :n',
        ExpressionAttributeValues: {
          ':s': { trips: { open: { start: T0, points: [[59.3, 18.1]] } } },
          ':e': {},
          ':z': { gf1: { name: 'Depot', lat: 59.3, lon: 18.1, radius: 200 } },
          ':c': '#aa3300',
          ':y': 'truck',
          ':l': 'someone-else',
          ':n': 'Someone Else',
        },
      }),
    );
    const accountId = (await getUnitItem(imei))!.accountId;
    const whole = await queryAccountUnitsPage(accountId, undefined, 100);
    const projected = await queryAccountUnitsPage(accountId, undefined, 100, undefined, MAP_UNIT);
    expect(projected.items.map(toMapUnit)).toEqual(whole.items.map(toMapUnit));
    const locked = projected.items.find((u) => u.imei === imei) as Record<string, unknown>;
    expect(locked).toMatchObject({ color: '#aa3300', symbol: 'truck', lockedBy: 'someone-else', lockedByName: 'Someone Else' });
    for (const item of projected.items) expect(Object.keys(item).filter((k) => !MAP_FIELD_NAMES.includes(k)), item.imei).toEqual([]);
    // The granted units of an ordinary user are read by key, with the same projection.
    const granted = (await getUnitItemsByImei([imei, demoImei(0)], MAP_UNIT)).map(toMapUnit);
    expect(granted).toEqual((await getUnitItemsByImei([imei, demoImei(0)])).map(toMapUnit));
    const page = (await call(realtimeUnits, user, { query: { view: 'map' } })).body.data as MapUnitsPage;
    expect(page.units.find((u) => u.imei === imei)).toMatchObject({ color: '#aa3300', symbol: 'truck', lockedBy: 'Someone Else', state: null });
    await dynamo().send(new UpdateCommand({ TableName: tableName('units'), Key: { imei }, UpdateExpression: 'REMOVE stages, effects, zones, color, symbol, lockedBy, lockedByName' }));
  });

  it('answers with segments the cursors of chains that, read side by side, hold every unit once', async () => {
    for (const caller of [admin, user]) {
      const every = ((await call(realtimeUnits, caller)).body.data as RealtimeUnit[]).map((u) => u.imei).sort();
      for (const [limit, segments] of [
        ['1', '2'],
        ['1', '4'],
        ['2', '16'],
        ['5000', '3'],
      ] as const) {
        const first = (await call(realtimeUnits, caller, { query: { view: 'map', limit, segments } })).body.data as MapUnitsPage;
        expect(first.segments).toBeDefined();
        const read = first.units.map((u) => u.imei);
        for (let cursor of [first.next, ...(first.segments ?? [])]) {
          while (cursor) {
            const page = (await call(realtimeUnits, caller, { query: { view: 'map', limit, cursor } })).body.data as MapUnitsPage;
            expect(page.segments).toBeUndefined();
            read.push(...page.units.map((u) => u.imei));
            cursor = page.next;
          }
        }
        expect(read.sort(), `limit ${limit}, ${segments} segments`).toEqual(every);
        if (every.length <= Number(limit)) expect(first).toMatchObject({ next: null, segments: [] });
      }
    }
  });

  it('refuses segments with a cursor, without view=map, and outside 2 to 16', async () => {
    const first = (await call(realtimeUnits, admin, { query: { view: 'map', limit: '1' } })).body.data as MapUnitsPage;
    const queries: Array<Record<string, string>> = [{ view: 'map', segments: '2', cursor: first.next ?? '' }, { view: 'map', segments: '1' }, { view: 'map', segments: '17' }, { view: 'map', segments: 'x' }];
    for (const query of queries) {
      const res = await call(realtimeUnits, admin, { query });
      expect(res.status, JSON.stringify(query)).toBe(422);
      expect(res.body.errors, JSON.stringify(query)).toEqual({ segments: ['InvalidSegments'] });
    }
    const res = await call(realtimeUnits, admin, { query: { segments: '2' } });
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual({ view: ['InvalidRealtimeView'] });
  });
});

describe('GET /user/trackers/{imei}/latest-position', () => {
  it('answers null before the first position, then the latest one', async () => {
    const imei = demoImei(1);
    expect((await call(latestPosition, user, { params: { imei } })).body).toEqual({ success: true, data: null });
    await storeUnitState(imei, nextState(undefined, position(T0, 57.7, 11.97), T0));
    await storeUnitState(imei, nextState(undefined, position(T0 + 60_000, 57.71, 11.98), T0 + 60_000));
    expect((await call(latestPosition, user, { params: { imei } })).body).toEqual({ success: true, data: { Latitude: 57.71, Longitude: 11.98 } });
  });

  it('answers 404 for a unit the user was not granted, an unknown one and a malformed IMEI with 422', async () => {
    for (const imei of [demoImei(3), demoImei(900)]) {
      const res = await call(latestPosition, user, { params: { imei } });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ success: false, message: 'NotFound', errors: 'NotFound' });
    }
    expect((await call(latestPosition, admin, { params: { imei: demoImei(3) } })).status).toBe(200);
    const bad = await call(latestPosition, admin, { params: { imei: '12345' } });
    expect(bad.status).toBe(422);
    expect(bad.body.errors).toEqual({ imei: ['InvalidImei'] });
  });
});

describe('GET /user/units/{imei}/positions', () => {
  const imei = demoImei(4);
  beforeAll(async () => {
    // Stored out of order, as late and buffered messages arrive.
    for (const minute of [5, 1, 3, 0, 4, 2]) {
      await storePosition(imei, position(T0 + minute * 60_000, 59 + minute / 100, 18, { speed: minute * 10, ignition: minute > 0 }), T0, 395);
    }
  });

  it('answers the positions of the period in time order, both ends included', async () => {
    const { status, body } = await call(positionsHandler, admin, {
      params: { imei },
      query: { from: '2025-03-10T08:01:00Z', to: '2025-03-10T09:04:00+01:00' },
    });
    expect(status).toBe(200);
    expect(body.message).toBeUndefined();
    const list = body.data as ApiPosition[];
    expect(list.map((p) => p.ts)).toEqual(['2025-03-10T08:01:00.000Z', '2025-03-10T08:02:00.000Z', '2025-03-10T08:03:00.000Z', '2025-03-10T08:04:00.000Z']);
    expect(list[0]).toEqual({ ts: '2025-03-10T08:01:00.000Z', lat: 59.01, lon: 18, speed: 10, heading: null, ignition: true });
  });

  it('rejects a bad period with the keys of the contract', async () => {
    const cases: [Record<string, string>, Record<string, string[]>][] = [
      [{ from: '2025-03-01T00:00:00Z', to: '2025-04-01T00:00:00Z' }, { to: ['HistoryPeriodTooLong'] }],
      [{ from: '2025-03-10T10:00:00Z', to: '2025-03-10T09:00:00Z' }, { to: ['EndDateMustBeAfterStart'] }],
      [{ from: 'yesterday', to: '2025-03-10T09:00:00Z' }, { from: ['InvalidDate'] }],
      [{ to: '2025-03-10T09:00:00Z' }, { from: ['InvalidDate'] }],
    ];
    for (const [query, errors] of cases) {
      const res = await call(positionsHandler, admin, { params: { imei }, query });
      expect(res.status, JSON.stringify(query)).toBe(422);
      expect(res.body.errors).toEqual(errors);
    }
    // Exactly 30 days is allowed.
    expect((await call(positionsHandler, admin, { params: { imei }, query: { from: '2025-03-01T00:00:00Z', to: '2025-03-31T00:00:00Z' } })).status).toBe(200);
  });

  it('answers 404 to a user for a unit not granted to them', async () => {
    const res = await call(positionsHandler, user, { params: { imei }, query: { from: '2025-03-10T08:00:00Z', to: '2025-03-10T09:00:00Z' } });
    expect(res.status).toBe(404);
  });
});

describe('positions query', () => {
  const imei = demoImei(700);
  const COUNT = 320;
  beforeAll(async () => {
    // About 4 KB each, so the 320 positions span two 1 MB query pages.
    const padding = 'x'.repeat(4000);
    const items = Array.from({ length: COUNT }, (_, i) => ({ imei, ts: T0 + i * 1000, lat: 59, lon: 18, io: { padding } }));
    for (let i = 0; i < items.length; i += 25) {
      await dynamo().send(
        new BatchWriteCommand({ RequestItems: { [tableName('positions')]: items.slice(i, i + 25).map((Item) => ({ PutRequest: { Item } })) } }),
      );
    }
  });

  it('follows the pages of a long period', async () => {
    const { items, truncated } = await queryPositions(imei, T0, T0 + COUNT * 1000, 10_000);
    expect(truncated).toBe(false);
    expect(items).toHaveLength(COUNT);
    expect(items.every((p, i) => p.ts === T0 + i * 1000)).toBe(true);
    // Only the answer's attributes are read.
    expect(Object.keys(items[0] ?? {}).sort()).toEqual(['lat', 'lon', 'ts']);
  });

  it('stops at the cap and says so, whether the cap falls in the first page or a later one', async () => {
    for (const max of [100, COUNT - 1]) {
      const { items, truncated } = await queryPositions(imei, T0, T0 + COUNT * 1000, max);
      expect(truncated).toBe(true);
      expect(items).toHaveLength(max);
      expect(items.at(-1)?.ts).toBe(T0 + (max - 1) * 1000);
    }
    const exact = await queryPositions(imei, T0, T0 + COUNT * 1000, COUNT);
    expect(exact.truncated).toBe(false);
    expect(exact.items).toHaveLength(COUNT);
  });
});

describe("a unit's positions", () => {
  const imei = demoImei(701);
  beforeAll(async () => {
    for (const minute of [0, 10, 20, 30]) await storePosition(imei, position(T0 + minute * 60_000, 59, 18), T0, 395);
  });

  it('start at its registration: an IMEI registered again keeps its earlier owners’ positions, never shown', async () => {
    const unit = (minute: number) => ({ imei, createdAt: new Date(T0 + minute * 60_000).toISOString() });
    const read = async (registeredMinute: number, from = T0 - 3600_000, to = T0 + 3600_000) =>
      (await unitPositions(unit(registeredMinute), from, to, 100)).items.map((p) => (p.ts - T0) / 60_000);
    expect(await read(-60)).toEqual([0, 10, 20, 30]);
    // The registration time itself is the new owner's.
    expect(await read(10)).toEqual([10, 20, 30]);
    expect(await read(15)).toEqual([20, 30]);
    expect(await read(15, T0 + 25 * 60_000)).toEqual([30]);
    // A period that ends before the registration, and a record without a readable time: nothing.
    expect(await read(15, T0 - 3600_000, T0 + 12 * 60_000)).toEqual([]);
    expect(await unitPositions({ imei, createdAt: 'unknown' }, T0 - 3600_000, T0 + 3600_000, 100)).toEqual({ items: [], truncated: false });
  });
});

describe('reverse geocoding', () => {
  it("answers the offline gazetteer's address for a coordinate and 422 for impossible ones", async () => {
    const res = await call(reverseGeocode, user, { query: { lat: '59.3326', lon: '18.0649' } });
    expect(res).toEqual({ status: 200, body: { success: true, data: { address: 'Stockholm, SE' } } });
    const sea = await call(reverseGeocode, user, { query: { lat: '0', lon: '-30' } });
    expect(sea.body.data).toEqual({ address: null });
    const bad = await call(reverseGeocode, user, { query: { lat: '91', lon: 'east' } });
    expect(bad.status).toBe(422);
    expect(bad.body.errors).toEqual({ lat: ['InvalidCoordinates'], lon: ['InvalidCoordinates'] });
  });

  it('asks the geocoder once per rounded coordinate and language, keeps misses, retries failures', async () => {
    const real = getPorts().geocoder;
    const asked: string[] = [];
    let fail = false;
    const counting: Geocoder = {
      async reverse(lat, lon, lang): Promise<Address | null> {
        asked.push(`${lang} ${lat} ${lon}`);
        if (fail) throw new Error('service down');
        return real.reverse(lat, lon, lang);
      },
      search: (text, lang, near) => real.search(text, lang, near),
    };
    const cache = createGeocodeCache({ ttlMs: 60_000, maxEntries: 2 });
    const now = new Date(T0);
    const [a, b] = await Promise.all([
      cache.reverse(counting, 59.33261, 18.06488, 'en', now),
      cache.reverse(counting, 59.332649, 18.064851, 'en', now),
    ]);
    expect(a?.label).toBe('Stockholm, SE');
    expect(b).toBe(a);
    expect(asked).toEqual(['en 59.3326 18.0649']);

    await cache.reverse(counting, 59.3326, 18.0649, 'sv', now);
    expect(await cache.reverse(counting, 0, -30, 'en', now)).toBeNull();
    expect(await cache.reverse(counting, 0.00001, -30.00001, 'en', now)).toBeNull();
    expect(asked).toHaveLength(3);
    expect(cache.size()).toBe(2);
    // The oldest key went out, and an expired entry is asked again.
    await cache.reverse(counting, 59.3326, 18.0649, 'en', now);
    expect(asked).toHaveLength(4);
    await cache.reverse(counting, 0, -30, 'en', new Date(T0 + 60_001));
    expect(asked).toHaveLength(5);

    fail = true;
    await expect(cache.reverse(counting, 62, 15, 'en', now)).rejects.toThrow('service down');
    fail = false;
    await cache.reverse(counting, 62, 15, 'en', now);
    expect(asked.slice(-2)).toEqual(['en 62 15', 'en 62 15']);
  });

  it('rounds to 4 decimals and folds -0 into 0', () => {
    expect(roundCoordinate(59.332649)).toBe(59.3326);
    expect(roundCoordinate(-0.00001)).toBe(0);
    expect(Object.is(roundCoordinate(-0.00001), 0)).toBe(true);
  });
});

