/**
 * Alarm receivers end to end on the embedded runtime (docs/api.md Administration; spec sections 2,
 * 3, 5, 6, 8 and 9): every field rule with its key, the phone on subsite 0 and its absence on other
 * subsites, duplicates (also two creates racing), the linked user and push, the toggles, the units a
 * receiver gets (locked units, another account's units), the unit's receivers, the alert language
 * and time zone (Kathmandu only under its parent), the alert numbers of the one parent account,
 * an ordinary user's 403, and another account's token getting nothing (404).
 */
import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AlarmReceiver, AlarmReceiverList, AlarmReceiverUnits, AlertConfig } from '../../shared/schemas/alarms';
import { ALERT_NUMBERS_PARENT_ID } from '../../shared/brands';
import { alarmClassOf } from '../../shared/alarm-classes';
import { dynamo, tableName } from '../../functions/platform/db';
import type { AccountRecord } from '../../functions/domain/account/schema';
import type { UnitRecord } from '../../functions/domain/unit/schema';
import { listReceivers, listReceiversOfUnit } from '../../functions/alarms/receiver-repository';
import type { EmbeddedRuntime } from '../../infra/local/runtime';
import { DEMO_PASSWORD, demoImei, demoUsers } from '../../infra/local/seed';
import { DEMO_REGISTERED_AT } from '../support/positions';
import { startRuntime } from '../support/runtime';
import { createTestUser } from '../support/sessions';
import { callAs, callerFor, type Caller } from '../support/api-caller';

const BASE = '/api/v1/administration';
let rt: EmbeddedRuntime;
let admin: Caller;
let user: Caller;
let other: Caller;
let otherSite: Caller;
let spare = 0;

const caller = callerFor;

const call = <T>(method: string, path: string, who: Caller | null, body?: unknown) => callAs<T>(rt.url, method, path, who, body);

const receiver = (fields: Record<string, unknown> = {}) => ({
  member_id: null,
  name: 'Anna Larm',
  email: null,
  country_code: '46',
  phone: null,
  push_notification: 0,
  function_alarm: 1,
  security_alarm: 1,
  ...fields,
});
const save = (body: unknown, who: Caller = admin) => call<{ id: string }>('POST', `${BASE}/alarm-receivers`, who, body);
const list = (who: Caller = admin) => call<AlarmReceiverList>('GET', `${BASE}/alarm-receivers`, who);
const one = async (id: string, who: Caller = admin): Promise<AlarmReceiver | undefined> =>
  (await list(who)).body.data?.alarmReceivers.find((r) => r.id === id);
let unique = 0;
const email = () => `larm-${Date.now()}-${unique++}@example.se`;
/** A Swedish mobile number no other test uses. */
const mobile = () => `70${String(1_000_000 + unique++).padStart(7, '0')}`;

async function newUnit(accountId: string, fields: Record<string, unknown> = {}): Promise<string> {
  const imei = demoImei(600 + spare++);
  const unit: UnitRecord = { imei, accountId, name: `Alarm car ${imei.slice(-3)}`, vehicleType: 'car', protocol: 'native', createdAt: DEMO_REGISTERED_AT.toISOString() };
  await dynamo().send(new PutCommand({ TableName: tableName('units'), Item: { ...unit, ...fields } }));
  return imei;
}

beforeAll(async () => {
  rt = await startRuntime();
  admin = await caller(demoUsers.admin.username, DEMO_PASSWORD);
  user = await caller(demoUsers.user.username, DEMO_PASSWORD);
  const o = await createTestUser();
  other = await caller(o.username, o.password);
  const s = await createTestUser({ subsiteId: 2 });
  otherSite = await caller(s.username, s.password);
}, 120_000);

afterAll(async () => {
  await rt?.stop();
});

