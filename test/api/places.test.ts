/**
 * Places end to end on the embedded runtime: every validation key of a save, the list, one place,
 * update and delete with the copies on the units' items (the only place trip detection reads rules
 * from), a detected trip typed by a place rule (stored as the ingest stage stores it), the schedule,
 * re-applying a rule to stored trips while attested ones are kept, an ordinary user's units, a
 * basic-only account, and another account's token answered 404 (or nothing) everywhere.
 */
import { PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Place, PlaceApply, PlaceList, PlaceRequest } from '../../shared/schemas/places';
import type { Trip, TripList } from '../../shared/schemas/trips';
import { getPorts } from '../../functions/platform/container';
import { dynamo, tableName } from '../../functions/platform/db';
import { addDays, localDayOf, startOfLocalDay } from '../../shared/local-time';
import type { UnitRecord } from '../../functions/domain/unit/schema';
import { unitWithCopies } from '../support/unit-state';
import type { UnitItem } from '../../functions/domain/unit/schema';
import type { DetectedTrip } from '../../functions/trips/detect';
import { storeDetectedTrips } from '../../functions/trips/store-detected';
import type { EmbeddedRuntime } from '../../infra/local/runtime';
import { DEMO_PASSWORD, demoImei, demoUsers } from '../../infra/local/seed';
import { DEMO_REGISTERED_AT } from '../support/positions';
import { startRuntime } from '../support/runtime';
import { createTestUser } from '../support/sessions';
import { callAs, callerFor, type Caller, type Reply } from '../support/api-caller';

const STOCKHOLM = 'Europe/Stockholm';
const MIN = 60_000;
/** Where the stored trips start and stop. */
const START = { lat: 59.33, lon: 18.06 };
const STOP = { lat: 59.4, lon: 17.95 };
let rt: EmbeddedRuntime;
let admin: Caller;
let user: Caller;
let other: Caller;
let otherImei: string;
let spare = 0;

const caller = callerFor;

const call = <T>(method: string, path: string, who: Caller | null, body?: unknown, zone = STOCKHOLM) => callAs<T>(rt.url, method, path, who, body, zone);

const PLACES = '/api/v1/user/places';
const create = (body: unknown, who: Caller = admin, zone = STOCKHOLM) => call<{ id: string }>('POST', PLACES, who, body, zone);
const update = (id: string, body: unknown, who: Caller = admin) => call<null>('PUT', `${PLACES}/${id}`, who, body);
const remove = (id: string, who: Caller = admin) => call<null>('DELETE', `${PLACES}/${id}`, who);
const getOne = (id: string, who: Caller = admin) => call<Place>('GET', `${PLACES}/${id}`, who);
const list = async (who: Caller = admin) => (await call<PlaceList>('GET', PLACES, who)).body.data?.places ?? [];
const apply = (id: string, body: unknown, who: Caller = admin) => call<PlaceApply>('POST', `${PLACES}/${id}/apply`, who, body);
const errorsOf = async (reply: Promise<Reply<unknown>>) => {
  const r = await reply;
  expect(r.status, JSON.stringify(r.body)).toBe(422);
  return r.body.errors;
};

/** A unit of the demo account of its own (the admin sees it; the ordinary user does not). */
async function newUnit(accountId = admin.accountId): Promise<string> {
  const imei = demoImei(500 + spare++);
  const unit: UnitRecord = { imei, accountId, name: `Place car ${imei}`, vehicleType: 'car', protocol: 'native', createdAt: DEMO_REGISTERED_AT.toISOString() };
  await dynamo().send(new PutCommand({ TableName: tableName('units'), Item: unit }));
  return imei;
}

function place(imeis: string[], extra: Partial<PlaceRequest> = {}): PlaceRequest {
  return { label: 'Home', address: 'Drottninggatan 1, Stockholm', lat: START.lat, lon: START.lon, radius: 200, imeis, rule: { when: 'start', type: 'private' }, ...extra };
}

