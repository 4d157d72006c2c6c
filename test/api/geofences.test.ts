/**
 * Geofences end to end on the embedded runtime: every validation rule with its message key, the
 * radius bounds, the copies on the units (`zones`, read with the unit as ingest reads it) after create, update,
 * unassign and delete, the limit of 5 geofences per unit, two saves racing for a unit's 5th slot
 * (exactly one wins), an ordinary user's reach, another account's token, and the address search.
 */
import { randomUUID } from 'node:crypto';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GeocodeResult, Geofence, GeofenceInput, GeofenceList, GeofenceRequest } from '../../shared/schemas/geofences';
import { nextGeofenceItem } from '../../functions/geofences/geofence-item';
import { writeGeofence } from '../../functions/geofences/repository';
import { lostTransactionRace } from '../../functions/platform/conditions';
import { dynamo, tableName } from '../../functions/platform/db';
import type { UnitRecord } from '../../functions/domain/unit/schema';
import { unitWithCopies } from '../support/unit-state';
import { unitZonesSeenOf } from '../../functions/domain/unit/copies';
import { getUnitItem } from '../../functions/domain/unit/reads';
import type { UnitItem } from '../../functions/domain/unit/schema';
import type { EmbeddedRuntime } from '../../infra/local/runtime';
import { DEMO_PASSWORD, demoImei, demoUsers } from '../../infra/local/seed';
import { apiFetch } from '../support/http';
import { DEMO_REGISTERED_AT } from '../support/positions';
import { startRuntime } from '../support/runtime';
import { createTestUser, loginAs } from '../support/sessions';

interface Reply<T> {
  status: number;
  body: { success?: boolean; data?: T; message?: string; errors?: unknown };
}

let rt: EmbeddedRuntime;
let admin: string;
let user: string;
let other: string;
let otherAccount = '';
let adminAccount = '';
let spare = 0;

async function call<T>(method: string, path: string, token: string | null, body?: unknown, zone = 'Europe/Stockholm'): Promise<Reply<T>> {
  const res = await apiFetch(`${rt.url}${path}`, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      timezone: zone,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : {}) as Reply<T>['body'] };
}

const PATH = '/api/v1/user/geofences';
const list = (token = admin) => call<GeofenceList>('GET', PATH, token);
const getOne = (id: string, token = admin) => call<Geofence>('GET', `${PATH}/${id}`, token);
const create = (body: unknown, token = admin, zone?: string) => call<{ id: string }>('POST', PATH, token, body, zone);
const update = (id: string, body: unknown, token = admin) => call<Geofence>('PUT', `${PATH}/${id}`, token, body);
const remove = (id: string, token = admin) => call<null>('DELETE', `${PATH}/${id}`, token);

const fence = (fields: Partial<GeofenceRequest> = {}): GeofenceRequest => ({
  name: 'Depot',
  lat: 59.3293,
  lon: 18.0686,
  radius: 500,
  imeis: [],
  alarm: true,
  ...fields,
});

async function createOk(fields: Partial<GeofenceRequest> = {}, token = admin): Promise<string> {
  const res = await create(fence(fields), token);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data?.id as string;
}

/** A unit of its own in an account (the demo account's admin sees it; its ordinary user does not). */
async function newUnit(accountId = adminAccount, name?: string): Promise<string> {
  const imei = demoImei(600 + spare++);
  const unit: UnitRecord = { imei, accountId, name: name ?? `Fence car ${imei.slice(-4)}`, vehicleType: 'car', protocol: 'native', createdAt: DEMO_REGISTERED_AT.toISOString() };
  await dynamo().send(new PutCommand({ TableName: tableName('units'), Item: unit }));
  return imei;
}

const zonesOf = async (imei: string) => (await unitWithCopies(imei))?.zones;

