/**
 * The account administration end to end on the embedded runtime (docs/api.md "Administration:
 * users, access, settings"; spec sections 2, 3, 5, 6 and 8): a user created with two units logs
 * in through the welcome e-mail's link and sees exactly those; revoking one takes it from their
 * list and their live channel at once (with the access message their map reacts to); every
 * validation key; yourself and other accounts; two admins creating one e-mail at once; deleting
 * ends everything; settings take effect on feature routes and the menu at once; default purposes
 * without spelling duplicates.
 */
import { PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import mqtt from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AccountSettings, AccountUserList, MemberUsers } from '../../shared/schemas/administration';
import type { RealtimeUnit } from '../../shared/schemas/tracking';
import type { Settings } from '../../shared/schemas/system';
import { dynamo, tableName } from '../../functions/platform/db';
import type { UnitRecord } from '../../functions/domain/unit/schema';
import type { EmbeddedRuntime } from '../../infra/local/runtime';
import { DEMO_PASSWORD, demoImei, demoUsers } from '../../infra/local/seed';
import { callAs, callerFor, type Caller } from '../support/api-caller';
import { apiFetch } from '../support/http';
import { DEMO_REGISTERED_AT } from '../support/positions';
import { startRuntime } from '../support/runtime';
import { listenLive } from '../support/live-listener';
import { createTestUser } from '../support/sessions';

const BASE = '/api/v1/administration';
let rt: EmbeddedRuntime;
let admin: Caller;
let other: Caller;
let units: string[] = [];
let unique = 0;

const call = <T>(method: string, path: string, who: Caller | null, body?: unknown) => callAs<T>(rt.url, method, path, who, body);
const email = () => `staff-${Date.now()}-${unique++}@example.se`;
const newUser = (fields: Record<string, unknown> = {}) => ({ FirstName: 'Saga', LastName: 'Svensson', email: email(), password: 'Staff-pass1', isAdmin: false, imeis: [], ...fields });
const create = (body: unknown, who: Caller = admin) => call<{ id: string }>('POST', `${BASE}/users`, who, body);
const update = (id: string, body: unknown, who: Caller = admin) => call<null>('PUT', `${BASE}/users/${id}`, who, body);
const remove = (id: string, who: Caller = admin) => call<null>('DELETE', `${BASE}/users/${id}`, who);
const list = (who: Caller = admin) => call<AccountUserList>('GET', `${BASE}/users`, who);
const settings = (who: Caller = admin) => call<AccountSettings>('GET', `${BASE}/settings`, who);
const saveSettings = (body: unknown, who: Caller = admin) => call<AccountSettings>('PUT', `${BASE}/settings`, who, body);
const realtime = async (who: Caller) => ((await call<RealtimeUnit[]>('GET', '/api/v1/user/realtime/units', who)).body.data ?? []).map((u) => u.imei).sort();
const errorsOf = async (reply: Promise<{ status: number; body: { errors?: unknown } }>) => {
  const r = await reply;
  expect(r.status, JSON.stringify(r.body)).toBe(422);
  return r.body.errors;
};

async function outbox(to: string): Promise<{ subject?: string; text: string; html?: string }[]> {
  const res = await apiFetch(`${rt.url}/api/dev/outbox?to=${encodeURIComponent(to)}&kind=email`);
  return ((await res.json()) as { data: { subject?: string; text: string; html?: string }[] }).data;
}

/** Logs in through the public route, as the browser does. */
async function login(username: string, password: string): Promise<{ status: number; caller: Caller | null }> {
  const reply = await call<{ user: { token: string; ID: string } }>('POST', '/api/v1/login', null, { username, password, subsiteid: 0, remember_me: false });
  const user = reply.body.data?.user;
  return { status: reply.status, caller: user ? { token: user.token, userId: user.ID, accountId: admin.accountId } : null };
}

async function addUnit(accountId: string, n: number): Promise<string> {
  const imei = demoImei(700 + n);
  const unit: UnitRecord = { imei, accountId, name: `Staff car ${n}`, vehicleType: 'car', protocol: 'native', createdAt: DEMO_REGISTERED_AT.toISOString() };
  await dynamo().send(new PutCommand({ TableName: tableName('units'), Item: unit }));
  return imei;
}

