/**
 * Webhooks end to end on the embedded runtime (docs/api.md Webhooks, docs/decisions/0046): a local
 * HTTPS receiver on 127.0.0.1 (with a certificate of its own, test/fixtures/webhook-receiver.*,
 * which the runtime trusts through WEBHOOK_CA) gets signed deliveries; a receiver failing twice gets the same Webhook-Id
 * three times; an event whose source runs twice, or whose queue message comes twice, is delivered
 * once; a subscription that keeps failing is paused and its admins get one e-mail; endpoints the
 * policy refuses; the limit; another account's ids answer 404. The retry waits are shortened with
 * WEBHOOK_RETRY_SCALE, which only the embedded runtime reads.
 */
import { readFileSync } from 'node:fs';
import type { IncomingHttpHeaders, Server } from 'node:http';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import mqtt from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OutboxMessage } from '../../shared/schemas/system';
import type { WebhookCreated, WebhookDeliveryList, WebhookList } from '../../shared/schemas/webhooks';
import { WEBHOOKS_MAX } from '../../shared/schemas/webhooks';
import type { Command } from '../../shared/schemas/commands';
import { recordEvent } from '../../functions/events/record-event';
import { getPorts } from '../../functions/platform/container';
import { dynamo, tableName } from '../../functions/platform/db';
import type { UnitItem, UnitRecord } from '../../functions/domain/unit/schema';
import { deliveryIdOf, type DeliveryMessage } from '../../functions/webhooks/delivery-message';
import { WEBHOOK_MAX_ATTEMPTS } from '../../functions/webhooks/backoff';
import { verifyWebhookSignature } from '../../functions/webhooks/signing';
import type { EmbeddedRuntime } from '../../infra/local/runtime';
import { DEMO_PASSWORD, demoImei, demoUsers } from '../../infra/local/seed';
import { callAs, callerFor, type Caller } from '../support/api-caller';
import { eventually } from '../support/eventually';
import { startRuntime } from '../support/runtime';
import { createTestUser, type TestUser } from '../support/sessions';

const BASE = '/api/v1/administration/webhooks';

interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

let rt: EmbeddedRuntime;
let admin: Caller;
let user: Caller;
let stranger: TestUser;
let other: Caller;
let receiver: Server;
let receiverUrl: string;
const received: Received[] = [];
/** Answers per path: a list of statuses used up in order, the last one repeating. */
const answers = new Map<string, number[]>();

const call = <T>(method: string, path: string, who: Caller | null, body?: unknown) => callAs<T>(rt.url, method, path, who, body);
const create = (body: unknown, who: Caller = admin) => call<WebhookCreated>('POST', BASE, who, body);
const deliveries = (id: string, who: Caller = admin) => call<WebhookDeliveryList>('GET', `${BASE}/${id}/deliveries`, who);
const at = (path: string) => received.filter((r) => r.path === path);

