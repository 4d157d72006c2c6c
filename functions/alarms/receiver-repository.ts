/**
 * Alarm receivers (table `alarm-receivers`: partition `accountId`, sort `id`). A receiver's id is
 * `ar-<random>`; the same partition holds the uniqueness claims of its e-mail
 * (`email#<lower-cased>`) and phone (`phone#<E.164>`), each naming the receiver, written in the
 * transaction that writes the receiver: two receivers of one account can never share an e-mail or
 * a phone, however their requests interleave (docs/architecture.md rule 5). The units a receiver
 * gets alarms of are lists on its item (GPS IMEIs, BLE sensor ids), so the alarm delivery finds a
 * unit's receivers with one Query of the account's partition (`listReceiversOfUnit`).
 */
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { GetCommand, QueryCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { alarmMessageKeys as keys } from '../../shared/schemas/alarms-messages';
import { cancellationCodes, isConditionFailure } from '../platform/conditions';
import { dynamo, tableName } from '../platform/db';
import { queryAll as queryPages, type PageStart } from '../platform/queries';
import { ConflictError, NotFoundError, ValidationError } from '../platform/errors';

export const RECEIVER_ID_PREFIX = 'ar-';

/** An alarm receiver as stored, and as the alarm delivery reads it. */
export interface AlarmReceiverRecord {
  id: string;
  accountId: string;
  name: string;
  /** As entered (trimmed); null without one. */
  email: string | null;
  /** The phone's calling code without '+', e.g. "46"; null without a phone. */
  countryCode: string | null;
  /** E.164, e.g. "+46701234567" (older items: as typed then); null without one. */
  phone: string | null;
  pushNotification: boolean;
  securityAlarm: boolean;
  functionAlarm: boolean;
  /** The user of the account the receiver is linked to, or null. */
  memberId: string | null;
  /** IMEIs of the GPS units whose alarms the receiver gets. */
  gpsImeis: string[];
  /** Ids of the BLE sensors whose alarms the receiver gets. */
  bleIds: string[];
  /** Raised by every write: the condition of the next one. */
  rev: number;
  createdAt: string;
  updatedAt: string;
}

export const newReceiverId = (): string => `${RECEIVER_ID_PREFIX}${randomBytes(8).toString('hex')}`;
export const isReceiverId = (id: string): boolean => /^ar-[0-9a-f]{16}$/.test(id);
const emailClaim = (email: string): string => `email#${email.trim().toLowerCase()}`;
const phoneClaim = (e164: string): string => `phone#${e164}`;


/** A stored item read leniently: lists may be absent or sets. */
function toRecord(item: Record<string, unknown>): AlarmReceiverRecord {
  const list = (v: unknown): string[] => (v instanceof Set ? [...(v as Set<string>)] : Array.isArray(v) ? v.map(String) : []);
  const str = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);
  return {
    id: String(item['id']),
    accountId: String(item['accountId']),
    name: String(item['name'] ?? ''),
    email: str(item['email']),
    countryCode: str(item['countryCode']),
    phone: str(item['phone']),
    pushNotification: item['pushNotification'] === true,
    securityAlarm: item['securityAlarm'] === true,
    functionAlarm: item['functionAlarm'] === true,
    memberId: str(item['memberId']),
    gpsImeis: list(item['gpsImeis']),
    bleIds: list(item['bleIds']),
    rev: typeof item['rev'] === 'number' ? item['rev'] : 0,
    createdAt: String(item['createdAt'] ?? ''),
    updatedAt: String(item['updatedAt'] ?? ''),
  };
}

/** Every page of a Query, as receivers; `query` builds the command (with the table named in it, where infra/bundling/resource-usage.ts reads it). */
async function queryAll(query: (start: PageStart) => QueryCommand): Promise<AlarmReceiverRecord[]> {
  return (await queryPages(query)).map(toRecord);
}

/** Every receiver of an account (one Query; the claims are left out by the key range). */
export function listReceivers(accountId: string): Promise<AlarmReceiverRecord[]> {
  return queryAll(
    (start) =>
      new QueryCommand({
        TableName: tableName('alarmReceivers'),
        KeyConditionExpression: 'accountId = :a AND begins_with(id, :p)',
        ExpressionAttributeValues: { ':a': accountId, ':p': RECEIVER_ID_PREFIX },
        ConsistentRead: true,
        ExclusiveStartKey: start,
      }),
  );
}

/**
 * The receivers of an account that have a GPS unit (by IMEI) among their units, whatever their
 * security and function flags: the alarm delivery picks by the event's class (shared/alarm-classes.ts).
 */
