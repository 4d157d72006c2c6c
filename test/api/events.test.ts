/**
 * Events and alarms end to end on the embedded runtime: a tracker publishes over MQTT, leaving a
 * geofence; the event engine records the exit, the alarm goes through the alert queue to the
 * receiver set up through the alarm receivers API (one e-mail and one SMS in the outbox, one SMS
 * credit less), and GET /events lists it. Who sees which events, and the query's validation keys.
 */
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import mqtt from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventList } from '../../shared/schemas/events';
import { createReceiver } from '../../functions/alarms/receiver-repository';
import { dynamo, tableName } from '../../functions/platform/db';
import { putUnitCopies } from '../../functions/domain/unit/copies';
import type { UnitZone } from '../../functions/domain/unit/schema';
import type { EmbeddedRuntime } from '../../infra/local/runtime';
import { DEMO_PASSWORD, demoImei, demoUsers } from '../../infra/local/seed';
import { call } from '../support/http';
import { startRuntime } from '../support/runtime';
import { createTestUser, loginAs } from '../support/sessions';
import { eventually } from '../support/eventually';

let rt: EmbeddedRuntime;
let admin: string;
let user: string;
let stranger: string;
let accountId: string;
const IMEI = demoImei(0);
const NOT_GRANTED = demoImei(3);
const YARD: UnitZone = { name: 'Depot', lat: 59.33, lon: 18.06, radius: 300, alarm: true, active: true, theftMode: false, off: [], timeZone: 'Europe/Stockholm' };
const north = (m: number) => YARD.lat + m / 111_195;

beforeAll(async () => {
  rt = await startRuntime();
  admin = (await loginAs(demoUsers.admin.username, DEMO_PASSWORD)).token;
  user = (await loginAs(demoUsers.user.username, DEMO_PASSWORD)).token;
  const other = await createTestUser();
  stranger = (await loginAs(other.username, other.password)).token;
  accountId = String((await dynamo().send(new GetCommand({ TableName: tableName('units'), Key: { imei: IMEI } }))).Item?.['accountId']);
  await dynamo().send(new UpdateCommand({ TableName: tableName('accounts'), Key: { accountId }, UpdateExpression: 'SET smsCredits = :c, subsiteId = :s', ExpressionAttributeValues: { ':c': 10, ':s': 0 } }));
});
afterAll(async () => {
  await rt?.stop();
});

const outbox = async (to: string) => (await call<{ data: { kind: string; text: string; subject?: string }[] }>(rt.url, 'GET', `/api/dev/outbox?to=${encodeURIComponent(to)}`)).body.data;
const period = (from: number, to: number) => `from=${encodeURIComponent(new Date(from).toISOString())}&to=${encodeURIComponent(new Date(to).toISOString())}`;

describe('a geofence exit reported over MQTT', () => {
  it('is recorded, listed, and alarmed once by e-mail and SMS to the unit\'s receivers, debiting one credit per SMS', async () => {
    await putUnitCopies(IMEI, accountId, { zones: { depot: YARD } });
    const created = await call<{ data: { id: string } }>(rt.url, 'POST', '/api/v1/administration/alarm-receivers', {
      member_id: null, name: 'Night guard', email: 'guard@example.se', country_code: '46', phone: '0701234567', push_notification: false, function_alarm: 1, security_alarm: 1,
    }, { token: admin });
    expect(created.status).toBe(200);
    const receiverId = created.body.data.id;
    const assigned = await call(rt.url, 'POST', '/api/v1/administration/alarm-receivers/assign', { receiver_id: receiverId, terminals: [{ terminal_id: IMEI, device_type: 'gps' }] }, { token: admin });
    expect(assigned.status).toBe(200);
    // A receiver stored before numbers were E.164: texted at its E.164 form.
    const old = { name: 'Old night guard', email: null, countryCode: '46', phone: '+46-709876543', pushNotification: false, securityAlarm: true, functionAlarm: true, memberId: null, gpsImeis: [IMEI], bleIds: [] };
    await createReceiver(accountId, old, new Date());

    const tracker = await mqtt.connectAsync(rt.mqttUrl, { clientId: IMEI, reconnectPeriod: 0 });
    const t0 = Date.now() - 120_000;
    const send = (ts: number, m: number) => tracker.publishAsync(`trackers/${IMEI}/telemetry`, JSON.stringify({ ts, lat: north(m), lon: YARD.lon, sat: 9, spd: 40 }), { qos: 1 });
    await send(t0, 0);
    await send(t0 + 30_000, 100);
    await send(t0 + 60_000, 800);
    // Sent again, as a tracker does after a lost acknowledgement: no second alarm.
    await send(t0 + 60_000, 800);
    await tracker.endAsync();

    const messages = await eventually(() => outbox('guard@example.se'), (m) => m.length >= 1, 'the e-mail');
    // In the account's alert language: Swedish unless the account chose another.
    expect(messages.map((m) => m.subject)).toEqual(['Service van 1: Lämnade Depot']);
    const sms = await eventually(() => outbox('+46701234567'), (m) => m.length >= 1, 'the SMS');
    expect(sms.map((m) => m.kind)).toEqual(['sms']);
    expect(sms[0]!.text).toContain('Lämnade Depot');

    const list = await call<{ data: EventList }>(rt.url, 'GET', `/api/v1/user/events?imei=${IMEI}&${period(t0 - 60_000, Date.now() + 60_000)}`, undefined, { token: user });
    expect(list.status).toBe(200);
    expect(list.body.data.events.map((e) => [e.type, e.alarm, e.details['geofence']])).toEqual([['geofenceExit', true, 'Depot']]);
    expect(Date.parse(list.body.data.events[0]!.time)).toBe(t0 + 60_000);

    await rt.settled();
    expect(await outbox('guard@example.se')).toHaveLength(1);
    expect(await outbox('+46701234567')).toHaveLength(1);
    expect((await eventually(() => outbox('+46709876543'), (m) => m.length >= 1, 'the older receiver\'s SMS')).map((m) => m.kind)).toEqual(['sms']);
    const account = await dynamo().send(new GetCommand({ TableName: tableName('accounts'), Key: { accountId } }));
    expect(account.Item?.['smsCredits']).toBe(8);
  });
});