describe('alarm receivers: the form rules (spec section 5)', () => {
  it('creates a receiver with e-mail and phone and lists it with +dial-phone, flags and counts', async () => {
    const mail = email();
    const saved = await save(receiver({ name: 'Bo Berg', email: mail, phone: '+46 70-765 43 21', security_alarm: 1, function_alarm: 0 }));
    expect(saved.status).toBe(200);
    expect(saved.body.message).toBe('AlarmReceiverSuccessMsg');
    const row = await one(saved.body.data!.id);
    expect(row).toMatchObject({ name: 'Bo Berg', email: mail, country_code: '46', phone: '707654321', security_alarm: 1, function_alarm: 0, push_notification: 0, member_id: null, total_units: 0, total_ble_units: 0 });
    expect((await list()).body.data?.SmsCredits).toEqual(expect.any(Number));
  });

  it('requires a name', async () => {
    const reply = await save(receiver({ name: '  ', email: email() }));
    expect(reply.status).toBe(422);
    expect(reply.body.errors).toEqual({ name: ['AlarmReceiverNameRequired'] });
  });

  it('requires an e-mail or a phone on subsite 0, and accepts either alone', async () => {
    expect((await save(receiver({ email: '', phone: '' }))).body.errors).toEqual({ email: ['EmailOrPhoneRequired'] });
    expect((await save(receiver({ name: 'Only mail', email: email() }))).status).toBe(200);
    expect((await save(receiver({ name: 'Only phone', phone: mobile() }))).status).toBe(200);
  });

  it('refuses an invalid e-mail', async () => {
    expect((await save(receiver({ email: 'not-an-address' }))).body.errors).toEqual({ email: ['EnterValidEmail'] });
  });

  it('takes a valid mobile number as the user knows it and stores it as E.164', async () => {
    const ok = await save(receiver({ name: 'Leading zero', country_code: '46', phone: '0701234567' }));
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(await one(ok.body.data!.id)).toMatchObject({ country_code: '46', phone: '701234567' });
    const stored = (await listReceivers(admin.accountId)).find((r) => r.id === ok.body.data!.id);
    expect(stored).toMatchObject({ phone: '+46701234567', countryCode: '46' });
    // The payload as the contract writes it: a dial code with its plus, and a number with its country code.
    const n = mobile();
    const plus = await save(receiver({ name: 'With plus', country_code: '+46', phone: `+46 ${n}` }));
    expect(await one(plus.body.data!.id)).toMatchObject({ country_code: '46', phone: n });
    const no = await save(receiver({ name: 'Norwegian', country_code: '47', phone: '412 34 568' }));
    expect(no.status).toBe(200);
    expect(await one(no.body.data!.id)).toMatchObject({ country_code: '47', phone: '41234568' });
  });

  it('refuses what is no valid mobile number of the chosen country with one key', async () => {
    for (const [country_code, phone] of [
      ['46', '0701234'],
      ['46', '4646123456'],
      ['46', '08-123 45 67'],
      ['46', '07012x34567'],
      ['47', '0701234567'],
      ['47', '22 12 34 56'],
    ]) {
      const reply = await save(receiver({ country_code, phone }));
      expect(reply.status, phone).toBe(422);
      expect(reply.body.errors, phone).toEqual({ phone: ['MakeSurePhoneNunIsCorrect'] });
    }
  });

  it('shows an item stored in an older format with its calling code and national number', async () => {
    const id = 'ar-00000000000000aa';
    const at = new Date().toISOString();
    await dynamo().send(
      new PutCommand({
        TableName: tableName('alarmReceivers'),
        Item: { accountId: admin.accountId, id, name: 'Old format', email: null, countryCode: '46', phone: '+46-709876543', pushNotification: false, securityAlarm: true, functionAlarm: true, memberId: null, gpsImeis: [], bleIds: [], rev: 1, createdAt: at, updatedAt: at },
      }),
    );
    expect(await one(id)).toMatchObject({ country_code: '46', phone: '709876543' });
  });

  it('on other subsites takes an e-mail only: phone refused, e-mail required', async () => {
    expect((await save(receiver({ phone: mobile() }), otherSite)).body.errors).toEqual({ phone: ['PhoneNotAvailable'], email: ['AlarmReceiverEmailRequired'] });
    expect((await save(receiver({ email: email(), phone: mobile() }), otherSite)).body.errors).toEqual({ phone: ['PhoneNotAvailable'] });
    const ok = await save(receiver({ email: email(), phone: null }), otherSite);
    expect(ok.status).toBe(200);
    expect(await one(ok.body.data!.id, otherSite)).toMatchObject({ phone: null, country_code: null });
  });

  it('refuses a duplicate e-mail (any case) or phone within the account, not across accounts', async () => {
    const mail = email();
    const phone = mobile();
    expect((await save(receiver({ name: 'First', email: mail, phone }))).status).toBe(200);
    expect((await save(receiver({ name: 'Second', email: mail.toUpperCase() }))).body.errors).toEqual({ email: ['DuplicateAlarmReceiverEmail'] });
    expect((await save(receiver({ name: 'Third', phone: `0${phone}` }))).body.errors).toEqual({ phone: ['DuplicateAlarmReceiverPhone'] });
    expect((await save(receiver({ name: 'Both', email: mail, phone }))).body.errors).toEqual({ email: ['DuplicateAlarmReceiverEmail'], phone: ['DuplicateAlarmReceiverPhone'] });
    expect((await save(receiver({ name: 'Elsewhere', email: mail, phone }), other)).status).toBe(200);
  });

  it('lets exactly one of two concurrent creates with the same e-mail win', async () => {
    for (let round = 0; round < 3; round++) {
      const mail = email();
      const replies = await Promise.all([save(receiver({ name: `Race A${round}`, email: mail })), save(receiver({ name: `Race B${round}`, email: mail }))]);
      expect(replies.map((r) => r.status).sort()).toEqual([200, 422]);
      expect(replies.find((r) => r.status === 422)?.body.errors).toEqual({ email: ['DuplicateAlarmReceiverEmail'] });
      const rows = (await list()).body.data!.alarmReceivers.filter((r) => r.email === mail);
      expect(rows).toHaveLength(1);
    }
  });

  it('edits a receiver: the old e-mail and phone become free, the new ones are claimed', async () => {
    const [a, b] = [email(), email()];
    const id = (await save(receiver({ name: 'Editable', email: a }))).body.data!.id;
    const phone = mobile();
    const edit = await save(receiver({ id, name: 'Edited', email: b, phone, security_alarm: 0 }));
    expect(edit.status).toBe(200);
    expect(edit.body.data?.id).toBe(id);
    expect(await one(id)).toMatchObject({ name: 'Edited', email: b, phone, security_alarm: 0 });
    expect((await save(receiver({ name: 'Takes old', email: a }))).status).toBe(200);
    expect((await save(receiver({ name: 'Takes new', email: b }))).body.errors).toEqual({ email: ['DuplicateAlarmReceiverEmail'] });
    // Saving again with its own e-mail and phone is no duplicate.
    expect((await save(receiver({ id, name: 'Edited again', email: b.toUpperCase(), phone }))).status).toBe(200);
  });

  it('deletes a receiver, freeing its e-mail', async () => {
    const mail = email();
    const id = (await save(receiver({ name: 'Leaving', email: mail }))).body.data!.id;
    const gone = await call('DELETE', `${BASE}/alarm-receivers/${id}`, admin);
    expect(gone.status).toBe(200);
    expect(gone.body.message).toBe('AlarmReceiverDeleteSuccessMsg');
    expect(await one(id)).toBeUndefined();
    expect((await call('DELETE', `${BASE}/alarm-receivers/${id}`, admin)).status).toBe(404);
    expect((await save(receiver({ name: 'Reuses', email: mail }))).status).toBe(200);
  });
});