beforeAll(async () => {
  rt = await startRuntime();
  const a = await loginAs(demoUsers.admin.username, DEMO_PASSWORD);
  admin = a.token;
  user = (await loginAs(demoUsers.user.username, DEMO_PASSWORD)).token;
  const stranger = await createTestUser();
  otherAccount = stranger.accountId;
  other = (await loginAs(stranger.username, stranger.password)).token;
  adminAccount = (await getUnitItem(demoImei(0)))?.accountId as string;
});

afterAll(async () => {
  await rt?.stop();
});

describe('POST /api/v1/user/geofences', () => {
  it('creates a geofence, answers its id (201), lists it with its units by name and copies it onto each unit', async () => {
    const car = await newUnit(adminAccount, 'Zone car A');
    const van = await newUnit(adminAccount, 'Zone van B');
    const id = await createOk({ name: ' Main depot ', imeis: [car, van, car], theftMode: true, schedule: { off: [{ days: [6, 7], from: '18:00', to: '06:00' }] } }, admin);
    const got = await getOne(id);
    expect(got.status).toBe(200);
    expect(got.body.data).toEqual({
      id,
      name: 'Main depot',
      lat: 59.3293,
      lon: 18.0686,
      radius: 500,
      imeis: [car, van],
      alarm: true,
      active: true,
      theftMode: true,
      schedule: { off: [{ days: [6, 7], from: '18:00', to: '06:00' }] },
      units: [
        { imei: car, name: 'Zone car A' },
        { imei: van, name: 'Zone van B' },
      ],
    });
    const listed = await list();
    expect(listed.body.data?.geofences.find((g) => g.id === id)?.units.map((u) => u.name)).toEqual(['Zone car A', 'Zone van B']);
    const zone = {
      name: 'Main depot',
      lat: 59.3293,
      lon: 18.0686,
      radius: 500,
      alarm: true,
      active: true,
      theftMode: true,
      off: [{ days: [6, 7], from: '18:00', to: '06:00' }],
      timeZone: 'Europe/Stockholm',
    };
    expect(await zonesOf(car)).toEqual({ [id]: zone });
    expect(await zonesOf(van)).toEqual({ [id]: zone });
  });

  it('keeps the TimeZone header of the save on the copy; a schedule of null copies no windows', async () => {
    const car = await newUnit();
    const res = await create(fence({ imeis: [car], schedule: null }), admin, 'Europe/Oslo');
    const id = res.body.data?.id as string;
    expect((await zonesOf(car))?.[id]).toMatchObject({ off: [], timeZone: 'Europe/Oslo' });
  });

  it('accepts a radius of 300 and 9999 m and refuses 299 (RadiusLessThan300) and 10000 (RadiusTooLarge)', async () => {
    expect((await create(fence({ radius: 300 }))).status).toBe(201);
    expect((await create(fence({ radius: 9999 }))).status).toBe(201);
    const small = await create(fence({ radius: 299 }));
    expect(small.status).toBe(422);
    expect(small.body.errors).toEqual({ radius: ['RadiusLessThan300'] });
    expect((await create(fence({ radius: 10000 }))).body.errors).toEqual({ radius: ['RadiusTooLarge'] });
    const { radius: _r, ...noRadius } = fence();
    expect((await create(noRadius)).body.errors).toEqual({ radius: ['RadiusRequired'] });
  });

  it('answers every other rule with its key', async () => {
    const keysOf = async (body: unknown) => {
      const res = await create(body);
      expect(res.status).toBe(422);
      return res.body.errors;
    };
    expect(await keysOf(fence({ name: '  ' }))).toEqual({ name: ['GeofenceNameRequired'] });
    expect(await keysOf({ ...fence(), name: undefined })).toEqual({ name: ['GeofenceNameRequired'] });
    expect(await keysOf(fence({ name: 'x'.repeat(51) }))).toEqual({ name: ['GeofenceNameTooLong'] });
    expect((await create(fence({ name: 'x'.repeat(50) }))).status).toBe(201);
    expect(await keysOf(fence({ lat: 91 }))).toEqual({ lat: ['GeofenceInvalidPosition'] });
    expect(await keysOf({ ...fence(), lon: '18' })).toEqual({ lon: ['GeofenceInvalidPosition'] });
    expect(await keysOf({ ...fence(), alarm: 'yes' })).toEqual({ alarm: ['GeofenceInvalidSwitch'] });
    expect(await keysOf({ ...fence(), alarm: undefined, theftMode: 1 })).toEqual({ alarm: ['GeofenceInvalidSwitch'], theftMode: ['GeofenceInvalidSwitch'] });
    expect(await keysOf(fence({ schedule: { off: [{ days: [], from: '08:00', to: '25:00' }] } }))).toEqual({
      'schedule.off.0.days': ['SelectAtLeastOneDay'],
      'schedule.off.0.to': ['InvalidTime'],
    });
    expect(await keysOf(fence({ schedule: { off: [{ days: [8], from: '08:00', to: '09:00' }] } }))).toEqual({ 'schedule.off.0.days.0': ['InvalidWeekday'] });
    expect(await keysOf(fence({ imeis: [demoImei(999)] }))).toEqual({ imeis: ['GeofenceUnitNotFound'] });
    expect(await keysOf(fence({ imeis: Array.from({ length: 100 }, (_, i) => demoImei(1000 + i)) }))).toEqual({ imeis: ['GeofenceTooManyUnits'] });
  });

  it('refuses a unit of another account (GeofenceUnitNotFound) and writes nothing on it', async () => {
    const theirs = await newUnit(otherAccount);
    const res = await create(fence({ imeis: [theirs] }));
    expect(res.body.errors).toEqual({ imeis: ['GeofenceUnitNotFound'] });
    expect(await zonesOf(theirs)).toBeUndefined();
  });

  it('allows 5 geofences on a unit and refuses a 6th with errors.imeis GeofenceLimitReached', async () => {
    const car = await newUnit();
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push(await createOk({ name: `Zone ${i}`, imeis: [car] }));
    const sixth = await create(fence({ name: 'Zone 6', imeis: [car] }));
    expect(sixth.status).toBe(422);
    expect(sixth.body.errors).toEqual({ imeis: ['GeofenceLimitReached'] });
    expect(Object.keys((await zonesOf(car)) ?? {}).sort()).toEqual([...ids].sort());
    // An existing one of its 5 can still be saved with it.
    expect((await update(ids[0] as string, fence({ name: 'Zone 0 renamed', imeis: [car] }))).status).toBe(200);
    expect((await zonesOf(car))?.[ids[0] as string]?.name).toBe('Zone 0 renamed');
    // Once one goes, there is room again.
    expect((await remove(ids[1] as string)).status).toBe(200);
    expect((await create(fence({ name: 'Zone 6', imeis: [car] }))).status).toBe(201);
  });

  it('lets exactly one of two saves racing for the 5th slot of a unit win', async () => {
    for (let round = 0; round < 3; round++) {
      const car = await newUnit();
      for (let i = 0; i < 4; i++) await createOk({ name: `Race ${round}.${i}`, imeis: [car] });
      const [a, b] = await Promise.all([create(fence({ name: 'Racer A', imeis: [car] })), create(fence({ name: 'Racer B', imeis: [car] }))]);
      expect([a.status, b.status].sort()).toEqual([201, 422]);
      const loser = a.status === 422 ? a : b;
      expect(loser.body.errors).toEqual({ imeis: ['GeofenceLimitReached'] });
      const zones = (await zonesOf(car)) ?? {};
      expect(Object.keys(zones)).toHaveLength(5);
      const winner = (a.status === 201 ? a : b).body.data?.id as string;
      expect(zones[winner]).toBeDefined();
      // The loser left no geofence behind.
      const names = (await list()).body.data?.geofences.map((g) => g.name) ?? [];
      expect(names.filter((n) => n === 'Racer A' || n === 'Racer B')).toHaveLength(round + 1);
    }
  });

  it('holds the limit in the transaction itself: of two writes planned from the same read of a unit with 4 zones, exactly one commits', async () => {
    for (const withMap of [true, false]) {
      const car = await newUnit();
      if (withMap) for (let i = 0; i < 4; i++) await createOk({ name: `Held ${i}`, imeis: [car] });
      const max = withMap ? 5 : 1;
      const unit = await unitWithCopies(car);
      const seen = unitZonesSeenOf(unit as UnitItem);
      const write = (name: string) => {
        const item = nextGeofenceItem(null, { accountId: adminAccount, id: randomUUID(), userId: 'test', timeZone: 'UTC', now: new Date() }, { ...fence({ name, imeis: [car] }), active: true, theftMode: false, schedule: null, imeis: [car] } as GeofenceInput);
        return writeGeofence(null, item, { put: [seen], remove: [] }, max);
      };
      const outcomes = await Promise.allSettled([write('Tx A'), write('Tx B')]);
      expect(outcomes.map((o) => o.status).sort()).toEqual(['fulfilled', 'rejected']);
      const failure = outcomes.find((o) => o.status === 'rejected') as PromiseRejectedResult;
      expect(lostTransactionRace(failure.reason)).toBe(true);
      expect(Object.keys((await zonesOf(car)) ?? {})).toHaveLength(withMap ? 5 : 1);
    }
  });

  it('gives two saves racing for a unit without zones both their slot', async () => {
    const car = await newUnit();
    const [a, b] = await Promise.all([create(fence({ name: 'First', imeis: [car] })), create(fence({ name: 'Second', imeis: [car] }))]);
    expect([a.status, b.status]).toEqual([201, 201]);
    expect(Object.keys((await zonesOf(car)) ?? {}).sort()).toEqual([a.body.data?.id, b.body.data?.id].sort());
  });
});

