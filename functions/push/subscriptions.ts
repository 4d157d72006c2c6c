/**
 * The `pushSubscriptions` table (docs/decisions/0048-web-push.md): one item per subscribed browser,
 * keyed by a hash of its endpoint. A browser is subscribed for one user at a time: when another user
 * registers on it, the item passes to them (their alarms, not the previous user's, reach it).
 */
import { createHash } from 'node:crypto';
import { DeleteCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { isConditionFailure } from '../platform/conditions';
import { dynamo, tableName } from '../platform/db';
import { queryAll } from '../platform/queries';

export interface PushSubscriptionRecord {
  id: string;
  userId: string;
  accountId: string;
  endpoint: string;
  p256dh: string;
  auth: string;
  createdAt: string;
}

/** The id of an endpoint: base64url SHA-256 (43 characters). */
export function subscriptionIdOf(endpoint: string): string {
  return createHash('sha256').update(endpoint, 'utf8').digest('base64url');
}

function toRecord(item: Record<string, unknown>): PushSubscriptionRecord {
  return {
    id: String(item['id']),
    userId: String(item['userId']),
    accountId: String(item['accountId']),
    endpoint: String(item['endpoint']),
    p256dh: String(item['p256dh']),
    auth: String(item['auth']),
    createdAt: String(item['createdAt']),
  };
}

/** The user's subscriptions, newest first. */
export async function subscriptionsOf(userId: string): Promise<PushSubscriptionRecord[]> {
  const items = await queryAll(
    (start) =>
      new QueryCommand({
        TableName: tableName('pushSubscriptions'),
        IndexName: 'byUser',
        KeyConditionExpression: 'userId = :u',
        ExpressionAttributeValues: { ':u': userId },
        ScanIndexForward: false,
        ExclusiveStartKey: start,
      }),
  );
  return items.map(toRecord);
}

/** Whether the user has a subscribed browser (a push id, for the alarm receivers). */
export async function hasSubscription(userId: string): Promise<boolean> {
  const out = await dynamo().send(
    new QueryCommand({ TableName: tableName('pushSubscriptions'), IndexName: 'byUser', KeyConditionExpression: 'userId = :u', ExpressionAttributeValues: { ':u': userId }, Limit: 1 }),
  );
  return (out.Items ?? []).length > 0;
}

/** The users of the account with a subscribed browser. */
export async function usersWithSubscriptions(accountId: string): Promise<Set<string>> {
  const items = await queryAll(
    (start) =>
      new QueryCommand({
        TableName: tableName('pushSubscriptions'),
        IndexName: 'byAccount',
        KeyConditionExpression: 'accountId = :a',
        ExpressionAttributeValues: { ':a': accountId },
        ProjectionExpression: 'userId',
        ExclusiveStartKey: start,
      }),
  );
  return new Set(items.map((item) => String(item['userId'])));
}

/** Stores (or replaces, or takes over from another user) the subscription of an endpoint. */
export async function putSubscription(record: PushSubscriptionRecord): Promise<void> {
  await dynamo().send(new PutCommand({ TableName: tableName('pushSubscriptions'), Item: { ...record } }));
}

/** Removes one of the user's subscriptions: false when there is none of theirs with this id. */
export async function deleteOwnSubscription(userId: string, id: string): Promise<boolean> {
  try {
    await dynamo().send(
      new DeleteCommand({ TableName: tableName('pushSubscriptions'), Key: { id }, ConditionExpression: 'userId = :u', ExpressionAttributeValues: { ':u': userId } }),
    );
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}

/** Removes every subscription of the user (the alert opt-out page's remove_push). */
export async function deleteSubscriptionsOf(userId: string): Promise<number> {
  let removed = 0;
  for (const subscription of await subscriptionsOf(userId)) if (await deleteOwnSubscription(userId, subscription.id)) removed++;
  return removed;
}

/**
 * Removes a subscription its push service answered 404 or 410 for, unless the browser has
 * registered it again with new keys since it was read.
 */
export async function deleteGoneSubscription(subscription: Pick<PushSubscriptionRecord, 'id' | 'p256dh'>): Promise<void> {
  try {
    await dynamo().send(
      new DeleteCommand({
        TableName: tableName('pushSubscriptions'),
        Key: { id: subscription.id },
        ConditionExpression: 'p256dh = :k',
        ExpressionAttributeValues: { ':k': subscription.p256dh },
      }),
    );
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
  }
}
