/**
 * Car booking end to end on the embedded runtime: the week and month schedules, the drivers of a
 * vehicle, every rule of spec section 5 with its key, ordinary users against admins (section 6),
 * 'Bas' vehicles hidden, overlaps refused by the data layer when ten saves of one slot race and
 * when two changes race, the account's car booking flag (403 CarBookingNotIncluded) and another
 * account's token answered 404 or nothing.
 */
import { PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Booking, CarSchedule } from '../../shared/schemas/car-schedule';
import { dynamo, tableName } from '../../functions/platform/db';
import { getBooking } from '../../functions/bookings/booking-repository';
import type { UnitRecord } from '../../functions/domain/unit/schema';
import type { EmbeddedRuntime } from '../../infra/local/runtime';
import { demoImei } from '../../infra/local/seed';
import { callAs, callerFor, demoCallers, type Caller, type Reply } from '../support/api-caller';
import { DEMO_REGISTERED_AT } from '../support/positions';
import { startRuntime } from '../support/runtime';
import { createTestUser } from '../support/sessions';

const BASE = '/api/v1/user/car-schedule';
const ZONE = 'Europe/Stockholm';
let rt: EmbeddedRuntime;
let admin: Caller;
let user: Caller;
let other: Caller;
let noBooking: Caller;
let otherImei: string;

/** The two units the demo's ordinary user is granted, and one only the admin sees. */
const granted = demoImei(0);
const granted2 = demoImei(1);
const adminOnly = demoImei(2);
const basUnit = demoImei(4);

const call = <T>(method: string, path: string, who: Caller | null, body?: unknown, zone = ZONE) => callAs<T>(rt.url, method, path, who, body, zone);

/** The local day n days from today in a zone. */
function day(n: number, zone = ZONE): string {
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date());
  const [y = 1970, m = 1, d = 1] = today.split('-').map(Number);
  return new Date(Date.UTC(y, m - 1, d + n)).toISOString().slice(0, 10);
}
const hourIn = (zone: string) => Number(new Intl.DateTimeFormat('en-GB', { timeZone: zone, hour: '2-digit', hourCycle: 'h23' }).format(new Date()));
/** A zone where it is now between 02:00 and 21:59, so that today has a past and a future hour. */
const DAYTIME_ZONE = ['Europe/Stockholm', 'America/New_York', 'Asia/Tokyo', 'America/Los_Angeles', 'Asia/Kolkata'].find((z) => hourIn(z) >= 2 && hourIn(z) <= 21) ?? ZONE;

let nextDay = 2;
/** A day of its own for a test, so that tests never share a slot. */
const freshDay = () => day(nextDay++);

const booking = (d: string, from: string, to: string, extra: Record<string, unknown> = {}) => ({
  imei: granted,
  start_date: `${d} ${from}`,
  end_date: `${d} ${to}`,
  purpose: 'Customer visit',
  driver_id: admin.userId,
  ...extra,
});
const create = (body: unknown, who: Caller = admin, zone = ZONE) => call<Booking>('POST', BASE, who, body, zone);
const update = (id: string, body: unknown, who: Caller = admin, zone = ZONE) => call<Booking>('PUT', `${BASE}/${id}`, who, body, zone);
const remove = (id: string, who: Caller = admin) => call<null>('DELETE', `${BASE}/${id}`, who);
const week = async (d: string, who: Caller = admin, imeis = '') =>
  (await call<CarSchedule>('GET', `${BASE}/week?week_day=${d}&Imeis=${imeis}`, who)).body.data as CarSchedule;
const month = async (m: string, who: Caller = admin) => (await call<CarSchedule>('GET', `${BASE}/month?month=${m}&Imeis=`, who)).body.data as CarSchedule;
const drivers = (imei: string, who: Caller = admin) => call<{ members: { ID: string; FirstName: string }[] }>('POST', `${BASE}/drivers`, who, { imei });

