/**
 * Delivers one alarm (a job of the alert queue) to every alarm receiver of its unit that has the
 * alarm's class on (shared/alarm-classes.ts): by e-mail when the receiver has an address, by SMS
 * on subsite 0 when they have a phone number, and by push when they are a user who has not opted
 * out: to each browser the user subscribed (Web Push, docs/decisions/0048-web-push.md) and to a
 * OneSignal push id the user may carry. Texts are in the account's alert language and time zone.
 *
 * Exactly once per event, receiver and channel (a Web Push: per event and subscribed browser),
 * however often the job is retried or runs twice at once: each message is claimed first with a conditional put in `alert-deliveries` (an SMS claim
 * and its credit's debit are one transaction, conditional on a credit being left). A message whose
 * send failed gives its claim (and credit) back and fails the job, so the queue retries it; the
 * messages already sent are skipped on the retry. A process that dies between claim and send
 * leaves the claim: that message is not sent again (it may have gone out). A browser whose push
 * service answers 404 or 410 is unsubscribed; its claim stays, marked `gone`.
 *
 * At 0 credits no SMS goes out (the e-mail and push of the same alarm still do), and the account's
 * admins get one e-mail about it until support adds credits again (`smsCreditsOutNotifiedAt` on
 * the account). An SMS that leaves the balance below the admins' threshold warns them once
 * (functions/events/sms-credits.ts).
 */