beforeAll(async () => {
  rt = await startRuntime();
  const owner = await createTestUser();
  admin = await callerFor(owner.username, owner.password);
  other = await callerFor(demoUsers.admin.username, DEMO_PASSWORD);
  units = [await addUnit(admin.accountId, 0), await addUnit(admin.accountId, 1), await addUnit(admin.accountId, 2)];
}, 120_000);

afterAll(async () => {
  await rt?.stop();
});

describe('a new user with two units', () => {
  let staff: Caller;
  let staffId: string;
  const address = email();

  it('is created, gets a branded welcome e-mail whose link sets the password once, and sees exactly those two units', async () => {
    const reply = await create(newUser({ email: ` ${address.toUpperCase()} `, password: '', imeis: [units[0], units[1]], lang: 'sv' }));
    expect(reply.status, JSON.stringify(reply.body)).toBe(201);
    expect(reply.body.message).toBe('UserCreated');
    staffId = reply.body.data!.id;
    const row = (await list()).body.data?.users.find((u) => u.id === staffId);
    expect(row).toMatchObject({ FirstName: 'Saga', LastName: 'Svensson', email: address, username: address, isAdmin: false, lang: 'sv' });
    expect(row?.imeis.sort()).toEqual([units[0], units[1]].sort());

    const mails = await outbox(address);
    expect(mails).toHaveLength(1);
    const mail = mails[0]!;
    expect(mail.subject).toContain('Ditt konto');
    expect(mail.text).toContain(address);
    expect(mail.text).toContain('7 dagar');
    const link = /(http\S+\/user\/reset-password\?_c=[A-Za-z0-9_-]+)/.exec(mail.text)?.[1] ?? '';
    expect(link.startsWith(`${rt.url}/user/reset-password?_c=`)).toBe(true);
    const code = new URL(link).searchParams.get('_c') ?? '';

    // No password was given: nothing logs in until the link has set one.
    expect((await login(address, 'Staff-pass1')).status).toBe(401);
    const set = (password: string) => call('POST', '/api/v1/reset-password', null, { subsite_id: 0, code, password, password_confirmation: password });
    expect((await set('Chosen-pass1')).status).toBe(200);
    expect((await set('Again-pass1')).status).toBe(422);
    const loggedIn = await login(address, 'Chosen-pass1');
    expect(loggedIn.status).toBe(200);
    staff = loggedIn.caller!;
    expect(await realtime(staff)).toEqual([units[0], units[1]].sort());
  });

  it('loses a revoked unit at once: from its list, and from its live channel with an access message', async () => {
    const live = await listenLive(rt, staff);
    const trackers = await Promise.all(units.slice(0, 2).map((imei) => mqtt.connectAsync(rt.mqttUrl, { clientId: imei, reconnectPeriod: 0, connectTimeout: 5000 })));
    try {
      const reply = await update(staffId, newUser({ email: address, password: undefined, imeis: [units[0]] }));
      expect(reply.status, JSON.stringify(reply.body)).toBe(200);
      expect(await realtime(staff)).toEqual([units[0]]);
      await expect.poll(() => live.messages.some((m) => m.type === 'access' && m.imei === units[1] && m.granted === false), { timeout: 10_000 }).toBe(true);

      for (const [i, imei] of units.slice(0, 2).entries()) {
        await trackers[i]?.publishAsync(`trackers/${imei}/telemetry`, JSON.stringify({ ts: Date.now() - 1000, lat: 59.33, lon: 18.06, spd: 0, ign: false }), { qos: 1 });
      }
      // The unit still granted arrives, so the revoked unit's silence is not a dead channel.
      await expect.poll(() => live.messages.some((m) => m.type === 'position' && m.imei === units[0]), { timeout: 15_000 }).toBe(true);
      // The revoked unit's position was stored (and so published) too, and the user did not hear it.
      const stored = async () => (await call<RealtimeUnit[]>('GET', '/api/v1/user/realtime/units', admin)).body.data?.find((u) => u.imei === units[1])?.state;
      await expect.poll(stored, { timeout: 15_000 }).toBeTruthy();
      await live.caughtUp();
      expect(live.messages.filter((m) => m.type === 'position' && m.imei === units[1])).toEqual([]);
      // The admin still hears both (the account's topic).
      expect((await realtime(admin)).length).toBeGreaterThanOrEqual(3);
    } finally {
      await Promise.all([...trackers, live.client].map((c) => c.endAsync()));
    }
  });

  it('gets the unit back, told on its live topic, and the member list names the account users', async () => {
    expect((await update(staffId, newUser({ email: address, password: undefined, imeis: [units[0], units[2]] }))).status).toBe(200);
    expect(await realtime(staff)).toEqual([units[0], units[2]].sort());
    const members = await call<MemberUsers>('GET', '/api/v1/user/users?limit=-1', staff);
    expect(members.status).toBe(200);
    expect(members.body.data?.user.map((u) => u.ID)).toEqual(expect.arrayContaining([staffId, admin.userId]));
    expect((await call<MemberUsers>('GET', '/api/v1/user/users?limit=1', staff)).body.data?.user).toHaveLength(1);
  });

  it('gives an ordinary user no administration (403) and an unknown token nothing (401)', async () => {
    for (const reply of [await list(staff), await create(newUser(), staff), await remove(admin.userId, staff), await settings(staff), await saveSettings({ enable_rfid: true }, staff)]) {
      expect(reply.status).toBe(403);
    }
    expect((await list({ ...admin, token: 'nope' })).status).toBe(401);
  });

  it('answers another account 404 for this user and lists none of them', async () => {
    expect((await update(staffId, newUser({ email: address }), other)).status).toBe(404);
    expect((await remove(staffId, other)).status).toBe(404);
    expect((await list(other)).body.data?.users.map((u) => u.id)).not.toContain(staffId);
    expect((await list()).body.data?.users.map((u) => u.id)).toContain(staffId);
  });

  it('with a new password by the admin ends the sessions, and deleted ends everything', async () => {
    expect((await update(staffId, newUser({ email: address, password: 'Admin-set1', imeis: [units[0]] }))).status).toBe(200);
    expect((await call('GET', '/api/v1/user/realtime/units', staff)).status).toBe(401);
    const again = await login(address, 'Admin-set1');
    expect(again.status).toBe(200);
    staff = again.caller!;

    expect((await remove(staffId)).status).toBe(200);
    expect((await call('GET', '/api/v1/user/realtime/units', staff)).status).toBe(401);
    expect((await login(address, 'Admin-set1')).status).toBe(401);
    expect((await list()).body.data?.users.map((u) => u.id)).not.toContain(staffId);
    expect((await remove(staffId)).status).toBe(404);
    // The address is free again: claims and identity are gone.
    const back = await create(newUser({ email: address }));
    expect(back.status).toBe(201);
  });
});

