/**
 * Readings a user enters about a unit's counters, "at this time the vehicle read X": odometer
 * entries (functions/trips/odometer.ts) and operating-hours entries
 * (functions/units/editor/operating-hours.ts). Each kind has its table (partition `imei`, sort
 * `atTs`); the latest entry of a kind is also copied into the unit's `unit-copies` item, which
 * ingest reads with the unit (functions/domain/unit/copies.ts setUnitCorrectionUpdate), so the service stage counts
 * from it without a read per position (docs/decisions/0027-odometer-and-operating-hours.md).
 *
 * A put or delete and the copy are one transaction, conditional on the copies' revision as read:
 * a write that loses to another is planned again from a fresh read, so the copy always holds the
 * latest entry however entries race.
 */
import { DeleteCommand, PutCommand, QueryCommand, TransactWriteCommand, type QueryCommandOutput } from '@aws-sdk/lib-dynamodb';
import { cancellationCodes, isConditionFailure } from '../platform/conditions';
import { dynamo } from '../platform/db';
import { ConflictError } from '../platform/errors';
import { getCorrectionsSeen, setUnitCorrectionUpdate, type CorrectionField } from '../domain/unit/copies';
import type { HoursCorrection, OdometerCorrection } from '../domain/unit/schema';

export interface ReadingEntryItem {
  imei: string;
  atTs: number;
  accountId: string;
}

export interface ReadingKind<E extends ReadingEntryItem> {
  /** The kind's table, `() => tableName('<key>')` (a literal key, as the grants check reads it). */
  table: () => string;
  field: CorrectionField;
  /** The copy ingest keeps of the latest entry; null when there is none. */
  correctionOf: (latest: E | undefined) => OdometerCorrection | HoursCorrection | null;
}

const TRIES = 6;

/** The unit's entries of one kind from `fromTs` (its registration) on, of its account, oldest first; strongly consistent when asked. */
export async function listReadingEntries<E extends ReadingEntryItem>(
  kind: Pick<ReadingKind<E>, 'table'>,
  unit: { imei: string; accountId: string },
  fromTs: number,
  consistent = false,
): Promise<E[]> {
  const entries: E[] = [];
  let start: QueryCommandOutput['LastEvaluatedKey'];
  do {
    const page: QueryCommandOutput = await dynamo().send(
      new QueryCommand({
        TableName: kind.table(),
        KeyConditionExpression: 'imei = :imei AND atTs >= :from',
        ExpressionAttributeValues: { ':imei': unit.imei, ':from': Number.isFinite(fromTs) ? fromTs : 0 },
        ConsistentRead: consistent,
        ExclusiveStartKey: start,
      }),
    );
    for (const item of (page.Items ?? []) as E[]) if (item.accountId === unit.accountId) entries.push(item);
    start = page.LastEvaluatedKey;
  } while (start);
  return entries;
}

/** The unit's newest entry of one kind from `fromTs` on (one Query, newest first). */
export async function latestReadingEntry<E extends ReadingEntryItem>(kind: Pick<ReadingKind<E>, 'table'>, unit: { imei: string; accountId: string }, fromTs: number): Promise<E | undefined> {
  const out = await dynamo().send(
    new QueryCommand({
      TableName: kind.table(),
      KeyConditionExpression: 'imei = :imei AND atTs >= :from',
      ExpressionAttributeValues: { ':imei': unit.imei, ':from': Number.isFinite(fromTs) ? fromTs : 0 },
      ScanIndexForward: false,
      // A save answers the unit with the reading it just wrote.
      ConsistentRead: true,
      Limit: 5,
    }),
  );
  return ((out.Items ?? []) as E[]).find((e) => e.accountId === unit.accountId);
}

const latestOf = <E extends ReadingEntryItem>(entries: readonly E[]): E | undefined => entries.reduce<E | undefined>((a, e) => (a === undefined || e.atTs > a.atTs ? e : a), undefined);

/**
 * Puts an entry (replacing one at the same time) or deletes the entry at `deleteAtTs`, and keeps
 * the copy of the latest. False when the entry to delete is not the account's (or gone).
 */
export async function writeReadingEntry<E extends ReadingEntryItem>(
  kind: ReadingKind<E>,
  unit: { imei: string; accountId: string },
  fromTs: number,
  change: { put: E; deleteAtTs?: undefined } | { put?: undefined; deleteAtTs: number },
): Promise<boolean> {
  const { put, deleteAtTs } = change;
  const table = kind.table();
  for (let attempt = 0; attempt < TRIES; attempt++) {
    if (attempt) await new Promise((r) => setTimeout(r, Math.random() * 20 * 2 ** attempt));
    const [seen, entries] = await Promise.all([getCorrectionsSeen(unit.imei), listReadingEntries<E>(kind, unit, fromTs, true)]);
    let after: E[];
    let op: Record<string, unknown>;
    if (put) {
      after = [...entries.filter((e) => e.atTs !== put.atTs), put];
      op = { Put: { TableName: table, Item: put } };
    } else {
      if (!entries.some((e) => e.atTs === deleteAtTs)) return false;
      after = entries.filter((e) => e.atTs !== deleteAtTs);
      op = {
        Delete: { TableName: table, Key: { imei: unit.imei, atTs: deleteAtTs }, ConditionExpression: 'accountId = :account', ExpressionAttributeValues: { ':account': unit.accountId } },
      };
    }
    const copy = setUnitCorrectionUpdate(unit.imei, unit.accountId, kind.field, kind.correctionOf(latestOf(after)), seen);
    try {
      if (copy) {
        await dynamo().send(new TransactWriteCommand({ TransactItems: [op, copy] }));
      } else if (put) {
        await dynamo().send(new PutCommand({ TableName: table, Item: put }));
      } else {
        await dynamo().send(new DeleteCommand(op['Delete'] as ConstructorParameters<typeof DeleteCommand>[0]));
      }
      return true;
    } catch (error) {
      if (isConditionFailure(error)) return false;
      const codes = cancellationCodes(error);
      if (codes?.some((c) => c === 'ConditionalCheckFailed' || c === 'TransactionConflict')) continue;
      throw error;
    }
  }
  throw new ConflictError('CouldNotSaveUnit');
}