async function unitPlaces(imei: string): Promise<UnitItem['places']> {
  return (await unitWithCopies(imei))?.places;
}

/** Stores a detected trip as the ingest stage does (with the unit item as read); answers its id. */
async function storeTrip(imei: string, startTs: number, ends: { from?: typeof START; to?: typeof STOP } = {}): Promise<string> {
  const from = ends.from ?? START;
  const to = ends.to ?? STOP;
  const trip: DetectedTrip = {
    startTs,
    stopTs: startTs + 20 * MIN,
    startLat: from.lat,
    startLon: from.lon,
    stopLat: to.lat,
    stopLon: to.lon,
    distanceM: 12_000,
    startCounterM: 0,
    stopCounterM: 12_000,
    counterSource: 'computed',
    maxSpeedKmh: 70,
    basis: 'ignition',
  };
  await storeDetectedTrips((await unitWithCopies(imei)) as UnitItem, [trip], getPorts());
  return `${imei}-${startTs}`;
}

const q = (params: Record<string, string>) => new URLSearchParams(params).toString();
async function tripTypes(imei: string, from: string, to: string): Promise<Trip['type'][]> {
  const res = await call<TripList>('GET', `/api/v1/user/trips?${q({ imei, from, to })}`, admin);
  return (res.body.data?.trips ?? []).map((t) => t.type);
}
/** A local day this many days back, in Stockholm, and an instant on it. */
const daysAgo = (n: number) => localDayOf(Date.now() - n * 86_400_000, STOCKHOLM);
const at = (day: string, hhmm: string) => {
  const [h = 0, m = 0] = hhmm.split(':').map(Number);
  return startOfLocalDay(day, STOCKHOLM) + h * 3_600_000 + m * MIN;
};
/** The ISO weekday (1 Monday ... 7 Sunday) of a local day. */
const weekdayOf = (day: string) => ((new Date(`${day}T12:00:00Z`).getUTCDay() + 6) % 7) + 1;

beforeAll(async () => {
  rt = await startRuntime();
  admin = await caller(demoUsers.admin.username, DEMO_PASSWORD);
  user = await caller(demoUsers.user.username, DEMO_PASSWORD);
  const stranger = await createTestUser();
  other = await caller(stranger.username, stranger.password);
  otherImei = await newUnit(other.accountId);
});

afterAll(async () => {
  await rt?.stop();
});