describe('GET /events', () => {
  const recent = () => period(Date.now() - 86_400_000, Date.now() + 60_000);

  it("lists all of an admin's account, by type too", async () => {
    const all = await call<{ data: EventList }>(rt.url, 'GET', `/api/v1/user/events?${recent()}`, undefined, { token: admin });
    expect(all.status).toBe(200);
    expect(all.body.data.events.map((e) => [e.imei, e.type])).toEqual([[IMEI, 'geofenceExit']]);
    const enters = await call<{ data: EventList }>(rt.url, 'GET', `/api/v1/user/events?type=geofenceEnter&${recent()}`, undefined, { token: admin });
    expect(enters.body.data.events).toEqual([]);
  });

  it("lists an ordinary user's granted units only, and answers 404 for another unit", async () => {
    const all = await call<{ data: EventList }>(rt.url, 'GET', `/api/v1/user/events?${recent()}`, undefined, { token: user });
    expect(all.status).toBe(200);
    expect(all.body.data.events.every((e) => [demoImei(0), demoImei(1)].includes(e.imei))).toBe(true);
    expect(all.body.data.events.length).toBeGreaterThan(0);
    const refused = await call(rt.url, 'GET', `/api/v1/user/events?imei=${NOT_GRANTED}&${recent()}`, undefined, { token: user });
    expect(refused.status).toBe(404);
  });

  it("gives another account's token nothing", async () => {
    const one = await call(rt.url, 'GET', `/api/v1/user/events?imei=${IMEI}&${recent()}`, undefined, { token: stranger });
    expect(one.status).toBe(404);
    const all = await call<{ data: EventList }>(rt.url, 'GET', `/api/v1/user/events?${recent()}`, undefined, { token: stranger });
    expect(all.status, JSON.stringify(all.body)).toBe(200);
    expect(all.body.data.events).toEqual([]);
    expect((await call(rt.url, 'GET', `/api/v1/user/events?${recent()}`)).status).toBe(401);
  });

  it('refuses a bad period and a bad IMEI with their keys', async () => {
    const now = Date.now();
    const backwards = await call<{ errors: Record<string, string[]> }>(rt.url, 'GET', `/api/v1/user/events?${period(now, now - 1000)}`, undefined, { token: admin });
    expect(backwards.status).toBe(422);
    expect(backwards.body.errors['to']).toEqual(['EndDateMustBeAfterStart']);
    const long = await call<{ errors: Record<string, string[]> }>(rt.url, 'GET', `/api/v1/user/events?${period(now - 100 * 86_400_000, now)}`, undefined, { token: admin });
    expect(long.body.errors['to']).toEqual(['EventPeriodTooLong']);
    const imei = await call<{ errors: Record<string, string[]> }>(rt.url, 'GET', `/api/v1/user/events?imei=123&${period(now - 1000, now)}`, undefined, { token: admin });
    expect(imei.body.errors['imei']).toEqual(['InvalidImei']);
  });
});