import { DeleteCommand, GetCommand, PutCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { alarmClassOf } from '../../shared/alarm-classes';
import { eventDescription } from '../../shared/event-texts';
import { translateKey } from '../../shared/i18n/index';
import { DEFAULT_PHONE_DIAL_CODE } from '../../shared/schemas/alarms';
import { languageSchema, type Language } from '../../shared/schemas/common';
import { storedPhoneE164 } from '../../shared/validators/phone';
import { paths } from '../../shared/web-routes';
import { listReceiversOfSensor, listReceiversOfUnit } from '../alarms/receiver-repository';
import { deleteGoneSubscription, subscriptionsOf } from '../push/subscriptions';
import { cancellationCodes, isConditionFailure } from '../platform/conditions';
import { getPorts } from '../platform/container';
import { dynamo, tableName } from '../platform/db';
import { renderTemplate } from '../platform/email/templates';
import { getEnv } from '../platform/env';
import { logger } from '../platform/logger';
import type { AlertJob, Ports } from '../platform/ports';
import { eventItemSchema, type EventItem } from './event-item';
import { ALARM_RECEIVERS_PATH, mailAdmins, warnIfLowBalance } from './sms-credits';

export const DEFAULT_ALERT_LANGUAGE: Language = 'sv';
export const DEFAULT_ALERT_TIME_ZONE = 'Europe/Stockholm';
const CLAIM_KEEP_SECONDS = 30 * 86_400;
/** How long a push service keeps a Web Push for a browser that is offline: the alert queue's own day. */
export const PUSH_TTL_SECONDS = 86_400;

/** Where a notification opens the portal: the alerts page at the alarm's unit and type (relative, on the origin the app was installed from). */
export function alarmPath(event: Pick<EventItem, 'imei' | 'type'>): string {
  return `${paths.alerts}?${new URLSearchParams({ imei: event.imei, type: event.type, period: '24h' }).toString()}`;
}
const LOCALES: Readonly<Record<Language, string>> = { en: 'en-GB', sv: 'sv-SE', no: 'nb-NO' };

export type Channel = 'email' | 'sms' | 'push';

interface AlertAccount {
  accountId: string;
  subsiteId: number;
  lang: Language;
  timeZone: string;
  senderId?: string;
}

/** What the alarm says, in the account's alert language and zone. */
export interface AlarmTexts {
  unit: string;
  what: string;
  when: string;
  where: string;
  mapUrl: string | null;
}

export function mapUrlOf(lat: number | null, lon: number | null): string | null {
  if (lat === null || lon === null) return null;
  const la = lat.toFixed(5);
  const lo = lon.toFixed(5);
  return `https://www.openstreetmap.org/?mlat=${la}&mlon=${lo}#map=16/${la}/${lo}`;
}

export function formatAlarmTime(ts: number, lang: Language, zone: string): string {
  return new Intl.DateTimeFormat(LOCALES[lang], { dateStyle: 'medium', timeStyle: 'short', timeZone: zone }).format(ts);
}

export async function alarmTexts(event: EventItem, account: Pick<AlertAccount, 'lang' | 'timeZone'>, ports: Pick<Ports, 'geocoder'>): Promise<AlarmTexts> {
  const description = eventDescription(event.type, event.details);
  let where = translateKey(account.lang, 'AlarmWhereUnknown');
  if (event.lat !== null && event.lon !== null) {
    where = `${event.lat.toFixed(5)}, ${event.lon.toFixed(5)}`;
    try {
      const address = await ports.geocoder.reverse(event.lat, event.lon, account.lang);
      if (address) where = address.label;
    } catch (error) {
      logger.warn('no address for an alarm; sent with coordinates', { imei: event.imei, error: error instanceof Error ? error.message : String(error) });
    }
  }
  return {
    unit: event.unitName,
    what: translateKey(account.lang, description.key, description.vars),
    when: formatAlarmTime(event.ts, account.lang, account.timeZone),
    where,
    mapUrl: mapUrlOf(event.lat, event.lon),
  };
}

async function readAccount(accountId: string): Promise<AlertAccount | null> {
  const out = await dynamo().send(new GetCommand({ TableName: tableName('accounts'), Key: { accountId } }));
  const item = out.Item;
  if (!item) return null;
  const lang = languageSchema.safeParse(item['alertLanguage']);
  const zone = item['alertTimeZone'];
  const sender = item['alertSenderId'];
  return {
    accountId,
    subsiteId: typeof item['subsiteId'] === 'number' ? item['subsiteId'] : 0,
    lang: lang.success ? lang.data : DEFAULT_ALERT_LANGUAGE,
    timeZone: typeof zone === 'string' && zone ? zone : DEFAULT_ALERT_TIME_ZONE,
    ...(typeof sender === 'string' && sender ? { senderId: sender } : {}),
  };
}

async function readMember(userId: string): Promise<{ pushId: string | null; optedOut: boolean; accountId: string | null }> {
  const out = await dynamo().send(
    new GetCommand({ TableName: tableName('users'), Key: { userId }, ProjectionExpression: 'pushId, alertsOptOut, accountId' }),
  );
  const item = out.Item ?? {};
  return {
    pushId: typeof item['pushId'] === 'string' && item['pushId'] ? item['pushId'] : null,
    optedOut: item['alertsOptOut'] === true,
    accountId: typeof item['accountId'] === 'string' ? item['accountId'] : null,
  };
}

/** The claim of one message: the event (its unit and sort key), the receiver and the channel. */
export const claimId = (event: Pick<EventItem, 'imei' | 'sk'>, receiverId: string, channel: Channel) => `${event.imei}.${event.sk}|${receiverId}|${channel}`;

/** Claims a message: true for exactly one caller. */
async function claim(id: string, now: number): Promise<boolean> {
  try {
    await dynamo().send(
      new PutCommand({
        TableName: tableName('alertDeliveries'),
        Item: { id, status: 'sending', at: now, expiresAt: Math.floor(now / 1000) + CLAIM_KEEP_SECONDS },
        ConditionExpression: 'attribute_not_exists(id)',
      }),
    );
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}

/** An SMS claim and its credit, together: 'claimed', 'taken' (someone claimed it before) or 'noCredits'. */
async function claimSms(id: string, accountId: string, now: number): Promise<'claimed' | 'taken' | 'noCredits'> {
  try {
    await dynamo().send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Put: {
              TableName: tableName('alertDeliveries'),
              Item: { id, status: 'sending', at: now, expiresAt: Math.floor(now / 1000) + CLAIM_KEEP_SECONDS },
              ConditionExpression: 'attribute_not_exists(id)',
            },
          },
          {
            Update: {
              TableName: tableName('accounts'),
              Key: { accountId },
              UpdateExpression: 'SET smsCredits = smsCredits - :one',
              ConditionExpression: 'smsCredits >= :one',
              ExpressionAttributeValues: { ':one': 1 },
            },
          },
        ],
      }),
    );
    return 'claimed';
  } catch (error) {
    const codes = cancellationCodes(error);
    if (!codes) throw error;
    if (codes[0] === 'ConditionalCheckFailed') return 'taken';
    if (codes[1] === 'ConditionalCheckFailed') return 'noCredits';
    throw error;
  }
}