export function listReceiversOfUnit(accountId: string, imei: string): Promise<AlarmReceiverRecord[]> {
  return queryAll(
    (start) =>
      new QueryCommand({
        TableName: tableName('alarmReceivers'),
        KeyConditionExpression: 'accountId = :a AND begins_with(id, :p)',
        FilterExpression: 'contains(gpsImeis, :imei)',
        ExpressionAttributeValues: { ':a': accountId, ':p': RECEIVER_ID_PREFIX, ':imei': imei },
        ExclusiveStartKey: start,
      }),
  );
}

/** The receivers of an account that have a BLE sensor among their units. */
export function listReceiversOfSensor(accountId: string, sensorId: string): Promise<AlarmReceiverRecord[]> {
  return queryAll(
    (start) =>
      new QueryCommand({
        TableName: tableName('alarmReceivers'),
        KeyConditionExpression: 'accountId = :a AND begins_with(id, :p)',
        FilterExpression: 'contains(bleIds, :id)',
        ExpressionAttributeValues: { ':a': accountId, ':p': RECEIVER_ID_PREFIX, ':id': sensorId },
        ExclusiveStartKey: start,
      }),
  );
}

/** One receiver of the account, or null (another account's is none). */
export async function findReceiver(accountId: string, id: string): Promise<AlarmReceiverRecord | null> {
  if (!isReceiverId(id)) return null;
  const out = await dynamo().send(new GetCommand({ TableName: tableName('alarmReceivers'), Key: { accountId, id }, ConsistentRead: true }));
  return out.Item ? toRecord(out.Item) : null;
}

export async function getReceiver(accountId: string, id: string): Promise<AlarmReceiverRecord> {
  const found = await findReceiver(accountId, id);
  if (!found) throw new NotFoundError(keys.AlarmReceiverNotFound);
  return found;
}

type TransactItem = NonNullable<ConstructorParameters<typeof TransactWriteCommand>[0]['TransactItems']>[number];

function claimPut(accountId: string, id: string, receiverId: string): TransactItem {
  return {
    Put: {
      TableName: tableName('alarmReceivers'),
      Item: { accountId, id, receiverId },
      ConditionExpression: 'attribute_not_exists(id)',
    },
  };
}
function claimDelete(accountId: string, id: string, receiverId: string): TransactItem {
  return {
    Delete: {
      TableName: tableName('alarmReceivers'),
      Key: { accountId, id },
      ConditionExpression: 'attribute_not_exists(id) OR receiverId = :r',
      ExpressionAttributeValues: { ':r': receiverId },
    },
  };
}

interface Claimed {
  /** Index in the transaction of the e-mail claim put, or -1. */
  email: number;
  phone: number;
  receiver: number;
}

/**
 * Runs a receiver transaction. A failed claim condition is the field's duplicate error; a failed
 * receiver condition is a concurrent change (409); a conflict with a concurrent transaction is
 * retried, so that two creates with the same e-mail end with exactly one receiver and one 422.
 */
async function commit(items: TransactItem[], claimed: Claimed): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    try {
      await dynamo().send(new TransactWriteCommand({ TransactItems: items }));
      return;
    } catch (error) {
      const codes = cancellationCodes(error);
      if (!codes) throw error;
      const failed = (i: number) => i >= 0 && codes[i] === 'ConditionalCheckFailed';
      const fieldErrors: Record<string, string[]> = {};
      if (failed(claimed.email)) fieldErrors['email'] = [keys.DuplicateAlarmReceiverEmail];
      if (failed(claimed.phone)) fieldErrors['phone'] = [keys.DuplicateAlarmReceiverPhone];
      if (Object.keys(fieldErrors).length > 0) throw new ValidationError(fieldErrors);
      if (failed(claimed.receiver)) throw new ConflictError(keys.AlarmReceiverChanged);
      if (codes.includes('TransactionConflict') && attempt < 4) {
        await sleep(20 + Math.random() * 60 * (attempt + 1));
        continue;
      }
      throw error;
    }
  }
}

export type ReceiverFields = Pick<
  AlarmReceiverRecord,
  'name' | 'email' | 'countryCode' | 'phone' | 'pushNotification' | 'securityAlarm' | 'functionAlarm' | 'memberId' | 'gpsImeis' | 'bleIds'
>;