describe('validation keys', () => {
  it('names each missing field', async () => {
    expect(await errorsOf(create({}))).toEqual({ FirstName: ['SpecifyFirstName'], LastName: ['SpecifyLastName'], email: ['EnterValidEmail'] });
    expect(await errorsOf(create({ FirstName: ' ', LastName: '', email: 'x' }))).toEqual({ FirstName: ['SpecifyFirstName'], LastName: ['SpecifyLastName'], email: ['EnterValidEmail'] });
  });

  it('refuses long names, weak passwords, foreign or malformed units and an address in use', async () => {
    expect(await errorsOf(create(newUser({ FirstName: 'x'.repeat(51) })))).toEqual({ FirstName: ['MaxLength50'] });
    expect(await errorsOf(create(newUser({ password: 'weak' })))).toEqual({ password: ['PasswordMustInclude'] });
    expect(await errorsOf(create(newUser({ imeis: [demoImei(0)] })))).toEqual({ imeis: ['UserUnitNotFound'] });
    expect(await errorsOf(create(newUser({ imeis: ['123'] })))).toEqual({ 'imeis.0': ['UserUnitNotFound'] });
    expect(await errorsOf(create(newUser({ email: demoUsers.admin.email })))).toEqual({ email: ['UserEmailInUse'] });
  });

  it('keeps the e-mail of a user and the admin flag of the caller', async () => {
    const id = (await create(newUser())).body.data!.id;
    expect(await errorsOf(update(id, newUser()))).toEqual({ email: ['UserEmailCannotChange'] });
    const me = (await list()).body.data!.users.find((u) => u.id === admin.userId)!;
    expect(await errorsOf(update(admin.userId, { FirstName: me.FirstName, LastName: me.LastName, email: me.email, isAdmin: false }))).toEqual({ isAdmin: ['CannotRemoveOwnAdmin'] });
  });

  it('cannot delete yourself', async () => {
    expect(await errorsOf(remove(admin.userId))).toEqual({ id: ['CannotDeleteYourself'] });
  });
});

