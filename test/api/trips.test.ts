/**
 * The trip log end to end on the embedded runtime: trips are stored as the ingest stage stores
 * them (storeDetectedTrips) and everything else goes through HTTP: the list by period and time
 * zone with its 12-month limit, edits and their validation keys, every merge rule, split, two
 * merges racing, the route, attestation (the lock, the admin's approve, unlock, remove and the
 * reminder e-mail sent once), driver check-in with its QR rules, the drivers a unit can have, the
 * unit a QR code names, odometer entries correcting later trips, and another account's token
 * answered 404 everywhere. A tracker publishing over MQTT a buffered drive after newer positions
 * (ignition and movement based) finds it in the list as its trip, typed by its place rule, once.
 *
 * Trips lie in the last weeks: DynamoDB Local deletes items past their retention expiry.
 */
import { randomUUID } from 'node:crypto';
import { PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import mqtt from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Attestation, AttestationStatus, CheckInCode, CheckInUnit, Driver, DriverCheckIn, OdometerEntry, Trip, TripList } from '../../shared/schemas/trips';
import { storePosition } from '../../functions/ingest/repository';
import { dynamo, tableName } from '../../functions/platform/db';
import type { UnitRecord } from '../../functions/domain/unit/schema';
import type { UserRecord } from '../../functions/domain/user/schema';
import { getUnitItem } from '../../functions/domain/unit/reads';
import { addDays, localDayOf, startOfLocalDay } from '../../shared/local-time';
import type { EmbeddedRuntime } from '../../infra/local/runtime';
import { DEMO_PASSWORD, demoImei, demoUsers } from '../../infra/local/seed';
import { eventually } from '../support/eventually';
import { apiFetch } from '../support/http';
import { storeTestTrip } from '../support/stored-trips';
import { DEMO_REGISTERED_AT, testPosition } from '../support/positions';
import { startRuntime } from '../support/runtime';
import { createTestUser } from '../support/sessions';
import { callAs, callerFor, type Caller, type Reply } from '../support/api-caller';

const STOCKHOLM = 'Europe/Stockholm';
const MIN = 60_000;
let rt: EmbeddedRuntime;
let admin: Caller;
let user: Caller;
let other: Caller;
const otherImei = demoImei(800);
let spare = 0;

const caller = callerFor;

const call = <T>(method: string, path: string, who: Caller | null, body?: unknown, zone = STOCKHOLM) => callAs<T>(rt.url, method, path, who, body, zone);

const q = (params: Record<string, string>) => new URLSearchParams(params).toString();
const listTrips = (imei: string, from: string, to: string, who: Caller = admin, zone = STOCKHOLM) =>
  call<TripList>('GET', `/api/v1/user/trips?${q({ imei, from, to })}`, who, undefined, zone);
const putTrip = (id: string, body: unknown, who: Caller = admin) => call<Trip>('PUT', `/api/v1/user/trips/${id}`, who, body);
const merge = (ids: [string, string], who: Caller = admin) => call<Trip>('POST', '/api/v1/user/trips/merge', who, { ids });
const split = (id: string, who: Caller = admin) => call<Trip[]>('POST', `/api/v1/user/trips/${id}/split`, who);
const errorKeys = (reply: Reply<unknown>) => reply.body.errors;
/**
 * The list once every trip on it shows its addresses. Trips are stored without: a list looks them
 * up within its time budget, and the queue fills what the budget left for the next list
 * (functions/trips/trip-addresses.ts), so on a busy machine the first list may answer null.
 */
const listWithAddresses = (imei: string, from: string, to: string) =>
  eventually(
    () => listTrips(imei, from, to),
    (r) => r.body.data?.trips.every((t) => typeof t.startAddress === 'string' && typeof t.stopAddress === 'string') === true,
    `the addresses of ${imei}'s trips`,
  );

/** A local day this many days back, in Stockholm. */
const daysAgo = (n: number) => localDayOf(Date.now() - n * 86_400_000, STOCKHOLM);
const at = (day: string, hhmm: string, zone = STOCKHOLM) => {
  const [h = 0, m = 0] = hhmm.split(':').map(Number);
  return startOfLocalDay(day, zone) + h * 3_600_000 + m * MIN;
};

/** A unit of the demo account of its own (the admin sees it; the ordinary user does not). */
async function newUnit(accountId = admin.accountId): Promise<string> {
  const imei = demoImei(500 + spare++);
  const unit: UnitRecord = { imei, accountId, name: `Trip car ${imei}`, vehicleType: 'car', protocol: 'native', createdAt: DEMO_REGISTERED_AT.toISOString() };
  await dynamo().send(new PutCommand({ TableName: tableName('units'), Item: unit }));
  return imei;
}

/** Stores a detected trip as the ingest stage does; answers its id. */
const storeTrip = storeTestTrip;

async function setAccount(accountId: string, fields: Record<string, unknown>): Promise<void> {
  const names = Object.fromEntries(Object.keys(fields).map((k, i) => [`#f${i}`, k]));
  const values = Object.fromEntries(Object.values(fields).map((v, i) => [`:f${i}`, v]));
  await dynamo().send(
    new UpdateCommand({
      TableName: tableName('accounts'),
      Key: { accountId },
      UpdateExpression: `SET ${Object.keys(fields).map((_, i) => `#f${i} = :f${i}`).join(', ')}`,
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
    }),
  );
}