export async function createReceiver(accountId: string, fields: ReceiverFields, now: Date): Promise<AlarmReceiverRecord> {
  const at = now.toISOString();
  const record: AlarmReceiverRecord = { ...fields, id: newReceiverId(), accountId, rev: 1, createdAt: at, updatedAt: at };
  const items: TransactItem[] = [{ Put: { TableName: tableName('alarmReceivers'), Item: record, ConditionExpression: 'attribute_not_exists(id)' } }];
  const claimed: Claimed = { email: -1, phone: -1, receiver: 0 };
  if (record.email) claimed.email = items.push(claimPut(accountId, emailClaim(record.email), record.id)) - 1;
  if (record.phone) claimed.phone = items.push(claimPut(accountId, phoneClaim(record.phone), record.id)) - 1;
  await commit(items, claimed);
  return record;
}

/** Writes a receiver's new fields over `prev` (as read), moving its claims; 409 when it changed since. */
export async function updateReceiver(prev: AlarmReceiverRecord, fields: ReceiverFields, now: Date): Promise<AlarmReceiverRecord> {
  const record: AlarmReceiverRecord = { ...prev, ...fields, rev: prev.rev + 1, updatedAt: now.toISOString() };
  const items: TransactItem[] = [
    {
      Put: {
        TableName: tableName('alarmReceivers'),
        Item: record,
        ConditionExpression: 'attribute_exists(id) AND (#rev = :rev OR attribute_not_exists(#rev))',
        ExpressionAttributeNames: { '#rev': 'rev' },
        ExpressionAttributeValues: { ':rev': prev.rev },
      },
    },
  ];
  const claimed: Claimed = { email: -1, phone: -1, receiver: 0 };
  const oldEmail = prev.email ? emailClaim(prev.email) : null;
  const newEmail = record.email ? emailClaim(record.email) : null;
  if (oldEmail !== newEmail) {
    if (oldEmail) items.push(claimDelete(prev.accountId, oldEmail, prev.id));
    if (newEmail) claimed.email = items.push(claimPut(prev.accountId, newEmail, prev.id)) - 1;
  }
  const oldPhone = prev.phone ? phoneClaim(prev.phone) : null;
  const newPhone = record.phone ? phoneClaim(record.phone) : null;
  if (oldPhone !== newPhone) {
    if (oldPhone) items.push(claimDelete(prev.accountId, oldPhone, prev.id));
    if (newPhone) claimed.phone = items.push(claimPut(prev.accountId, newPhone, prev.id)) - 1;
  }
  await commit(items, claimed);
  return record;
}

/** Deletes a receiver and its claims. */
export async function deleteReceiver(prev: AlarmReceiverRecord): Promise<void> {
  const items: TransactItem[] = [
    {
      Delete: {
        TableName: tableName('alarmReceivers'),
        Key: { accountId: prev.accountId, id: prev.id },
        ConditionExpression: 'attribute_exists(id) AND (#rev = :rev OR attribute_not_exists(#rev))',
        ExpressionAttributeNames: { '#rev': 'rev' },
        ExpressionAttributeValues: { ':rev': prev.rev },
      },
    },
  ];
  if (prev.email) items.push(claimDelete(prev.accountId, emailClaim(prev.email), prev.id));
  if (prev.phone) items.push(claimDelete(prev.accountId, phoneClaim(prev.phone), prev.id));
  await commit(items, { email: -1, phone: -1, receiver: 0 });
}

/** Sets fields of a receiver that exists, raising its revision; false when there is none. */
export async function setReceiverFields(
  accountId: string,
  id: string,
  fields: Partial<Pick<AlarmReceiverRecord, 'securityAlarm' | 'functionAlarm' | 'gpsImeis' | 'bleIds'>>,
  now: Date,
  expectRev?: number,
): Promise<boolean> {
  if (!isReceiverId(id)) return false;
  const names: Record<string, string> = { '#rev': 'rev', '#u': 'updatedAt' };
  const values: Record<string, unknown> = { ':one': 1, ':u': now.toISOString() };
  const sets = Object.entries(fields).map(([field, value], i) => {
    names[`#f${i}`] = field;
    values[`:f${i}`] = value;
    return `#f${i} = :f${i}`;
  });
  let condition = 'attribute_exists(id)';
  if (expectRev !== undefined) {
    values[':rev'] = expectRev;
    condition += ' AND (#rev = :rev OR attribute_not_exists(#rev))';
  }
  try {
    await dynamo().send(
      new UpdateCommand({
        TableName: tableName('alarmReceivers'),
        Key: { accountId, id },
        UpdateExpression: `SET ${[...sets, '#u = :u'].join(', ')} ADD #rev :one`,
        ConditionExpression: condition,
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
      }),
    );
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}
