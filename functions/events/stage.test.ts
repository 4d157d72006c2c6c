/**
 * The event engine and alarm delivery end to end against DynamoDB Local: tracker messages through
 * `ingestMessages` with the real stages and effect senders, the alert queue delivering into the
 * outbox, alarm receivers written by the alarms capability's repository. Exactly once under
 * redelivery and concurrency, SMS credits debited once per SMS and none sent at 0 credits, theft
 * mode switched on when a unit leaves its zone.
 */
import { randomUUID } from 'node:crypto';
import type { Context } from 'aws-lambda';
import { GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import type { IotRuleEvent } from '../../shared/iot-rules';
import { imeiFrom } from '../../shared/validators/imei';
import { useLocalTables } from '../../test/support/local-tables';
import { createReceiver } from '../alarms/receiver-repository';
import { ingestMessages } from '../ingest/ingest-message';
import type { IngestPorts } from '../ingest/transitions';
import { createLocalQueues, type LocalQueues } from '../../infra/local/queues';
import { ALERT_QUEUE, queueList } from '../../shared/queues';
import { alertQueueOver } from '../platform/adapters/alert-queue';
import { getPorts } from '../platform/container';
import { dynamo, tableName } from '../platform/db';
import type { EmailMessage, Ports, PushMessage, SmsMessage } from '../platform/ports';
import { putUnitCopies } from '../domain/unit/copies';
import { getUnitItem } from '../domain/unit/reads';
import type { UnitZone } from '../domain/unit/schema';
import { createAlertConsumer } from './alert-delivery';
import { deliverAlert } from './deliver-alert';

/** The alert-delivery queue of the manifest, embedded, its consumer delivering with the given ports; retries without the wait. */
function alertQueue(delivering: Ports): LocalQueues {
  const def = queueList.find((q) => q.name === ALERT_QUEUE)!;
  return createLocalQueues([{ def: { ...def, visibilityTimeoutSeconds: 0 }, consumer: createAlertConsumer((job) => deliverAlert(job, delivering)) }], {
    context: () => ({}) as Context,
  });
}

const MIN = 60_000;
let serial = 0;
const nextImei = () => imeiFrom(`35693807${String(100000 + serial++).padStart(6, '0')}`);
const YARD: UnitZone = { name: 'Yard', lat: 59.33, lon: 18.06, radius: 300, alarm: true, active: true, theftMode: false, off: [], timeZone: 'Europe/Stockholm' };
const north = (m: number) => YARD.lat + m / 111_195;

interface Sent {
  email: EmailMessage[];
  sms: SmsMessage[];
  push: PushMessage[];
  commands: { imei: string; type: string; params: Record<string, unknown> }[];
}

/** Ports that record what was sent, with a queue that delivers through the real consumer. */
function recordingPorts(): { ports: IngestPorts; sent: Sent; drained: () => Promise<void> } {
  const all = getPorts();
  const sent: Sent = { email: [], sms: [], push: [], commands: [] };
  const delivering = { ...all, mailer: { send: async (m: EmailMessage) => void sent.email.push(m) }, sms: { send: async (m: SmsMessage) => void sent.sms.push(m) }, push: { send: async (m: PushMessage) => void sent.push.push(m) } };
  const queue = alertQueue(delivering);
  const ports: IngestPorts = {
    live: { publish: async () => undefined },
    clock: all.clock,
    geocoder: all.geocoder,
    alerts: alertQueueOver(queue),
    // Trips are not this file's concern (functions/trips/stage.test.ts).
    queues: { send: async () => undefined },
    devices: { send: async (imei, command) => void sent.commands.push({ imei, type: command.type, params: command.params }) },
  };
  return { ports, sent, drained: () => queue.drained() };
}

async function account(credits: number, subsiteId = 0): Promise<string> {
  const accountId = `acc-${randomUUID()}`;
  await dynamo().send(new PutCommand({ TableName: tableName('accounts'), Item: { accountId, name: 'Events AB', subsiteId, smsCredits: credits, alertLanguage: 'en', alertTimeZone: 'Europe/Stockholm' } }));
  return accountId;
}

async function unitWith(accountId: string, extra: Record<string, unknown> = {}): Promise<string> {
  const imei = nextImei();
  const { zones, ...rest } = { zones: { yard: YARD } as Record<string, UnitZone>, ...extra };
  await dynamo().send(
    new PutCommand({
      TableName: tableName('units'),
      Item: { imei, accountId, name: `Van ${imei.slice(-3)}`, vehicleType: 'car', protocol: 'native', createdAt: '2025-01-01T00:00:00.000Z', ...rest },
    }),
  );
  await putUnitCopies(imei, accountId, { zones });
  return imei;
}

async function receiver(accountId: string, imeis: string[], fields: { email?: string; phone?: string; security?: boolean; fn?: boolean } = {}) {
  return createReceiver(
    accountId,
    {
      name: 'Guard',
      email: fields.email ?? null,
      countryCode: fields.phone ? '46' : null,
      phone: fields.phone ?? null,
      pushNotification: false,
      securityAlarm: fields.security ?? true,
      functionAlarm: fields.fn ?? true,
      memberId: null,
      gpsImeis: imeis,
      bleIds: [],
    },
    new Date(),
  );
}

let t = Date.now() - 60 * MIN;
const message = (imei: string, records: { ts: number; m: number; spd?: number }[]): IotRuleEvent => ({
  payload: Buffer.from(JSON.stringify({ records: records.map((r) => ({ ts: r.ts, lat: north(r.m), lon: YARD.lon, sat: 9, spd: r.spd ?? 30 })) })).toString('base64'),
  topic: `trackers/${imei}/telemetry`,
  imei,
  receivedAt: records[records.length - 1]!.ts + 1000,
});
/** In the yard, then out: one exit. */
function leaving(imei: string) {
  const start = (t += 10 * MIN);
  return [message(imei, [{ ts: start, m: 0 }, { ts: start + 30_000, m: 100 }]), message(imei, [{ ts: start + 60_000, m: 600 }, { ts: start + 90_000, m: 900 }])];
}

async function storedEvents(imei: string) {
  const out = await dynamo().send(new QueryCommand({ TableName: tableName('events'), KeyConditionExpression: 'imei = :i', ExpressionAttributeValues: { ':i': imei } }));
  return out.Items ?? [];
}
const credits = async (accountId: string) =>
  (await dynamo().send(new GetCommand({ TableName: tableName('accounts'), Key: { accountId }, ConsistentRead: true }))).Item?.['smsCredits'];

beforeAll(async () => {
  await useLocalTables();
});

describe('alarms from ingest', () => {
  it('records a geofence exit and sends one e-mail and one SMS, debiting one credit; redelivery sends nothing more', async () => {
    const accountId = await account(5);
    const imei = await unitWith(accountId);
    await receiver(accountId, [imei], { email: 'guard@example.com', phone: '+46701234567' });
    const { ports, sent, drained } = recordingPorts();
    const [inside, outside] = leaving(imei);
    await ingestMessages([inside!], ports);
    await ingestMessages([outside!], ports);
    await drained();

    const events = await storedEvents(imei);
    expect(events.map((e) => [e['type'], e['alarm'], e['details']])).toEqual([['geofenceExit', true, { geofenceId: 'yard', geofence: 'Yard' }]]);
    expect(sent.email.map((m) => [m.to, m.subject])).toEqual([['guard@example.com', `Van ${imei.slice(-3)}: Left Yard`]]);
    expect(sent.email[0]!.text).toContain('openstreetmap.org');
    expect(sent.sms.map((m) => m.to)).toEqual(['+46701234567']);
    expect(sent.sms[0]!.text).toMatch(/^Van \d{3}: Left Yard, /);
    expect(await credits(accountId)).toBe(4);

    // The same messages again, and again at once: nothing new.
    await Promise.all([ingestMessages([inside!, outside!], ports), ingestMessages([outside!], ports)]);
    await drained();
    expect(await storedEvents(imei)).toHaveLength(1);
    expect(sent.email).toHaveLength(1);
    expect(sent.sms).toHaveLength(1);
    expect(await credits(accountId)).toBe(4);
  });

  it('delivers one alarm once even when its job runs twice at once (a redelivered queue message)', async () => {
    const accountId = await account(5);
    const imei = await unitWith(accountId);
    await receiver(accountId, [imei], { email: 'twice@example.com', phone: '+46701234568' });
    const { ports, sent, drained } = recordingPorts();
    await ingestMessages(leaving(imei), ports);
    await drained();
    const [event] = await storedEvents(imei);
    const job = { imei, sk: String(event!['sk']) };
    const again = recordingPorts();
    const reports = await Promise.all([deliverAlert(job, { ...getPorts(), mailer: { send: async (m) => void again.sent.email.push(m) }, sms: { send: async (m) => void again.sent.sms.push(m) } }), deliverAlert(job)]);
    expect(reports.every((r) => r.sent.length === 0)).toBe(true);
    expect(again.sent.email).toEqual([]);
    expect(sent.sms).toHaveLength(1);
    expect(await credits(accountId)).toBe(4);
  });

  it('sends no SMS at 0 credits with 20 concurrent alarms, tells the admins once, and still e-mails', async () => {
    const accountId = await account(0);
    await dynamo().send(
      new PutCommand({ TableName: tableName('users'), Item: { userId: `u-${randomUUID()}`, accountId, username: 'boss', email: 'boss@example.com', firstName: 'B', lastName: 'Oss', lang: 'en', subsiteId: 0, isAdmin: true, isSupport: false, enableTwoFactorAuth: false } }),
    );
    const imeis = await Promise.all(Array.from({ length: 20 }, () => unitWith(accountId)));
    await receiver(accountId, imeis, { email: 'night@example.com', phone: '+46701234569' });
    const { ports, sent, drained } = recordingPorts();
    await Promise.all(imeis.map((imei) => ingestMessages(leaving(imei), ports)));
    await drained();
    expect(sent.sms).toEqual([]);
    expect(sent.email.filter((m) => m.to === 'night@example.com')).toHaveLength(20);
    expect(sent.email.filter((m) => m.to === 'boss@example.com').map((m) => m.subject)).toEqual(['No SMS credits left: alarms go by e-mail and push only']);
    expect(await credits(accountId)).toBe(0);
  });

  it('debits exactly one credit per SMS when alarms race for the last credits', async () => {
    const accountId = await account(3);
    const imeis = await Promise.all(Array.from({ length: 8 }, () => unitWith(accountId)));
    await receiver(accountId, imeis, { phone: '+46701234570' });
    const { ports, sent, drained } = recordingPorts();
    await Promise.all(imeis.map((imei) => ingestMessages(leaving(imei), ports)));
    await drained();
    expect(sent.sms).toHaveLength(3);
    expect(await credits(accountId)).toBe(0);
  });

  it('sends SMS only on subsite 0, and only to receivers with the alarm class on', async () => {
    const accountId = await account(5, 3);
    const imei = await unitWith(accountId, { overspeedKmh: 50, overspeedSeconds: 0 });
    await receiver(accountId, [imei], { email: 'sec@example.com', phone: '+46701234571', security: true, fn: false });
    await receiver(accountId, [imei], { email: 'fn@example.com', security: false, fn: true });
    const { ports, sent, drained } = recordingPorts();
    await ingestMessages(leaving(imei), ports);
    await drained();
    // The exit is a security alarm; the 30 km/h drive raised no overspeed.
    expect(sent.email.map((m) => m.to)).toEqual(['sec@example.com']);
    expect(sent.sms).toEqual([]);
    await ingestMessages([message(imei, [{ ts: (t += 10 * MIN), m: 900, spd: 80 }])], ports);
    await drained();
    expect(sent.email.map((m) => m.to)).toEqual(['sec@example.com', 'fn@example.com']);
  });

  it('retries a failed send through the queue and sends it once when it works again', async () => {
    const accountId = await account(5);
    const imei = await unitWith(accountId);
    await receiver(accountId, [imei], { email: 'flaky@example.com', phone: '+46701234572' });
    const all = getPorts();
    let failures = 1;
    const sms: SmsMessage[] = [];
    const email: EmailMessage[] = [];
    const delivering = {
      ...all,
      mailer: { send: async (m: EmailMessage) => void email.push(m) },
      sms: {
        send: async (m: SmsMessage) => {
          if (failures-- > 0) throw new Error('SNS throttled');
          sms.push(m);
        },
      },
    };
    const queue = alertQueue(delivering);
    const ports: IngestPorts = { ...recordingPorts().ports, alerts: alertQueueOver(queue) };
    await ingestMessages(leaving(imei), ports);
    await queue.drained();
    expect(email).toHaveLength(1);
    expect(sms).toHaveLength(1);
    // The failed attempt gave its credit back.
    expect(await credits(accountId)).toBe(4);
  });

  it('switches a unit that leaves its theft-mode zone to theft mode, once', async () => {
    const accountId = await account(0);
    const imei = await unitWith(accountId, { zones: { yard: { ...YARD, theftMode: true, alarm: false } } });
    const { ports, sent, drained } = recordingPorts();
    const msgs = leaving(imei);
    await ingestMessages(msgs, ports);
    await ingestMessages(msgs, ports);
    await drained();
    expect(sent.commands).toEqual([{ imei, type: 'operatingMode', params: { mode: 'theft' } }]);
    expect((await getUnitItem(imei))?.openCommand?.type).toBe('operatingMode');
    // Recorded, but no alarm: the zone's alarm is off.
    expect((await storedEvents(imei)).map((e) => [e['type'], e['alarm']])).toEqual([['geofenceExit', false]]);
  });

  it('records harsh driving, a speeding episode and idling once each under redelivery, and announces their days', async () => {
    const accountId = await account(0);
    const imei = await unitWith(accountId, { overspeedKmh: 90, overspeedSeconds: 20 });
    const { ports } = recordingPorts();
    const rollups: unknown[] = [];
    ports.queues = { send: async (queue: string, body: unknown) => void (queue === 'unit-day-rollup' && rollups.push(body)) };
    const start = (t += 10 * MIN);
    const rec = (s: number, fields: Record<string, unknown>) => ({ ts: start + s * 1000, lat: north(0), lon: YARD.lon, sat: 9, ign: true, ...fields });
    const drive = [
      rec(0, { spd: 50 }),
      // Under the normal sensitivity's 0.38 g: not counted; 0.45 g is.
      rec(30, { spd: 95, harsh: { kind: 'braking', g: 0.3, ms: 500 } }),
      rec(60, { spd: 110, harsh: { kind: 'braking', g: 0.45, ms: 700 } }),
      rec(90, { spd: 0 }),
      rec(300, { spd: 0 }),
      rec(320, { spd: 0, ign: false }),
    ];
    const messages: IotRuleEvent[] = [drive.slice(0, 3), drive.slice(3)].map((records) => ({
      payload: Buffer.from(JSON.stringify({ records })).toString('base64'),
      topic: `trackers/${imei}/telemetry`,
      imei,
      receivedAt: records[records.length - 1]!.ts + 1000,
    }));
    await ingestMessages(messages, ports);
    await Promise.all([ingestMessages(messages, ports), ingestMessages([messages[1]!], ports)]);
    const events = (await storedEvents(imei)).map((e) => [e['type'], Number(e['ts']) - start, e['alarm'], e['details']]);
    expect(events).toEqual([
      ['overspeedEpisode', 30_000, false, { seconds: 60, maxSpeed: 110, limit: 90 }],
      ['harshBraking', 60_000, false, { g: 0.45, ms: 700, speed: 110 }],
      ['overspeed', 60_000, true, { speed: 110, limit: 90, since: new Date(start + 30_000).toISOString() }],
      ['idling', 90_000, false, { seconds: 230, device: false }],
    ]);
    // Each eco event announced its trip's day (and the day before, for a trip over midnight) once.
    expect(rollups).toHaveLength(3);
    expect(rollups[0]).toMatchObject({ accountId, imei, days: expect.arrayContaining([expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/)]) });
  });

  it("records a late buffer's speeding and idling once, across its messages and their redelivery, without an alarm", async () => {
    const accountId = await account(0);
    const imei = await unitWith(accountId, { overspeedKmh: 90, overspeedSeconds: 20 });
    const { ports } = recordingPorts();
    const start = (t += 10 * MIN);
    const rec = (s: number, fields: Record<string, unknown>) => ({ ts: start + s * 1000, lat: north(0), lon: YARD.lon, sat: 9, ign: true, ...fields });
    const send = (records: ReturnType<typeof rec>[]): IotRuleEvent => ({
      payload: Buffer.from(JSON.stringify({ records })).toString('base64'),
      topic: `trackers/${imei}/telemetry`,
      imei,
      receivedAt: start + 700_000,
    });
    // The tracker reports live first, then sends its buffer: the idling runs from the first message into the second.
    await ingestMessages([send([rec(600, { spd: 40 })])], ports);
    const buffer = [send([rec(0, { spd: 50 }), rec(30, { spd: 95 }), rec(60, { spd: 110, harsh: { kind: 'braking', g: 0.45, ms: 700 } }), rec(90, { spd: 0 })]), send([rec(300, { spd: 0 }), rec(320, { spd: 0, ign: false })])];
    for (const m of buffer) await ingestMessages([m], ports);
    await Promise.all([ingestMessages(buffer, ports), ingestMessages([buffer[1]!], ports)]);
    const events = (await storedEvents(imei)).map((e) => [e['type'], Number(e['ts']) - start, e['alarm'], e['details']]);
    expect(events).toEqual([
      ['overspeedEpisode', 30_000, false, { seconds: 60, maxSpeed: 110, limit: 90 }],
      ['harshBraking', 60_000, false, { g: 0.45, ms: 700, speed: 110 }],
      ['idling', 90_000, false, { seconds: 230, device: false }],
    ]);
  });

  it('keeps the engine state on the unit and expires events with the account retention', async () => {
    const accountId = await account(0);
    await dynamo().send(new UpdateCommand({ TableName: tableName('accounts'), Key: { accountId }, UpdateExpression: 'SET retentionDays = :d', ExpressionAttributeValues: { ':d': 30 } }));
    const imei = await unitWith(accountId);
    const { ports } = recordingPorts();
    await ingestMessages(leaving(imei), ports);
    const unit = await getUnitItem(imei);
    expect(unit?.stages?.['events']).toMatchObject({ zones: { yard: 0 } });
    const [event] = await storedEvents(imei);
    expect(Number(event!['expiresAt']) - Math.floor(Number(event!['ts']) / 1000)).toBe(30 * 86_400);
  });
});