beforeAll(async () => {
  rt = await startRuntime();
  admin = await caller(demoUsers.admin.username, DEMO_PASSWORD);
  user = await caller(demoUsers.user.username, DEMO_PASSWORD);
  const stranger = await createTestUser();
  other = await caller(stranger.username, stranger.password);
  const unit: UnitRecord = { imei: otherImei, accountId: other.accountId, name: 'Other van', vehicleType: 'van', protocol: 'native', createdAt: DEMO_REGISTERED_AT.toISOString() };
  await dynamo().send(new PutCommand({ TableName: tableName('units'), Item: unit }));
});

afterAll(async () => {
  await rt?.stop();
});

describe('GET /api/v1/user/trips', () => {
  it("answers a unit's trips of local days in the TimeZone header's zone, in time order, with totals per type", async () => {
    const imei = await newUnit();
    const day = daysAgo(20);
    const late = await storeTrip(imei, at(day, '00:30'), { distanceM: 1_500 });
    const morning = await storeTrip(imei, at(day, '08:00'), { distanceM: 12_345 });
    const evening = await storeTrip(imei, at(day, '17:00'), { distanceM: 8_000 });
    await storeTrip(imei, at(addDays(day, 1), '09:00'));
    expect((await putTrip(evening, { type: 'private' })).status).toBe(200);

    const res = await listWithAddresses(imei, day, day);
    expect(res.status).toBe(200);
    expect(res.body.data?.trips.map((t) => t.id)).toEqual([late, morning, evening]);
    const first = res.body.data?.trips[0] as Trip;
    expect(first).toMatchObject({ imei, distance: 1.5, type: 'business', merged: false, attested: false, purpose: null, driverId: null, driverName: null });
    expect(first.startTime).toMatch(new RegExp(`^${day}T00:30:00\\.000\\+0[12]:00$`));
    expect(res.body.data?.totals).toEqual({ business: { count: 2, distance: 13.845 }, private: { count: 1, distance: 8 }, other: { count: 0, distance: 0 } });

    // In UTC the trip at half past midnight in Stockholm is on the day before.
    const utc = await listTrips(imei, day, day, admin, 'UTC');
    expect(utc.body.data?.trips.map((t) => t.id)).toEqual([morning, evening]);
    expect(utc.body.data?.trips[0]?.startTime).toMatch(/Z$|\+00:00$/);
  });

  it('refuses a period over 12 months, one that ends before it starts, and a date that is none', async () => {
    const imei = await newUnit();
    expect((await listTrips(imei, '2025-01-01', '2025-12-31')).status).toBe(200);
    const long = await listTrips(imei, '2025-01-01', '2026-01-01');
    expect(long.status).toBe(422);
    expect(errorKeys(long)).toEqual({ to: ['TripPeriodTooLong'] });
    expect(errorKeys(await listTrips(imei, '2025-03-02', '2025-03-01'))).toEqual({ to: ['EndDateMustBeAfterStart'] });
    expect(errorKeys(await listTrips(imei, '2025-02-30', '2025-03-01'))).toEqual({ from: ['InvalidDate'] });
  });

  it('answers an ordinary user only the granted units; 401 without a token', async () => {
    const day = daysAgo(21);
    await storeTrip(demoImei(0), at(day, '10:00'));
    expect((await listTrips(demoImei(0), day, day, user)).body.data?.trips).toHaveLength(1);
    expect((await listTrips(demoImei(2), day, day, user)).status).toBe(404);
    expect(await call('GET', `/api/v1/user/trips?${q({ imei: demoImei(0), from: day, to: day })}`, null)).toEqual({ status: 401, body: { message: 'Unauthenticated.' } });
  });
});

describe('PUT /api/v1/user/trips/{id}', () => {
  it('edits type, purpose, note, driver, passengers and project; null clears; times and distance stay', async () => {
    const imei = await newUnit();
    const id = await storeTrip(imei, at(daysAgo(19), '08:00'), { distanceM: 5_000 });
    const res = await putTrip(id, { type: 'other', purpose: ' Customer visit ', note: 'Parking paid', driverId: user.userId, passengers: 'Kim', project: 'Bridge', distance: 99, startTime: '2020-01-01T00:00:00Z' });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ id, type: 'other', purpose: 'Customer visit', note: 'Parking paid', driverId: user.userId, driverName: 'Erik Lind', passengers: 'Kim', project: 'Bridge', distance: 5 });
    const cleared = await putTrip(id, { note: null, passengers: '' });
    expect(cleared.body.data).toMatchObject({ note: null, passengers: null, purpose: 'Customer visit' });
  });

  it('answers the validation keys', async () => {
    const imei = await newUnit();
    const id = await storeTrip(imei, at(daysAgo(19), '10:00'));
    expect(errorKeys(await putTrip(id, { note: 'x'.repeat(101) }))).toEqual({ note: ['TripNoteTooLong'] });
    expect(errorKeys(await putTrip(id, { purpose: 'x'.repeat(101) }))).toEqual({ purpose: ['TripPurposeTooLong'] });
    expect(errorKeys(await putTrip(id, { type: 'holiday' }))).toEqual({ type: ['InvalidTripType'] });
    expect(errorKeys(await putTrip(id, { driverId: randomUUID() }))).toEqual({ driverId: ['InvalidDriver'] });
    // A user of another account is no driver here.
    expect(errorKeys(await putTrip(id, { driverId: other.userId }))).toEqual({ driverId: ['InvalidDriver'] });
    expect((await putTrip(`${imei}-1`, { note: 'x' })).status).toBe(404);
    expect((await putTrip('nonsense', { note: 'x' })).status).toBe(404);
  });

  it("allows only the account's default purposes where users may not add their own", async () => {
    const imei = await newUnit();
    const id = await storeTrip(imei, at(daysAgo(19), '12:00'));
    await setAccount(admin.accountId, { allowUserPurposes: false, defaultPurposes: ['Customer visit', 'Delivery'] });
    try {
      const refused = await putTrip(id, { purpose: 'Lunch' });
      expect(refused.status).toBe(422);
      expect(errorKeys(refused)).toEqual({ purpose: ['PurposeNotAllowed'] });
      expect((await putTrip(id, { purpose: 'delivery' })).body.data?.purpose).toBe('delivery');
    } finally {
      await setAccount(admin.accountId, { allowUserPurposes: true });
    }
    expect((await putTrip(id, { purpose: 'Lunch' })).status).toBe(200);
  });
});

