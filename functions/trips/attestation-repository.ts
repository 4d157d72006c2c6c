/**
 * Attestations (table `attestations`: partition `accountId`, sort `id`). An id starts with the
 * period's first local day (`2025-03-01_<imei>_<random>`), so a range of days is a key range in
 * the table (per account), in `byUser` (`userKey` = accountId#userId) and in `byUnit` (`imei`).
 * The record keeps who attested, when, the period, the note and the status with who changed it
 * and when; the trips themselves carry the lock (`attestationId` on the trip).
 *
 * Reminder claims live in the same partition as `reminder#<month>#<userId>` with an expiry: the
 * conditional write that makes a reminder go out once per request.
 */
import { randomBytes } from 'node:crypto';
import { DeleteCommand, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Attestation } from '../../shared/schemas/trips';
import { isConditionFailure } from '../platform/conditions';
import { dynamo, tableName } from '../platform/db';
import { isoInZone } from '../../shared/local-time';
import { queryAll, type AttestationItem } from './attestation-reads';

export { accountAttestations, unitAttestations, userKeyOf, type AttestationItem } from './attestation-reads';

export const newAttestationId = (fromDay: string, imei: string): string => `${fromDay}_${imei}_${randomBytes(5).toString('hex')}`;
const DAY_ID = /^\d{4}-\d{2}-\d{2}_\d{15}_[0-9a-f]{10}$/;

export function toAttestation(item: AttestationItem, userName: string | null, zone: string): Attestation {
  const iso = (ms: number | undefined) => (ms === undefined ? null : isoInZone(ms, zone));
  return {
    id: item.id,
    imei: item.imei,
    userId: item.userId,
    userName,
    from: item.fromDay,
    to: item.toDay,
    timeZone: item.timeZone,
    note: item.note ?? null,
    status: item.status,
    tripCount: item.tripCount,
    attestedAt: isoInZone(item.attestedAt, zone),
    approvedAt: iso(item.approvedAt),
    approvedBy: item.approvedBy ?? null,
    unlockedAt: iso(item.unlockedAt),
    unlockedBy: item.unlockedBy ?? null,
  };
}

export async function putAttestation(item: AttestationItem): Promise<void> {
  await dynamo().send(new PutCommand({ TableName: tableName('attestations'), Item: item, ConditionExpression: 'attribute_not_exists(id)' }));
}

export async function getAttestation(accountId: string, id: string): Promise<AttestationItem | null> {
  if (!DAY_ID.test(id)) return null;
  const out = await dynamo().send(new GetCommand({ TableName: tableName('attestations'), Key: { accountId, id }, ConsistentRead: true }));
  return (out.Item as AttestationItem | undefined) ?? null;
}

export async function deleteAttestationItem(accountId: string, id: string): Promise<void> {
  await dynamo().send(new DeleteCommand({ TableName: tableName('attestations'), Key: { accountId, id } }));
}

/** Sets fields of an attestation, if its status is one of `from`; the item as written, or null when the condition failed. */
export async function changeAttestation(
  accountId: string,
  id: string,
  fields: Partial<Pick<AttestationItem, 'status' | 'tripCount' | 'approvedAt' | 'approvedBy' | 'unlockedAt' | 'unlockedBy'>>,
  from: readonly AttestationItem['status'][],
): Promise<AttestationItem | null> {
  const entries = Object.entries(fields);
  const names: Record<string, string> = { '#status': 'status' };
  const values: Record<string, unknown> = {};
  from.forEach((s, i) => (values[`:from${i}`] = s));
  const sets = entries.map(([field, value], i) => {
    names[`#f${i}`] = field;
    values[`:f${i}`] = value;
    return `#f${i} = :f${i}`;
  });
  try {
    const out = await dynamo().send(
      new UpdateCommand({
        TableName: tableName('attestations'),
        Key: { accountId, id },
        UpdateExpression: `SET ${sets.join(', ')}`,
        ConditionExpression: `attribute_exists(id) AND #status IN (${from.map((_, i) => `:from${i}`).join(', ')})`,
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
        ReturnValues: 'ALL_NEW',
      }),
    );
    return (out.Attributes as AttestationItem | undefined) ?? null;
  } catch (error) {
    if (isConditionFailure(error)) return null;
    throw error;
  }
}


export interface ReminderClaim {
  accountId: string;
  id: string;
  userId: string;
  month: string;
  requestId: string;
  sentAt: number;
  sentBy: string;
  expiresAt: number;
}

const reminderId = (month: string, userId: string) => `reminder#${month}#${userId}`;
/** A reminder for the same user and month within this time is the same click. */
export const REMINDER_REPEAT_MS = 60_000;
const REMINDER_KEEP_SECONDS = 400 * 86_400;

/**
 * Claims the sending of a reminder: true for exactly one of any number of concurrent requests, and
 * false for a request whose `requestId` already sent it or for any within REMINDER_REPEAT_MS of
 * the last one. The claim also remembers when the user was last reminded of the month.
 */
export async function claimReminder(claim: Omit<ReminderClaim, 'id' | 'expiresAt'>): Promise<boolean> {
  try {
    await dynamo().send(
      new PutCommand({
        TableName: tableName('attestations'),
        Item: { ...claim, id: reminderId(claim.month, claim.userId), expiresAt: Math.floor(claim.sentAt / 1000) + REMINDER_KEEP_SECONDS },
        ConditionExpression: 'attribute_not_exists(id) OR (sentAt < :cutoff AND requestId <> :rid)',
        ExpressionAttributeValues: { ':cutoff': claim.sentAt - REMINDER_REPEAT_MS, ':rid': claim.requestId },
      }),
    );
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}

/** Gives a claim back after the mail could not be sent, so that the user's retry sends it. */
export async function releaseReminder(accountId: string, month: string, userId: string, requestId: string): Promise<void> {
  await dynamo()
    .send(
      new DeleteCommand({
        TableName: tableName('attestations'),
        Key: { accountId, id: reminderId(month, userId) },
        ConditionExpression: 'requestId = :rid',
        ExpressionAttributeValues: { ':rid': requestId },
      }),
    )
    .catch((error: unknown) => {
      if (!isConditionFailure(error)) throw error;
    });
}

/** The account's reminders of a month, by user. */
export async function remindersOf(accountId: string, month: string, userId?: string): Promise<ReminderClaim[]> {
  const items = await queryAll({
    KeyConditionExpression: 'accountId = :a AND begins_with(id, :p)',
    ExpressionAttributeValues: { ':a': accountId, ':p': userId === undefined ? `reminder#${month}#` : reminderId(month, userId) },
  });
  return items as unknown as ReminderClaim[];
}
