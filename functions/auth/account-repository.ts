import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo, tableName } from '../platform/db';
import { NotFoundError } from '../platform/errors';
import type { AccountRecord } from '../platform/records';

export async function getAccount(accountId: string): Promise<AccountRecord> {
  const out = await dynamo().send(new GetCommand({ TableName: tableName('accounts'), Key: { accountId } }));
  if (!out.Item) throw new NotFoundError('AccountNotFound');
  return out.Item as AccountRecord;
}