describe('two admins creating one e-mail at once', () => {
  it('lets exactly one win, and leaves one user', async () => {
    // A second admin of the same account: a test admin moved into it.
    const second = await createTestUser();
    const racer = await callerFor(second.username, second.password);
    await dynamo().send(
      new UpdateCommand({ TableName: tableName('users'), Key: { userId: racer.userId }, UpdateExpression: 'SET accountId = :a', ExpressionAttributeValues: { ':a': admin.accountId } }),
    );
    const address = email();
    const replies = await Promise.all([create(newUser({ email: address, imeis: [units[0]] })), create(newUser({ email: address, imeis: [units[1]] }), racer)]);
    expect(replies.map((r) => r.status).sort()).toEqual([201, 422]);
    expect(replies.find((r) => r.status === 422)?.body.errors).toEqual({ email: ['UserEmailInUse'] });
    expect((await list()).body.data?.users.filter((u) => u.email === address)).toHaveLength(1);
    expect(await outbox(address)).toHaveLength(1);
    expect((await login(address, 'Staff-pass1')).status).toBe(200);
  });
});

describe('settings', () => {
  it('answers the defaults of a new account', async () => {
    const reply = await settings();
    expect(reply.status).toBe(200);
    expect(reply.body.data).toMatchObject({
      enable_rfid: false,
      realtimeMap: true,
      basicOnly: false,
      basicOnlyEditable: false,
      allowUserPurposes: true,
      allowUserProjects: true,
      fuelPrice: null,
      defaultPurposes: [],
      workingHours: { enabled: false, days: [1, 2, 3, 4, 5], from: '07:00', to: '17:00' },
    });
  });

  it('switches a feature on and off for its routes and the menu at once', async () => {
    expect((await call('GET', `${BASE}/rfid-cards`, admin)).body.message).toBe('RfidNotIncluded');
    expect((await saveSettings({ enable_rfid: true })).body.data?.enable_rfid).toBe(true);
    expect((await call('GET', `${BASE}/rfid-cards`, admin)).status).toBe(200);
    expect((await call<Settings>('GET', '/api/v1/user/settings', admin)).body.data?.enable_rfid).toBe(true);
    expect((await saveSettings({ enable_rfid: false, realtimeMap: false })).status).toBe(200);
    const off = await call('GET', `${BASE}/rfid-cards`, admin);
    expect(off.status).toBe(403);
    expect(off.body.message).toBe('RfidNotIncluded');
    expect((await call('GET', '/api/v1/user/realtime/units', admin)).status).toBe(403);
    expect((await call<Settings>('GET', '/api/v1/user/settings', admin)).body.data).toMatchObject({ enable_rfid: false, realtime_map: false });
    expect((await saveSettings({ realtimeMap: true })).status).toBe(200);
  });

  it('leaves basic-only to support: the same value passes, a change is 403', async () => {
    expect((await saveSettings({ basicOnly: false, enable_car_booking: true })).body.data).toMatchObject({ basicOnly: false, enable_car_booking: true });
    const refused = await saveSettings({ basicOnly: true });
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe('BasicOnlyIsSupportOnly');
    expect((await saveSettings({ basicOnly: true, fuelPrice: 5 })).status).toBe(403);
    expect((await settings()).body.data).toMatchObject({ basicOnly: false, fuelPrice: null });
  });

  it('stores fuel price, purposes, flags and working hours in the request zone', async () => {
    const body = {
      fuelPrice: 18.456,
      defaultPurposes: [' Kundbesök ', 'Möte  med kund'],
      allowUserPurposes: false,
      allowUserProjects: false,
      workingHours: { enabled: true, days: [5, 1, 1], from: '06:30', to: '18:00' },
    };
    const reply = await callAs<AccountSettings>(rt.url, 'PUT', `${BASE}/settings`, admin, body, 'Europe/Oslo');
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    expect(reply.body.data).toMatchObject({
      fuelPrice: 18.46,
      defaultPurposes: ['Kundbesök', 'Möte med kund'],
      allowUserPurposes: false,
      allowUserProjects: false,
      workingHours: { enabled: true, days: [1, 5], from: '06:30', to: '18:00', timeZone: 'Europe/Oslo' },
    });
    expect((await settings()).body.data).toEqual(reply.body.data);
    // Another account's settings are its own.
    expect((await settings(other)).body.data?.fuelPrice).not.toBe(18.46);
  });

  it('refuses spelling duplicates of default purposes and every other bad value with its key', async () => {
    for (const duplicates of [['Kund', 'kund'], ['Möte', 'Mote'], ['Kund besök', ' kund   BESÖK ']]) {
      expect(await errorsOf(saveSettings({ defaultPurposes: duplicates }))).toEqual({ defaultPurposes: ['DuplicateDefaultPurpose'] });
    }
    expect(await errorsOf(saveSettings({ defaultPurposes: ['  '] }))).toEqual({ defaultPurposes: ['DefaultPurposeEmpty'] });
    expect(await errorsOf(saveSettings({ defaultPurposes: ['x'.repeat(101)] }))).toEqual({ defaultPurposes: ['DefaultPurposeTooLong'] });
    expect(await errorsOf(saveSettings({ defaultPurposes: Array.from({ length: 51 }, (_, i) => `p${i}`) }))).toEqual({ defaultPurposes: ['TooManyDefaultPurposes'] });
    expect(await errorsOf(saveSettings({ fuelPrice: -1 }))).toEqual({ fuelPrice: ['InvalidFuelPrice'] });
    expect(await errorsOf(saveSettings({ fuelPrice: 'a lot' }))).toEqual({ fuelPrice: ['InvalidFuelPrice'] });
    expect(await errorsOf(saveSettings({ workingHours: { enabled: true, days: [], from: '07:00', to: '17:00' } }))).toEqual({ 'workingHours.days': ['SelectAtLeastOneDay'] });
    expect(await errorsOf(saveSettings({ workingHours: { enabled: true, days: [1], from: '7', to: '25:00' } }))).toEqual({
      'workingHours.from': ['InvalidTime'],
      'workingHours.to': ['InvalidTime'],
    });
    expect(await errorsOf(saveSettings({ enable_rfid: 'yes' }))).toEqual({ enable_rfid: ['InvalidValue'] });
  });

  it('shows a unit locked against the admin on the map only while working hours are on and current', async () => {
    const imei = units[0]!;
    await dynamo().send(
      new UpdateCommand({ TableName: tableName('units'), Key: { imei }, UpdateExpression: 'SET lockedBy = :u, lockedByName = :n', ExpressionAttributeValues: { ':u': 'someone-else', ':n': 'Someone' } }),
    );
    try {
      const stateOf = async () => (await call<RealtimeUnit[]>('GET', '/api/v1/user/realtime/units', admin)).body.data?.find((u) => u.imei === imei)?.state ?? null;
      expect((await saveSettings({ workingHours: { enabled: false, days: [1, 2, 3, 4, 5, 6, 7], from: '00:00', to: '00:00' } })).status).toBe(200);
      expect(await stateOf()).toBeNull();
      // Every day, midnight to midnight: always within working hours.
      expect((await saveSettings({ workingHours: { enabled: true, days: [1, 2, 3, 4, 5, 6, 7], from: '00:00', to: '00:00' } })).status).toBe(200);
      expect(await stateOf()).not.toBeNull();
      // Never within them (a one-minute window on no day but one, twelve hours away from now in UTC).
      const away = new Date(Date.now() + 12 * 3600_000);
      const day = ((away.getUTCDay() + 6) % 7) + 1;
      const hh = String(away.getUTCHours()).padStart(2, '0');
      expect((await callAs(rt.url, 'PUT', `${BASE}/settings`, admin, { workingHours: { enabled: true, days: [day], from: `${hh}:00`, to: `${hh}:01` } }, 'UTC')).status).toBe(200);
      expect(await stateOf()).toBeNull();
    } finally {
      await dynamo().send(new UpdateCommand({ TableName: tableName('units'), Key: { imei }, UpdateExpression: 'REMOVE lockedBy, lockedByName' }));
    }
  });
});
