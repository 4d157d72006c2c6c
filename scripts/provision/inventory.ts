/**
 * The inventory item of a tracker, written the same way against DynamoDB Local and a deployed
 * table: `{ imei, registered: false, provisionedAt }`, only if the IMEI is not there yet, so a
 * re-run (or a second operator) never resets a tracker a customer has registered.
 */
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { PutCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';

export type InventoryResult =
  | { readonly status: 'added'; readonly provisionedAt: string }
  | { readonly status: 'exists'; readonly provisionedAt?: string; readonly registered?: boolean };

export async function addToInventory(db: DynamoDBDocumentClient, table: string, imei: string, now: Date): Promise<InventoryResult> {
  const provisionedAt = now.toISOString();
  try {
    await db.send(
      new PutCommand({
        TableName: table,
        Item: { imei, registered: false, provisionedAt },
        ConditionExpression: 'attribute_not_exists(imei)',
        // Lets the report say when it was provisioned and whether it is registered, without a read.
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      }),
    );
    return { status: 'added', provisionedAt };
  } catch (e) {
    if (!(e instanceof ConditionalCheckFailedException)) throw e;
    // The document client does not unmarshall errors: the old item comes as attribute values.
    const old = e.Item;
    return {
      status: 'exists',
      ...(old?.['provisionedAt']?.S ? { provisionedAt: old['provisionedAt'].S } : {}),
      ...(old?.['registered']?.BOOL !== undefined ? { registered: old['registered'].BOOL } : {}),
    };
  }
}