async function booked(body: unknown, who: Caller = admin, zone = ZONE): Promise<Booking> {
  const r = await create(body, who, zone);
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  expect(r.body.message).toBe('NewBookingSuccessMsg');
  return r.body.data as Booking;
}
async function refused(reply: Promise<Reply<unknown>>): Promise<{ message: string | undefined; errors: unknown }> {
  const r = await reply;
  expect(r.status, JSON.stringify(r.body)).toBe(422);
  return { message: r.body.message, errors: r.body.errors };
}
const errorsOf = async (reply: Promise<Reply<unknown>>) => (await refused(reply)).errors;
/** A vehicle's bookings in a schedule, of one date when given (a week holds other tests' days too). */
const scheduleOf = (s: CarSchedule, imei: string, date?: string) => (s.BookingSchedules.find((v) => v.Imei === imei)?.Schedule ?? []).filter((b) => !date || b.date === date);

/** Moves a booking's start into the past behind the API's back: a booking that has begun. */
async function makeStarted(id: string): Promise<void> {
  const stored = await getBooking(id);
  if (!stored) throw new Error('no booking');
  await dynamo().send(
    new UpdateCommand({ TableName: tableName('bookings'), Key: { pk: `unit#${stored.imei}`, sk: stored.sk }, UpdateExpression: 'SET startTs = :s', ExpressionAttributeValues: { ':s': Date.now() - 60_000 } }),
  );
}

beforeAll(async () => {
  rt = await startRuntime();
  ({ admin, user, other } = await demoCallers());
  await dynamo().send(new UpdateCommand({ TableName: tableName('accounts'), Key: { accountId: other.accountId }, UpdateExpression: 'SET features.carBooking = :t', ExpressionAttributeValues: { ':t': true } }));
  otherImei = demoImei(700);
  const unit: UnitRecord = { imei: otherImei, accountId: other.accountId, name: 'Stranger car', registrationNumber: 'ZZZ999', vehicleType: 'car', protocol: 'native', createdAt: DEMO_REGISTERED_AT.toISOString() };
  await dynamo().send(new PutCommand({ TableName: tableName('units'), Item: unit }));
  await dynamo().send(new UpdateCommand({ TableName: tableName('units'), Key: { imei: basUnit }, UpdateExpression: 'SET subscriptionType = :b', ExpressionAttributeValues: { ':b': 'Bas' } }));
  await dynamo().send(
    new PutCommand({ TableName: tableName('unitDetails'), Item: { imei: granted, accountId: admin.accountId, objectDescription: { manufacturer: 'Ford', model: 'Transit' } } }),
  );
  const plain = await createTestUser();
  noBooking = await callerFor(plain.username, plain.password);
});

afterAll(async () => {
  await rt?.stop();
});

describe('the account feature', () => {
  it('answers 403 CarBookingNotIncluded on every route to an account without car booking', async () => {
    for (const [method, path, body] of [
      ['GET', `${BASE}/week?week_day=${day(1)}`, undefined],
      ['GET', `${BASE}/month?month=${day(1).slice(0, 7)}`, undefined],
      ['POST', `${BASE}/drivers`, { imei: granted }],
      ['POST', BASE, booking(day(1), '09:00', '10:00')],
      ['PUT', `${BASE}/x`, booking(day(1), '09:00', '10:00')],
      ['DELETE', `${BASE}/x`, undefined],
    ] as const) {
      const r = await call(method, path, noBooking, body);
      expect([r.status, r.body.errors], `${method} ${path}`).toEqual([403, 'CarBookingNotIncluded']);
    }
  });
});

