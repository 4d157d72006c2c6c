/**
 * Safe return home end to end on the embedded runtime (docs/api.md Safe return home; spec sections
 * 2-5, 7-9): every rule with its key, the refused toggle (SafeHomeEnableMsg), the feature's 403, an
 * ordinary user's 403, another account's 404, concurrent toggles and edits, and the job
 * `safe-home-checks` run with the clock port moved: a unit away from home at its scheduled minute
 * gives each receiver exactly one e-mail even when the job runs twice at once, a unit at home none,
 * and every 2 weeks skips the week between.
 */
import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SafeHomeItem } from '../../shared/schemas/safe-home';
import { handler as safeHomeChecks } from '../../functions/jobs/safe-home-checks';
import { overridePorts } from '../../functions/platform/container';
import { dynamo, tableName } from '../../functions/platform/db';
import type { UnitRecord } from '../../functions/domain/unit/schema';
import { nextCheckAfter } from '../../functions/safe-home/schedule';
import type { EmbeddedRuntime } from '../../infra/local/runtime';
import { demoImei } from '../../infra/local/seed';
import { callAs, demoCallers, type Caller } from '../support/api-caller';
import { eventually } from '../support/eventually';
import { DEMO_REGISTERED_AT } from '../support/positions';
import { startRuntime } from '../support/runtime';

const BASE = '/api/v1/administration/safe-home';
let rt: EmbeddedRuntime;
let admin: Caller;
let user: Caller;
let other: Caller;
/** The clock port: the wall clock unless the job runs at a time of a test's choosing. */
let fixedNow: number | null = null;

const call = <T>(method: string, path: string, who: Caller | null, body?: unknown) => callAs<T>(rt.url, method, path, who, body);
const list = (who: Caller = admin) => call<SafeHomeItem[]>('GET', BASE, who);
const status = (imei: string, s: unknown, who: Caller = admin) => call<SafeHomeItem>('PUT', `${BASE}/${imei}/status`, who, { status: s });
const geofence = (imei: string, body: Record<string, unknown>, who: Caller = admin) => call<SafeHomeItem>('PUT', `${BASE}/${imei}/geofence`, who, body);
const schedule = (imei: string, body: Record<string, unknown>, who: Caller = admin) => call<SafeHomeItem>('PUT', `${BASE}/${imei}/schedule`, who, body);
const outbox = async (to: string) => (await call<{ subject?: string }[]>('GET', `/api/dev/outbox?to=${encodeURIComponent(to)}&kind=email`, null)).body.data ?? [];

const HOME = { centerLat: 59.329323, centerLng: 18.068581, address: 'Stockholm, SE' };
const weekdays = [1, 2, 3, 4, 5].map((day) => ({ day, time: '18:00' }));
const plan = (fields: Record<string, unknown> = {}) => ({ schedule: weekdays, frequency: 1, start_date: '2025-01-01', time_zone: 'Europe/Stockholm', ...fields });
/** A point `m` metres north of the home. */
const north = (m: number) => ({ lat: HOME.centerLat + m / 111_195, lon: HOME.centerLng });

let spare = 0;
async function newUnit(position: { lat: number; lon: number } | null): Promise<string> {
  const imei = demoImei(700 + spare++);
  const unit: UnitRecord = { imei, accountId: admin.accountId, name: `Home car ${imei.slice(-3)}`, vehicleType: 'car', protocol: 'native', createdAt: DEMO_REGISTERED_AT.toISOString() };
  const state = position ? { state: { ts: Date.parse('2030-01-01T00:00:00Z'), lat: position.lat, lon: position.lon, lastSeen: Date.parse('2030-01-01T00:00:00Z') } } : {};
  await dynamo().send(new PutCommand({ TableName: tableName('units'), Item: { ...unit, registrationNumber: `HC${imei.slice(-4)}`, ...state } }));
  return imei;
}

let mail = 0;
/** An alarm receiver (security alarms) of one unit; its e-mail address. */
async function receiverOf(imei: string): Promise<string> {
  const email = `home-${Date.now()}-${mail++}@example.se`;
  const saved = await call<{ id: string }>('POST', '/api/v1/administration/alarm-receivers', admin, {
    member_id: null, name: `Guard ${mail}`, email, country_code: '46', phone: null, push_notification: 0, function_alarm: 0, security_alarm: 1,
  });
  expect(saved.status).toBe(200);
  const assigned = await call('POST', '/api/v1/administration/alarm-receivers/assign', admin, { receiver_id: saved.body.data!.id, terminals: [{ terminal_id: imei, device_type: 'gps' }] });
  expect(assigned.status).toBe(200);
  return email;
}

