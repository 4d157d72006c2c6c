/**
 * The access lock end to end on the embedded runtime: a user locks a unit; only the locker or
 * support unlocks (403 otherwise); support's unlock e-mails the locker exactly once; every change
 * in the lock log; two locks at once (and an unlock racing support's) have exactly one winner;
 * while locked, everybody else, the account admin included, gets 423 TrackerIsLocked naming the
 * locker on positions, the latest position, trips, events and commands, the map lists the unit
 * without its position, and the live channel carries its positions to the locker only; another
 * account's token gets 404 everywhere.
 */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import mqtt from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OutboxMessage } from '../../shared/schemas/system';
import type { RealtimeUnit } from '../../shared/schemas/tracking';
import type { UnitLock } from '../../shared/schemas/unit-lock';
import type { Trip, TripList } from '../../shared/schemas/trips';
import type { UnitListItem } from '../../shared/schemas/units';
import { getPorts } from '../../functions/platform/container';
import { dynamo, tableName } from '../../functions/platform/db';
import { getUnitItem } from '../../functions/domain/unit/reads';
import type { UnitItem } from '../../functions/domain/unit/schema';
import type { DetectedTrip } from '../../functions/trips/detect';
import { storeDetectedTrips } from '../../functions/trips/store-detected';
import type { EmbeddedRuntime } from '../../infra/local/runtime';
import { DEMO_PASSWORD, demoImei, demoUsers } from '../../infra/local/seed';
import { callAs, callerFor, type Caller, type Reply } from '../support/api-caller';
import { apiFetch } from '../support/http';
import { startRuntime } from '../support/runtime';
import { listenLive, type LiveListener } from '../support/live-listener';
import { createTestUser } from '../support/sessions';

let rt: EmbeddedRuntime;

const detectedTrip = (startTs: number): DetectedTrip => ({
  startTs,
  stopTs: startTs + 20 * 60_000,
  startLat: 59.33,
  startLon: 18.06,
  stopLat: 59.4,
  stopLon: 17.95,
  distanceM: 12_000,
  startCounterM: 0,
  stopCounterM: 12_000,
  counterSource: 'computed',
  maxSpeedKmh: 70,
  basis: 'ignition',
});
let admin: Caller;
let user: Caller;
let support: Caller;
let other: Caller;

const call = <T>(method: string, path: string, who: Caller | null, body?: unknown) => callAs<T>(rt.url, method, path, who, body);
const unitPath = (imei: string) => `/api/v1/user/units/${imei}`;
const lock = (imei: string, who: Caller) => call<UnitLock>('POST', `${unitPath(imei)}/lock`, who);
const unlock = (imei: string, who: Caller) => call<UnitLock>('POST', `${unitPath(imei)}/unlock`, who);
const lockLog = (imei: string, who: Caller) => call<UnitLock>('GET', `${unitPath(imei)}/lock-log`, who);

const LOCKER_NAME = `${demoUsers.user.firstName} ${demoUsers.user.lastName}`;
const from = new Date(Date.now() - 86_400_000).toISOString();
const to = new Date().toISOString();
const today = to.slice(0, 10);

async function emailsTo(address: string): Promise<OutboxMessage[]> {
  const res = await apiFetch(`${rt.url}/api/dev/outbox?to=${encodeURIComponent(address)}&kind=email`);
  return ((await res.json()) as { data: OutboxMessage[] }).data;
}

function expectLocked(reply: Reply<unknown>, lockedBy = LOCKER_NAME) {
  expect(reply.status, JSON.stringify(reply.body)).toBe(423);
  expect(reply.body).toMatchObject({ success: false, message: 'TrackerIsLocked', errors: { msg: 'TrackerIsLocked', lockedBy } });
}

/** Every route that shows where the unit is or was, and its commands, as `who`. */
async function movementReplies(imei: string, who: Caller): Promise<Reply<unknown>[]> {
  return Promise.all([
    call('GET', `${unitPath(imei)}/positions?from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}`, who),
    call('GET', `/api/v1/user/trackers/${imei}/latest-position`, who),
    call('GET', `/api/v1/user/trips?imei=${imei}&from=${today}&to=${today}`, who),
    call('GET', `/api/v1/user/events?imei=${imei}&from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}`, who),
    call('GET', `${unitPath(imei)}/commands`, who),
    call('POST', `${unitPath(imei)}/commands`, who, { type: 'dout', output: 1, on: true }),
  ]);
}

