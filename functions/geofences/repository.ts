/**
 * The `geofences` table and the transaction that keeps the copies on the units in step: a save or
 * delete writes the geofence item (conditional on the version read) and every zone update of its
 * plan (functions/domain/unit/copies.ts: the limit and the unit's owner are conditions) in one
 * TransactWriteItems, so the event engine never sees a geofence half applied.
 */
import { GetCommand, QueryCommand, TransactWriteCommand, type QueryCommandOutput } from '@aws-sdk/lib-dynamodb';
import { dynamo, tableName } from '../platform/db';
import { putUnitZoneUpdate, removeUnitZoneUpdate } from '../domain/unit/copies';
import type { UnitTransactUpdate } from '../domain/unit/writes';
import { parseGeofenceItem, zoneOf, type GeofenceItem } from './geofence-item';
import type { ZonePlan } from './plan';

export async function listGeofenceItems(accountId: string): Promise<GeofenceItem[]> {
  const items: GeofenceItem[] = [];
  let start: QueryCommandOutput['LastEvaluatedKey'];
  do {
    const page: QueryCommandOutput = await dynamo().send(
      new QueryCommand({
        TableName: tableName('geofences'),
        KeyConditionExpression: 'accountId = :a',
        ExpressionAttributeValues: { ':a': accountId },
        ExclusiveStartKey: start,
      }),
    );
    for (const item of page.Items ?? []) items.push(parseGeofenceItem(item));
    start = page.LastEvaluatedKey;
  } while (start);
  return items;
}

export async function getGeofenceItem(accountId: string, id: string, consistent = false): Promise<GeofenceItem | null> {
  const out = await dynamo().send(new GetCommand({ TableName: tableName('geofences'), Key: { accountId, id }, ConsistentRead: consistent }));
  return out.Item ? parseGeofenceItem(out.Item) : null;
}

/**
 * Writes `next` (created when `before` is null, else replacing the version read) and its plan's
 * zone copies in one transaction. Throws DynamoDB's TransactionCanceledException when another
 * write came first (the caller reads again).
 */
export async function writeGeofence(before: GeofenceItem | null, next: GeofenceItem, plan: ZonePlan, maxZones: number): Promise<void> {
  const zone = zoneOf(next);
  const units: UnitTransactUpdate[] = [
    ...plan.put.map((unit) => putUnitZoneUpdate(unit, next.id, zone, maxZones)),
    ...plan.remove.map((unit) => removeUnitZoneUpdate(unit, next.id)).filter((u): u is UnitTransactUpdate => u !== null),
  ];
  await dynamo().send(
    new TransactWriteCommand({
      TransactItems: [
        {
          Put: {
            TableName: tableName('geofences'),
            Item: next,
            ...(before
              ? { ConditionExpression: '#v = :v', ExpressionAttributeNames: { '#v': 'v' }, ExpressionAttributeValues: { ':v': before.v } }
              : { ConditionExpression: 'attribute_not_exists(id)' }),
          },
        },
        ...units,
      ],
    }),
  );
}

/** Deletes the version read and removes its copies, in one transaction (cancelled as above). */
export async function deleteGeofence(before: GeofenceItem, plan: ZonePlan): Promise<void> {
  const units = plan.remove.map((unit) => removeUnitZoneUpdate(unit, before.id)).filter((u): u is UnitTransactUpdate => u !== null);
  await dynamo().send(
    new TransactWriteCommand({
      TransactItems: [
        {
          Delete: {
            TableName: tableName('geofences'),
            Key: { accountId: before.accountId, id: before.id },
            ConditionExpression: '#v = :v',
            ExpressionAttributeNames: { '#v': 'v' },
            ExpressionAttributeValues: { ':v': before.v },
          },
        },
        ...units,
      ],
    }),
  );
}