describe('PUT and DELETE /api/v1/user/geofences/{id}', () => {
  it('updates the copies on kept units, adds to new ones and removes from unassigned ones', async () => {
    const kept = await newUnit();
    const dropped = await newUnit();
    const added = await newUnit();
    const id = await createOk({ imeis: [kept, dropped] });
    const res = await update(id, fence({ name: 'Moved depot', lat: 57.7, lon: 11.97, radius: 1200, imeis: [kept, added], alarm: false, active: false }));
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ id, name: 'Moved depot', radius: 1200, imeis: [kept, added], alarm: false, active: false, theftMode: false, schedule: null });
    expect((await zonesOf(kept))?.[id]).toMatchObject({ name: 'Moved depot', lat: 57.7, lon: 11.97, radius: 1200, alarm: false, active: false });
    expect((await zonesOf(added))?.[id]).toMatchObject({ name: 'Moved depot' });
    expect(await zonesOf(dropped)).toEqual({});

    expect((await remove(id)).status).toBe(200);
    expect(await zonesOf(kept)).toEqual({});
    expect(await zonesOf(added)).toEqual({});
    expect((await getOne(id)).status).toBe(404);
    expect((await remove(id)).status).toBe(404);
    expect((await update(id, fence())).status).toBe(404);
  });

  it('leaves the other geofences on a unit alone', async () => {
    const car = await newUnit();
    const one = await createOk({ name: 'One', imeis: [car] });
    const two = await createOk({ name: 'Two', imeis: [car] });
    await update(one, fence({ name: 'One', imeis: [] }));
    expect(Object.keys((await zonesOf(car)) ?? {})).toEqual([two]);
    await remove(two);
    expect(await zonesOf(car)).toEqual({});
  });

  it('validates an update like a create', async () => {
    const id = await createOk();
    expect((await update(id, fence({ radius: 10_000 }))).body.errors).toEqual({ radius: ['RadiusTooLarge'] });
    expect((await update(id, fence({ imeis: [demoImei(998)] }))).body.errors).toEqual({ imeis: ['GeofenceUnitNotFound'] });
  });
});