describe('saving a place: validation', () => {
  it('answers every field problem with its message key', async () => {
    const imei = await newUnit();
    expect(await errorsOf(create(place([imei], { label: '  ' })))).toEqual({ label: ['SpecifyPlaceLabel'] });
    expect(await errorsOf(create(place([imei], { label: 'x'.repeat(51) })))).toEqual({ label: ['PlaceLabelTooLong'] });
    expect(await errorsOf(create(place([imei], { address: 'x'.repeat(51) })))).toEqual({ address: ['PlaceAddressTooLong'] });
    expect(await errorsOf(create(place([imei], { lat: 91, lon: -181 })))).toEqual({ lat: ['PlaceInvalidCoordinates'], lon: ['PlaceInvalidCoordinates'] });
    const { radius: _radius, ...noRadius } = place([imei]);
    expect(await errorsOf(create(noRadius))).toEqual({ radius: ['PlaceRadiusMissing'] });
    expect(await errorsOf(create(place([imei], { radius: 49.9 })))).toEqual({ radius: ['PlaceRadiusTooSmall'] });
    expect(await errorsOf(create(place([imei], { radius: 10_000 })))).toEqual({ radius: ['PlaceRadiusTooLarge'] });
    expect(await errorsOf(create(place([])))).toEqual({ imeis: ['PlaceSelectUnit'] });
    expect(await errorsOf(create(place(Array.from({ length: 46 }, (_, i) => demoImei(300 + i)))))).toEqual({ imeis: ['PlaceTooManyUnits'] });
    expect(await errorsOf(create(place([imei], { rule: { when: 'sometimes', type: 'private' } as never })))).toEqual({ 'rule.when': ['InvalidPlaceRule'] });
    expect(await errorsOf(create(place([imei], { rule: { when: 'end', type: 'fun' } as never })))).toEqual({ 'rule.type': ['InvalidPlaceRuleType'] });
    expect(await errorsOf(create(place([imei], { rule: { when: 'between', type: 'business' } })))).toEqual({ 'rule.otherPlaceId': ['SelectOtherPlace'] });
    expect(await errorsOf(create(place([imei], { schedule: [{ days: [], from: '25:00', to: '08:00' }] })))).toEqual({
      'schedule.0.days': ['SelectAtLeastOneDay'],
      'schedule.0.from': ['InvalidTime'],
    });
    expect(await errorsOf(create(place([imei], { schedule: [{ days: [8], from: '07:00', to: '08:00' }] })))).toEqual({ 'schedule.0.days.0': ['InvalidWeekday'] });
    // The edges of the radius are accepted.
    expect((await create(place([imei], { radius: 50 }))).status).toBe(201);
    expect((await create(place([imei], { radius: 9999 }))).status).toBe(201);
  });

  it("takes only the caller's units: not another account's, not an unknown one, not one an ordinary user was not granted", async () => {
    const mine = await newUnit();
    expect(await errorsOf(create(place([mine, otherImei])))).toEqual({ imeis: ['PlaceUnitNotFound'] });
    expect(await errorsOf(create(place([demoImei(999)])))).toEqual({ imeis: ['PlaceUnitNotFound'] });
    expect(await errorsOf(create(place([mine]), user))).toEqual({ imeis: ['PlaceUnitNotFound'] });
    expect((await create(place([demoImei(0)]), user)).status).toBe(201);
  });

  it("needs the other place of a 'between' rule to be another place of the account with all of this place's units", async () => {
    const [a, b] = [await newUnit(), await newUnit()];
    const office = (await create(place([a], { label: 'Office', lat: STOP.lat, lon: STOP.lon }))).body.data?.id as string;
    const between = (otherPlaceId: string) => ({ when: 'between' as const, type: 'business' as const, otherPlaceId });
    expect(await errorsOf(create(place([a], { rule: between('no-such-place') })))).toEqual({ 'rule.otherPlaceId': ['OtherPlaceNotFound'] });
    expect(await errorsOf(create(place([a, b], { rule: between(office) })))).toEqual({ 'rule.otherPlaceId': ['OtherPlaceMissingUnits'] });
    expect(await errorsOf(update(office, place([a], { rule: between(office) })))).toEqual({ 'rule.otherPlaceId': ['OtherPlaceIsThisPlace'] });
    const othersOffice = (await create(place([otherImei]), other)).body.data?.id as string;
    expect(await errorsOf(create(place([a], { rule: between(othersOffice) })))).toEqual({ 'rule.otherPlaceId': ['OtherPlaceNotFound'] });

    const home = (await create(place([a], { rule: between(office) }))).body.data?.id as string;
    expect((await getOne(home)).body.data?.rule).toEqual(between(office));
    // The office now keeps unit a and stays while the home's rule names it.
    expect(await errorsOf(update(office, place([b], { label: 'Office', lat: STOP.lat, lon: STOP.lon })))).toEqual({ imeis: ['PlaceUsedByRule'] });
    expect((await update(office, place([a, b], { label: 'Office 2', lat: STOP.lat, lon: STOP.lon }))).status).toBe(200);
    const refused = await remove(office);
    expect([refused.status, refused.body.errors]).toEqual([409, 'PlaceUsedByRule']);
    expect((await remove(home)).status).toBe(200);
    expect((await remove(office)).status).toBe(200);
  });
});