describe('merge and split', () => {
  let imei: string;
  let day: string;
  let t1: string, t2: string, t3: string, t4: string, t5: string;

  beforeAll(async () => {
    imei = await newUnit();
    day = daysAgo(18);
    t1 = await storeTrip(imei, at(day, '08:00'), { distanceM: 10_000, counterStartM: 0 });
    t2 = await storeTrip(imei, at(day, '09:00'), { distanceM: 5_000, counterStartM: 10_000 });
    t3 = await storeTrip(imei, at(day, '10:00'), { distanceM: 2_000, counterStartM: 15_000 });
    t4 = await storeTrip(imei, at(day, '11:00'), { distanceM: 2_000, counterStartM: 17_000 });
    t5 = await storeTrip(imei, at(addDays(day, 1), '08:00'), { distanceM: 2_000, counterStartM: 19_000 });
  });

  const refusal = async (ids: [string, string], status: number, key: string) => {
    const res = await merge(ids);
    expect([res.status, res.body.message]).toEqual([status, key]);
  };

  it('refuses each case of spec section 5 with its key', async () => {
    await refusal([t4, t5], 422, 'CannotMergeDifferentDates');
    await refusal([t1, t3], 422, 'NoTripBelow');
    await refusal([t1, `${imei}-${at(day, '07:00')}`], 404, 'NoTripsFound');
    await refusal([t1, t1], 422, 'NoTripBelow');

    await putTrip(t2, { driverId: user.userId });
    await refusal([t1, t2], 422, 'CannotMergeDifferentDrivers');
    await putTrip(t2, { driverId: null, type: 'private' });
    await refusal([t1, t2], 422, 'CannotMergePrivateWithBusiness');
    await putTrip(t2, { type: 'other' });
    await refusal([t2, t1], 422, 'CannotMergeDifferentTypes');
    await putTrip(t2, { type: 'business' });
  });

  it('merges two trips directly after each other, refuses to merge a merged one, and split gives both back', async () => {
    const before = (await listWithAddresses(imei, day, day)).body.data?.trips as Trip[];
    const res = await merge([t2, t1]);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ id: t1, merged: true, distance: 15, startTime: before[0]?.startTime, stopTime: before[1]?.stopTime, stopAddress: before[1]?.stopAddress });
    expect((await listTrips(imei, day, day)).body.data?.trips.map((t) => t.id)).toEqual([t1, t3, t4]);
    await refusal([t1, t3], 422, 'CannotMergeAlreadyMerged');

    const parts = await split(t1);
    expect(parts.status).toBe(200);
    expect(parts.body.data).toEqual([before[0], before[1]].map((t) => ({ ...t, merged: false })));
    expect((await listTrips(imei, day, day)).body.data?.trips).toEqual(before);
    const again = await split(t1);
    expect([again.status, again.body.message]).toEqual([422, 'CouldNotSplitOrMerge']);
  });

  it('lets exactly one of two concurrent merges of overlapping trips win', async () => {
    const unit = await newUnit();
    const d = daysAgo(17);
    const a = await storeTrip(unit, at(d, '08:00'));
    const b = await storeTrip(unit, at(d, '09:00'));
    const c = await storeTrip(unit, at(d, '10:00'));
    const replies = await Promise.all([merge([a, b]), merge([b, c]), merge([a, b]), merge([b, c]), merge([b, c]), merge([a, b])]);
    const won = replies.filter((r) => r.status === 200);
    expect(won).toHaveLength(1);
    for (const lost of replies.filter((r) => r.status !== 200)) {
      expect([409, 422, 404]).toContain(lost.status);
      expect(['CouldNotSplitOrMerge', 'CannotMergeAlreadyMerged', 'NoTripsFound']).toContain(lost.body.message);
    }
    const trips = (await listTrips(unit, d, d)).body.data?.trips as Trip[];
    expect(trips).toHaveLength(2);
    expect(trips.filter((t) => t.merged)).toHaveLength(1);
  });
});

describe('GET /api/v1/user/trips/{id}/route', () => {
  it("answers the trip's positions in time order; a private trip's route is not shown", async () => {
    const imei = await newUnit();
    const start = at(daysAgo(16), '08:00');
    const id = await storeTrip(imei, start, { minutes: 10 });
    // Stored out of order, with one before and one after the trip.
    for (const minute of [5, -3, 0, 10, 2, 14]) {
      await storePosition(imei, testPosition(start + minute * MIN, 59.33 + minute / 1000, 18.06, { speed: 40 + minute }), start + minute * MIN, 395);
    }
    const route = await call<{ ts: string; lat: number; lon: number; speed: number | null }[]>('GET', `/api/v1/user/trips/${id}/route`, admin);
    expect(route.status).toBe(200);
    expect(route.body.data?.map((p) => [Date.parse(p.ts) - start, p.speed])).toEqual([
      [0, 40],
      [2 * MIN, 42],
      [5 * MIN, 45],
      [10 * MIN, 50],
    ]);
    await putTrip(id, { type: 'private' });
    const hidden = await call('GET', `/api/v1/user/trips/${id}/route`, admin);
    expect([hidden.status, hidden.body.message]).toEqual([422, 'RoutePrivateTrip']);
  });
});