/** 'gone': a Web Push whose subscription no longer exists (the push service answered 404 or 410). */
async function markSent(id: string, at: number, status: 'sent' | 'gone' = 'sent'): Promise<void> {
  await dynamo().send(
    new UpdateCommand({
      TableName: tableName('alertDeliveries'),
      Key: { id },
      UpdateExpression: 'SET #s = :sent, sentAt = :at',
      ExpressionAttributeNames: { '#s': 'status' },
      ExpressionAttributeValues: { ':sent': status, ':at': at },
    }),
  );
}

/** A send that failed: the claim goes (and an SMS's credit comes back), so that a retry sends it. */
async function release(id: string, smsAccountId?: string): Promise<void> {
  if (!smsAccountId) {
    await dynamo().send(new DeleteCommand({ TableName: tableName('alertDeliveries'), Key: { id } }));
    return;
  }
  await dynamo().send(
    new TransactWriteCommand({
      TransactItems: [
        { Delete: { TableName: tableName('alertDeliveries'), Key: { id } } },
        { Update: { TableName: tableName('accounts'), Key: { accountId: smsAccountId }, UpdateExpression: 'ADD smsCredits :one', ExpressionAttributeValues: { ':one': 1 } } },
      ],
    }),
  );
}

/** Tells the account's admins once that SMS alarms stopped for lack of credits. */
async function noticeCreditsOut(account: AlertAccount, unit: string, ports: Pick<Ports, 'mailer' | 'clock'>): Promise<void> {
  try {
    await dynamo().send(
      new UpdateCommand({
        TableName: tableName('accounts'),
        Key: { accountId: account.accountId },
        UpdateExpression: 'SET smsCreditsOutNotifiedAt = :now',
        ConditionExpression: 'attribute_not_exists(smsCreditsOutNotifiedAt)',
        ExpressionAttributeValues: { ':now': ports.clock.now().toISOString() },
      }),
    );
  } catch (error) {
    if (isConditionFailure(error)) return;
    throw error;
  }
  const receiversUrl = new URL(ALARM_RECEIVERS_PATH, getEnv().APP_URL).href;
  await mailAdmins(account, (lang) => renderTemplate('smsCreditsOut', lang, account.subsiteId, { unit, receiversUrl }), ports);
}

export interface DeliveryReport {
  sent: { receiverId: string; channel: Channel }[];
  skipped: number;
  noCredits: number;
}

