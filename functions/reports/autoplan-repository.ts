/**
 * The `autoplan-reports` table (shared/tables.ts), owned here (docs/decisions/0039-autoplan.md):
 * - `unit#<accountId>#<imei>` / `month#<yyyy-MM>`: a vehicle's month. A report first claims it with
 *   a conditional put, so two requests at once (or a request and the monthly job) report it once;
 *   the claim becomes the stored report when Autoplan took it, and is given back when it did not.
 *   A claim whose holder died (a function's time-out) can be taken over once it is stale.
 * - `automatic` / `<accountId>`: present while the account reports automatically; the job lists
 *   these accounts with one Query.
 * - `run#<yyyy-MM>` / `<accountId>`: the monthly job's work on an account, claimed the same way, so
 *   two runs do not work on one account at once and a finished account is not worked on again.
 */
import { DeleteCommand, GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { randomUUID } from 'node:crypto';
import { autoplanReportSchema, type AutoplanReport } from '../../shared/schemas/autoplan';
import { isConditionFailure } from '../platform/conditions';
import { dynamo, tableName } from '../platform/db';

/** A month claim older than this is a dead one (the HTTP function's 10 s, Autoplan's time-out within it). */
export const MONTH_CLAIM_STALE_MS = 2 * 60_000;
/** An account run older than this is a dead one (the jobs function's 12 minutes). */
export const ACCOUNT_RUN_STALE_MS = 15 * 60_000;
/** Accounts per page of the job's walk. */
const ACCOUNT_PAGE = 50;

const unitPk = (accountId: string, imei: string) => `unit#${accountId}#${imei}`;
const monthSk = (month: string) => `month#${month}`;
const AUTOMATIC = 'automatic';
const runPk = (month: string) => `run#${month}`;

export interface Claim {
  pk: string;
  sk: string;
  claimId: string;
}

/** Claims `(pk, sk)` unless someone holds it (and is not stale) or it is done; null when taken. */
async function claim(pk: string, sk: string, fields: Record<string, unknown>, nowMs: number, staleMs: number): Promise<Claim | null> {
  const claimId = randomUUID();
  try {
    await dynamo().send(
      new PutCommand({
        TableName: tableName('autoplanReports'),
        Item: { ...fields, pk, sk, status: 'claimed', claimId, claimedAt: nowMs },
        ConditionExpression: 'attribute_not_exists(pk) OR (#status = :claimed AND claimedAt < :stale)',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':claimed': 'claimed', ':stale': nowMs - staleMs },
      }),
    );
    return { pk, sk, claimId };
  } catch (error) {
    if (isConditionFailure(error)) return null;
    throw error;
  }
}

/** Gives a claim back (only its holder's); a claim already gone or taken over is left alone. */
export async function releaseClaim(held: Claim): Promise<void> {
  try {
    await dynamo().send(
      new DeleteCommand({
        TableName: tableName('autoplanReports'),
        Key: { pk: held.pk, sk: held.sk },
        ConditionExpression: 'claimId = :id AND #status = :claimed',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':id': held.claimId, ':claimed': 'claimed' },
      }),
    );
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
  }
}

/** Marks a held claim done with `fields`; false when the claim was no longer this holder's. */
async function complete(held: Claim, fields: Record<string, unknown>): Promise<boolean> {
  const names: Record<string, string> = { '#status': 'status' };
  const values: Record<string, unknown> = { ':id': held.claimId, ':done': 'done' };
  const sets = ['#status = :done'];
  Object.entries(fields).forEach(([name, value], i) => {
    names[`#f${i}`] = name;
    values[`:f${i}`] = value;
    sets.push(`#f${i} = :f${i}`);
  });
  try {
    await dynamo().send(
      new UpdateCommand({
        TableName: tableName('autoplanReports'),
        Key: { pk: held.pk, sk: held.sk },
        UpdateExpression: `SET ${sets.join(', ')}`,
        ConditionExpression: 'claimId = :id',
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

/** Claims a vehicle's month for reporting by `by` (a user id, or 'automatic'); null when it is reported or being reported. */
export function claimMonth(accountId: string, imei: string, month: string, by: string, nowMs: number): Promise<Claim | null> {
  return claim(unitPk(accountId, imei), monthSk(month), { accountId, imei, month, by }, nowMs, MONTH_CLAIM_STALE_MS);
}

/** Stores the report Autoplan took on the month's claim. */
export function completeMonth(held: Claim, report: AutoplanReport): Promise<boolean> {
  return complete(held, { report });
}

/** The month's stored report, or null when it has not been reported. */
export async function readMonthReport(accountId: string, imei: string, month: string): Promise<AutoplanReport | null> {
  const out = await dynamo().send(new GetCommand({ TableName: tableName('autoplanReports'), Key: { pk: unitPk(accountId, imei), sk: monthSk(month) }, ConsistentRead: true }));
  if (out.Item?.['status'] !== 'done') return null;
  const parsed = autoplanReportSchema.safeParse(out.Item['report']);
  return parsed.success ? parsed.data : null;
}

/** Whether the account reports automatically. */
export async function readAutomatic(accountId: string): Promise<boolean> {
  const out = await dynamo().send(new GetCommand({ TableName: tableName('autoplanReports'), Key: { pk: AUTOMATIC, sk: accountId }, ConsistentRead: true }));
  return out.Item !== undefined;
}

/** Turns automatic reporting on (an item that the job lists) or off (no item). */
export async function writeAutomatic(accountId: string, on: boolean, by: string, nowMs: number): Promise<void> {
  const key = { pk: AUTOMATIC, sk: accountId };
  if (on) await dynamo().send(new PutCommand({ TableName: tableName('autoplanReports'), Item: { ...key, by, since: new Date(nowMs).toISOString() } }));
  else await dynamo().send(new DeleteCommand({ TableName: tableName('autoplanReports'), Key: key }));
}

/** A page of the accounts that report automatically, from `start`; `next` is null after the last. */
export async function automaticAccounts(start: Record<string, unknown> | null): Promise<{ accountIds: string[]; next: Record<string, unknown> | null }> {
  const out = await dynamo().send(
    new QueryCommand({
      TableName: tableName('autoplanReports'),
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': AUTOMATIC },
      ProjectionExpression: 'sk',
      Limit: ACCOUNT_PAGE,
      ...(start ? { ExclusiveStartKey: start } : {}),
    }),
  );
  return { accountIds: (out.Items ?? []).map((item) => String(item['sk'])), next: out.LastEvaluatedKey ?? null };
}

/** Claims the job's work on an account's month; null when another run works on it or it is done. */
export function claimAccountRun(month: string, accountId: string, nowMs: number): Promise<Claim | null> {
  return claim(runPk(month), accountId, { month }, nowMs, ACCOUNT_RUN_STALE_MS);
}

/** Marks the account's month done: later runs leave it alone. */
export function finishAccountRun(held: Claim, nowMs: number): Promise<boolean> {
  return complete(held, { finishedAt: nowMs });
}