describe('attestation', () => {
  let imei: string;
  let day: string;
  let ids: string[];
  const month = () => day.slice(0, 7);
  const attest = (body: Record<string, unknown>, who: Caller = user) => call<Attestation>('POST', '/api/v1/user/trips/attest', who, body);
  const status = (who: Caller = admin, extra: Record<string, string> = {}) =>
    call<AttestationStatus>('GET', `/api/v1/administration/attestations?${q({ month: month(), ...extra })}`, who);
  const statusOfUser = async () => (await status()).body.data?.users.find((u) => u.userId === user.userId);

  beforeAll(async () => {
    imei = demoImei(1);
    day = daysAgo(15);
    ids = [await storeTrip(imei, at(day, '08:00')), await storeTrip(imei, at(day, '09:00')), await storeTrip(imei, at(day, '10:00'))];
  });

  it('refuses a note over 100 characters and a period with nothing to attest', async () => {
    expect(errorKeys(await attest({ imei, from: day, to: day, note: 'x'.repeat(101) }))).toEqual({ note: ['AttestNoteTooLong'] });
    const empty = await attest({ imei, from: addDays(day, -3), to: addDays(day, -2) });
    expect([empty.status, empty.body.message]).toEqual([422, 'NothingToAttest']);
    expect((await attest({ imei: demoImei(3), from: day, to: day })).status).toBe(404);
  });

  it('refuses a period that runs past today, which would lock trips not yet driven', async () => {
    const today = daysAgo(0);
    const future = await attest({ imei, from: day, to: addDays(today, 1) });
    expect([future.status, future.body.message, errorKeys(future)]).toEqual([422, 'AttestPeriodNotEnded', { to: ['AttestPeriodNotEnded'] }]);
    const trips = await listTrips(imei, day, day, user);
    expect(trips.body.data?.trips.map((t) => t.attested)).toEqual([false, false, false]);
  });

  it('locks the period: edits, merges and splits answer 423 TripIsAttested', async () => {
    const merged = await merge([ids[1] as string, ids[2] as string]);
    expect(merged.status).toBe(200);
    const res = await attest({ imei, from: day, to: day, note: 'March OK' });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ imei, userId: user.userId, userName: 'Erik Lind', from: day, to: day, note: 'March OK', status: 'attested', tripCount: 2, approvedAt: null, unlockedAt: null });

    const trips = (await listTrips(imei, day, day, user)).body.data?.trips as Trip[];
    expect(trips.map((t) => t.attested)).toEqual([true, true]);
    const edit = await putTrip(ids[0] as string, { note: 'late' }, user);
    expect(edit).toEqual({ status: 423, body: { success: false, message: 'TripIsAttested', errors: 'TripIsAttested' } });
    expect((await split(ids[1] as string, user)).status).toBe(423);
    expect((await merge([ids[0] as string, ids[1] as string], user)).status).toBe(423);
    const again = await attest({ imei, from: day, to: day });
    expect([again.status, again.body.message]).toEqual([422, 'NothingToAttest']);

    const mine = await call<Attestation[]>('GET', `/api/v1/user/trips/attestations?${q({ imei, from: day, to: day })}`, user);
    expect(mine.body.data?.map((a) => a.id)).toEqual([res.body.data?.id]);
  });

  it('lets the admin see, approve and unlock it (the record kept, with who and when), then attest and remove again', async () => {
    const seen = await statusOfUser();
    expect(seen).toMatchObject({ name: 'Erik Lind', status: 'attested', remindedAt: null });
    const id = seen?.attestations[0]?.id as string;
    expect((await status(user)).status).toBe(403);
    expect((await status(admin, { userId: user.userId })).body.data?.users.map((u) => u.userId)).toEqual([user.userId]);

    const approved = await call<Attestation>('POST', `/api/v1/administration/attestations/${id}/approve`, admin);
    expect(approved.body.data).toMatchObject({ status: 'approved', approvedBy: admin.userId });
    expect((await statusOfUser())?.status).toBe('approved');
    expect((await putTrip(ids[0] as string, { note: 'still locked' }, user)).status).toBe(423);

    const unlocked = await call<Attestation>('POST', `/api/v1/administration/attestations/${id}/unlock`, admin);
    expect(unlocked.body.data).toMatchObject({ status: 'unlocked', unlockedBy: admin.userId, approvedBy: admin.userId, note: 'March OK' });
    expect(unlocked.body.data?.unlockedAt).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    expect((await putTrip(ids[0] as string, { note: 'fixed' }, user)).status).toBe(200);
    expect((await statusOfUser())?.status).toBe('notAttested');
    const approveUnlocked = await call('POST', `/api/v1/administration/attestations/${id}/approve`, admin);
    expect([approveUnlocked.status, approveUnlocked.body.message]).toEqual([422, 'AttestationIsUnlocked']);

    const second = await attest({ imei, from: day, to: day });
    expect(second.body.data?.tripCount).toBe(2);
    expect((await statusOfUser())?.attestations.map((a) => a.status).sort()).toEqual(['attested', 'unlocked']);
    expect((await call('DELETE', `/api/v1/administration/attestations/${second.body.data?.id}`, admin)).status).toBe(200);
    expect((await putTrip(ids[0] as string, { note: 'after removal' }, user)).status).toBe(200);
    expect((await statusOfUser())?.attestations.map((a) => a.id)).toEqual([id]);
    expect((await call('DELETE', `/api/v1/administration/attestations/${second.body.data?.id}`, admin)).status).toBe(404);
  });

  it('e-mails a reminder once however often the admin clicks', async () => {
    await dynamo().send(new UpdateCommand({ TableName: tableName('users'), Key: { userId: user.userId }, UpdateExpression: 'SET lang = :sv', ExpressionAttributeValues: { ':sv': 'sv' } }));
    try {
      const body = { userId: user.userId, month: month(), requestId: randomUUID() };
      const clicks = await Promise.all([1, 2, 3].map(() => call<{ sent: boolean }>('POST', '/api/v1/administration/attestations/reminders', admin, body)));
      expect(clicks.map((c) => c.status)).toEqual([200, 200, 200]);
      expect(clicks.filter((c) => c.body.data?.sent)).toHaveLength(1);
      // The same request again later, or another within the minute: nothing more.
      expect((await call<{ sent: boolean }>('POST', '/api/v1/administration/attestations/reminders', admin, body)).body.data?.sent).toBe(false);
      expect((await call<{ sent: boolean }>('POST', '/api/v1/administration/attestations/reminders', admin, { userId: user.userId, month: month() })).body.data?.sent).toBe(false);

      const outbox = await apiFetch(`${rt.url}/api/dev/outbox?to=${encodeURIComponent(demoUsers.user.email)}&kind=email`);
      const mails = ((await outbox.json()) as { data: { subject: string; text: string }[] }).data.filter((m) => m.subject.includes('körjournal'));
      expect(mails).toHaveLength(1);
      expect(mails[0]?.subject).toMatch(/^Attestera din körjournal för \S+ \d{4} \(TrackPortal\)$/);
      expect(mails[0]?.text).toContain('/user/create-triplog');
      expect((await statusOfUser())?.remindedAt).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    } finally {
      await dynamo().send(new UpdateCommand({ TableName: tableName('users'), Key: { userId: user.userId }, UpdateExpression: 'SET lang = :en', ExpressionAttributeValues: { ':en': 'en' } }));
    }
    const stranger = await call('POST', '/api/v1/administration/attestations/reminders', admin, { userId: other.userId, month: month() });
    expect(stranger.status).toBe(404);
    expect((await call('POST', '/api/v1/administration/attestations/reminders', user, { userId: user.userId, month: month() })).status).toBe(403);
  });
});