/** The alert queue's consumer: delivers the job's event to its receivers. Throws when a message could not be sent (the queue retries). */
export async function deliverAlert(job: AlertJob, ports: Ports = getPorts()): Promise<DeliveryReport> {
  const report: DeliveryReport = { sent: [], skipped: 0, noCredits: 0 };
  const out = await dynamo().send(new GetCommand({ TableName: tableName('events'), Key: { imei: job.imei, sk: job.sk }, ConsistentRead: true }));
  if (!out.Item) {
    logger.warn('alarm to deliver is gone (expired or never stored)', { ...job });
    return report;
  }
  const event = eventItemSchema.parse(out.Item);
  if (!event.alarm) return report;
  const account = await readAccount(event.accountId);
  if (!account) return report;
  const alarmClass = alarmClassOf(event.type);
  if (!alarmClass) return report;
  // A sensor's alarm also reaches the receivers assigned to the sensor itself (device_type 'ble'), once each.
  const sensorId = event.type === 'sensorAlarm' && typeof event.details['sensorId'] === 'string' ? event.details['sensorId'] : null;
  const [ofUnit, ofSensor] = await Promise.all([listReceiversOfUnit(event.accountId, event.imei), sensorId ? listReceiversOfSensor(event.accountId, sensorId) : []]);
  const byId = new Map([...ofUnit, ...ofSensor].map((r) => [r.id, r]));
  const receivers = [...byId.values()].filter((r) => (alarmClass === 'security' ? r.securityAlarm : r.functionAlarm));
  if (!receivers.length) return report;

  const texts = await alarmTexts(event, account, ports);
  const vars = { unit: texts.unit, what: texts.what, when: texts.when, where: texts.where };
  const now = ports.clock.now().getTime();
  const failures: Error[] = [];

  /**
   * Claims and sends one message. `claimAs`: what the message is claimed for when not the receiver
   * (a Web Push per subscription). A send answering 'gone' sent nothing and keeps its claim.
   */
  const attempt = async (receiverId: string, channel: Channel, send: () => Promise<void | 'sent' | 'gone'>, options: { smsAccountId?: string; claimAs?: string } = {}) => {
    const { smsAccountId } = options;
    const id = claimId(event, options.claimAs ?? receiverId, channel);
    if (smsAccountId) {
      const claimed = await claimSms(id, smsAccountId, now);
      if (claimed === 'taken') return void report.skipped++;
      if (claimed === 'noCredits') {
        report.noCredits++;
        await noticeCreditsOut(account, texts.unit, ports);
        return;
      }
    } else if (!(await claim(id, now))) {
      return void report.skipped++;
    }
    let outcome: void | 'sent' | 'gone';
    try {
      outcome = await send();
    } catch (error) {
      await release(id, smsAccountId);
      failures.push(error instanceof Error ? error : new Error(String(error)));
      return;
    }
    if (outcome === 'gone') return void (await markSent(id, Date.now(), 'gone'));
    await markSent(id, Date.now());
    report.sent.push({ receiverId, channel });
    if (smsAccountId) await warnIfLowBalance(account, ports);
  };

  for (const receiver of receivers) {
    if (receiver.email) {
      const email = renderTemplate('alarm', account.lang, account.subsiteId, { ...vars, mapUrl: texts.mapUrl ?? new URL('/', getEnv().APP_URL).href });
      await attempt(receiver.id, 'email', () => ports.mailer.send({ to: receiver.email!, ...email }));
    }
    // Stored as E.164; an older item's '+46-701234567' or '0701234567' is read in its dial code's country.
    const smsTo = account.subsiteId === 0 ? storedPhoneE164(receiver.phone, receiver.countryCode ?? DEFAULT_PHONE_DIAL_CODE) : null;
    if (receiver.phone && account.subsiteId === 0 && !smsTo) logger.warn('alarm receiver phone is no number; no SMS', { receiverId: receiver.id });
    if (smsTo) {
      const text = translateKey(account.lang, 'AlarmSms', { ...vars, map: texts.mapUrl ?? '' }).trim();
      await attempt(receiver.id, 'sms', () => ports.sms.send({ to: smsTo, text, ...(account.senderId ? { senderId: account.senderId } : {}) }), { smsAccountId: account.accountId });
    }
    if (receiver.pushNotification && receiver.memberId) {
      const memberId = receiver.memberId;
      const member = await readMember(memberId);
      if (!member.optedOut && member.accountId === account.accountId) {
        const title = translateKey(account.lang, 'AlarmPushTitle', vars);
        const text = translateKey(account.lang, 'AlarmPushText', vars);
        // A push id of OneSignal (the earlier mobile app), where the deployment has one.
        const pushId = member.pushId;
        if (pushId) {
          await attempt(receiver.id, 'push', () =>
            ports.push.send({ to: pushId, title, text, data: { imei: event.imei, event: `${event.imei}.${event.sk}`, type: event.type } }),
          );
        }
        // Web Push to each subscribed browser of the user, once per alarm and browser (however many receivers link the user).
        const payload = { title, body: text, url: alarmPath(event), tag: `alarm:${event.imei}.${event.sk}` };
        const urgency = alarmClass === 'security' ? 'high' : 'normal';
        for (const subscription of await subscriptionsOf(memberId)) {
          if (subscription.accountId !== account.accountId) continue;
          await attempt(
            receiver.id,
            'push',
            async () => {
              const outcome = await ports.webPush.send({ id: subscription.id, subscription, payload, ttlSeconds: PUSH_TTL_SECONDS, urgency });
              if (outcome === 'gone') await deleteGoneSubscription(subscription);
              return outcome;
            },
            { claimAs: `webpush:${subscription.id}` },
          );
        }
      }
    }
  }
  if (failures.length) throw new AggregateError(failures, `alarm ${event.imei}.${event.sk}: ${failures.length} message(s) not sent; retried`);
  return report;
}