beforeAll(async () => {
  process.env['WEBHOOK_RETRY_SCALE'] = '0.00001';
  const fixture = (name: string) => readFileSync(new URL(`../fixtures/webhook-receiver.${name}.pem`, import.meta.url), 'utf8');
  const cert = fixture('cert');
  process.env['WEBHOOK_CA'] = cert;
  receiver = createServer({ cert, key: fixture('key') }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = req.url ?? '/';
      received.push({ path, headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      const list = answers.get(path) ?? [200];
      const status = list.length > 1 ? list.shift()! : list[0]!;
      res.writeHead(status, { 'content-type': 'text/plain' }).end(status < 300 ? 'thanks' : 'receiver is down');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `https://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  rt = await startRuntime();
  admin = await callerFor(demoUsers.admin.username, DEMO_PASSWORD);
  user = await callerFor(demoUsers.user.username, DEMO_PASSWORD);
  stranger = await createTestUser({ lang: 'sv' });
  other = await callerFor(stranger.username, stranger.password);
}, 120_000);

afterAll(async () => {
  delete process.env['WEBHOOK_RETRY_SCALE'];
  delete process.env['WEBHOOK_CA'];
  await rt?.stop();
  await new Promise((resolve) => receiver?.close(resolve));
});

let units = 0;
async function addUnit(accountId: string, extra: Partial<Pick<UnitItem, 'lockedBy' | 'lockedByName' | 'lockedAt'>> = {}): Promise<string> {
  const imei = demoImei(760 + units++);
  const unit: UnitRecord = { imei, accountId, name: `Hook car ${imei.slice(-3)}`, vehicleType: 'car', protocol: 'native', createdAt: new Date().toISOString(), ...extra };
  await dynamo().send(new PutCommand({ TableName: tableName('units'), Item: unit }));
  return imei;
}

describe('subscriptions', () => {
  it('creates one with a secret shown once, lists it without the secret, edits, pauses and deletes it', async () => {
    const made = await create({ url: `${receiverUrl}/crud`, events: ['tripClosed', 'alarm', 'alarm'] });
    expect(made.status).toBe(201);
    expect(made.body.data?.secret).toMatch(/^whsec_/);
    const id = made.body.data!.id;
    const listed = (await call<WebhookList>('GET', BASE, admin)).body.data!;
    expect(listed.limit).toBe(WEBHOOKS_MAX);
    const row = listed.webhooks.find((w) => w.id === id);
    expect(row).toMatchObject({ url: `${receiverUrl}/crud`, events: ['alarm', 'tripClosed'], active: true, pausedReason: null, consecutiveFailures: 0 });
    expect(JSON.stringify(listed)).not.toContain(made.body.data!.secret);

    expect((await call('PUT', `${BASE}/${id}`, admin, { url: `${receiverUrl}/crud2`, events: ['unitOffline'], active: false })).status).toBe(200);
    const paused = (await call<WebhookList>('GET', BASE, admin)).body.data!.webhooks.find((w) => w.id === id);
    expect(paused).toMatchObject({ url: `${receiverUrl}/crud2`, events: ['unitOffline'], active: false, pausedReason: 'admin' });

    expect((await call('DELETE', `${BASE}/${id}`, admin)).status).toBe(200);
    expect((await call<WebhookList>('GET', BASE, admin)).body.data!.webhooks.some((w) => w.id === id)).toBe(false);
    expect((await call('DELETE', `${BASE}/${id}`, admin)).status).toBe(404);
  });

  it('refuses bad input with translated keys', async () => {
    const refused = async (body: unknown) => (await create(body)).body.errors;
    expect(await refused({ url: '', events: ['alarm'] })).toEqual({ url: ['WebhookUrlRequired'] });
    expect(await refused({ url: 'not a url', events: ['alarm'] })).toEqual({ url: ['WebhookUrlInvalid'] });
    expect(await refused({ url: `https://x.example/${'a'.repeat(2001)}`, events: ['alarm'] })).toEqual({ url: ['WebhookUrlTooLong'] });
    expect(await refused({ url: `${receiverUrl}/x`, events: [] })).toEqual({ events: ['WebhookEventsRequired'] });
    expect(await refused({ url: `${receiverUrl}/x`, events: ['payday'] })).toEqual({ 'events.0': ['WebhookEventInvalid'] });
  });

  it('refuses endpoints the policy does not send to, also in the embedded runtime', async () => {
    for (const url of ['http://10.0.0.1/hook', 'https://10.0.0.1/hook', 'https://169.254.169.254/latest', 'https://[fc00::1]/x', 'https://100.64.0.1/x', 'ftp://127.0.0.1/x', 'http://user:pw@127.0.0.1/x']) {
      const reply = await create({ url, events: ['alarm'] });
      expect(reply.status, url).toBe(422);
      expect(reply.body.errors, url).toEqual({ url: [expect.stringMatching(/^WebhookUrl(Forbidden|Invalid)$/)] });
    }
  });

  it('is for admins only, and another account sees 404 for every id of ours', async () => {
    expect((await call('GET', BASE, user)).status).toBe(403);
    const id = (await create({ url: `${receiverUrl}/mine`, events: ['alarm'] })).body.data!.id;
    expect((await call('PUT', `${BASE}/${id}`, other, { url: `${receiverUrl}/theirs`, events: ['alarm'] })).status).toBe(404);
    expect((await call('DELETE', `${BASE}/${id}`, other)).status).toBe(404);
    expect((await deliveries(id, other)).status).toBe(404);
    expect((await call('POST', `${BASE}/${id}/test`, other, {})).status).toBe(404);
    expect((await call<WebhookList>('GET', BASE, other)).body.data!.webhooks.some((w) => w.id === id)).toBe(false);
    await call('DELETE', `${BASE}/${id}`, admin);
  });

  it('keeps to the limit per account, also when creates race', async () => {
    const fresh = await createTestUser();
    const who = await callerFor(fresh.username, fresh.password);
    const replies = await Promise.all(Array.from({ length: WEBHOOKS_MAX + 5 }, (_, i) => create({ url: `${receiverUrl}/limit/${i}`, events: ['alarm'] }, who)));
    const made = replies.filter((r) => r.status === 201).length;
    expect(made).toBeLessThanOrEqual(WEBHOOKS_MAX);
    // Racing transactions may also lose with 409; those that lost to the limit answer its key.
    for (const r of replies.filter((r) => r.status === 422)) expect(r.body.errors).toEqual({ webhooks: ['WebhookLimitReached'] });
    while ((await call<WebhookList>('GET', BASE, who)).body.data!.webhooks.length < WEBHOOKS_MAX) await create({ url: `${receiverUrl}/limit/more`, events: ['alarm'] }, who);
    const over = await create({ url: `${receiverUrl}/limit/over`, events: ['alarm'] }, who);
    expect(over.status).toBe(422);
    expect(over.body.errors).toEqual({ webhooks: ['WebhookLimitReached'] });
  });
});

describe('deliveries', () => {
  it('signs a test delivery as documented and logs it', async () => {
    const { id, secret } = (await create({ url: `${receiverUrl}/signed`, events: ['geofenceEnter'] })).body.data!;
    const test = await call<{ deliveryId: string }>('POST', `${BASE}/${id}/test`, admin, {});
    expect(test.status).toBe(200);
    const [got] = await eventually(async () => at('/signed'), (list) => list.length === 1, 'the test delivery');
    const body = JSON.parse(got!.body) as Record<string, unknown>;
    expect(body).toMatchObject({ id: test.body.data!.deliveryId, type: 'geofenceEnter', accountId: admin.accountId, data: { test: true, geofence: { name: 'Depot' } } });
    expect(got!.headers['webhook-id']).toBe(test.body.data!.deliveryId);
    expect(got!.headers['content-type']).toBe('application/json');
    const now = Math.floor(Date.now() / 1000);
    expect(verifyWebhookSignature(secret, { timestamp: got!.headers['webhook-timestamp'] as string, signature: got!.headers['webhook-signature'] as string }, got!.body, now)).toBe(true);
    expect(verifyWebhookSignature('whsec_wrong', { timestamp: got!.headers['webhook-timestamp'] as string, signature: got!.headers['webhook-signature'] as string }, got!.body, now)).toBe(false);
    const log = await eventually(() => deliveries(id), (r) => r.body.data?.deliveries[0]?.status === 'succeeded', 'the delivery log');
    expect(log.body.data!.deliveries[0]).toMatchObject({ id: test.body.data!.deliveryId, type: 'geofenceEnter', attempts: 1, responseCode: 200, responseExcerpt: 'thanks', test: true, error: null });
  });

  it('retries a receiver answering 500 twice, with the same Webhook-Id and body, until its 200', async () => {
    answers.set('/flaky', [500, 500, 200]);
    const { id } = (await create({ url: `${receiverUrl}/flaky`, events: ['alarm'] })).body.data!;
    await call('POST', `${BASE}/${id}/test`, admin, {});
    const got = await eventually(async () => at('/flaky'), (list) => list.length >= 3, 'three attempts');
    expect(new Set(got.map((g) => g.headers['webhook-id'])).size).toBe(1);
    expect(new Set(got.map((g) => g.body)).size).toBe(1);
    const log = await eventually(() => deliveries(id), (r) => r.body.data?.deliveries[0]?.status === 'succeeded', 'the delivery to succeed');
    expect(log.body.data!.deliveries[0]).toMatchObject({ attempts: 3, responseCode: 200 });
    await rt.queues.drained();
    expect(at('/flaky')).toHaveLength(3);
  });

  it('delivers an alarm once when its source runs twice and its queue message comes twice', async () => {
    const { id } = (await create({ url: `${receiverUrl}/once`, events: ['alarm', 'geofenceEnter'] })).body.data!;
    const imei = await addUnit(admin.accountId);
    const ports = getPorts();
    const event = { type: 'geofenceEnter' as const, ts: Date.now(), key: 'gf-1', lat: 59.3, lon: 18.0, alarm: true, details: { geofenceId: 'gf-1', geofence: 'Yard' } };
    const unit = { imei, accountId: admin.accountId, name: 'Hook car', viewers: [] };
    expect(await recordEvent(unit, event, ports)).toBe(true);
    // The same source processed again (a redelivered ingest batch): stored before, emitted again, sent once.
    expect(await recordEvent(unit, event, ports)).toBe(false);
    // And one of its queue messages handed out twice.
    const sourceId = `event:${imei}.${String(event.ts).padStart(13, '0')}#geofenceEnter#gf-1`;
    const duplicate: DeliveryMessage = { accountId: admin.accountId, hookId: id, deliveryId: deliveryIdOf(id, 'alarm', sourceId), attempt: 1, event: { type: 'alarm', sourceId, occurredAt: new Date(event.ts).toISOString(), data: {} } };
    await Promise.all([ports.queues.send('webhook-delivery', duplicate), ports.queues.send('webhook-delivery', duplicate)]);
    await eventually(async () => at('/once'), (list) => list.length >= 2, 'the alarm and the geofence delivery');
    await rt.queues.drained();
    const got = at('/once');
    expect(got.map((g) => (JSON.parse(g.body) as { type: string }).type).sort()).toEqual(['alarm', 'geofenceEnter']);
    const alarm = JSON.parse(got.find((g) => g.body.includes('"type":"alarm"'))!.body) as { data: Record<string, unknown> };
    expect(alarm.data).toMatchObject({ imei, unitName: 'Hook car', eventType: 'geofenceEnter', details: { geofence: 'Yard' } });
  });

  it('sends commandAcknowledged when a tracker acknowledges a command', async () => {
    const { id } = (await create({ url: `${receiverUrl}/commands`, events: ['commandAcknowledged'] })).body.data!;
    const imei = await addUnit(admin.accountId);
    const tracker = await mqtt.connectAsync(rt.mqttUrl, { clientId: imei, reconnectPeriod: 0, connectTimeout: 5000 });
    try {
      const sent = await call<Command>('POST', `/api/v1/user/units/${imei}/commands`, admin, { type: 'dout', output: 1, on: true });
      expect(sent.status).toBe(201);
      await tracker.publishAsync(`trackers/${imei}/ack`, JSON.stringify({ id: sent.body.data!.id, ok: true }), { qos: 1 });
      const [got] = await eventually(async () => at('/commands'), (list) => list.length === 1, 'the acknowledgement delivery');
      expect(JSON.parse(got!.body)).toMatchObject({ type: 'commandAcknowledged', data: { commandId: sent.body.data!.id, imei, commandType: 'dout', params: { output: 1, on: true } } });
    } finally {
      await tracker.endAsync();
    }
    expect((await deliveries(id)).body.data!.deliveries).toHaveLength(1);
  });

  it('sends nothing of a locked unit, whose movements are its locker\'s', async () => {
    const { id } = (await create({ url: `${receiverUrl}/locked`, events: ['alarm'] })).body.data!;
    const locked = await addUnit(admin.accountId, { lockedBy: demoUsers.user.username, lockedByName: 'Demo User', lockedAt: new Date().toISOString() });
    const open = await addUnit(admin.accountId);
    const ports = getPorts();
    const alarm = (imei: string) => recordEvent({ imei, accountId: admin.accountId, name: 'Hook car', viewers: [] }, { type: 'overspeed', ts: Date.now(), key: 'os', lat: 59.3, lon: 18.0, alarm: true, details: { speed: 120 } }, ports);
    expect(await alarm(locked)).toBe(true);
    expect(await alarm(open)).toBe(true);
    await eventually(async () => at('/locked'), (list) => list.length >= 1, 'the open unit\'s alarm');
    await rt.queues.drained();
    expect(at('/locked').map((g) => (JSON.parse(g.body) as { data: { imei: string } }).data.imei)).toEqual([open]);
    expect((await deliveries(id)).body.data!.deliveries).toHaveLength(1);
  });

  it('pauses a subscription after five failed deliveries and e-mails each admin once, in their language; failing tests pause nothing', async () => {
    answers.set('/down', [503]);
    const { id } = (await create({ url: `${receiverUrl}/down`, events: ['alarm'] }, other)).body.data!;
    const hook = async () => (await call<WebhookList>('GET', BASE, other)).body.data!.webhooks.find((w) => w.id === id);
    // Samples that fail, every attempt of six of them: the real deliveries are not paused for that.
    await Promise.all(Array.from({ length: 6 }, () => call('POST', `${BASE}/${id}/test`, other, {})));
    await eventually(async () => (await deliveries(id, other)).body.data!.deliveries, (list) => list.length === 6 && list.every((d) => d.status === 'failed'), 'the failed samples', { timeoutMs: 60_000 });
    await rt.queues.drained();
    expect(await hook()).toMatchObject({ active: true, consecutiveFailures: 0 });

    // Six alarms of a unit of that account, each failing every attempt.
    const imei = await addUnit(stranger.accountId);
    const ports = getPorts();
    const start = Date.now();
    for (let i = 0; i < 6; i++) {
      await recordEvent({ imei, accountId: stranger.accountId, name: 'Hook car', viewers: [] }, { type: 'overspeed', ts: start + i, key: `os-${i}`, lat: 59.3, lon: 18.0, alarm: true, details: { speed: 120 } }, ports);
    }
    const paused = await eventually(hook, (w) => w?.active === false, 'the pause', { timeoutMs: 60_000 });
    expect(paused).toMatchObject({ pausedReason: 'failing' });
    await rt.queues.drained();
    const mails = (await callAs<OutboxMessage[]>(rt.url, 'GET', `/api/dev/outbox?to=${encodeURIComponent(stranger.email)}&kind=email`, null)).body.data!;
    const pauseMails = mails.filter((m) => m.subject === 'En webhook har pausats');
    expect(pauseMails).toHaveLength(1);
    expect(pauseMails[0]!.text).toContain(`${receiverUrl}/down`);
    const log = (await deliveries(id, other)).body.data!.deliveries.filter((d) => !d.test);
    expect(log.filter((d) => d.status === 'failed' && d.attempts === WEBHOOK_MAX_ATTEMPTS).length).toBeGreaterThanOrEqual(5);
    expect(log[0]).toMatchObject({ responseCode: 503, responseExcerpt: 'receiver is down' });

    // Resumed: the count starts again, and nothing else was mailed.
    expect((await call('PUT', `${BASE}/${id}`, other, { url: `${receiverUrl}/down`, events: ['alarm'], active: true })).status).toBe(200);
    expect(await hook()).toMatchObject({ active: true, pausedReason: null, consecutiveFailures: 0 });
  }, 120_000);
});
