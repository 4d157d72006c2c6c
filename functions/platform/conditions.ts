/**
 * What DynamoDB's refusals mean, once: a failed condition of a single write, and the reasons a
 * transaction was cancelled. Errors are recognised by name as well as by class, since the SDK's
 * classes differ between its copies (and DynamoDB Local answers the same names).
 */
import { ConditionalCheckFailedException, TransactionCanceledException } from '@aws-sdk/client-dynamodb';

/** A single write's condition failed: someone else's write came first. */
export function isConditionFailure(error: unknown): boolean {
  return error instanceof ConditionalCheckFailedException || (error instanceof Error && error.name === 'ConditionalCheckFailedException');
}

/** The cancellation code of each item of a cancelled transaction ('None' where it was fine), or null for any other error. */
export function cancellationCodes(error: unknown): string[] | null {
  if (!(error instanceof TransactionCanceledException || (error instanceof Error && error.name === 'TransactionCanceledException'))) return null;
  return ((error as TransactionCanceledException).CancellationReasons ?? []).map((r) => r.Code ?? 'None');
}

/** A transaction lost to another write: a condition failed, or a concurrent transaction touched an item. */
export function lostTransactionRace(error: unknown): boolean {
  return cancellationCodes(error)?.some((c) => c === 'ConditionalCheckFailed' || c === 'TransactionConflict') ?? false;
}

/** A transaction's condition failed (not a conflict): the item is not as the writer expected. */
export const transactionConditionFailed = (error: unknown): boolean => cancellationCodes(error)?.includes('ConditionalCheckFailed') ?? false;
