/**
 * SMS credits end to end on the embedded runtime: a customer registered on a brand starts with the
 * brand's balance; only support adds credits (1..100,000 with a note; admins, another account's
 * user and no token are refused), each addition logged and counted even when two arrive at once;
 * the admins set a low-balance threshold and, when alarm SMS take the balance below it, get
 * exactly one warning e-mail in the outbox however many SMS follow, re-armed by adding credits.
 */
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import mqtt from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { brands } from '../../shared/brands';
import { translateKey } from '../../shared/i18n/index';
import type { AccountSettings } from '../../shared/schemas/administration';
import type { SupportLogEntry } from '../../shared/schemas/support';
import type { OutboxMessage } from '../../shared/schemas/system';
import { dynamo, tableName } from '../../functions/platform/db';
import { putUnitCopies } from '../../functions/domain/unit/copies';
import type { UnitZone } from '../../functions/domain/unit/schema';
import type { EmbeddedRuntime } from '../../infra/local/runtime';
import { DEMO_PASSWORD, demoImei, demoSupportUser } from '../../infra/local/seed';
import { callAs, callerFor, demoCallers, type Caller } from '../support/api-caller';
import { eventually } from '../support/eventually';
import { apiFetch } from '../support/http';
import { wizardPrivate } from '../support/registration';
import { startRuntime } from '../support/runtime';

let rt: EmbeddedRuntime;
let demoAdmin: Caller;
let stranger: Caller;
let support: Caller;
/** The admin of the account registered here (brand 0, where alarm SMS are sent). */
let owner: Caller;

const IMEI = demoImei(104);
const OWNER_EMAIL = 'owner@sms-credits.example';
const OWNER_PASSWORD = 'Credits-pass1';
const STARTING = 7;
const YARD: UnitZone = { name: 'Yard', lat: 59.33, lon: 18.06, radius: 300, alarm: true, active: true, theftMode: false, off: [], timeZone: 'Europe/Stockholm' };
const north = (m: number) => YARD.lat + m / 111_195;
const PHONES = ['0701111111', '0702222222', '0703333333'];

const call = <T>(method: string, path: string, who: Caller | null, body?: unknown) => callAs<T>(rt.url, method, path, who, body);
const creditsPath = () => `/api/v1/support/accounts/${owner.accountId}/sms-credits`;
const add = (who: Caller | null, body: unknown) => call<{ SmsCredits: number }>('POST', creditsPath(), who, body);
const balance = async () => (await call<{ SmsCredits: number }>('GET', '/api/v1/administration/alarm-receivers', owner)).body.data?.SmsCredits;
const stored = async () => (await dynamo().send(new GetCommand({ TableName: tableName('accounts'), Key: { accountId: owner.accountId }, ConsistentRead: true }))).Item ?? {};

async function outbox(to: string): Promise<OutboxMessage[]> {
  const res = await apiFetch(`${rt.url}/api/dev/outbox?to=${encodeURIComponent(to)}`);
  return ((await res.json()) as { data: OutboxMessage[] }).data;
}
/** The registrant's language is Swedish (wizardPrivate). */
const LOW_SUBJECT = translateKey('sv', 'SmsCreditsLowSubject', { balance: '#' }).split('#')[0]!;
const lowWarnings = async () => (await outbox(OWNER_EMAIL)).filter((m) => m.subject?.startsWith(LOW_SUBJECT));
const smsSent = async () => (await Promise.all(PHONES.map((p) => outbox(`+46${p.slice(1)}`)))).flat().filter((m) => m.kind === 'sms');

