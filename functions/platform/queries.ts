/**
 * Queries that several capabilities make the same way: every page of a Query, and the users of an
 * account (one Query on the users' `byAccount` index, page by page). Each request is written at
 * its call here or in the caller, where the grant check (shared/capability-resources.ts) reads its
 * table.
 */
import { QueryCommand, type QueryCommandOutput } from '@aws-sdk/lib-dynamodb';
import { dynamo, tableName } from './db';

export type PageStart = QueryCommandOutput['LastEvaluatedKey'];

/** Every item of a Query, following it page by page. */
export async function queryAll(command: (start: PageStart) => QueryCommand): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  let start: PageStart;
  do {
    const page: QueryCommandOutput = await dynamo().send(command(start));
    items.push(...(page.Items ?? []));
    start = page.LastEvaluatedKey;
  } while (start);
  return items;
}

/** Every user item of the account, with only `attributes` when given. */
export function accountUserItems(accountId: string, attributes?: readonly string[]): Promise<Record<string, unknown>[]> {
  const names = attributes ? Object.fromEntries(attributes.map((a, i) => [`#a${i}`, a])) : undefined;
  return queryAll(
    (start) =>
      new QueryCommand({
        TableName: tableName('users'),
        IndexName: 'byAccount',
        KeyConditionExpression: 'accountId = :account',
        ExpressionAttributeValues: { ':account': accountId },
        ...(names ? { ProjectionExpression: Object.keys(names).join(', '), ExpressionAttributeNames: names } : {}),
        ExclusiveStartKey: start,
      }),
  );
}
