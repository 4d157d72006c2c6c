/**
 * The `report-schedules` table (shared/tables.ts):
 * - `user#<userId>` / `schedule#<id>`: a schedule, readable and writable by its owner's key only;
 *   its `dueBucket` and `nextDueAt` put it in the sparse `due` index, which the scheduled job
 *   queries per bucket for what is due (no Scan, as safe return home, docs/decisions/0024);
 * - `sent#<scheduleId>#<period>` / `<recipient>`: the claim that makes a period's e-mail go to a
 *   recipient once, however often its sending is retried or raced;
 * - `reminder#<yyyy-MM>` / `<accountId>#<userId>`: the same for the attestation reminder of a
 *   month, and `reminder-run#<yyyy-MM>` / `checkpoint`: how far that month's run got.
 */
import { createHash } from 'node:crypto';
import { DeleteCommand, GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Language } from '../../shared/schemas/common';
import type { ReportFormat, ReportKind, ReportQuery } from '../../shared/schemas/reports';
import type { ScheduleEvery } from '../../shared/schemas/report-exports';
import { isConditionFailure } from '../platform/conditions';
import { dynamo, tableName } from '../platform/db';
import { queryAll } from '../platform/queries';

export type ScheduleFilters = Omit<ReportQuery, 'from' | 'to'>;

export interface ScheduleItem {
  pk: string;
  sk: string;
  id: string;
  userId: string;
  accountId: string;
  kind: ReportKind;
  filters: ScheduleFilters;
  format: ReportFormat;
  every: ScheduleEvery;
  recipients: string[];
  lang: Language;
  skipEmpty: boolean;
  timeZone: string;
  /** The brand of its e-mails and files: the owner's. */
  brand: number;
  /** Epoch ms of its next run; with `dueBucket`, its place in the due index. */
  nextDueAt: number;
  dueBucket: string;
  lastPeriod?: string;
  createdAt: number;
  updatedAt: number;
}

/** The due index is spread over this many buckets (partitions), each queried by the job. */
export const DUE_BUCKETS = 4;
export const dueBucketOf = (id: string): string => `due#${parseInt(createHash('sha256').update(id).digest('hex').slice(0, 8), 16) % DUE_BUCKETS}`;

export const scheduleKey = (userId: string, id: string) => ({ pk: `user#${userId}`, sk: `schedule#${id}` });

export async function getSchedule(userId: string, id: string, options: { consistent?: boolean } = {}): Promise<ScheduleItem | null> {
  const out = await dynamo().send(new GetCommand({ TableName: tableName('reportSchedules'), Key: scheduleKey(userId, id), ConsistentRead: options.consistent }));
  return (out.Item as ScheduleItem | undefined) ?? null;
}

export async function ownSchedules(userId: string): Promise<ScheduleItem[]> {
  const items = await queryAll(
    (start) =>
      new QueryCommand({
        TableName: tableName('reportSchedules'),
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :s)',
        ExpressionAttributeValues: { ':pk': `user#${userId}`, ':s': 'schedule#' },
        ExclusiveStartKey: start,
      }),
  );
  return items as unknown as ScheduleItem[];
}