describe("who may reach a geofence", () => {
  it("answers another account's token 404 and lists it nothing; the geofence and its copies stay", async () => {
    const car = await newUnit();
    const id = await createOk({ name: 'Private depot', imeis: [car] });
    expect((await list(other)).body.data?.geofences).toEqual([]);
    expect((await getOne(id, other)).status).toBe(404);
    expect((await update(id, fence(), other)).status).toBe(404);
    expect((await remove(id, other)).status).toBe(404);
    expect((await getOne(id)).status).toBe(200);
    expect(Object.keys((await zonesOf(car)) ?? {})).toEqual([id]);
    // Their own work the same way, apart from ours.
    const theirs = await newUnit(otherAccount, 'Their van');
    const own = await createOk({ name: 'Their depot', imeis: [theirs] }, other);
    expect((await list(other)).body.data?.geofences.map((g) => g.id)).toEqual([own]);
    expect((await getOne(own)).status).toBe(404);
  });

  it('lets an ordinary user reach only geofences whose units are all granted to them, and assign only those', async () => {
    const granted = demoImei(0);
    const notGranted = demoImei(2);
    const mine = await createOk({ name: 'User zone', imeis: [granted] }, user);
    const adminOnly = await createOk({ name: 'Admin zone', imeis: [granted, notGranted] });
    const empty = await createOk({ name: 'Empty zone' });
    const ids = (await list(user)).body.data?.geofences.map((g) => g.id) ?? [];
    expect(ids).toContain(mine);
    expect(ids).toContain(empty);
    expect(ids).not.toContain(adminOnly);
    expect((await getOne(adminOnly, user)).status).toBe(404);
    expect((await remove(adminOnly, user)).status).toBe(404);
    expect((await create(fence({ imeis: [notGranted] }), user)).body.errors).toEqual({ imeis: ['GeofenceUnitNotFound'] });
    expect((await update(mine, fence({ imeis: [granted, notGranted] }), user)).body.errors).toEqual({ imeis: ['GeofenceUnitNotFound'] });
    // The admin sees them all.
    const all = (await list()).body.data?.geofences.map((g) => g.id) ?? [];
    expect(all).toEqual(expect.arrayContaining([mine, adminOnly, empty]));
    for (const id of [mine, adminOnly, empty]) expect((await remove(id)).status).toBe(200);
    expect(Object.keys((await zonesOf(granted)) ?? {})).not.toContain(mine);
  });

  it('answers 401 without a token', async () => {
    expect(await call('GET', PATH, null)).toEqual({ status: 401, body: { message: 'Unauthenticated.' } });
  });
});