describe('alarm receivers: linked users and push', () => {
  it('links a user of the account; push only when that user has a push id', async () => {
    const members = await call<{ members: { ID: string; Email: string; HasPushId: boolean }[] }>('GET', `${BASE}/alarm-receivers/members`, admin);
    expect(members.status).toBe(200);
    const erik = members.body.data?.members.find((m) => m.ID === user.userId);
    expect(erik).toMatchObject({ Email: demoUsers.user.email, HasPushId: false });
    const refused = await save(receiver({ member_id: user.userId, name: 'Erik Lind', email: demoUsers.user.email, push_notification: 1 }));
    expect(refused.body.errors).toEqual({ push_notification: ['PushNotAvailable'] });
    const linked = await save(receiver({ member_id: user.userId, name: 'Erik Lind', email: demoUsers.user.email }));
    expect(linked.status).toBe(200);
    expect(await one(linked.body.data!.id)).toMatchObject({ member_id: user.userId, has_push_id: false });
    // The picker leaves out users who already are receivers.
    const after = await call<{ members: { ID: string }[] }>('GET', `${BASE}/alarm-receivers/members`, admin);
    expect(after.body.data?.members.map((m) => m.ID)).not.toContain(user.userId);
    // With a push id, push can be switched on.
    await dynamo().send(new UpdateCommand({ TableName: tableName('users'), Key: { userId: user.userId }, UpdateExpression: 'SET pushId = :p', ExpressionAttributeValues: { ':p': 'push-1' } }));
    const push = await save(receiver({ id: linked.body.data!.id, member_id: user.userId, name: 'Erik Lind', email: demoUsers.user.email, push_notification: 1 }));
    expect(push.status).toBe(200);
    expect(await one(linked.body.data!.id)).toMatchObject({ push_notification: 1, has_push_id: true });
    await dynamo().send(new UpdateCommand({ TableName: tableName('users'), Key: { userId: user.userId }, UpdateExpression: 'REMOVE pushId' }));
  });

  it("refuses another account's user as member", async () => {
    expect((await save(receiver({ member_id: other.userId, email: email() }))).body.errors).toEqual({ member_id: ['InvalidMember'] });
  });
});