describe('places and the copies on their units', () => {
  it('lists, gets, updates and deletes a place, keeping the units\' copies in step', async () => {
    const [a, b] = [await newUnit(), await newUnit()];
    expect(await unitPlaces(a)).toBeUndefined();
    const created = await create(place([a, b], { schedule: [{ days: [1, 2, 3, 4, 5], from: '07:00', to: '18:00' }] }), admin, 'Europe/Oslo');
    expect(created.status).toBe(201);
    const id = created.body.data?.id as string;
    const expected: Place = {
      id,
      label: 'Home',
      address: 'Drottninggatan 1, Stockholm',
      lat: START.lat,
      lon: START.lon,
      radius: 200,
      imeis: [a, b].sort(),
      rule: { when: 'start', type: 'private' },
      schedule: [{ days: [1, 2, 3, 4, 5], from: '07:00', to: '18:00' }],
      timeZone: 'Europe/Oslo',
    };
    expect((await getOne(id)).body.data).toEqual(expected);
    expect((await list()).find((p) => p.id === id)).toEqual(expected);
    const copy = { label: 'Home', lat: START.lat, lon: START.lon, radius: 200, rule: { when: 'start', type: 'private' }, schedule: expected.schedule, timeZone: 'Europe/Oslo' };
    expect(await unitPlaces(a)).toEqual({ [id]: copy });

    // A second place goes into the map the first one made.
    const second = (await create(place([a], { label: 'Office', rule: { when: 'end', type: 'other' } }))).body.data?.id as string;
    expect(Object.keys((await unitPlaces(a)) ?? {}).sort()).toEqual([id, second].sort());

    // Unit b leaves the first place; its radius changes.
    expect((await update(id, place([a], { radius: 300 }))).status).toBe(200);
    expect((await unitPlaces(a))?.[id]).toMatchObject({ radius: 300, timeZone: STOCKHOLM, schedule: [] });
    expect(await unitPlaces(b)).toEqual({});
    expect((await getOne(id)).body.data).toMatchObject({ imeis: [a], radius: 300 });

    expect((await remove(id)).status).toBe(200);
    expect(Object.keys((await unitPlaces(a)) ?? {})).toEqual([second]);
    expect((await getOne(id)).status).toBe(404);
    expect((await remove(id)).status).toBe(404);
    expect((await list()).some((p) => p.id === id)).toBe(false);
  });

  it("shows an ordinary user only the places whose units are all granted to them", async () => {
    const adminsUnit = await newUnit();
    const shared = (await create(place([demoImei(0)], { label: 'Depot' }))).body.data?.id as string;
    const mixed = (await create(place([demoImei(0), adminsUnit], { label: 'Yard' }))).body.data?.id as string;
    const seen = (await list(user)).map((p) => p.id);
    expect(seen).toContain(shared);
    expect(seen).not.toContain(mixed);
    expect((await getOne(mixed, user)).status).toBe(404);
    expect((await update(mixed, place([demoImei(0)]), user)).status).toBe(404);
    expect((await remove(mixed, user)).status).toBe(404);
    expect((await update(shared, place([demoImei(0), demoImei(1)], { label: 'Depot 2' }), user)).status).toBe(200);
  });
});

describe('place rules typing detected trips', () => {
  it('gives a trip detected afterwards the type of the rule it matches, on its schedule only', async () => {
    const imei = await newUnit();
    const day = daysAgo(10);
    const before = await storeTrip(imei, at(day, '07:00'));
    const weekday = weekdayOf(day);
    const otherDays = [1, 2, 3, 4, 5, 6, 7].filter((d) => d !== weekday);
    expect((await create(place([imei]))).status).toBe(201);
    expect((await create(place([imei], { label: 'Office', lat: STOP.lat, lon: STOP.lon, rule: { when: 'end', type: 'other' }, schedule: [{ days: otherDays, from: '00:00', to: '23:59' }] }))).status).toBe(201);
    await storeTrip(imei, at(day, '08:00'));
    // Starts elsewhere and ends at the office, but not on the office rule's days.
    await storeTrip(imei, at(day, '12:00'), { from: { lat: 59.2, lon: 18.3 } });
    expect(before).toMatch(new RegExp(`^${imei}-`));
    expect(await tripTypes(imei, day, day)).toEqual(['business', 'private', 'business']);
  });

  it("types a trip between two places by the 'between' rule in either direction, over their own rules", async () => {
    const imei = await newUnit();
    const day = daysAgo(9);
    const home = (await create(place([imei]))).body.data?.id as string;
    await create(place([imei], { label: 'Office', lat: STOP.lat, lon: STOP.lon, rule: { when: 'between', type: 'business', otherPlaceId: home } }));
    await storeTrip(imei, at(day, '08:00'));
    await storeTrip(imei, at(day, '17:00'), { from: STOP, to: START });
    await storeTrip(imei, at(day, '19:00'), { from: START, to: { lat: 59.2, lon: 18.3 } });
    expect(await tripTypes(imei, day, day)).toEqual(['business', 'business', 'private']);
  });
});

