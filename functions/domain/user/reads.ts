/**
 * Reads of the `users` item, each parsed by its schema (./schema.ts): one user by id, and the
 * users of an account (one Query on the `byAccount` index, page by page).
 */
import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo, tableName } from '../../platform/db';
import { queryAll } from '../../platform/queries';
import { parseUserFields, parseUserItem, type UserField, type UserItem } from './schema';

/** The user, or null when there is none. */
export async function getUserItem(userId: string, options: { consistent?: boolean } = {}): Promise<UserItem | null> {
  const out = await dynamo().send(new GetCommand({ TableName: tableName('users'), Key: { userId }, ...(options.consistent ? { ConsistentRead: true } : {}) }));
  return out.Item ? parseUserItem(out.Item) : null;
}

/** Some attributes of the user (a projection), or null when there is none. */
export async function getUserFields<K extends UserField>(userId: string, fields: readonly K[]): Promise<Pick<UserItem, K> | null> {
  const names = Object.fromEntries(fields.map((f, i) => [`#a${i}`, f]));
  const out = await dynamo().send(
    new GetCommand({ TableName: tableName('users'), Key: { userId }, ProjectionExpression: Object.keys(names).join(', '), ExpressionAttributeNames: names }),
  );
  return out.Item ? parseUserFields(out.Item, fields) : null;
}

/** Every user item of the account as stored, with only `attributes` when given. */
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

/** Every user of the account, parsed. */
export async function accountUserRecords(accountId: string): Promise<UserItem[]> {
  return (await accountUserItems(accountId)).map(parseUserItem);
}

/** Some attributes of every user of the account, parsed. */
export async function accountUserFields<K extends UserField>(accountId: string, fields: readonly K[]): Promise<Pick<UserItem, K>[]> {
  return (await accountUserItems(accountId, fields)).map((item) => parseUserFields(item, fields));
}
