/** For tests of the ingest path: the dead letters one tracker left on the day of `at` (epoch ms). */
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { DeadLetterItem } from '../../functions/ingest/dead-letters';
import { dynamo, tableName } from '../../functions/platform/db';

export async function deadLettersOf(imei: string, at: number): Promise<DeadLetterItem[]> {
  const out = await dynamo().send(
    new QueryCommand({
      TableName: tableName('deadLetters'),
      KeyConditionExpression: '#d = :d',
      FilterExpression: 'imei = :i',
      ExpressionAttributeNames: { '#d': 'day' },
      ExpressionAttributeValues: { ':d': new Date(at).toISOString().slice(0, 10), ':i': imei },
      ConsistentRead: true,
    }),
  );
  return (out.Items ?? []) as DeadLetterItem[];
}