describe('POST /api/v1/user/driver-check-in', () => {
  const checkIn = (body: Record<string, unknown>, who: Caller = admin) => call<DriverCheckIn>('POST', '/api/v1/user/driver-check-in', who, body);

  it('gives the trips from then until the next check-in the driver, except attested ones and ones a user set', async () => {
    const imei = await newUnit();
    const day = daysAgo(14);
    const before = await storeTrip(imei, at(day, '07:00'));
    const chosen = await storeTrip(imei, at(day, '09:00'));
    const handSet = await storeTrip(imei, at(day, '10:00'));
    const afterNext = await storeTrip(imei, at(day, '15:00'));
    await putTrip(handSet, { driverId: admin.userId });

    const next = await checkIn({ imei, driverId: admin.userId, from: `${day}T14:00` });
    expect(next.body.data).toMatchObject({ driverId: admin.userId, driverName: 'Alva Andersson', until: null, tripsChanged: 1 });
    const res = await checkIn({ imei, driverId: user.userId, from: `${day}T09:00` });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ imei, driverId: user.userId, driverName: 'Erik Lind', tripsChanged: 1 });
    expect(res.body.data?.from).toMatch(new RegExp(`^${day}T09:00:00\\.000\\+0[12]:00$`));
    expect(res.body.data?.until).toMatch(new RegExp(`^${day}T14:00:00\\.000\\+0[12]:00$`));

    const trips = (await listTrips(imei, day, day)).body.data?.trips as Trip[];
    expect(trips.map((t) => [t.id, t.driverId])).toEqual([
      [before, null],
      [chosen, user.userId],
      [handSet, admin.userId],
      [afterNext, admin.userId],
    ]);
    // The latest check-in is the unit's driver on the map and in the units list.
    const units = await call<{ imei: string; driver: string | null }[]>('GET', '/api/v1/user/units', admin);
    expect(units.body.data?.find((u) => u.imei === imei)?.driver).toBe('Alva Andersson');
  });

  it("refuses 'No driver', a future time and a driver of another account", async () => {
    const imei = await newUnit();
    for (const driverId of ['No driver', '', null]) {
      expect(errorKeys(await checkIn({ imei, driverId }))).toEqual({ driverId: ['NoDriverNotAllowed'] });
    }
    expect(errorKeys(await checkIn({ imei }))).toEqual({ driverId: ['NoDriverNotAllowed'] });
    const future = new Date(Date.now() + 3_600_000).toISOString();
    expect(errorKeys(await checkIn({ imei, driverId: user.userId, from: future }))).toEqual({ from: ['CheckInFuture'] });
    expect(errorKeys(await checkIn({ imei, driverId: other.userId }))).toEqual({ driverId: ['InvalidDriver'] });
    expect(errorKeys(await checkIn({ driverId: user.userId }))).toEqual({ imei: ['InvalidImei'] });
  });

  it('checks the caller in by QR code; without access only where the account allows it', async () => {
    const code = await call<CheckInCode>('GET', `/api/v1/user/units/${demoImei(0)}/check-in-code`, user);
    expect(code.status).toBe(200);
    expect(code.body.data?.path).toBe(`/user/check-in/${code.body.data?.code}`);
    expect(code.body.data?.url.endsWith(code.body.data?.path as string)).toBe(true);
    expect((await call<CheckInCode>('GET', `/api/v1/user/units/${demoImei(0)}/check-in-code`, admin)).body.data?.code).toBe(code.body.data?.code);

    const mine = await checkIn({ qr: code.body.data?.url }, user);
    expect(mine.body.data).toMatchObject({ imei: demoImei(0), driverId: user.userId });

    // A unit the user has no access to.
    const foreign = (await call<CheckInCode>('GET', `/api/v1/user/units/${demoImei(2)}/check-in-code`, admin)).body.data?.code as string;
    const refused = await checkIn({ qr: foreign }, user);
    expect([refused.status, refused.body.message]).toEqual([403, 'QrCheckInNotAllowed']);
    await setAccount(admin.accountId, { allowQrCheckInWithoutAccess: true });
    try {
      expect((await checkIn({ qr: foreign }, user)).body.data).toMatchObject({ imei: demoImei(2), driverId: user.userId });
    } finally {
      await setAccount(admin.accountId, { allowQrCheckInWithoutAccess: false });
    }

    const forged = `${demoImei(2)}-${'A'.repeat(22)}`;
    expect(errorKeys(await checkIn({ qr: forged }, user))).toEqual({ qr: ['InvalidQrCode'] });
    expect(errorKeys(await checkIn({ qr: 'hello' }, user))).toEqual({ qr: ['InvalidQrCode'] });
    // Another account's user with this account's code: the unit is not theirs to know of.
    expect((await checkIn({ qr: foreign }, other)).status).toBe(404);
  });
});

