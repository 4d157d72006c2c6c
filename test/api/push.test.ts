/**
 * Web Push on the embedded runtime (docs/decisions/0048-web-push.md). A push service of the test's
 * own listens on the loopback address; each browser is a P-256 key pair and an auth secret made
 * here, as a browser makes them. An alarm for a receiver linked to the user with push on reaches
 * each of the user's subscribed browsers exactly once, encrypted (aes128gcm, decrypted here) and
 * signed with the deployment's VAPID key, also when the alert message is delivered again or twice
 * at once; a 410 unsubscribes the browser; the push switch needs a subscribed browser; and nobody
 * removes another user's subscription.
 */
import { createECDH, createDecipheriv, hkdfSync, randomBytes, type ECDH } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { importJWK, jwtVerify } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deliverAlert } from '../../functions/events/deliver-alert';
import { eventSortKey } from '../../functions/events/event-item';
import { recordEvent } from '../../functions/events/record-event';
import { getUnitItem } from '../../functions/domain/unit/reads';
import { getPorts } from '../../functions/platform/container';
import { ALERT_QUEUE, queueList } from '../../shared/queues';
import type { OutboxMessage } from '../../shared/schemas/system';
import type { PushPayload } from '../../shared/schemas/push';
import type { EmbeddedRuntime } from '../../infra/local/runtime';
import { DEMO_PASSWORD, demoImei, demoUsers } from '../../infra/local/seed';
import { callAs, demoCallers, type Caller } from '../support/api-caller';
import { eventually } from '../support/eventually';
import { apiFetch } from '../support/http';
import { startRuntime } from '../support/runtime';

let rt: EmbeddedRuntime;
let admin: Caller;
let user: Caller;
let stranger: Caller;
const IMEI = demoImei(2);

const call = <T>(method: string, path: string, who: Caller | null, body?: unknown) => callAs<T>(rt.url, method, path, who, body);

interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}
/** The test's push service: records every request; answers each path's status (201 unless told). */
let pushService: Server;
let pushBase: string;
const received: Received[] = [];
const answers = new Map<string, number>();

/** A browser: its key pair and auth secret, and the subscription it hands the portal. */
interface Browser {
  ecdh: ECDH;
  auth: Buffer;
  endpoint: string;
  json: { endpoint: string; expirationTime: null; keys: { p256dh: string; auth: string } };
}
function browser(name: string): Browser {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  const auth = randomBytes(16);
  const endpoint = `${pushBase}/push/${name}`;
  return { ecdh, auth, endpoint, json: { endpoint, expirationTime: null, keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth: auth.toString('base64url') } } };
}

/** RFC 8291 / RFC 8188: the browser's side of aes128gcm, one record. */
function decrypt(b: Browser, body: Buffer): string {
  const salt = body.subarray(0, 16);
  const idLength = body.readUInt8(20);
  const serverKey = body.subarray(21, 21 + idLength);
  const ciphertext = body.subarray(21 + idLength);
  const shared = b.ecdh.computeSecret(serverKey);
  const keyInfo = Buffer.concat([Buffer.from('WebPush: info\0'), b.ecdh.getPublicKey(), serverKey]);
  const ikm = Buffer.from(hkdfSync('sha256', shared, b.auth, keyInfo, 32));
  const cek = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: aes128gcm\0'), 16));
  const nonce = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: nonce\0'), 12));
  const decipher = createDecipheriv('aes-128-gcm', cek, nonce);
  decipher.setAuthTag(ciphertext.subarray(ciphertext.length - 16));
  const padded = Buffer.concat([decipher.update(ciphertext.subarray(0, ciphertext.length - 16)), decipher.final()]);
  // The last record ends with the delimiter 0x02 and zero padding.
  let end = padded.length - 1;
  while (end >= 0 && padded[end] === 0) end--;
  expect(padded[end]).toBe(2);
  return padded.subarray(0, end).toString('utf8');
}