beforeAll(async () => {
  rt = await startRuntime();
  admin = await callerFor(demoUsers.admin.username, DEMO_PASSWORD);
  user = await callerFor(demoUsers.user.username, DEMO_PASSWORD);
  const staff = await createTestUser({ firstName: 'Sam' });
  await dynamo().send(
    new UpdateCommand({ TableName: tableName('users'), Key: { userId: staff.userId }, UpdateExpression: 'SET isSupport = :yes', ExpressionAttributeValues: { ':yes': true } }),
  );
  support = await callerFor(staff.username, staff.password);
  const stranger = await createTestUser();
  other = await callerFor(stranger.username, stranger.password);
});

afterAll(async () => {
  await rt?.stop();
});

describe('locking and unlocking', () => {
  it('locks a unit for the user, logs it, and shows the lock to the account', async () => {
    const imei = demoImei(0);
    const locked = await lock(imei, user);
    expect(locked.status, JSON.stringify(locked.body)).toBe(200);
    expect(locked.body.data?.lock).toMatchObject({ lockedBy: user.userId, lockedByName: LOCKER_NAME, mine: true, mayUnlock: true });
    expect(locked.body.data?.entries).toEqual([expect.objectContaining({ action: 'lock', userId: user.userId, userName: LOCKER_NAME, bySupport: false })]);

    const seen = await lockLog(imei, admin);
    expect(seen.status).toBe(200);
    expect(seen.body.data?.lock).toMatchObject({ lockedBy: user.userId, lockedByName: LOCKER_NAME, mine: false, mayUnlock: false });
    expect(seen.body.data?.entries).toHaveLength(1);

    // Locked already: 409 naming the locker, and nothing logged.
    const again = await lock(imei, admin);
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ message: 'UnitAlreadyLocked', errors: { msg: 'UnitAlreadyLocked', lockedBy: LOCKER_NAME } });
  });

  it('hides the locked unit from everybody else, the admin included, with TrackerIsLocked naming the locker', async () => {
    const imei = demoImei(0);
    for (const reply of await movementReplies(imei, admin)) expectLocked(reply);
    // The locker and support still see it.
    for (const reply of await movementReplies(imei, user)) expect(reply.status, JSON.stringify(reply.body)).not.toBe(423);
    const [positions] = await movementReplies(imei, support);
    // Support reaches no other account's positions through the member routes: 404, never the data.
    expect(positions?.status).toBe(404);

    const map = await call<RealtimeUnit[]>('GET', '/api/v1/user/realtime/units', admin);
    const onMap = map.body.data?.find((u) => u.imei === imei);
    expect(onMap).toMatchObject({ state: null, lockedBy: LOCKER_NAME });
    const list = await call<UnitListItem[]>('GET', '/api/v1/user/units', admin);
    expect(list.body.data?.find((u) => u.imei === imei)).toMatchObject({ lockedBy: LOCKER_NAME });
    // Another unit of the account is not affected.
    const [open] = await movementReplies(demoImei(2), admin);
    expect(open?.status).toBe(200);
  });

  it('refuses everybody else every trip log write on the locked unit, and lets the locker make them', async () => {
    const imei = demoImei(0);
    const unit = (await getUnitItem(imei)) as UnitItem;
    // Two trips of the locked unit on one Stockholm day, two days back.
    const day = new Date(Date.now() - 2 * 86_400_000).toISOString().slice(0, 10);
    const first = Date.parse(`${day}T07:00:00Z`);
    const second = first + 3_600_000;
    await storeDetectedTrips(unit, [detectedTrip(first), detectedTrip(second)], getPorts());
    const [a, b] = [`${imei}-${first}`, `${imei}-${second}`];

    const writes = (who: Caller) =>
      Promise.all([
        call('PUT', `/api/v1/user/trips/${a}`, who, { note: 'Edited' }),
        call('POST', '/api/v1/user/trips/merge', who, { ids: [a, b] }),
        call('POST', `/api/v1/user/trips/${a}/split`, who),
        call('POST', '/api/v1/user/trips/attest', who, { imei, from: day, to: day }),
        call('POST', `${unitPath(imei)}/odometer-entries`, who, { time: `${day}T12:00:00+02:00`, value: 1000 }),
        call('GET', `${unitPath(imei)}/odometer-entries`, who),
        call('POST', '/api/v1/user/driver-check-in', who, { imei, driverId: admin.userId }),
        call('GET', `/api/v1/user/trips/${a}/route`, who),
      ]);
    for (const reply of await writes(admin)) expectLocked(reply);
    // Nothing changed.
    const trips = await call<TripList>('GET', `/api/v1/user/trips?imei=${imei}&from=${day}&to=${day}`, user);
    expect(trips.body.data?.trips.find((t) => t.id === a)).toMatchObject({ note: null, merged: false, attested: false });

    // The locker edits as usual.
    const edited = await call<Trip>('PUT', `/api/v1/user/trips/${a}`, user, { note: 'Mine' });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    expect(edited.body.data?.note).toBe('Mine');
  });

  it('lets neither the admin nor another user unlock: 403, and the lock stays', async () => {
    const imei = demoImei(0);
    const refused = await unlock(imei, admin);
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe('OnlyLockerOrSupportUnlocks');
    expect((await lockLog(imei, user)).body.data?.lock?.lockedBy).toBe(user.userId);
  });

  it("lets support unlock any account's unit and e-mails the locker exactly once", async () => {
    const imei = demoImei(0);
    const before = (await emailsTo(demoUsers.user.email)).length;
    const unlocked = await unlock(imei, support);
    expect(unlocked.status, JSON.stringify(unlocked.body)).toBe(200);
    expect(unlocked.body.data?.lock).toBeNull();
    expect(unlocked.body.data?.entries.map((e) => [e.action, e.bySupport])).toEqual([
      ['unlock', true],
      ['lock', false],
    ]);
    // A second unlock finds nothing to unlock and sends nothing.
    const twice = await unlock(imei, support);
    expect(twice.status).toBe(409);
    expect(twice.body.message).toBe('UnitNotLocked');
    const mails = (await emailsTo(demoUsers.user.email)).slice(0, (await emailsTo(demoUsers.user.email)).length - before);
    expect(mails).toHaveLength(1);
    expect(mails[0]?.subject).toBe('Support unlocked Service van 1');
    expect(mails[0]?.text).toContain(imei);
    // The admin sees the unit again.
    for (const reply of await movementReplies(imei, admin)) expect(reply.status, JSON.stringify(reply.body)).not.toBe(423);
  });

  it("lets the locker unlock, without an e-mail, and logs every change newest first", async () => {
    const imei = demoImei(0);
    expect((await lock(imei, admin)).status).toBe(200);
    const before = (await emailsTo(demoUsers.admin.email)).length;
    const unlocked = await unlock(imei, admin);
    expect(unlocked.status).toBe(200);
    expect((await emailsTo(demoUsers.admin.email)).length).toBe(before);
    const log = (await lockLog(imei, user)).body.data?.entries ?? [];
    expect(log.map((e) => [e.action, e.userId])).toEqual([
      ['unlock', admin.userId],
      ['lock', admin.userId],
      ['unlock', support.userId],
      ['lock', user.userId],
    ]);
    const times = log.map((e) => e.at);
    expect([...times].sort().reverse()).toEqual(times);
  });
});

