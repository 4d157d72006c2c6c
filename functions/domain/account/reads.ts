/** Reads of the `accounts` item, each parsed by its schema (./schema.ts). */
import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo, tableName } from '../../platform/db';
import { queryAll } from '../../platform/queries';
import { parseAccountFields, parseAccountItem, type AccountField, type AccountItem } from './schema';

/** The account, or null when there is none. */
export async function getAccountItem(accountId: string, options: { consistent?: boolean } = {}): Promise<AccountItem | null> {
  const out = await dynamo().send(new GetCommand({ TableName: tableName('accounts'), Key: { accountId }, ...(options.consistent ? { ConsistentRead: true } : {}) }));
  return out.Item ? parseAccountItem(out.Item) : null;
}

/** Some attributes of the account (a projection), or null when there is none. */
export async function getAccountFields<K extends AccountField>(accountId: string, fields: readonly K[], options: { consistent?: boolean } = {}): Promise<Pick<AccountItem, K> | null> {
  const names = Object.fromEntries(fields.map((f, i) => [`#a${i}`, f]));
  const out = await dynamo().send(
    new GetCommand({
      TableName: tableName('accounts'),
      Key: { accountId },
      ProjectionExpression: Object.keys(names).join(', '),
      ExpressionAttributeNames: names,
      ...(options.consistent ? { ConsistentRead: true } : {}),
    }),
  );
  return out.Item ? parseAccountFields(out.Item, fields) : null;
}

/**
 * The accounts under a parent (the sparse byParent index: accounts whose item carries
 * `parentAccountId`, written together with `parentId` where an account is made under a parent).
 */
export async function childAccountItems(parentId: string): Promise<AccountItem[]> {
  const items = await queryAll(
    (start) =>
      new QueryCommand({
        TableName: tableName('accounts'),
        IndexName: 'byParent',
        KeyConditionExpression: 'parentAccountId = :p',
        ExpressionAttributeValues: { ':p': parentId },
        ExclusiveStartKey: start,
      }),
  );
  return items.map(parseAccountItem).filter((a) => a.parentId === parentId);
}