/** The request carries a VAPID JWT signed with the portal's public key, for the push service's origin. */
async function expectVapid(request: Received, publicKey: string): Promise<void> {
  const authorization = String(request.headers['authorization']);
  const match = /^vapid t=([^,\s]+),\s*k=([A-Za-z0-9_-]+)$/.exec(authorization);
  expect(match, authorization).not.toBeNull();
  expect(match![2]).toBe(publicKey);
  const point = Buffer.from(publicKey, 'base64url');
  const key = await importJWK({ kty: 'EC', crv: 'P-256', x: point.subarray(1, 33).toString('base64url'), y: point.subarray(33).toString('base64url') }, 'ES256');
  const { payload } = await jwtVerify(match![1]!, key, { audience: pushBase });
  expect(payload.sub).toMatch(/^mailto:/);
  expect(payload.exp! * 1000).toBeGreaterThan(Date.now());
}

const pushesTo = (b: Browser) => received.filter((r) => r.path === new URL(b.endpoint).pathname);
async function outbox(to: string): Promise<OutboxMessage[]> {
  const res = await apiFetch(`${rt.url}/api/dev/outbox?kind=push&to=${encodeURIComponent(to)}`);
  return ((await res.json()) as { data: OutboxMessage[] }).data;
}
const subscribe = (who: Caller, b: Browser) => call<{ id: string }>('POST', '/api/v1/user/push/subscriptions', who, b.json);
const ownSubscriptions = async (who: Caller) => (await call<{ subscriptions: { id: string; host: string }[] }>('GET', '/api/v1/user/push/subscriptions', who)).body.data!.subscriptions;

let clock = Date.now() - 3_600_000;
/** Raises an alarm of the unit as the engine would, and answers its alert job. */
async function raiseAlarm(type: 'geofenceExit' | 'lowBattery'): Promise<{ imei: string; sk: string }> {
  const unit = await getUnitItem(IMEI, { consistent: true });
  const ts = (clock += 60_000);
  const details: Record<string, string | number> = type === 'geofenceExit' ? { geofence: 'Depot' } : { volts: 3.3 };
  const event = { type, ts, key: 'push-test', lat: 59.33, lon: 18.06, alarm: true, details };
  expect(await recordEvent(unit!, event, getPorts())).toBe(true);
  return { imei: IMEI, sk: eventSortKey(ts, type, 'push-test') };
}

let receiverId: string;

beforeAll(async () => {
  pushService = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = req.url ?? '';
      received.push({ path, headers: req.headers, body: Buffer.concat(chunks) });
      res.writeHead(answers.get(path) ?? 201).end();
    });
  });
  await new Promise<void>((resolve) => pushService.listen(0, '127.0.0.1', resolve));
  pushBase = `http://127.0.0.1:${(pushService.address() as AddressInfo).port}`;
  // A failed alert message is handed out again after a second rather than three minutes.
  rt = await startRuntime({ queues: queueList.map((q) => (q.name === ALERT_QUEUE ? { ...q, visibilityTimeoutSeconds: 1 } : q)) });
  ({ admin, user, other: stranger } = await demoCallers());
});
afterAll(async () => {
  await rt?.stop();
  await new Promise((resolve) => pushService?.close(resolve));
});