let clock = Date.now() - 3_600_000;
let inside: boolean | null = null;
/** The unit crosses the yard's edge once (out, then in, then out...): one alarm, one SMS to each receiver. */
async function crossYard(): Promise<void> {
  const tracker = await mqtt.connectAsync(rt.mqttUrl, { clientId: IMEI, reconnectPeriod: 0 });
  const send = (m: number) => tracker.publishAsync(`trackers/${IMEI}/telemetry`, JSON.stringify({ ts: (clock += 60_000), lat: north(m), lon: YARD.lon, sat: 9, spd: 40 }), { qos: 1 });
  if (inside === null) {
    // Its first positions, inside: no alarm.
    await send(0);
    await send(100);
    inside = true;
  }
  await send(inside ? 800 : 100);
  inside = !inside;
  await tracker.endAsync();
}

beforeAll(async () => {
  rt = await startRuntime();
  ({ admin: demoAdmin, other: stranger } = await demoCallers());
  support = await callerFor(demoSupportUser.username, DEMO_PASSWORD);
  // The brand's starting balance, as a deployment would set it in shared/brands.ts.
  const brand = brands[0] as { startingSmsCredits: number };
  const before = brand.startingSmsCredits;
  brand.startingSmsCredits = STARTING;
  try {
    const registered = await apiFetch(`${rt.url}/api/v1/register-account`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(wizardPrivate(IMEI, OWNER_EMAIL, OWNER_PASSWORD, { subsiteID: 0 })),
    });
    expect(registered.status, await registered.clone().text()).toBe(201);
  } finally {
    brand.startingSmsCredits = before;
  }
  owner = await callerFor(OWNER_EMAIL, OWNER_PASSWORD);
});
afterAll(async () => {
  await rt?.stop();
});