describe('the schedules', () => {
  it('lists the vehicles the caller may see by name, without Bas units, with their model, and filters by Imeis', async () => {
    const d = freshDay();
    const s = await week(d);
    expect(s.BookingSchedules.map((v) => v.Imei)).toEqual(expect.arrayContaining([granted, granted2, adminOnly, demoImei(3)]));
    expect(s.BookingSchedules.map((v) => v.Imei)).not.toContain(basUnit);
    const names = s.BookingSchedules.map((v) => v.Name);
    expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b, 'en', { numeric: true })));
    expect(s.BookingSchedules.find((v) => v.Imei === granted)).toMatchObject({ ID: granted, Name: 'Service van 1', RegistrationNumber: 'ABC123', Model: 'Transit', SubscriptionType: null });
    const monday = new Date(`${s.from}T00:00:00Z`).getUTCDay();
    expect([monday, s.from <= d, d <= s.to]).toEqual([1, true, true]);
    expect((await week(d, user)).BookingSchedules.map((v) => v.Imei).sort()).toEqual([granted, granted2].sort());
    expect((await week(d, admin, `${granted2},${basUnit}`)).BookingSchedules.map((v) => v.Imei)).toEqual([granted2]);
  });

  it('shows a booking in its week (all bookings of the vehicle) and in its driver\'s month; OldestBooking is its date', async () => {
    const d = freshDay();
    const b = await booked(booking(d, '09:00', '10:30', { driver_id: user.userId, purpose: 'Airport run' }));
    expect(b).toMatchObject({ imei: granted, date: d, start_time: '09:00', end_time: '10:30', purpose: 'Airport run', booked_by: user.userId, driver_name: 'Erik Lind', registration_number: 'ABC123', editable: true });
    expect(b.start_date).toMatch(new RegExp(`^${d}T09:00:00.000\\+0[12]:00$`));
    const seenByAdmin = scheduleOf(await week(d), granted, d);
    expect(seenByAdmin.map((x) => x.id)).toEqual([b.id]);
    const seenByUser = scheduleOf(await week(d, user), granted, d);
    expect(seenByUser.map((x) => [x.id, x.editable])).toEqual([[b.id, true]]);
    expect((await week(d)).OldestBooking! <= d).toBe(true);
    // My booking: the driver's, not the admin's who booked it.
    const mine = await month(d.slice(0, 7), user);
    expect(mine.BookingSchedules.length).toBe(2);
    expect(scheduleOf(mine, granted).map((x) => x.id)).toContain(b.id);
    expect([mine.from <= d, d <= mine.to]).toEqual([true, true]);
    expect(scheduleOf(await month(d.slice(0, 7), admin), granted).map((x) => x.id)).not.toContain(b.id);
    // Shown in the caller's zone.
    const inLondon = await call<CarSchedule>('GET', `${BASE}/week?week_day=${d}`, admin, undefined, 'Europe/London');
    expect(scheduleOf(inLondon.body.data as CarSchedule, granted).find((x) => x.id === b.id)).toMatchObject({ start_time: '08:00', end_time: '09:30' });
  });

  it('answers the drivers of a vehicle: admins and the users granted it; an ordinary user only themself', async () => {
    const ids = async (imei: string, who: Caller = admin) => ((await drivers(imei, who)).body.data?.members ?? []).map((m) => [m.ID, m.FirstName]);
    expect(await ids(granted)).toEqual([[admin.userId, 'Alva'], [user.userId, 'Erik']]);
    expect(await ids(adminOnly)).toEqual([[admin.userId, 'Alva']]);
    expect(await ids(granted, user)).toEqual([[user.userId, 'Erik']]);
    expect((await drivers(adminOnly, user)).status).toBe(404);
    expect((await drivers(basUnit)).status).toBe(404);
    expect(await errorsOf(drivers(''))).toEqual({ imei: ['SelectImei'] });
  });
});