describe('races', () => {
  it('of two users locking one unit at once, exactly one wins, and one entry is logged', async () => {
    const imei = demoImei(1);
    const replies = await Promise.all([lock(imei, admin), lock(imei, user), lock(imei, admin), lock(imei, user)]);
    const won = replies.filter((r) => r.status === 200);
    expect(won).toHaveLength(1);
    expect(replies.filter((r) => r.status === 409)).toHaveLength(3);
    const log = (await lockLog(imei, admin)).body.data;
    expect(log?.entries).toHaveLength(1);
    expect(log?.lock?.lockedBy).toBe(log?.entries[0]?.userId);
  });

  it('of the locker and support unlocking at once, exactly one wins, and support mails only when it won', async () => {
    const imei = demoImei(1);
    const state = (await lockLog(imei, admin)).body.data;
    const locker = state?.lock?.lockedBy === user.userId ? user : admin;
    const lockerEmail = locker === user ? demoUsers.user.email : demoUsers.admin.email;
    const before = (await emailsTo(lockerEmail)).length;
    const [byLocker, bySupport] = await Promise.all([unlock(imei, locker), unlock(imei, support)]);
    expect([byLocker.status, bySupport.status].sort()).toEqual([200, 409]);
    const log = (await lockLog(imei, admin)).body.data;
    expect(log?.lock).toBeNull();
    expect(log?.entries.map((e) => e.action)).toEqual(['unlock', 'lock']);
    expect((await emailsTo(lockerEmail)).length - before).toBe(bySupport.status === 200 ? 1 : 0);
  });
});