describe('alarm receivers: toggles and units', () => {
  it('toggles security and function alarms at once', async () => {
    const id = (await save(receiver({ name: 'Toggle', email: email(), security_alarm: 0, function_alarm: 0 }))).body.data!.id;
    expect((await call('POST', `${BASE}/alarm-receivers/toggle`, admin, { receiverId: id, type: 'security', state: 1 })).status).toBe(200);
    expect(await one(id)).toMatchObject({ security_alarm: 1, function_alarm: 0 });
    await call('POST', `${BASE}/alarm-receivers/toggle`, admin, { receiverId: id, type: 'function', state: 1 });
    await call('POST', `${BASE}/alarm-receivers/toggle`, admin, { receiverId: id, type: 'security', state: 0 });
    expect(await one(id)).toMatchObject({ security_alarm: 0, function_alarm: 1 });
    expect((await call('POST', `${BASE}/alarm-receivers/toggle`, admin, { receiverId: id, type: 'other', state: 1 })).body.errors).toEqual({ type: ['InvalidValue'] });
    expect((await call('POST', `${BASE}/alarm-receivers/toggle`, admin, { receiverId: 'ar-0000000000000000', type: 'security', state: 1 })).status).toBe(404);
  });

  it('assigns units, lists them selected, and finds the receivers of a unit', async () => {
    const id = (await save(receiver({ name: 'Units', email: email() }))).body.data!.id;
    const units = await call<AlarmReceiverUnits>('POST', `${BASE}/alarm-receivers/units`, admin, { memberId: admin.userId, receiverId: id });
    expect(units.status).toBe(200);
    expect(units.body.data?.ble).toEqual([]);
    const gps = units.body.data!.gps;
    expect(gps.length).toBeGreaterThanOrEqual(5);
    expect(gps.every((u) => u.IsSelected === 0 && u.isLocked === false && u.Imei === u.ID)).toBe(true);
    const chosen = gps.slice(0, 2).map((u) => u.Imei);
    const assigned = await call('POST', `${BASE}/alarm-receivers/assign`, admin, { receiver_id: id, terminals: chosen.map((terminal_id) => ({ terminal_id, device_type: 'gps' })) });
    expect(assigned.status).toBe(200);
    expect(assigned.body.message).toBe('UnitsSelectedSuccessMsg');
    const again = await call<AlarmReceiverUnits>('POST', `${BASE}/alarm-receivers/units`, admin, { memberId: admin.userId, receiverId: id });
    expect(again.body.data!.gps.filter((u) => u.IsSelected === 1).map((u) => u.Imei).sort()).toEqual([...chosen].sort());
    // selectedOnly: just the receiver's GPS units, as the modal's picker asks.
    const own = await call<AlarmReceiverUnits>('POST', `${BASE}/alarm-receivers/units`, admin, { memberId: null, receiverId: id, selectedOnly: true });
    expect(own.status).toBe(200);
    expect(own.body.data!.gps.map((u) => u.Imei).sort()).toEqual([...chosen].sort());
    expect(own.body.data!.gps.every((u) => u.IsSelected === 1)).toBe(true);
    expect((await one(id))?.total_units).toBe(2);

    const ofUnit = await call<{ alarmReceivers: AlarmReceiver[] }>('GET', `${BASE}/alarm-receivers/gps/${chosen[0]}`, admin);
    expect(ofUnit.status).toBe(200);
    expect(ofUnit.body.data?.alarmReceivers.map((r) => r.id)).toContain(id);
    // The delivery's view: the account's receivers of the IMEI.
    const records = await listReceiversOfUnit(admin.accountId, chosen[0]!);
    expect(records.find((r) => r.id === id)).toMatchObject({ accountId: admin.accountId, gpsImeis: expect.arrayContaining(chosen), bleIds: [], securityAlarm: true, functionAlarm: true });
    expect(alarmClassOf('geofenceEnter')).toBe('security');
    expect(alarmClassOf('overspeed')).toBe('function');

    // Emptying the selection.
    await call('POST', `${BASE}/alarm-receivers/assign`, admin, { receiver_id: id, terminals: [] });
    expect((await one(id))?.total_units).toBe(0);
    expect(await listReceiversOfUnit(admin.accountId, chosen[0]!)).not.toContainEqual(expect.objectContaining({ id }));
  });

  it('creates a receiver for one unit (terminal_id)', async () => {
    const imei = await newUnit(admin.accountId);
    const id = (await save(receiver({ name: 'From unit', email: email(), terminal_id: imei, device_type: 'gps' }))).body.data!.id;
    expect((await listReceiversOfUnit(admin.accountId, imei)).map((r) => r.id)).toEqual([id]);
    const foreign = await newUnit(other.accountId);
    expect((await save(receiver({ name: 'Foreign unit', email: email(), terminal_id: foreign, device_type: 'gps' }))).body.errors).toEqual({ terminal_id: ['UnitsSelectedErrorMsg'] });
  });

  it("refuses another account's unit, BLE ids, and changing a locked unit", async () => {
    const id = (await save(receiver({ name: 'Locks', email: email() }))).body.data!.id;
    const foreign = await newUnit(other.accountId);
    const assign = (terminals: { terminal_id: string; device_type: string }[]) => call('POST', `${BASE}/alarm-receivers/assign`, admin, { receiver_id: id, terminals });
    expect((await assign([{ terminal_id: foreign, device_type: 'gps' }])).body.errors).toEqual({ terminals: ['UnitsSelectedErrorMsg'] });
    expect((await assign([{ terminal_id: 'sensor-1', device_type: 'ble' }])).body.errors).toEqual({ terminals: ['UnitsSelectedErrorMsg'] });
    const locked = await newUnit(admin.accountId, { lockedBy: 'support-1' });
    const units = await call<AlarmReceiverUnits>('POST', `${BASE}/alarm-receivers/units`, admin, { memberId: null, receiverId: id });
    expect(units.body.data?.gps.find((u) => u.Imei === locked)?.isLocked).toBe(true);
    expect((await assign([{ terminal_id: locked, device_type: 'gps' }])).body.errors).toEqual({ terminals: ['UnitIsLocked'] });
  });
});