describe('the rules of a booking, each with its key', () => {
  it('refuses every field problem with its key', async () => {
    const d = freshDay();
    expect(await errorsOf(create(booking(d, '09:00', '10:00', { purpose: ' ' })))).toEqual({ purpose: ['SpecifyPurpose'] });
    expect(await errorsOf(create(booking(d, '09:00', '10:00', { purpose: 'x'.repeat(101) })))).toEqual({ purpose: ['PurposeLength'] });
    expect(await errorsOf(create(booking(d, '09:00', '10:00', { driver_id: '' })))).toEqual({ driver_id: ['SelectDriver'] });
    expect(await errorsOf(create(booking(d, '09:00', '10:00', { imei: '' })))).toEqual({ imei: ['SelectImei'] });
    expect(await errorsOf(create({ purpose: 'x', driver_id: admin.userId, imei: granted, start_date: 'soon', end_date: `${d} 10:00` }))).toEqual({ start_date: ['InvalidBookingTime'] });
    expect(await errorsOf(create(booking(d, '09:00', '08:45')))).toEqual({ end_date: ['EndDateMustBeAfterStart'] });
    expect(await errorsOf(create(booking(d, '09:00', '09:00')))).toEqual({ end_date: ['StartTimeAndEndTimeCannotBeSame'] });
    expect(await errorsOf(create(booking(d, '09:00', '09:09')))).toEqual({ end_date: ['BookingMinimumTenMinutes'] });
    expect(await errorsOf(create({ ...booking(d, '09:00', '10:00'), end_date: `${day(nextDay++)} 10:00` }))).toEqual({ end_date: ['BookingSameDay'] });
    // Ten minutes is enough, and the payload may carry the id as the contract's update does.
    expect((await create({ ...booking(d, '09:00', '09:10'), id: 'ignored' })).status).toBe(201);
  });

  it('refuses the past: ErrPastDateMsg, SetToCurrentTime, SetToOneHourAhead, as ErrSavePastDateMsg or ErrEditPastDateMsg', async () => {
    const z = DAYTIME_ZONE;
    const today = day(0, z);
    expect(await refused(create(booking(day(-1, z), '09:00', '10:00'), admin, z))).toEqual({ message: 'ErrSavePastDateMsg', errors: { start_date: ['ErrPastDateMsg'] } });
    expect(await refused(create(booking(today, '00:00', '23:59'), admin, z))).toEqual({ message: 'ErrSavePastDateMsg', errors: { start_date: ['SetToCurrentTime'] } });
    expect(await refused(create(booking(today, '00:00', '01:00'), admin, z))).toEqual({
      message: 'ErrSavePastDateMsg',
      errors: { start_date: ['SetToCurrentTime'], end_date: ['SetToOneHourAhead'] },
    });
    // Later today is fine (an offset is read as that instant).
    const later = await booked({ ...booking(today, '22:00', '23:00'), start_date: `${today}T22:00:00`, end_date: `${today}T23:00:00` }, admin, z);
    expect(later.start_time).toBeDefined();
    const future = await booked(booking(freshDay(), '09:00', '10:00', { imei: granted2 }));
    expect(await refused(update(future.id, booking(day(-1, z), '09:00', '10:00', { imei: granted2 }), admin, z))).toEqual({
      message: 'ErrEditPastDateMsg',
      errors: { start_date: ['ErrPastDateMsg'] },
    });
  });

  it('refuses an overlapping booking of the vehicle (AlreadyBookedSlot) and takes one that only touches it', async () => {
    const d = freshDay();
    await booked(booking(d, '10:00', '11:00'));
    expect(await refused(create(booking(d, '10:30', '11:30')))).toEqual({ message: 'AlreadyBookedSlot', errors: { start_date: ['AlreadyBookedSlot'] } });
    expect(await refused(create(booking(d, '09:00', '12:00')))).toEqual({ message: 'AlreadyBookedSlot', errors: { start_date: ['AlreadyBookedSlot'] } });
    await booked(booking(d, '11:00', '11:15'));
    await booked(booking(d, '09:45', '10:00'));
    // Another vehicle at the same time is free.
    await booked(booking(d, '10:00', '11:00', { imei: granted2 }));
  });
});

describe('ordinary users and admins (spec section 6)', () => {
  it('lets an ordinary user book only their granted vehicles for themself', async () => {
    const d = freshDay();
    expect(await errorsOf(create(booking(d, '09:00', '10:00', { driver_id: admin.userId }), user))).toEqual({ driver_id: ['BookOnlyForYourself'] });
    expect((await create(booking(d, '09:00', '10:00', { imei: adminOnly, driver_id: user.userId }), user)).status).toBe(404);
    const own = await booked(booking(d, '09:00', '10:00', { driver_id: user.userId }), user);
    expect(own.booked_by).toBe(user.userId);
  });

  it('lets an admin choose any driver who may use the vehicle', async () => {
    const d = freshDay();
    expect(await errorsOf(create(booking(d, '09:00', '10:00', { imei: adminOnly, driver_id: user.userId })))).toEqual({ driver_id: ['DriverCannotUseVehicle'] });
    expect(await errorsOf(create(booking(d, '09:00', '10:00', { driver_id: other.userId })))).toEqual({ driver_id: ['DriverCannotUseVehicle'] });
    expect((await booked(booking(d, '09:00', '10:00', { driver_id: user.userId }))).driver_name).toBe('Erik Lind');
  });

  it("refuses an ordinary user's change or delete of another driver's booking (CannotEditOthersBooking); an admin may", async () => {
    const d = freshDay();
    const admins = await booked(booking(d, '09:00', '10:00'));
    expect(scheduleOf(await week(d, user), granted, d).find((x) => x.id === admins.id)?.editable).toBe(false);
    for (const r of [await update(admins.id, booking(d, '11:00', '12:00', { driver_id: user.userId }), user), await remove(admins.id, user)]) {
      expect([r.status, r.body.errors]).toEqual([403, 'CannotEditOthersBooking']);
    }
    const users = await booked(booking(d, '13:00', '14:00', { driver_id: user.userId }), user);
    const moved = await update(users.id, booking(d, '14:00', '15:00', { driver_id: user.userId, purpose: 'Moved by the admin' }));
    expect([moved.status, moved.body.message, moved.body.data?.start_time, moved.body.data?.purpose]).toEqual([200, 'UpdateSuccessMsg', '14:00', 'Moved by the admin']);
    const deleted = await remove(users.id);
    expect([deleted.status, deleted.body.message]).toEqual([200, 'DeleteMsg']);
    expect(scheduleOf(await week(d), granted, d).map((x) => x.id)).toEqual([admins.id]);
    expect((await remove(users.id)).status).toBe(404);
  });

  it('refuses changing or deleting a booking that has begun (BookingAlreadyStarted)', async () => {
    const d = freshDay();
    const b = await booked(booking(d, '09:00', '10:00'));
    await makeStarted(b.id);
    expect(await refused(update(b.id, booking(d, '11:00', '12:00')))).toEqual({ message: 'BookingAlreadyStarted', errors: { id: ['BookingAlreadyStarted'] } });
    expect(await refused(remove(b.id))).toEqual({ message: 'BookingAlreadyStarted', errors: { id: ['BookingAlreadyStarted'] } });
  });
});