describe('GET /api/v1/user/units/{imei}/drivers', () => {
  const drivers = (imei: string, who: Caller = admin) => call<Driver[]>('GET', `/api/v1/user/units/${imei}/drivers`, who);

  it("lists the users of the unit's account by name to whoever may see the unit, and nobody of another account", async () => {
    const imei = await newUnit();
    // A user of the account who sorts between the demo users.
    const bo: UserRecord = {
      userId: randomUUID(),
      accountId: admin.accountId,
      username: `bo-${randomUUID().slice(0, 8)}`,
      email: `bo-${randomUUID().slice(0, 8)}@demo.example`,
      firstName: 'Bo',
      lastName: 'Ek',
      lang: 'sv',
      subsiteId: 0,
      isAdmin: false,
      isSupport: false,
      enableTwoFactorAuth: false,
      createdAt: new Date().toISOString(),
    };
    await dynamo().send(new PutCommand({ TableName: tableName('users'), Item: bo }));

    const res = await drivers(imei);
    expect(res.status).toBe(200);
    const list = res.body.data as Driver[];
    expect(list).toEqual([
      { id: admin.userId, firstName: 'Alva', lastName: 'Andersson' },
      { id: bo.userId, firstName: 'Bo', lastName: 'Ek' },
      { id: user.userId, firstName: 'Erik', lastName: 'Lind' },
    ]);
    // An ordinary user: the same list for a unit granted to them, 404 for one that is not.
    expect((await drivers(demoImei(0), user)).body.data).toEqual(list);
    expect((await drivers(imei, user)).status).toBe(404);
    // Another account: 404 for this account's unit; its own unit lists only its own user.
    expect((await drivers(imei, other)).status).toBe(404);
    expect((await drivers(otherImei, other)).body.data).toEqual([{ id: other.userId, firstName: 'Test', lastName: 'User' }]);
    expect((await call('GET', `/api/v1/user/units/${imei}/drivers`, null)).status).toBe(401);
  });
});

describe('GET /api/v1/user/check-in/{code}', () => {
  const codeOf = async (imei: string) => (await call<CheckInCode>('GET', `/api/v1/user/units/${imei}/check-in-code`, admin)).body.data?.code as string;
  const unitOf = (code: string, who: Caller = user) => call<CheckInUnit>('GET', `/api/v1/user/check-in/${encodeURIComponent(code)}`, who);

  it('names the unit of a code to whoever may check in by it; without access only where the account allows it', async () => {
    const granted = await unitOf(await codeOf(demoImei(0)));
    expect(granted.status).toBe(200);
    expect(granted.body.data).toEqual({ imei: demoImei(0), name: 'Service van 1', registrationNumber: 'ABC123' });

    // A unit the user has no access to (and without a registration number).
    const imei = await newUnit();
    const code = await codeOf(imei);
    expect((await unitOf(code, admin)).body.data).toEqual({ imei, name: `Trip car ${imei}`, registrationNumber: null });
    const refused = await unitOf(code);
    expect([refused.status, refused.body.message]).toEqual([403, 'QrCheckInNotAllowed']);
    await setAccount(admin.accountId, { allowQrCheckInWithoutAccess: true });
    try {
      expect((await unitOf(code)).body.data).toEqual({ imei, name: `Trip car ${imei}`, registrationNumber: null });
    } finally {
      await setAccount(admin.accountId, { allowQrCheckInWithoutAccess: false });
    }
  });

  it('answers 404 InvalidQrCode for a code that is none and for another account, 401 without a token', async () => {
    const code = await codeOf(demoImei(0));
    for (const none of [`${demoImei(0)}-${'A'.repeat(22)}`, 'hello', `${code}x`]) {
      const res = await unitOf(none);
      expect([res.status, res.body.message], none).toEqual([404, 'InvalidQrCode']);
    }
    const foreign = await unitOf(code, other);
    expect([foreign.status, foreign.body.message]).toEqual([404, 'InvalidQrCode']);
    expect((await call('GET', `/api/v1/user/check-in/${code}`, null)).status).toBe(401);
  });
});