describe('alert language and time zone (spec section 9)', () => {
  it('defaults to sv and Europe/Stockholm, saves a choice, refuses Kathmandu outside its parent', async () => {
    const fresh = await createTestUser();
    const who = await caller(fresh.username, fresh.password);
    expect((await call<AlertConfig>('GET', `${BASE}/alertconfig/language-timezone`, who)).body.data).toEqual({ Language: 'sv', TimeZone: 'Europe/Stockholm' });
    const saved = await call('POST', `${BASE}/alertconfig/language-timezone`, who, { language: 'no', timezone: 'Europe/Oslo' });
    expect(saved.status).toBe(200);
    expect((await call<AlertConfig>('GET', `${BASE}/alertconfig/language-timezone`, who)).body.data).toEqual({ Language: 'no', TimeZone: 'Europe/Oslo' });
    expect((await call('POST', `${BASE}/alertconfig/language-timezone`, who, { language: 'sv', timezone: 'Asia/Kathmandu' })).body.errors).toEqual({ timezone: ['InvalidAlertTimeZone'] });
    expect((await call('POST', `${BASE}/alertconfig/language-timezone`, who, { language: 'sv', timezone: 'America/New_York' })).body.errors).toEqual({ timezone: ['InvalidAlertTimeZone'] });
    expect((await call('POST', `${BASE}/alertconfig/language-timezone`, who, { language: 'de', timezone: 'Europe/Oslo' })).body.errors).toEqual({ language: ['InvalidAlertLanguage'] });
    const nepal = await createTestUser({ parentId: ALERT_NUMBERS_PARENT_ID });
    const nepalAdmin = await caller(nepal.username, nepal.password);
    expect((await call('POST', `${BASE}/alertconfig/language-timezone`, nepalAdmin, { language: 'en', timezone: 'Asia/Kathmandu' })).status).toBe(200);
  });
});