describe('SMS credits', () => {
  it("starts a newly registered account with its brand's balance", async () => {
    expect(await balance()).toBe(STARTING);
    const settings = await call<AccountSettings>('GET', '/api/v1/administration/settings', owner);
    expect(settings.body.data).toMatchObject({ smsCredits: STARTING, smsLowBalanceThreshold: 0 });
  });

  it('lets only support add credits', async () => {
    for (const who of [owner, demoAdmin, stranger]) expect((await add(who, { add: 5, note: 'mine' })).status).toBe(403);
    expect((await add(null, { add: 5, note: 'mine' })).status).toBe(401);
    expect(await balance()).toBe(STARTING);
  });

  it('refuses 0, 100001, a string, a fraction and a missing or empty note with their keys', async () => {
    const cases: Array<[unknown, string, string]> = [
      [{ add: 0, note: 'x' }, 'add', 'SmsCreditsAddInvalid'],
      [{ add: 100_001, note: 'x' }, 'add', 'SmsCreditsAddInvalid'],
      [{ add: '5', note: 'x' }, 'add', 'SmsCreditsAddInvalid'],
      [{ add: 2.5, note: 'x' }, 'add', 'SmsCreditsAddInvalid'],
      [{ note: 'x' }, 'add', 'SmsCreditsAddInvalid'],
      [{ add: 5 }, 'note', 'SmsCreditsNoteRequired'],
      [{ add: 5, note: '   ' }, 'note', 'SmsCreditsNoteRequired'],
      [{ add: 5, note: 'x'.repeat(201) }, 'note', 'SmsCreditsNoteTooLong'],
    ];
    for (const [body, field, key] of cases) {
      const r = await add(support, body);
      expect(r.status, JSON.stringify(body)).toBe(422);
      expect((r.body.errors as Record<string, string[]>)[field], JSON.stringify(body)).toEqual([key]);
    }
    expect((await call('POST', '/api/v1/support/accounts/no-such-account/sms-credits', support, { add: 5, note: 'x' })).status).toBe(404);
    expect(await balance()).toBe(STARTING);
  });

  it('counts two additions at once, answers the balance and logs each', async () => {
    const [a, b] = await Promise.all([add(support, { add: 5, note: 'Order 1' }), add(support, { add: 5, note: 'Order 2' })]);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(Math.max(a.body.data!.SmsCredits, b.body.data!.SmsCredits)).toBe(STARTING + 10);
    expect(await balance()).toBe(STARTING + 10);
    const max = await call<{ SmsCredits: number }>('POST', `/api/v1/support/accounts/${stranger.accountId}/sms-credits`, support, { add: 100_000, note: 'Yearly' });
    expect(max.body.data?.SmsCredits).toBe(100_000);
    const entries = (await call<{ entries: SupportLogEntry[] }>('GET', '/api/v1/support/log', support)).body.data?.entries ?? [];
    const added = entries.filter((e) => e.action === 'addSmsCredits' && e.accountId === owner.accountId).map((e) => e.details);
    expect(added.sort()).toEqual(['+5: Order 1', '+5: Order 2']);
  });

  it('refuses a bad threshold and lets only the admin see and set it', async () => {
    for (const bad of [-1, 100_001, 1.5, '3']) {
      const r = await call('PUT', '/api/v1/administration/settings', owner, { smsLowBalanceThreshold: bad });
      expect(r.status, String(bad)).toBe(422);
      expect((r.body.errors as Record<string, string[]>)['smsLowBalanceThreshold']).toEqual(['SmsLowBalanceThresholdInvalid']);
    }
  });

  it('e-mails the admins once when alarm SMS take the balance below their threshold, and re-arms when credits are added', async () => {
    await putUnitCopies(IMEI, owner.accountId, { zones: { yard: YARD } });
    // Registered before the positions below (ingest ignores positions from before registration).
    const registeredAt = new Date(clock - 3_600_000).toISOString();
    await dynamo().send(new UpdateCommand({ TableName: tableName('units'), Key: { imei: IMEI }, UpdateExpression: 'SET createdAt = :t', ExpressionAttributeValues: { ':t': registeredAt } }));
    for (const phone of PHONES) {
      const created = await call<{ id: string }>('POST', '/api/v1/administration/alarm-receivers', owner, {
        member_id: null, name: `Guard ${phone}`, email: '', country_code: '46', phone, push_notification: false, function_alarm: 1, security_alarm: 1,
      });
      expect(created.status, JSON.stringify(created.body)).toBe(200);
      const assigned = await call('POST', '/api/v1/administration/alarm-receivers/assign', owner, { receiver_id: created.body.data!.id, terminals: [{ terminal_id: IMEI, device_type: 'gps' }] });
      expect(assigned.status).toBe(200);
    }
    // From the balance above, 17 credits, with the threshold at 13: the fifth SMS takes it below.
    const start = STARTING + 10;
    const threshold = start - 4;
    expect((await call('PUT', '/api/v1/administration/settings', owner, { smsLowBalanceThreshold: threshold })).status).toBe(200);

    // Three alarms (out, in, out), three SMS each: 17 → 8, crossing the threshold on the fifth SMS.
    for (let n = 1; n <= 3; n++) {
      await crossYard();
      await eventually(() => smsSent(), (m) => m.length >= n * PHONES.length, `the SMS of alarm ${n}`);
    }
    expect(await smsSent()).toHaveLength(9);
    expect(await balance()).toBe(start - 9);
    const warnings = await eventually(() => lowWarnings(), (m) => m.length >= 1, 'the warning');
    await rt.settled();
    expect(await lowWarnings()).toHaveLength(1);
    expect(warnings[0]!.text).toContain(String(threshold));
    expect((await stored())['smsLowBalanceWarnedAt']).toEqual(expect.any(String));

    // Still below after adding 2: not re-armed. Back at the threshold: re-armed.
    await add(support, { add: 2, note: 'Top-up' });
    expect((await stored())['smsLowBalanceWarnedAt']).toEqual(expect.any(String));
    await add(support, { add: 5, note: 'Top-up' });
    expect((await stored())['smsLowBalanceWarnedAt']).toBeUndefined();
    // One alarm (3 SMS) from threshold + 2 crosses it again: a second warning, the only new one.
    await crossYard();
    await eventually(() => lowWarnings(), (m) => m.length >= 2, 'the second warning');
    await eventually(() => smsSent(), (m) => m.length >= 12, 'the SMS of alarm 4');
    expect(await balance()).toBe(threshold - 1);
  });
});
