/**
 * The `report-jobs` table (shared/tables.ts): per user, export jobs under `job#<id>` and the
 * claims `request#<hash>` naming the latest job of each request. Creating a job and pointing the
 * claim at it is one transaction, conditional on the claim as it was read, so of two identical
 * requests at once one creates the job and the other finds it. The consumer runs a job under a
 * lease (a conditional update from queued, or from running once the lease ran out), and every
 * later write names the lease, so a second delivery of the message never writes over the first.
 */
import { randomBytes } from 'node:crypto';
import { DeleteCommand, GetCommand, PutCommand, QueryCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { ExportFormat, ReportKind, ReportQuery } from '../../shared/schemas/reports';
import type { Language } from '../../shared/schemas/common';
import { REPORT_EXPORT_KEEP_DAYS, type ReportJobStatus } from '../../shared/schemas/report-exports';
import { isConditionFailure, lostTransactionRace } from '../platform/conditions';
import { dynamo, tableName } from '../platform/db';

export interface ExportJobItem {
  userId: string;
  sk: string;
  id: string;
  accountId: string;
  requestHash: string;
  kind: ReportKind;
  /** GET /reports/{kind}'s filters as parsed (imeis a list). */
  params: ReportQuery;
  format: ExportFormat;
  lang: Language;
  timeZone: string;
  /** The brand (subsite id) the file is branded with. */
  brand: number;
  status: ReportJobStatus;
  progress: number;
  fileKey?: string;
  /** Failed: a message key. */
  error?: string;
  /** Done: the rows of the report (0: empty). */
  rows?: number;
  scheduleId?: string;
  /** The schedule's period (yyyy-MM-dd..yyyy-MM-dd). */
  period?: string;
  createdAt: number;
  startedAt?: number;
  finishedAt?: number;
  /** The running consumer's lease: its token and until when (epoch ms). */
  lease?: string;
  leaseUntil?: number;
  attempts: number;
  /** Epoch seconds: the item's expiry (30 days after creation). */
  expiresAt: number;
}

export const KEEP_MS = REPORT_EXPORT_KEEP_DAYS * 86_400_000;
const jobKey = (id: string) => `job#${id}`;
const requestKey = (hash: string) => `request#${hash}`;

/** A new job id: its creation time (base 36, fixed width, so ids sort by creation) and 40 random bits. */
export function newJobId(now: number): string {
  return `${now.toString(36).padStart(9, '0')}-${randomBytes(5).toString('hex')}`;
}

export async function getJob(userId: string, id: string, options: { consistent?: boolean } = {}): Promise<ExportJobItem | null> {
  const out = await dynamo().send(new GetCommand({ TableName: tableName('reportJobs'), Key: { userId, sk: jobKey(id) }, ConsistentRead: options.consistent }));
  return (out.Item as ExportJobItem | undefined) ?? null;
}

/** The job the request's claim names, if any. */
export async function claimedJobId(userId: string, hash: string): Promise<string | null> {
  const out = await dynamo().send(new GetCommand({ TableName: tableName('reportJobs'), Key: { userId, sk: requestKey(hash) }, ConsistentRead: true }));
  return typeof out.Item?.['jobId'] === 'string' ? out.Item['jobId'] : null;
}

/**
 * Stores a new job and points its request's claim at it, if the claim still names `previous`
 * (null: no claim yet). False when another request changed the claim first.
 */
export async function putJobClaiming(job: ExportJobItem, previous: string | null): Promise<boolean> {
  const TableName = tableName('reportJobs');
  try {
    await dynamo().send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Put: {
              TableName,
              Item: { userId: job.userId, sk: requestKey(job.requestHash), jobId: job.id, expiresAt: job.expiresAt },
              ...(previous === null
                ? { ConditionExpression: 'attribute_not_exists(sk)' }
                : { ConditionExpression: 'jobId = :previous', ExpressionAttributeValues: { ':previous': previous } }),
            },
          },
          { Put: { TableName, Item: { ...job, sk: jobKey(job.id) }, ConditionExpression: 'attribute_not_exists(sk)' } },
        ],
      }),
    );
    return true;
  } catch (error) {
    if (lostTransactionRace(error)) return false;
    throw error;
  }
}