describe('alert numbers of the parent account', () => {
  it("lists the parent's accounts and sets their sender; an account under it reaches its own only; anyone else gets 403", async () => {
    const parentAdmin = await createTestUser();
    // The parent account is the one the spec names: move the new account's records to its id.
    const parentAccount = (await dynamo().send(new GetCommand({ TableName: tableName('accounts'), Key: { accountId: parentAdmin.accountId } }))).Item as AccountRecord;
    await dynamo().send(new PutCommand({ TableName: tableName('accounts'), Item: { ...parentAccount, accountId: ALERT_NUMBERS_PARENT_ID } }));
    await dynamo().send(new UpdateCommand({ TableName: tableName('users'), Key: { userId: parentAdmin.userId }, UpdateExpression: 'SET accountId = :a', ExpressionAttributeValues: { ':a': ALERT_NUMBERS_PARENT_ID } }));
    const parent = await caller(parentAdmin.username, parentAdmin.password);
    const child = await createTestUser({ parentId: ALERT_NUMBERS_PARENT_ID });
    await dynamo().send(new UpdateCommand({ TableName: tableName('accounts'), Key: { accountId: child.accountId }, UpdateExpression: 'SET parentAccountId = :p', ExpressionAttributeValues: { ':p': ALERT_NUMBERS_PARENT_ID } }));

    const listed = await call<{ accounts: { accountId: string; alertSenderId: string | null }[] }>('GET', `${BASE}/alert-numbers`, parent);
    expect(listed.status).toBe(200);
    expect(listed.body.data?.accounts).toEqual([expect.objectContaining({ accountId: child.accountId, alertSenderId: null })]);
    expect((await call('PUT', `${BASE}/alert-numbers/${child.accountId}`, parent, { alertSenderId: 'FleetAB' })).status).toBe(200);
    // What SNS would refuse, so that every SMS of the account failed: too long, a space, too short, digits only.
    for (const refused of ['Much too long sender', 'Fleet AB', 'AB', '12345']) {
      expect((await call('PUT', `${BASE}/alert-numbers/${child.accountId}`, parent, { alertSenderId: refused })).body.errors, refused).toEqual({ alertSenderId: ['InvalidAlertSenderId'] });
    }
    expect((await call('PUT', `${BASE}/alert-numbers/${child.accountId}`, parent, { alertSenderId: '+46701234567' })).status).toBe(200);
    expect((await call<{ accounts: { alertSenderId: string | null }[] }>('GET', `${BASE}/alert-numbers`, parent)).body.data?.accounts[0]?.alertSenderId).toBe('+46701234567');
    expect((await call('PUT', `${BASE}/alert-numbers/${other.accountId}`, parent, { alertSenderId: 'FleetAB' })).status).toBe(404);
    expect((await call('GET', `${BASE}/alert-numbers`, admin)).status).toBe(403);
    // An admin of an account under the parent (whom the web page is shown to) sees and sets their own account's sender only.
    const sibling = await createTestUser({ parentId: ALERT_NUMBERS_PARENT_ID });
    const childAdmin = await caller(sibling.username, sibling.password);
    const own = await call<{ accounts: { accountId: string }[] }>('GET', `${BASE}/alert-numbers`, childAdmin);
    expect(own.body.data?.accounts.map((a) => a.accountId)).toEqual([sibling.accountId]);
    expect((await call('PUT', `${BASE}/alert-numbers/${sibling.accountId}`, childAdmin, { alertSenderId: 'Sibling' })).status).toBe(200);
    expect((await call('PUT', `${BASE}/alert-numbers/${child.accountId}`, childAdmin, { alertSenderId: 'Hijack' })).status).toBe(404);
    expect((await call<{ accounts: { alertSenderId: string | null }[] }>('GET', `${BASE}/alert-numbers`, parent)).body.data?.accounts.find((a) => a.alertSenderId === 'Hijack')).toBeUndefined();
  });
});