async function turnOn(imei: string, fields: Record<string, unknown> = {}) {
  expect((await geofence(imei, { ...HOME, radius: 500 })).status).toBe(200);
  expect((await schedule(imei, plan(fields))).status).toBe(200);
  const on = await status(imei, 1);
  expect(on.status).toBe(200);
  return on.body.data!;
}

/** The job, twice at once, with the clock at `iso` (the API is called at the real time: sessions expire by the clock). */
const runJobTwiceAt = async (iso: string) => {
  fixedNow = Date.parse(iso);
  try {
    await Promise.all([safeHomeChecks({ job: 'safe-home-checks' }), safeHomeChecks({ job: 'safe-home-checks' })]);
  } finally {
    fixedNow = null;
  }
};

beforeAll(async () => {
  rt = await startRuntime();
  ({ admin, user, other } = await demoCallers());
  overridePorts({ clock: { now: () => new Date(fixedNow ?? Date.now()) } });
}, 120_000);

afterAll(async () => {
  await rt?.stop();
});

describe('safe return home: access', () => {
  it('lists every unit of the account with the defaults: off, radius 300, no home, no schedule', async () => {
    const reply = await list();
    expect(reply.status).toBe(200);
    const van = reply.body.data!.find((i) => i.imei === demoImei(0));
    expect(van).toEqual({
      imei: demoImei(0), name: 'Service van 1', RegistrationNumber: 'ABC123', status: 0, address: null, radius: 300,
      centerLat: null, centerLng: null, schedule: [], frequency: null, start_date: null, time_zone: null, nextCheck: null,
    });
    expect((await call<{ EnableSafeReturnHome: boolean }>('GET', `${BASE}/config`, admin)).body.data).toEqual({ EnableSafeReturnHome: true });
  });

  it('answers 403 to an account without the feature, and to an ordinary user', async () => {
    const off = await list(other);
    expect(off.status).toBe(403);
    expect(off.body.message).toBe('SafeReturnHomeNotIncluded');
    expect((await status(demoImei(0), 1, other)).status).toBe(403);
    expect((await call<{ EnableSafeReturnHome: boolean }>('GET', `${BASE}/config`, other)).body.data).toEqual({ EnableSafeReturnHome: false });
    expect((await list(user)).status).toBe(403);
    expect((await geofence(demoImei(0), HOME, user)).status).toBe(403);
  });

  it("answers 404 for another account's unit, and shows it nothing", async () => {
    await dynamo().send(new UpdateCommand({ TableName: tableName('accounts'), Key: { accountId: other.accountId }, UpdateExpression: 'SET features.safeReturnHome = :t', ExpressionAttributeValues: { ':t': true } }));
    const imei = demoImei(1);
    for (const reply of [await status(imei, 0, other), await geofence(imei, HOME, other), await schedule(imei, plan(), other)]) {
      expect(reply.status).toBe(404);
      expect(reply.body.message).toBe('NotFound');
    }
    const theirs = await list(other);
    expect(theirs.status).toBe(200);
    expect(theirs.body.data!.some((i) => i.imei === imei)).toBe(false);
    expect((await list()).body.data!.find((i) => i.imei === imei)?.address).toBeNull();
  });
});