/** Stores a job whose id is fixed by what it is for (a schedule's period); false when it exists already. */
export async function putJobOnce(job: ExportJobItem): Promise<boolean> {
  try {
    await dynamo().send(new PutCommand({ TableName: tableName('reportJobs'), Item: { ...job, sk: jobKey(job.id) }, ConditionExpression: 'attribute_not_exists(sk)' }));
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}

/** The user's jobs, newest first. */
export async function recentJobs(userId: string, limit: number): Promise<ExportJobItem[]> {
  const out = await dynamo().send(
    new QueryCommand({
      TableName: tableName('reportJobs'),
      KeyConditionExpression: 'userId = :u AND begins_with(sk, :job)',
      ExpressionAttributeValues: { ':u': userId, ':job': 'job#' },
      ScanIndexForward: false,
      Limit: limit,
    }),
  );
  return (out.Items ?? []) as ExportJobItem[];
}

/**
 * Takes the job to run it: from queued, or from running when the lease ran out (its consumer
 * stopped). Null when it is done, failed or running under a live lease.
 */
export async function leaseJob(job: Pick<ExportJobItem, 'userId' | 'id'>, now: number, leaseMs: number): Promise<ExportJobItem | null> {
  const lease = randomBytes(8).toString('hex');
  try {
    const out = await dynamo().send(
      new UpdateCommand({
        TableName: tableName('reportJobs'),
        Key: { userId: job.userId, sk: jobKey(job.id) },
        UpdateExpression: 'SET #status = :running, lease = :lease, leaseUntil = :until, startedAt = :now, progress = :zero ADD attempts :one',
        ConditionExpression: '#status = :queued OR (#status = :running AND leaseUntil < :now)',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':running': 'running', ':queued': 'queued', ':lease': lease, ':until': now + leaseMs, ':now': now, ':zero': 0, ':one': 1 },
        ReturnValues: 'ALL_NEW',
      }),
    );
    return out.Attributes as ExportJobItem;
  } catch (error) {
    if (isConditionFailure(error)) return null;
    throw error;
  }
}

const underLease = { ConditionExpression: '#status = :running AND lease = :lease' } as const;

/** Records progress while the lease holds; false when it no longer does. */
export async function setProgress(job: ExportJobItem, progress: number): Promise<boolean> {
  return updateUnderLease(job, 'SET progress = :progress', { ':progress': progress });
}

export async function finishJob(job: ExportJobItem, fields: { fileKey: string; rows: number; finishedAt: number }): Promise<boolean> {
  return updateUnderLease(job, 'SET #status = :done, progress = :one, fileKey = :key, #rows = :rows, finishedAt = :at REMOVE lease, leaseUntil', {
    ':done': 'done',
    ':one': 1,
    ':key': fields.fileKey,
    ':rows': fields.rows,
    ':at': fields.finishedAt,
  });
}

export async function failJob(job: ExportJobItem, error: string, finishedAt: number): Promise<boolean> {
  return updateUnderLease(job, 'SET #status = :failed, #error = :error, finishedAt = :at REMOVE lease, leaseUntil', { ':failed': 'failed', ':error': error, ':at': finishedAt });
}

/** A job that never reached its queue: failed, so that the same request starts a new one. */
export async function failQueuedJob(job: Pick<ExportJobItem, 'userId' | 'id'>, error: string, finishedAt: number): Promise<void> {
  await dynamo()
    .send(
      new UpdateCommand({
        TableName: tableName('reportJobs'),
        Key: { userId: job.userId, sk: jobKey(job.id) },
        UpdateExpression: 'SET #status = :failed, #error = :error, finishedAt = :at',
        ConditionExpression: '#status = :queued',
        ExpressionAttributeNames: { '#status': 'status', '#error': 'error' },
        ExpressionAttributeValues: { ':failed': 'failed', ':queued': 'queued', ':error': error, ':at': finishedAt },
      }),
    )
    .catch((e: unknown) => {
      if (!isConditionFailure(e)) throw e;
    });
}

async function updateUnderLease(job: ExportJobItem, UpdateExpression: string, values: Record<string, unknown>): Promise<boolean> {
  const names: Record<string, string> = { '#status': 'status' };
  if (UpdateExpression.includes('#rows')) names['#rows'] = 'rows';
  if (UpdateExpression.includes('#error')) names['#error'] = 'error';
  try {
    await dynamo().send(
      new UpdateCommand({
        TableName: tableName('reportJobs'),
        Key: { userId: job.userId, sk: jobKey(job.id) },
        UpdateExpression,
        ...underLease,
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: { ...values, ':running': 'running', ':lease': job.lease },
      }),
    );
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}

/** Removes an expired job (its file is deleted by the caller first). */
export async function deleteJob(job: Pick<ExportJobItem, 'userId' | 'id'>): Promise<void> {
  await dynamo().send(new DeleteCommand({ TableName: tableName('reportJobs'), Key: { userId: job.userId, sk: jobKey(job.id) } }));
}