describe('the live channel', () => {
  /** The IMEIs of the positions a live channel received, in order. */
  const heard = (l: LiveListener) => l.messages.flatMap((m) => (m.type === 'position' && m.imei ? [m.imei] : []));

  it("carries a locked unit's positions to its locker only, not to the account's admins", async () => {
    const locked = demoImei(1);
    const open = demoImei(2);
    expect((await lock(locked, user)).status).toBe(200);
    const [asAdmin, asUser] = await Promise.all([listenLive(rt, admin), listenLive(rt, user)]);
    const trackers = await Promise.all([locked, open].map((imei) => mqtt.connectAsync(rt.mqttUrl, { clientId: imei, reconnectPeriod: 0, connectTimeout: 5000 })));
    try {
      for (const [i, imei] of [locked, open].entries()) {
        await trackers[i]?.publishAsync(`trackers/${imei}/telemetry`, JSON.stringify({ ts: Date.now() - 1000, lat: 59.33, lon: 18.06, spd: 0, ign: false }), { qos: 1 });
      }
      // The admin hears the open unit, so a locked unit's silence is not a dead channel.
      await expect.poll(() => heard(asAdmin).includes(open), { timeout: 15_000 }).toBe(true);
      await expect.poll(() => heard(asUser).includes(locked), { timeout: 15_000 }).toBe(true);
      await asAdmin.caughtUp();
      expect(heard(asAdmin)).not.toContain(locked);
    } finally {
      await Promise.all([...trackers, asAdmin.client, asUser.client].map((c) => c?.endAsync()));
      expect((await unlock(locked, user)).status).toBe(200);
    }
  });

  it('carries a unit an admin locked to that admin live, once, and to nobody else', async () => {
    const locked = demoImei(3);
    expect((await lock(locked, admin)).status).toBe(200);
    const [asAdmin, asUser] = await Promise.all([listenLive(rt, admin), listenLive(rt, user)]);
    const tracker = await mqtt.connectAsync(rt.mqttUrl, { clientId: locked, reconnectPeriod: 0, connectTimeout: 5000 });
    try {
      await tracker.publishAsync(`trackers/${locked}/telemetry`, JSON.stringify({ ts: Date.now() - 1000, lat: 59.34, lon: 18.07, spd: 0, ign: false }), { qos: 1 });
      await expect.poll(() => heard(asAdmin).includes(locked), { timeout: 15_000 }).toBe(true);
      // On the admin's own filter only: the account's filter does not carry it as well.
      await Promise.all([asAdmin.caughtUp(), asUser.caughtUp()]);
      expect(heard(asAdmin).filter((imei) => imei === locked)).toHaveLength(1);
      expect(heard(asUser)).not.toContain(locked);
    } finally {
      await Promise.all([tracker, asAdmin.client, asUser.client].map((c) => c.endAsync()));
      expect((await unlock(locked, admin)).status).toBe(200);
    }
  });
});

describe('access', () => {
  it("answers another account's token 404 and changes nothing", async () => {
    const imei = demoImei(2);
    for (const reply of [await lock(imei, other), await unlock(imei, other), await lockLog(imei, other)]) {
      expect(reply.status).toBe(404);
    }
    expect((await lockLog(imei, admin)).body.data).toMatchObject({ lock: null, entries: [] });
  });

  it('answers an ordinary user 404 for a unit not granted to them', async () => {
    expect((await lock(demoImei(2), user)).status).toBe(404);
    expect((await lockLog(demoImei(2), user)).status).toBe(404);
  });

  it('needs a token and a well-formed IMEI', async () => {
    expect((await lock(demoImei(2), null as unknown as Caller)).status).toBe(401);
    const bad = await lock('12345', admin);
    expect(bad.status).toBe(422);
    expect(bad.body.errors).toEqual({ imei: ['InvalidImei'] });
  });
});