describe('POST /places/{id}/apply', () => {
  it('types the stored trips of the period that match, keeps attested ones, and counts both', async () => {
    const imei = await newUnit();
    const [d1, d2, d3] = [daysAgo(20), daysAgo(19), daysAgo(18)];
    await storeTrip(imei, at(d1, '08:00'));
    await storeTrip(imei, at(d2, '08:00'));
    await storeTrip(imei, at(d2, '12:00'), { from: { lat: 59.2, lon: 18.3 } });
    await storeTrip(imei, at(d3, '08:00'));
    const attested = await call('POST', '/api/v1/user/trips/attest', admin, { imei, from: d1, to: d1 });
    expect(attested.status).toBe(200);
    const id = (await create(place([imei]))).body.data?.id as string;

    const res = await apply(id, { from: d1, to: d2 });
    expect(res.body.data).toEqual({ changed: 1, attested: 1 });
    expect(await tripTypes(imei, d1, d3)).toEqual(['business', 'private', 'business', 'business']);
    // Again: nothing left to change.
    expect((await apply(id, { from: d1, to: d2 })).body.data).toEqual({ changed: 0, attested: 1 });
  });

  it('refuses a period that is not one, or longer than 12 months', async () => {
    const id = (await create(place([await newUnit()]))).body.data?.id as string;
    expect(await errorsOf(apply(id, { from: '2025-02-30', to: '2025-03-01' }))).toEqual({ from: ['PlaceApplyInvalidDate'] });
    expect(await errorsOf(apply(id, { from: '2025-03-02', to: '2025-03-01' }))).toEqual({ to: ['PlaceApplyEndBeforeStart'] });
    expect(await errorsOf(apply(id, { from: '2025-01-01', to: addDays('2026-01-01', 0) }))).toEqual({ to: ['PlaceApplyPeriodTooLong'] });
    expect((await apply(id, { from: '2025-01-01', to: '2025-12-31' })).status).toBe(200);
  });
});

describe('access', () => {
  it("answers another account's token with nothing, or 404, and never touches the place", async () => {
    const id = (await create(place([await newUnit()], { label: 'Secret' }))).body.data?.id as string;
    expect((await list(other)).map((p) => p.id)).not.toContain(id);
    expect((await getOne(id, other)).status).toBe(404);
    expect((await getOne(id, other)).body.errors).toBe('PlaceNotFound');
    expect((await update(id, place([otherImei]), other)).status).toBe(404);
    expect((await remove(id, other)).status).toBe(404);
    expect((await apply(id, { from: daysAgo(3), to: daysAgo(1) }, other)).status).toBe(404);
    expect((await getOne(id)).body.data?.label).toBe('Secret');
    expect((await call('GET', PLACES, null)).status).toBe(401);
  });

  it('answers 403 to a basic-only account', async () => {
    await dynamo().send(
      new UpdateCommand({
        TableName: tableName('accounts'),
        Key: { accountId: other.accountId },
        UpdateExpression: 'SET features.basicOnly = :on',
        ExpressionAttributeValues: { ':on': true },
      }),
    );
    const res = await call('GET', PLACES, other);
    expect([res.status, res.body.errors]).toEqual([403, 'NotIncludedInBasicSubscription']);
  });
});