describe('odometer entries', () => {
  it("correct the odometer of the trips after them; without one a computed counter gives none and a tracker's is shown", async () => {
    const imei = await newUnit();
    const day = daysAgo(13);
    const first = await storeTrip(imei, at(day, '08:00'), { counterStartM: 10_000, distanceM: 15_000 });
    const second = await storeTrip(imei, at(day, '10:00'), { counterStartM: 25_000, distanceM: 15_000 });
    const odometers = async () =>
      ((await listTrips(imei, day, day)).body.data?.trips as Trip[]).map((t) => [t.id, t.startOdometer, t.stopOdometer]);
    expect(await odometers()).toEqual([
      [first, null, null],
      [second, null, null],
    ]);

    const path = `/api/v1/user/units/${imei}/odometer-entries`;
    const entry = await call<OdometerEntry>('POST', path, admin, { time: `${day}T09:00`, value: 12_345.6 });
    expect(entry.status).toBe(201);
    expect(entry.body.data).toMatchObject({ imei, value: 12_345.6, createdBy: admin.userId });
    expect(await odometers()).toEqual([
      [first, null, null],
      [second, 12_345.6, 12_360.6],
    ]);
    // An entry made during a trip stores the counter there (half way: 17.5 km) and counts from the next trip on.
    await call('POST', path, admin, { time: `${day}T08:10`, value: 500 });
    expect((await odometers())[0]).toEqual([first, null, null]);

    const list = await call<OdometerEntry[]>('GET', path, admin);
    expect(list.body.data?.map((e) => e.value)).toEqual([500, 12_345.6]);
    expect((await call('DELETE', `${path}/${entry.body.data?.id}`, admin)).status).toBe(200);
    expect((await odometers())[1]).toEqual([second, 507.5, 522.5]);
    expect((await call('DELETE', `${path}/${entry.body.data?.id}`, admin)).status).toBe(404);

    expect(errorKeys(await call('POST', path, admin, { time: `${day}T09:00`, value: -1 }))).toEqual({ value: ['InvalidOdometer'] });
    expect(errorKeys(await call('POST', path, admin, { time: `${day}T09:00`, value: 'lots' }))).toEqual({ value: ['InvalidOdometer'] });
    expect(errorKeys(await call('POST', path, admin, { time: `${addDays(daysAgo(0), 2)}T09:00`, value: 1 }))).toEqual({ time: ['OdometerEntryInFuture'] });
    expect(errorKeys(await call('POST', path, admin, { time: 'yesterday', value: 1 }))).toEqual({ time: ['InvalidDateTime'] });

    const tracker = await newUnit();
    const id = await storeTrip(tracker, at(day, '08:00'), { counterStartM: 123_456_000, distanceM: 10_500, source: 'tracker' });
    expect((await listTrips(tracker, day, day)).body.data?.trips.map((t) => [t.id, t.startOdometer, t.stopOdometer])).toEqual([[id, 123_456, 123_466.5]]);
  });
});

describe("another account's token", () => {
  it('gets 404 for every trip route on this account, and 404 for its admin routes', async () => {
    const imei = await newUnit();
    const day = daysAgo(12);
    const a = await storeTrip(imei, at(day, '08:00'));
    const b = await storeTrip(imei, at(day, '09:00'));
    const attested = await attestAs(admin, imei, day);
    const path = `/api/v1/user/units/${imei}/odometer-entries`;
    const entry = (await call<OdometerEntry>('POST', path, admin, { time: `${day}T07:00`, value: 10 })).body.data?.id;
    const code = (await call<CheckInCode>('GET', `/api/v1/user/units/${imei}/check-in-code`, admin)).body.data?.code;

    const attempts: Reply<unknown>[] = [
      await listTrips(imei, day, day, other),
      await putTrip(a, { note: 'x' }, other),
      await merge([a, b], other),
      await split(a, other),
      await call('GET', `/api/v1/user/trips/${a}/route`, other),
      await call('POST', '/api/v1/user/trips/attest', other, { imei, from: day, to: day }),
      await call('GET', `/api/v1/user/trips/attestations?${q({ imei, from: day, to: day })}`, other),
      await call('GET', path, other),
      await call('POST', path, other, { time: `${day}T07:00`, value: 10 }),
      await call('DELETE', `${path}/${entry}`, other),
      await call('POST', '/api/v1/user/driver-check-in', other, { imei, driverId: other.userId }),
      await call('POST', '/api/v1/user/driver-check-in', other, { qr: code }),
      await call('GET', `/api/v1/user/units/${imei}/check-in-code`, other),
      await call('GET', `/api/v1/user/check-in/${code}`, other),
      await call('GET', `/api/v1/user/units/${imei}/drivers`, other),
      await call('POST', `/api/v1/administration/attestations/${attested}/approve`, other),
      await call('POST', `/api/v1/administration/attestations/${attested}/unlock`, other),
      await call('DELETE', `/api/v1/administration/attestations/${attested}`, other),
      await call('POST', '/api/v1/administration/attestations/reminders', other, { userId: user.userId, month: day.slice(0, 7) }),
    ];
    expect(attempts.map((r) => r.status)).toEqual(attempts.map(() => 404));
    // Their status page lists only their own users, and nothing of this account's attestation.
    const theirs = await call<AttestationStatus>('GET', `/api/v1/administration/attestations?${q({ month: day.slice(0, 7) })}`, other);
    expect(theirs.body.data?.users.map((u) => u.userId)).toEqual([other.userId]);
    expect(theirs.body.data?.users[0]?.attestations).toEqual([]);
    // And all of it is still there for this account.
    expect((await listTrips(imei, day, day)).body.data?.trips.map((t) => [t.id, t.attested])).toEqual([
      [a, true],
      [b, true],
    ]);
  });
});

