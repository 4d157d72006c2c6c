/**
 * The access lock's writes and its log. A lock or an unlock is one transaction: the unit item's
 * `lockedBy`, `lockedByName` and `lockedAt`, conditional on the lock being as the caller saw it,
 * and the log entry. So of two users locking one unit at once exactly one wins, and the log never
 * disagrees with the unit.
 */
import { randomUUID } from 'node:crypto';
import { QueryCommand, TransactWriteCommand, type QueryCommandOutput } from '@aws-sdk/lib-dynamodb';
import { setTimeout as sleep } from 'node:timers/promises';
import { LOCK_LOG_LIMIT, type LockAction, type LockLogEntry } from '../../shared/schemas/unit-lock';
import { cancellationCodes } from '../platform/conditions';
import { dynamo, tableName } from '../platform/db';
import { getUserFields } from '../domain/user/reads';
import type { UserRecord } from '../domain/user/schema';
import type { UnitItem } from '../domain/unit/schema';

/** A lock-log item: the unit's IMEI and `<ISO time>#<id>` as keys. */
interface LockLogItem {
  imei: string;
  sk: string;
  id: string;
  accountId: string;
  action: LockAction;
  at: string;
  userId: string;
  userName: string;
  bySupport: boolean;
}

export interface LockActor {
  userId: string;
  name: string;
  bySupport: boolean;
}

/** The user record fields the lock needs (the name shown, and where the support unlock e-mail goes). */
export type LockUser = Pick<UserRecord, 'userId' | 'accountId' | 'firstName' | 'lastName' | 'username' | 'email' | 'lang' | 'subsiteId'>;

export function getLockUser(userId: string): Promise<LockUser | null> {
  return getUserFields(userId, ['userId', 'accountId', 'firstName', 'lastName', 'username', 'email', 'lang', 'subsiteId']);
}

export const fullNameOf = (user: Pick<LockUser, 'firstName' | 'lastName' | 'username'>): string =>
  `${user.firstName ?? ''} ${user.lastName ?? ''}`.trim() || user.username;

/** What the unit's lock was when the caller read it: the write happens only if it still is. */
type SeenLock = Pick<UnitItem, 'imei' | 'accountId' | 'lockedBy' | 'lockedAt'>;

export type LockWriteResult = 'written' | 'changed';

const CONFLICT_RETRIES = 5;

function logPut(unit: SeenLock, action: LockAction, actor: LockActor, at: string) {
  const id = randomUUID();
  const item: LockLogItem = {
    imei: unit.imei,
    sk: `${at}#${id}`,
    id,
    accountId: unit.accountId,
    action,
    at,
    userId: actor.userId,
    userName: actor.name,
    bySupport: actor.bySupport,
  };
  return { Put: { TableName: tableName('lockLog'), Item: item, ConditionExpression: 'attribute_not_exists(sk)' } };
}

async function transact(items: object[]): Promise<LockWriteResult> {
  for (let attempt = 0; ; attempt++) {
    try {
      await dynamo().send(new TransactWriteCommand({ TransactItems: items as never }));
      return 'written';
    } catch (error) {
      const reasons = cancellationCodes(error);
      if (!reasons) throw error;
      // The unit is not as seen: another lock or unlock came first.
      if (reasons[0] === 'ConditionalCheckFailed') return 'changed';
      if (!reasons.includes('TransactionConflict') || attempt >= CONFLICT_RETRIES) throw error;
      await sleep((10 + Math.random() * 40) * 2 ** attempt);
    }
  }
}

/** Locks the unit for `actor`, only while it is still unlocked and still the account's. */
export function writeLock(unit: SeenLock, actor: LockActor, at: Date): Promise<LockWriteResult> {
  const iso = at.toISOString();
  return transact([
    {
      Update: {
        TableName: tableName('units'),
        Key: { imei: unit.imei },
        UpdateExpression: 'SET lockedBy = :by, lockedByName = :name, lockedAt = :at',
        ConditionExpression: 'accountId = :account AND attribute_not_exists(lockedBy)',
        ExpressionAttributeValues: { ':by': actor.userId, ':name': actor.name, ':at': iso, ':account': unit.accountId },
      },
    },
    logPut(unit, 'lock', actor, iso),
  ]);
}

/** Unlocks the unit, only while it is still the lock the caller saw (same locker, same time). */
export function writeUnlock(unit: SeenLock, actor: LockActor, at: Date): Promise<LockWriteResult> {
  const iso = at.toISOString();
  return transact([
    {
      Update: {
        TableName: tableName('units'),
        Key: { imei: unit.imei },
        UpdateExpression: 'REMOVE lockedBy, lockedByName, lockedAt',
        ConditionExpression: 'accountId = :account AND lockedBy = :by AND lockedAt = :at',
        ExpressionAttributeValues: { ':by': unit.lockedBy ?? '', ':at': unit.lockedAt ?? '', ':account': unit.accountId },
      },
    },
    logPut(unit, 'unlock', actor, iso),
  ]);
}

/**
 * The unit's lock log of its current registration (entries since `since`, of its account), newest
 * first, at most LOCK_LOG_LIMIT entries.
 */
export async function lockLogOf(unit: Pick<UnitItem, 'imei' | 'accountId' | 'createdAt'>): Promise<LockLogEntry[]> {
  const entries: LockLogEntry[] = [];
  let start: QueryCommandOutput['LastEvaluatedKey'];
  do {
    const page: QueryCommandOutput = await dynamo().send(
      new QueryCommand({
        TableName: tableName('lockLog'),
        KeyConditionExpression: unit.createdAt ? 'imei = :imei AND sk >= :since' : 'imei = :imei',
        FilterExpression: 'accountId = :account',
        ExpressionAttributeValues: { ':imei': unit.imei, ':account': unit.accountId, ...(unit.createdAt ? { ':since': unit.createdAt } : {}) },
        ScanIndexForward: false,
        ConsistentRead: true,
        Limit: LOCK_LOG_LIMIT,
        ExclusiveStartKey: start,
      }),
    );
    for (const raw of (page.Items ?? []) as LockLogItem[]) {
      entries.push({ id: raw.id, action: raw.action, at: raw.at, userId: raw.userId, userName: raw.userName, bySupport: raw.bySupport === true });
    }
    start = page.LastEvaluatedKey;
  } while (start && entries.length < LOCK_LOG_LIMIT);
  return entries.slice(0, LOCK_LOG_LIMIT);
}
