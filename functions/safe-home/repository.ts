/**
 * The `safe-home` table: one item per unit (docs/decisions/0024-safe-return-home.md). Every write
 * of the item is a whole Put conditional on the revision it was computed from (or on there being
 * none), so concurrent toggles, edits and the job's advance never mix: the loser reads again. While
 * the unit is on, the item carries `dueBucket` and `nextDueAt` (epoch ms of its next check), the
 * keys of the sparse `due` index the job queries; off, it carries neither.
 *
 * The item names its account: an item left by a previous owner of the IMEI is not the new owner's
 * (the service reads it as empty and replaces it).
 */
import { GetCommand, PutCommand, QueryCommand, UpdateCommand, type QueryCommandOutput } from '@aws-sdk/lib-dynamodb';
import { z } from 'zod';
import { scheduleEntrySchema, SAFE_HOME_RADIUS_DEFAULT_M } from '../../shared/schemas/safe-home';
import { isConditionFailure } from '../platform/conditions';
import { dynamo, tableName } from '../platform/db';

/** The due index is spread over this many buckets (partitions), each queried by the job. */
export const DUE_BUCKETS = 8;

export const safeHomeRecordSchema = z.object({
  imei: z.string(),
  accountId: z.string(),
  status: z.boolean().catch(false),
  address: z.string().nullable().catch(null),
  radius: z.number().positive().catch(SAFE_HOME_RADIUS_DEFAULT_M),
  centerLat: z.number().nullable().catch(null),
  centerLng: z.number().nullable().catch(null),
  schedule: z.array(scheduleEntrySchema).catch([]),
  frequency: z.union([z.literal(1), z.literal(2), z.literal(3)]).nullable().catch(null),
  startDate: z.string().nullable().catch(null),
  timeZone: z.string().nullable().catch(null),
  nextDueAt: z.number().nullable().catch(null),
  rev: z.number().int().nonnegative().catch(0),
  updatedAt: z.string().catch(''),
});
export type SafeHomeRecord = z.infer<typeof safeHomeRecordSchema>;

function parse(item: Record<string, unknown>): SafeHomeRecord {
  return safeHomeRecordSchema.parse({
    address: null,
    centerLat: null,
    centerLng: null,
    schedule: [],
    frequency: null,
    startDate: null,
    timeZone: null,
    nextDueAt: null,
    ...item,
  });
}

/** The bucket of a unit in the due index: a digest of the IMEI's digits. */
export function dueBucketOf(imei: string): string {
  let sum = 0;
  for (let i = 0; i < imei.length; i++) sum = (sum * 31 + imei.charCodeAt(i)) % 1_000_003;
  return `due#${sum % DUE_BUCKETS}`;
}

export const emptyRecord = (imei: string, accountId: string): SafeHomeRecord => ({
  imei,
  accountId,
  status: false,
  address: null,
  radius: SAFE_HOME_RADIUS_DEFAULT_M,
  centerLat: null,
  centerLng: null,
  schedule: [],
  frequency: null,
  startDate: null,
  timeZone: null,
  nextDueAt: null,
  rev: 0,
  updatedAt: '',
});

export async function readSafeHome(imei: string, consistent = true): Promise<SafeHomeRecord | null> {
  const out = await dynamo().send(new GetCommand({ TableName: tableName('safeHome'), Key: { imei }, ConsistentRead: consistent }));
  return out.Item ? parse(out.Item) : null;
}

/** The account's items by IMEI (the byAccount index). */
export async function listAccountSafeHomes(accountId: string): Promise<SafeHomeRecord[]> {
  const out: SafeHomeRecord[] = [];
  let start: QueryCommandOutput['LastEvaluatedKey'];
  do {
    const page: QueryCommandOutput = await dynamo().send(
      new QueryCommand({
        TableName: tableName('safeHome'),
        IndexName: 'byAccount',
        KeyConditionExpression: 'accountId = :a',
        ExpressionAttributeValues: { ':a': accountId },
        ExclusiveStartKey: start,
      }),
    );
    for (const item of page.Items ?? []) out.push(parse(item));
    start = page.LastEvaluatedKey;
  } while (start);
  return out;
}

/**
 * Writes `next` whole if the stored item is still at `expectedRev` (null: there is none). The item
 * is in the due index exactly while it is on with a next check. False when another write came first.
 */
export async function writeSafeHome(next: SafeHomeRecord, expectedRev: number | null): Promise<boolean> {
  const due = next.status && next.nextDueAt !== null;
  const item: Record<string, unknown> = { ...next, ...(due ? { dueBucket: dueBucketOf(next.imei) } : {}) };
  if (!due) delete item['nextDueAt'];
  try {
    await dynamo().send(
      new PutCommand({
        TableName: tableName('safeHome'),
        Item: item,
        ConditionExpression: expectedRev === null ? 'attribute_not_exists(imei)' : '#rev = :rev',
        ...(expectedRev === null ? {} : { ExpressionAttributeNames: { '#rev': 'rev' }, ExpressionAttributeValues: { ':rev': expectedRev } }),
      }),
    );
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}

/** Items whose next check is at or before `nowMs`, from one bucket of the due index (eventually consistent: read each again). */
export async function queryDue(bucket: string, nowMs: number, limit: number): Promise<{ imei: string; nextDueAt: number }[]> {
  const out: { imei: string; nextDueAt: number }[] = [];
  let start: QueryCommandOutput['LastEvaluatedKey'];
  do {
    const page: QueryCommandOutput = await dynamo().send(
      new QueryCommand({
        TableName: tableName('safeHome'),
        IndexName: 'due',
        KeyConditionExpression: 'dueBucket = :b AND nextDueAt <= :now',
        ExpressionAttributeValues: { ':b': bucket, ':now': nowMs },
        ExclusiveStartKey: start,
        Limit: limit,
      }),
    );
    for (const item of page.Items ?? []) out.push({ imei: String(item['imei']), nextDueAt: Number(item['nextDueAt']) });
    start = page.LastEvaluatedKey;
  } while (start && out.length < limit);
  return out;
}

/**
 * Moves a checked item on to its next check (null: out of the due index), conditional on the
 * revision and the check it was read with: of two jobs, or a job and an edit, one wins.
 */
export async function advanceSafeHome(record: Pick<SafeHomeRecord, 'imei' | 'rev' | 'nextDueAt'>, next: number | null, updatedAt: string): Promise<boolean> {
  try {
    await dynamo().send(
      new UpdateCommand({
        TableName: tableName('safeHome'),
        Key: { imei: record.imei },
        UpdateExpression: next === null ? 'SET #rev = :next, updatedAt = :at REMOVE nextDueAt, dueBucket' : 'SET #rev = :next, updatedAt = :at, nextDueAt = :due',
        ConditionExpression: '#rev = :rev AND nextDueAt = :was',
        ExpressionAttributeNames: { '#rev': 'rev' },
        ExpressionAttributeValues: { ':rev': record.rev, ':next': record.rev + 1, ':at': updatedAt, ':was': record.nextDueAt, ...(next === null ? {} : { ':due': next }) },
      }),
    );
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}