async function attestAs(who: Caller, imei: string, day: string): Promise<string> {
  const res = await call<Attestation>('POST', '/api/v1/user/trips/attest', who, { imei, from: day, to: day });
  expect(res.status).toBe(200);
  return res.body.data?.id as string;
}

describe('a late drive published over MQTT', () => {
  interface Rec {
    ts: number;
    lat: number;
    lon: number;
    spd: number;
    ign?: boolean;
  }
  const HOME = { lat: 59.3, lon: 18.0 };
  /** Parked with a few metres of jitter, a fix every `every` minutes. */
  const parkedAt = (from: number, minutes: number, lat: number, every: number, ign: boolean | undefined): Rec[] =>
    Array.from({ length: Math.floor(minutes / every) + 1 }, (_, i) => ({ ts: from + i * every * MIN, lat: lat + ((i % 3) - 1) * 0.00004, lon: HOME.lon, spd: 0, ...(ign === undefined ? {} : { ign: false }) }));
  /** North at about 50 km/h, a fix every 30 s. */
  const drivingFrom = (from: number, minutes: number, ign: boolean | undefined): Rec[] =>
    Array.from({ length: minutes * 2 }, (_, i) => ({ ts: from + (i + 1) * 30_000, lat: HOME.lat + (i + 1) * 0.0037, lon: HOME.lon, spd: 50, ...(ign === undefined ? {} : { ign }) }));

  /** Publishes the records as a tracker sends its buffer: ten a message, each acknowledged (QoS 1). */
  async function publish(imei: string, records: Rec[]): Promise<void> {
    const tracker = await mqtt.connectAsync(rt.mqttUrl, { clientId: imei, reconnectPeriod: 0 });
    for (let i = 0; i < records.length; i += 10) {
      const records10 = records.slice(i, i + 10).map((r) => ({ ...r, sat: 9 }));
      await tracker.publishAsync(`trackers/${imei}/telemetry`, JSON.stringify({ records: records10 }), { qos: 1 });
    }
    await tracker.endAsync();
  }
  /** Waits until ingest has taken in everything up to this record (a unit's messages are taken in order). */
  const ingested = (imei: string, last: Rec) =>
    eventually(() => getUnitItem(imei, { consistent: true }), (unit) => unit?.state?.ts === last.ts, `the position of ${new Date(last.ts).toISOString()}`);

  it.each([
    ['ignition', true],
    ['movement', undefined],
  ] as const)('becomes its trip within seconds, typed by its place rule, and once however often it comes (%s based)', async (_, ign) => {
    const imei = await newUnit();
    const created = await call<{ id: string }>('POST', '/api/v1/user/places', admin, {
      label: 'Garage',
      address: 'Verkstadsgatan 1',
      lat: HOME.lat,
      lon: HOME.lon,
      radius: 200,
      imeis: [imei],
      rule: { when: 'start', type: 'private' },
    });
    expect(created.status).toBe(201);

    // Three hours ago: parked, a 14-minute drive, 15 minutes parked after it (a fix a minute).
    const start = Date.now() - 3 * 3_600_000;
    const drive = drivingFrom(start, 14, ign);
    const end = drive[drive.length - 1]!;
    const after = parkedAt(end.ts + MIN, 15, end.lat, 1, ign);
    // The key turns where the car stood.
    const before = parkedAt(start - 10 * MIN, 10, HOME.lat, 5, ign).map((r) => (r.ts === start && ign ? { ...r, ign: true } : r));
    const late = [...before, ...drive, ...after];
    // What the unit sent first, on coming back: a few positions 10 minutes ago.
    const recent = parkedAt(Date.now() - 10 * MIN, 4, end.lat, 2, ign);
    const day = localDayOf(start - 10 * MIN, STOCKHOLM);
    const trips = async () => (await listTrips(imei, day, localDayOf(Date.now(), STOCKHOLM))).body.data?.trips ?? [];

    await publish(imei, recent);
    await ingested(imei, recent[recent.length - 1]!);
    expect(await trips()).toEqual([]);

    await publish(imei, late);
    // Ignition: from the key turned to the key off; movement: from where it stood to its last moving fix.
    const [startTs, stopTs] = [start, ign ? after[0]!.ts : end.ts];
    const found = await eventually(trips, (list) => list.some((t) => Date.parse(t.stopTime) === stopTs), 'the whole drive as a trip');
    const summary = (list: Trip[]) => list.map((t) => [t.id, Date.parse(t.startTime), Date.parse(t.stopTime), t.type, t.distance]);
    expect(summary(found)).toEqual([[`${imei}-${startTs}`, startTs, stopTs, 'private', found[0]!.distance]]);
    expect(found[0]!.distance).toBeGreaterThan(11);
    expect(found[0]!.distance).toBeLessThan(12);

    // The same buffer again (a tracker that missed the acknowledgements), then a new position: nothing doubles.
    await publish(imei, late);
    const marker = { ...recent[recent.length - 1]!, ts: Date.now() - MIN };
    await publish(imei, [marker]);
    await ingested(imei, marker);
    expect(summary(await trips())).toEqual(summary(found));
  });
});