/** Creates (`exists: false`) or replaces (`exists: true`) a schedule; false when it was not as expected (created twice, or gone). */
export async function writeSchedule(item: ScheduleItem, exists: boolean): Promise<boolean> {
  try {
    await dynamo().send(
      new PutCommand({ TableName: tableName('reportSchedules'), Item: item, ConditionExpression: exists ? 'attribute_exists(sk)' : 'attribute_not_exists(sk)' }),
    );
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}

export async function deleteSchedule(userId: string, id: string): Promise<boolean> {
  try {
    await dynamo().send(new DeleteCommand({ TableName: tableName('reportSchedules'), Key: scheduleKey(userId, id), ConditionExpression: 'attribute_exists(sk)' }));
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}

/** Schedules due at or before `now` in one bucket (the index is eventually consistent: read each again). */
export async function queryDue(bucket: string, now: number, limit: number): Promise<{ pk: string; sk: string }[]> {
  const out = await dynamo().send(
    new QueryCommand({
      TableName: tableName('reportSchedules'),
      IndexName: 'due',
      KeyConditionExpression: 'dueBucket = :b AND nextDueAt <= :now',
      ExpressionAttributeValues: { ':b': bucket, ':now': now },
      Limit: limit,
    }),
  );
  return (out.Items ?? []).map((i) => ({ pk: String(i['pk']), sk: String(i['sk']) }));
}

export async function readScheduleByKey(key: { pk: string; sk: string }): Promise<ScheduleItem | null> {
  const out = await dynamo().send(new GetCommand({ TableName: tableName('reportSchedules'), Key: key, ConsistentRead: true }));
  return (out.Item as ScheduleItem | undefined) ?? null;
}

/** Moves a schedule on to its next run, if it is still due at `dueAt` (a concurrent run or an edit moved it first: false). */
export async function advanceSchedule(item: Pick<ScheduleItem, 'pk' | 'sk'>, dueAt: number, next: number, period: string): Promise<boolean> {
  try {
    await dynamo().send(
      new UpdateCommand({
        TableName: tableName('reportSchedules'),
        Key: { pk: item.pk, sk: item.sk },
        UpdateExpression: 'SET nextDueAt = :next, lastPeriod = :period',
        ConditionExpression: 'nextDueAt = :due',
        ExpressionAttributeValues: { ':next': next, ':period': period, ':due': dueAt },
      }),
    );
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}

/** Claims are kept this long: beyond any retry of what they guard. */
const CLAIM_KEEP_SECONDS = 62 * 86_400;

/** True for exactly one caller per key, however many try at once. */
export async function claimOnce(pk: string, sk: string, now: number, fields: Record<string, unknown> = {}): Promise<boolean> {
  try {
    await dynamo().send(
      new PutCommand({
        TableName: tableName('reportSchedules'),
        Item: { ...fields, pk, sk, claimedAt: now, expiresAt: Math.floor(now / 1000) + CLAIM_KEEP_SECONDS },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    );
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}

/** Gives a claim back after its e-mail could not be sent, so that a retry sends it. */
export async function releaseClaim(pk: string, sk: string, now: number): Promise<void> {
  await dynamo()
    .send(
      new DeleteCommand({
        TableName: tableName('reportSchedules'),
        Key: { pk, sk },
        ConditionExpression: 'claimedAt = :at',
        ExpressionAttributeValues: { ':at': now },
      }),
    )
    .catch((error: unknown) => {
      if (!isConditionFailure(error)) throw error;
    });
}

export const sentClaimKey = (scheduleId: string, period: string, recipient: string) => ({ pk: `sent#${scheduleId}#${period}`, sk: recipient });

/** A stored value under (pk, sk) with no condition: the reminder run's checkpoint. */
export async function readMarker(pk: string, sk: string): Promise<Record<string, unknown> | null> {
  const out = await dynamo().send(new GetCommand({ TableName: tableName('reportSchedules'), Key: { pk, sk }, ConsistentRead: true }));
  return out.Item ?? null;
}

/** Replaces a marker if it still holds `previous` in `step` (null: none yet); false when another run moved it. */
export async function moveMarker(pk: string, sk: string, previous: number | null, fields: Record<string, unknown> & { step: number }, now: number): Promise<boolean> {
  try {
    await dynamo().send(
      new PutCommand({
        TableName: tableName('reportSchedules'),
        Item: { ...fields, pk, sk, expiresAt: Math.floor(now / 1000) + CLAIM_KEEP_SECONDS },
        ...(previous === null ? { ConditionExpression: 'attribute_not_exists(pk)' } : { ConditionExpression: '#step = :previous', ExpressionAttributeNames: { '#step': 'step' }, ExpressionAttributeValues: { ':previous': previous } }),
      }),
    );
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}