describe('the push switch of an alarm receiver', () => {
  it('is refused for a linked user without a subscribed browser, and allowed once they have one', async () => {
    const body = { member_id: user.userId, name: 'Erik on call', email: 'erik.oncall@example.se', country_code: '46', phone: '', push_notification: true, function_alarm: 1, security_alarm: 1 };
    const refused = await call('POST', '/api/v1/administration/alarm-receivers', admin, body);
    expect(refused.status).toBe(422);
    expect(refused.body.errors).toMatchObject({ push_notification: ['PushNotAvailable'] });
    const members = await call<{ members: { ID: string; HasPushId: boolean }[] }>('GET', '/api/v1/administration/alarm-receivers/members', admin);
    expect(members.body.data!.members.find((m) => m.ID === user.userId)?.HasPushId).toBe(false);

    const phone = browser('phone');
    const saved = await subscribe(user, phone);
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    const again = await call<{ members: { ID: string; HasPushId: boolean }[] }>('GET', '/api/v1/administration/alarm-receivers/members', admin);
    expect(again.body.data!.members.find((m) => m.ID === user.userId)?.HasPushId).toBe(true);

    const created = await call<{ id: string }>('POST', '/api/v1/administration/alarm-receivers', admin, body);
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    receiverId = created.body.data!.id;
    const assigned = await call('POST', '/api/v1/administration/alarm-receivers/assign', admin, { receiver_id: receiverId, terminals: [{ terminal_id: IMEI, device_type: 'gps' }] });
    expect(assigned.status).toBe(200);
    const list = await call<{ alarmReceivers: { id: string; has_push_id: boolean; push_notification: number }[] }>('GET', '/api/v1/administration/alarm-receivers', admin);
    expect(list.body.data!.alarmReceivers.find((r) => r.id === receiverId)).toMatchObject({ has_push_id: true, push_notification: 1 });
  });
});

describe('subscriptions', () => {
  it('refuses endpoints that are not https (loopback aside, embedded only) and keys that are not P-256', async () => {
    const b = browser('bad');
    const http = await subscribe(user, { ...b, json: { ...b.json, endpoint: 'http://push.example.com/x' } });
    expect(http.status).toBe(422);
    expect(http.body.errors).toMatchObject({ endpoint: ['InvalidPushEndpoint'] });
    const key = await subscribe(user, { ...b, json: { ...b.json, keys: { p256dh: randomBytes(65).toString('base64url').replace(/^./, 'A'), auth: b.json.keys.auth } } });
    expect(key.body.errors).toMatchObject({ 'keys.p256dh': ['InvalidPushKey'] });
    const auth = await subscribe(user, { ...b, json: { ...b.json, keys: { p256dh: b.json.keys.p256dh, auth: randomBytes(8).toString('base64url') } } });
    expect(auth.body.errors).toMatchObject({ 'keys.auth': ['InvalidPushAuth'] });
    expect((await subscribe(null as unknown as Caller, b)).status).toBe(401);
  });

  it("cannot be removed by another user, nor listed to them", async () => {
    const [phone] = await ownSubscriptions(user);
    expect(phone).toBeDefined();
    const foreign = await call('DELETE', `/api/v1/user/push/subscriptions?id=${phone!.id}`, stranger);
    expect(foreign.status).toBe(404);
    expect(foreign.body.errors).toBe('PushSubscriptionNotFound');
    const sameAccount = await call('DELETE', `/api/v1/user/push/subscriptions?id=${phone!.id}`, admin);
    expect(sameAccount.status).toBe(404);
    expect(await ownSubscriptions(stranger)).toEqual([]);
    expect((await ownSubscriptions(user)).map((s) => s.id)).toEqual([phone!.id]);
  });

  it('answers the VAPID public key to members only', async () => {
    const key = await call<{ publicKey: string }>('GET', '/api/v1/user/push/vapid-public-key', user);
    expect(Buffer.from(key.body.data!.publicKey, 'base64url')).toHaveLength(65);
    expect((await call('GET', '/api/v1/user/push/vapid-public-key', null)).status).toBe(401);
  });
});

