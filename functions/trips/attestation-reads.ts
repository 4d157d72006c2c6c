/**
 * Reading attestations (table `attestations`, see attestation-repository.ts for its keys): kept
 * apart from the writes so that a function that only reads them (the fleet overview) is granted
 * only that.
 */
import { QueryCommand, type QueryCommandInput, type QueryCommandOutput } from '@aws-sdk/lib-dynamodb';
import type { Attestation } from '../../shared/schemas/trips';
import { dynamo, tableName } from '../platform/db';

export interface AttestationItem {
  accountId: string;
  id: string;
  imei: string;
  userId: string;
  /** accountId#userId: the byUser index. */
  userKey: string;
  fromDay: string;
  toDay: string;
  timeZone: string;
  /** The period as instants: [fromTs, toTs). */
  fromTs: number;
  toTs: number;
  note?: string;
  status: Attestation['status'];
  tripCount: number;
  attestedAt: number;
  approvedAt?: number;
  approvedBy?: string;
  unlockedAt?: number;
  unlockedBy?: string;
}

export const userKeyOf = (accountId: string, userId: string): string => `${accountId}#${userId}`;

/** Every page of a Query of the attestations table (or an index of it). */
export async function queryAll(input: Omit<QueryCommandInput, 'TableName'>): Promise<AttestationItem[]> {
  const items: AttestationItem[] = [];
  let start: QueryCommandOutput['LastEvaluatedKey'];
  do {
    const page: QueryCommandOutput = await dynamo().send(new QueryCommand({ TableName: tableName('attestations'), ...input, ExclusiveStartKey: start }));
    items.push(...((page.Items ?? []) as AttestationItem[]));
    start = page.LastEvaluatedKey;
  } while (start);
  return items;
}

/**
 * Attestations whose period overlaps the local days [firstDay, lastDay]. A period is at most 12
 * months, so it starts no earlier than 12 months before `firstDay`: one key range.
 */
function overlapping(items: AttestationItem[], firstDay: string): AttestationItem[] {
  return items.filter((a) => a.toDay >= firstDay);
}

/** Of an account (the table), of one user of it (byUser), over days. */
export async function accountAttestations(accountId: string, earliestStart: string, firstDay: string, lastDay: string, userId?: string): Promise<AttestationItem[]> {
  const range = { ':lo': earliestStart, ':hi': `${lastDay}~` };
  const items = await queryAll(
    userId === undefined
      ? {
          KeyConditionExpression: 'accountId = :a AND id BETWEEN :lo AND :hi',
          ExpressionAttributeValues: { ':a': accountId, ...range },
        }
      : {
          IndexName: 'byUser',
          KeyConditionExpression: 'userKey = :u AND id BETWEEN :lo AND :hi',
          ExpressionAttributeValues: { ':u': userKeyOf(accountId, userId), ...range },
        },
  );
  return overlapping(items, firstDay);
}

/** Of one unit of the account (byUnit), over days. */
export async function unitAttestations(accountId: string, imei: string, earliestStart: string, firstDay: string, lastDay: string): Promise<AttestationItem[]> {
  const items = await queryAll({
    IndexName: 'byUnit',
    KeyConditionExpression: 'imei = :i AND id BETWEEN :lo AND :hi',
    ExpressionAttributeValues: { ':i': imei, ':lo': earliestStart, ':hi': `${lastDay}~` },
  });
  return overlapping(items.filter((a) => a.accountId === accountId), firstDay);
}