describe('safe return home: the rules', () => {
  it('refuses turning on without a home and a schedule (SafeHomeEnableMsg), and with only one of them', async () => {
    const imei = await newUnit(null);
    const bare = await status(imei, 1);
    expect(bare.status).toBe(422);
    expect(bare.body.message).toBe('SafeHomeEnableMsg');
    expect(bare.body.errors).toEqual({ status: ['SafeHomeEnableMsg'] });
    expect((await geofence(imei, HOME)).status).toBe(200);
    expect((await status(imei, '1')).body.message).toBe('SafeHomeEnableMsg');
    const saved = await schedule(imei, plan());
    expect(saved.body.message).toBe('AlertScheduleUpdated');
    const on = await status(imei, 1);
    expect(on.status).toBe(200);
    expect(on.body.data).toMatchObject({ status: 1, address: 'Stockholm, SE' });
    expect(on.body.data!.nextCheck).not.toBeNull();
    const off = await status(imei, 0);
    expect(off.body.data).toMatchObject({ status: 0, nextCheck: null });
    expect((await status(imei, 2)).body.errors).toEqual({ status: ['SafeHomeInvalidStatus'] });
  });

  it('sets the home: radius at least 300 (default 300), at most 9999, 6 decimals, an address that geocodes', async () => {
    const imei = await newUnit(null);
    const saved = await geofence(imei, { centerLat: '59.3293234567', centerLng: 18.06858149, address: '  Stockholm, SE ' });
    expect(saved.status).toBe(200);
    expect(saved.body.message).toBe('HomeAddressUpdateMsg');
    expect(saved.body.data).toMatchObject({ radius: 300, centerLat: 59.329323, centerLng: 18.068581, address: 'Stockholm, SE' });
    expect((await geofence(imei, { ...HOME, radius: 299 })).body.errors).toEqual({ radius: ['RadiusLessThan300'] });
    expect((await geofence(imei, { ...HOME, radius: 10_000 })).body.errors).toEqual({ radius: ['RadiusTooLarge'] });
    expect((await geofence(imei, { ...HOME, radius: 300 })).status).toBe(200);
    expect((await geofence(imei, { ...HOME, address: '   ' })).body.errors).toEqual({ address: ['SafeReturnHomeAddrEmpty'] });
    const nowhere = await geofence(imei, { ...HOME, address: 'Qxzqxz Nowhere Street 99' });
    expect(nowhere.status).toBe(422);
    expect(nowhere.body).toMatchObject({ message: 'SafeReturnHomeAddrEmpty', errors: { address: ['SafeReturnHomeAddrEmpty'] } });
    expect((await geofence(imei, { ...HOME, centerLat: 91 })).body.errors).toEqual({ centerLat: ['SafeHomeInvalidPosition'] });
    expect((await geofence(imei, { radius: 400, centerLng: 18 })).body.errors).toMatchObject({ centerLat: ['SafeHomeInvalidPosition'], address: ['SafeReturnHomeAddrEmpty'] });
  });

  it('sets the schedule: days 0-6 once each, HH:mm, every 1-3 weeks, a start date and an IANA zone', async () => {
    const imei = await newUnit(null);
    const saved = await schedule(imei, plan({ schedule: JSON.stringify([{ day: 0, time: '09:30' }, { day: 3, time: '21:15' }]), frequency: '2', time_zone: 'Europe/Oslo' }));
    expect(saved.status).toBe(200);
    expect(saved.body.data).toMatchObject({ schedule: [{ day: 3, time: '21:15' }, { day: 0, time: '09:30' }], frequency: 2, start_date: '2025-01-01', time_zone: 'Europe/Oslo' });
    const errors = async (fields: Record<string, unknown>) => (await schedule(imei, plan(fields))).body.errors;
    expect(await errors({ schedule: [] })).toEqual({ schedule: ['SafeHomeScheduleRequired'] });
    expect(await errors({ schedule: [{ day: 7, time: '18:00' }] })).toEqual({ 'schedule.0.day': ['SafeHomeInvalidDay'] });
    expect(await errors({ schedule: [{ day: 1, time: '18:00' }, { day: 1, time: '19:00' }] })).toEqual({ schedule: ['SafeHomeDuplicateDay'] });
    expect(await errors({ schedule: [{ day: 1, time: '24:00' }] })).toEqual({ 'schedule.0.time': ['InvalidTime'] });
    expect(await errors({ frequency: 4 })).toEqual({ frequency: ['SafeHomeInvalidFrequency'] });
    expect(await errors({ start_date: '2025-02-30' })).toEqual({ start_date: ['SafeHomeInvalidStartDate'] });
    expect(await errors({ time_zone: 'Mars/Olympus' })).toEqual({ time_zone: ['InvalidTimeZone'] });
  });

  it('keeps the item whole under concurrent toggles and schedule edits', async () => {
    const imei = await newUnit(null);
    await turnOn(imei);
    const times = ['06:00', '07:00', '08:00', '09:00', '10:00'];
    const replies = await Promise.all([
      ...times.map((time) => schedule(imei, plan({ schedule: [{ day: 2, time }] }))),
      ...[0, 1, 0, 1, 1].map((s) => status(imei, s)),
    ]);
    for (const reply of replies) expect([200, 409]).toContain(reply.status);
    expect(replies.filter((r) => r.status === 200).length).toBeGreaterThan(5);
    const stored = (await dynamo().send(new GetCommand({ TableName: tableName('safeHome'), Key: { imei }, ConsistentRead: true }))).Item!;
    const entries = stored['schedule'] as { day: number; time: string }[];
    expect(entries).toHaveLength(1);
    expect(times).toContain(entries[0]!.time);
    if (stored['status'] === true) {
      expect(stored['dueBucket']).toEqual(expect.stringMatching(/^due#\d$/));
      // The next check is the stored schedule's: a Tuesday at its time in Stockholm.
      const local = new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/Stockholm', weekday: 'short', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(stored['nextDueAt'] as number);
      expect(local).toBe(`Tue ${entries[0]!.time}`);
    } else {
      expect(stored['dueBucket']).toBeUndefined();
      expect(stored['nextDueAt']).toBeUndefined();
    }
  });
});

describe('safe return home: the job', () => {
  // Monday 2030-06-03, 18:00 in Stockholm is 16:00Z.
  const MONDAY = '2030-06-03';

  it('alarms a unit away from home once per receiver at its scheduled minute, even when the job runs twice at once; a unit at home gets none', async () => {
    const away = await newUnit(north(2_000));
    const home = await newUnit(north(100));
    const [awayMail, homeMail] = [await receiverOf(away), await receiverOf(home)];
    for (const imei of [away, home]) {
      const item = await turnOn(imei, { start_date: MONDAY, schedule: [{ day: 1, time: '18:00' }] });
      expect(item.nextCheck).toBe(`${MONDAY}T16:00:00.000Z`);
    }
    // A minute early: nothing is due.
    await runJobTwiceAt(`${MONDAY}T15:59:30Z`);
    expect(await outbox(awayMail)).toEqual([]);

    await runJobTwiceAt(`${MONDAY}T16:00:20Z`);
    const sent = await eventually(() => outbox(awayMail), (m) => m.length >= 1, 'the not-home e-mail');
    expect(sent[0]?.subject).toEqual(expect.stringContaining('Home car'));
    // Run again, later in the minute and after: still one.
    await runJobTwiceAt(`${MONDAY}T16:00:50Z`);
    await rt.queues.drained();
    expect(await outbox(awayMail)).toHaveLength(1);
    expect(await outbox(homeMail)).toEqual([]);

    const events = await call<{ events: { type: string; details: Record<string, unknown> }[] }>(
      'GET', `/api/v1/user/events?imei=${away}&from=${encodeURIComponent(`${MONDAY}T00:00:00Z`)}&to=${encodeURIComponent(`${MONDAY}T23:00:00Z`)}`, admin,
    );
    expect(events.body.data?.events).toEqual([expect.objectContaining({ type: 'notHome', details: expect.objectContaining({ distance: expect.any(Number), noPosition: false }) })]);
    // Both moved on to the next Monday.
    const items = (await list()).body.data!;
    for (const imei of [away, home]) expect(items.find((i) => i.imei === imei)?.nextCheck).toBe('2030-06-10T16:00:00.000Z');
  });

  it('alarms a unit with no position at all (no position: not known to be home)', async () => {
    const lost = await newUnit(null);
    const email = await receiverOf(lost);
    await turnOn(lost, { start_date: MONDAY, schedule: [{ day: 1, time: '17:30' }] });
    await runJobTwiceAt(`${MONDAY}T15:30:05Z`);
    expect(await eventually(() => outbox(email), (m) => m.length >= 1, 'the no-position alarm')).toHaveLength(1);
  });

  it('every 2 weeks: alarms in the start week, skips the next, alarms the one after', async () => {
    const away = await newUnit(north(5_000));
    const email = await receiverOf(away);
    await turnOn(away, { start_date: MONDAY, frequency: 2, schedule: [{ day: 1, time: '18:00' }] });
    await runJobTwiceAt(`${MONDAY}T16:00:10Z`);
    await eventually(() => outbox(email), (m) => m.length >= 1, 'the first week');
    expect((await list()).body.data!.find((i) => i.imei === away)?.nextCheck).toBe('2030-06-17T16:00:00.000Z');
    await runJobTwiceAt('2030-06-10T16:00:10Z');
    await rt.queues.drained();
    expect(await outbox(email)).toHaveLength(1);
    await runJobTwiceAt('2030-06-17T16:00:10Z');
    await eventually(() => outbox(email), (m) => m.length >= 2, 'the third week');
    expect(nextCheckAfter({ schedule: [{ day: 1, time: '18:00' }], frequency: 2, startDate: MONDAY, timeZone: 'Europe/Stockholm' }, Date.parse('2030-06-17T16:00:10Z'))).toBe(Date.parse('2030-07-01T16:00:00Z'));
  });
});