describe('the data layer refuses overlaps', () => {
  it('takes exactly one of ten concurrent bookings of one slot; the others get AlreadyBookedSlot', async () => {
    const d = freshDay();
    const replies = await Promise.all(Array.from({ length: 10 }, (_, i) => create(booking(d, '09:00', '10:00', { purpose: `Racer ${i}` }))));
    expect(replies.map((r) => r.status).sort()).toEqual([201, ...Array<number>(9).fill(422)]);
    for (const r of replies.filter((x) => x.status === 422)) expect(r.body.errors).toEqual({ start_date: ['AlreadyBookedSlot'] });
    expect(scheduleOf(await week(d), granted, d)).toHaveLength(1);
  });

  it('keeps one of two changes that race into one slot, and a move to another vehicle leaves no copy behind', async () => {
    const d = freshDay();
    const a = await booked(booking(d, '08:00', '09:00'));
    const b = await booked(booking(d, '14:00', '15:00'));
    const replies = await Promise.all([update(a.id, booking(d, '11:00', '12:00')), update(b.id, booking(d, '11:30', '12:30'))]);
    expect(replies.map((r) => r.status).sort()).toEqual([200, 422]);
    const times = scheduleOf(await week(d), granted, d).map((x) => `${x.start_time}-${x.end_time}`);
    expect(times.length).toBe(2);
    expect(times).toContain(replies[0]?.status === 200 ? '11:00-12:00' : '11:30-12:30');
    const moved = await update(a.id, booking(d, '08:00', '09:00', { imei: granted2 }));
    expect(moved.status).toBe(200);
    const after = await week(d);
    expect(scheduleOf(after, granted, d).map((x) => x.id)).toEqual([b.id]);
    expect(scheduleOf(after, granted2, d).map((x) => x.id)).toEqual([a.id]);
  });
});

describe("another account's token", () => {
  it("answers 404 for the demo account's vehicles and bookings and shows nothing of them", async () => {
    const d = freshDay();
    const b = await booked(booking(d, '09:00', '10:00'));
    const s = await week(d, other);
    expect(s.BookingSchedules.map((v) => v.Imei)).toEqual([otherImei]);
    expect(s.OldestBooking).toBeNull();
    expect((await update(b.id, { ...booking(d, '11:00', '12:00'), imei: otherImei, driver_id: other.userId }, other)).status).toBe(404);
    expect((await remove(b.id, other)).status).toBe(404);
    expect((await create({ ...booking(d, '11:00', '12:00'), driver_id: other.userId }, other)).status).toBe(404);
    expect((await drivers(granted, other)).status).toBe(404);
    expect(scheduleOf(await week(d), granted, d).map((x) => x.id)).toEqual([b.id]);
    // Their own vehicle books as any other.
    expect((await create({ ...booking(d, '09:00', '10:00'), imei: otherImei, driver_id: other.userId }, other)).status).toBe(201);
  });
});