describe('access', () => {
  it('gives an ordinary user 403 on every route', async () => {
    const paths: [string, string, unknown?][] = [
      ['GET', `${BASE}/alarm-receivers`],
      ['GET', `${BASE}/alarm-receivers/members`],
      ['POST', `${BASE}/alarm-receivers`, receiver({ email: email() })],
      ['POST', `${BASE}/alarm-receivers/toggle`, { receiverId: 'ar-0000000000000000', type: 'security', state: 1 }],
      ['GET', `${BASE}/alertconfig/language-timezone`],
    ];
    for (const [method, path, body] of paths) expect((await call(method, path, user, body)).status, path).toBe(403);
    expect((await call('GET', `${BASE}/alarm-receivers`, null)).status).toBe(401);
  });

  it("gives another account's token nothing of this account (404)", async () => {
    const imei = await newUnit(admin.accountId);
    const id = (await save(receiver({ name: 'Private', email: email(), terminal_id: imei }))).body.data!.id;
    expect((await list(other)).body.data?.alarmReceivers.map((r) => r.id)).not.toContain(id);
    expect((await save(receiver({ id, name: 'Hijack', email: email() }), other)).status).toBe(404);
    expect((await call('DELETE', `${BASE}/alarm-receivers/${id}`, other)).status).toBe(404);
    expect((await call('POST', `${BASE}/alarm-receivers/toggle`, other, { receiverId: id, type: 'security', state: 0 })).status).toBe(404);
    expect((await call('POST', `${BASE}/alarm-receivers/units`, other, { memberId: null, receiverId: id })).status).toBe(404);
    expect((await call('POST', `${BASE}/alarm-receivers/assign`, other, { receiver_id: id, terminals: [] })).status).toBe(404);
    expect((await call('GET', `${BASE}/alarm-receivers/gps/${imei}`, other)).status).toBe(404);
    expect((await call('GET', `${BASE}/alarm-receivers/ble/sensor-1`, admin)).status).toBe(404);
    expect(await one(id)).toMatchObject({ name: 'Private', security_alarm: 1, total_units: 1 });
  });
});