describe('GET /api/v1/user/geocode/search', () => {
  it('answers places matching the text, best first, as label, lat and lon', async () => {
    const res = await call<GeocodeResult[]>('GET', '/api/v1/user/geocode/search?q=Uppsala', admin);
    expect(res.status).toBe(200);
    expect(res.body.data?.length).toBeGreaterThan(0);
    const first = res.body.data?.[0] as GeocodeResult;
    expect(first.label).toMatch(/^Uppsala/);
    expect(first.lat).toBeCloseTo(59.86, 1);
    expect(first.lon).toBeCloseTo(17.64, 1);
    expect((await call<GeocodeResult[]>('GET', '/api/v1/user/geocode/search?q=zzqqxxnotaplace', admin)).body.data).toEqual([]);
  });

  it('refuses an empty or overlong text with its key', async () => {
    expect((await call('GET', '/api/v1/user/geocode/search?q=%20', admin)).body.errors).toEqual({ q: ['GeocodeQueryRequired'] });
    expect((await call('GET', `/api/v1/user/geocode/search?q=${'a'.repeat(101)}`, admin)).body.errors).toEqual({ q: ['GeocodeQueryTooLong'] });
    expect((await call('GET', '/api/v1/user/geocode/search', admin)).body.errors).toEqual({ q: ['GeocodeQueryRequired'] });
  });
});