describe('an alarm', () => {
  it('reaches each subscribed browser once, encrypted and signed, also when its message comes again or twice at once', async () => {
    const phone = browser('phone');
    // The same browser subscribing again (new keys) replaces its subscription.
    await subscribe(user, phone);
    const desktop = browser('desktop');
    expect((await subscribe(user, desktop)).status).toBe(200);
    expect(await ownSubscriptions(user)).toHaveLength(2);
    const publicKey = (await call<{ publicKey: string }>('GET', '/api/v1/user/push/vapid-public-key', user)).body.data!.publicKey;

    const job = await raiseAlarm('geofenceExit');
    await eventually(() => Promise.resolve(pushesTo(phone).length + pushesTo(desktop).length), (n) => n >= 2, 'a push to each browser');
    // The message again, and twice at once: nothing more is sent.
    await deliverAlert(job);
    await Promise.all([deliverAlert(job), deliverAlert(job)]);
    expect(pushesTo(phone)).toHaveLength(1);
    expect(pushesTo(desktop)).toHaveLength(1);

    for (const b of [phone, desktop]) {
      const [request] = pushesTo(b);
      expect(request!.headers['content-encoding']).toBe('aes128gcm');
      expect(request!.headers['urgency']).toBe('high');
      expect(Number(request!.headers['ttl'])).toBeGreaterThan(3600);
      await expectVapid(request!, publicKey);
      const payload = JSON.parse(decrypt(b, request!.body)) as PushPayload;
      // In the account's alert language (Swedish by default).
      expect(payload.body).toContain('Lämnade Depot');
      expect(payload.url).toBe(`/user/alerts?imei=${IMEI}&type=geofenceExit&period=24h`);
      expect(payload.tag).toBe(`alarm:${job.imei}.${job.sk}`);
    }
    const [phoneId, desktopId] = (await ownSubscriptions(user)).map((s) => s.id).sort();
    const recorded = [...(await outbox(phoneId!)), ...(await outbox(desktopId!))];
    expect(recorded.map((m) => m.kind)).toEqual(['push', 'push']);
  });

  it('of a function class goes with normal urgency; a browser whose push service answers 410 is unsubscribed', async () => {
    const [, desktopPath] = ['phone', 'desktop'].map((n) => `/push/${n}`);
    answers.set(desktopPath!, 410);
    const before = received.length;
    await raiseAlarm('lowBattery');
    await eventually(() => Promise.resolve(received.length - before), (n) => n >= 2, 'the pushes');
    await eventually(() => ownSubscriptions(user), (s) => s.length === 1, 'the gone browser unsubscribed');
    const latest = received.slice(before);
    expect(latest.find((r) => r.path === '/push/phone')?.headers['urgency']).toBe('normal');
    expect((await ownSubscriptions(user))[0]!.host).toBe(new URL(pushBase).host);
  });

  it('goes to a failing push service again through the queue, once it answers', async () => {
    answers.set('/push/phone', 500);
    const before = received.length;
    const job = await raiseAlarm('lowBattery');
    await eventually(() => Promise.resolve(received.filter((r, i) => i >= before && r.path === '/push/phone').length), (n) => n >= 1, 'the first try');
    answers.delete('/push/phone');
    await eventually(() => Promise.resolve(received.filter((r, i) => i >= before && r.path === '/push/phone').length), (n) => n >= 2, 'the retry');
    await deliverAlert(job);
    const tries = received.filter((r, i) => i >= before && r.path === '/push/phone').length;
    await rt.queues.drained();
    expect(received.filter((r, i) => i >= before && r.path === '/push/phone')).toHaveLength(tries);
  });
});

describe('the alert opt-out', () => {
  const receiverHasPush = async () =>
    (await call<{ alarmReceivers: { id: string; has_push_id: boolean }[] }>('GET', '/api/v1/administration/alarm-receivers', admin)).body.data!.alarmReceivers.find((r) => r.id === receiverId)?.has_push_id;

  it("with remove_push unsubscribes the user's browsers; logging out does not", async () => {
    expect((await call('POST', '/api/v1/user/logout', user, {})).status).toBe(200);
    expect(await receiverHasPush()).toBe(true);
    const optOut = await call('POST', '/api/v1/alert-opt-out', null, { nt_useremail: demoUsers.user.username, nt_password: DEMO_PASSWORD, remove_push: true, subsite_id: 0 });
    expect(optOut.status, JSON.stringify(optOut.body)).toBe(200);
    expect(await receiverHasPush()).toBe(false);
  });
});
