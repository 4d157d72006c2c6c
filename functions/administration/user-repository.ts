/**
 * The account administration's reads and its writes of users. Every write is one DynamoDB
 * transaction of the user item, the user's uniqueness claims (`email#`, `username#` in uniques)
 * and the `viewers` string set of each unit whose access changes: what the request path reads
 * (the user's `unitImeis`, functions/platform/auth-context.ts) and what every live publisher reads
 * (the unit's `viewers`, shared/mqtt-topics.ts liveTopicsOf) change together, as the seed
 * (infra/local/seed.ts) and adding a unit (functions/units/add-unit-repository.ts) write them.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { BatchGetCommand, QueryCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { administrationMessageKeys as keys } from '../../shared/schemas/administration-messages';
import { cancellationCodes } from '../platform/conditions';
import { dynamo, tableName } from '../platform/db';
import { queryAll } from '../platform/queries';
import { accountUserRecords, getUserItem } from '../domain/user/reads';
import { ConflictError, NotFoundError, ValidationError, type FieldErrors } from '../platform/errors';
import { emailClaimKey, usernameClaimKey, type UserClaimRecord, type UserItem, type UserRecord } from '../domain/user/schema';

/** A user of the account, read strongly consistent; null for none and for another account's (rule 1). */
export async function getAccountUser(accountId: string, userId: string): Promise<UserItem | null> {
  const user = await getUserItem(userId, { consistent: true });
  return user && user.accountId === accountId ? user : null;
}

/** Every user of the account (one Query on the byAccount index, page by page). */
export async function listAccountUserRecords(accountId: string): Promise<UserItem[]> {
  return accountUserRecords(accountId);
}

/** The IMEIs of the account's units (one Query on the units' byAccount index, keys only). */
export async function accountUnitImeis(accountId: string): Promise<Set<string>> {
  const items = await queryAll(
    (start) =>
      new QueryCommand({
        TableName: tableName('units'),
        IndexName: 'byAccount',
        KeyConditionExpression: 'accountId = :a',
        ExpressionAttributeValues: { ':a': accountId },
        ProjectionExpression: 'imei',
        ExclusiveStartKey: start,
      }),
  );
  return new Set(items.map((item) => String(item['imei'])));
}

/** Whether an address is taken as an e-mail or as a login name, by anyone in any account. */
export async function isAddressClaimed(email: string): Promise<boolean> {
  const table = tableName('uniques');
  const out = await dynamo().send(
    new BatchGetCommand({ RequestItems: { [table]: { Keys: [{ key: emailClaimKey(email) }, { key: usernameClaimKey(email) }], ConsistentRead: true } } }),
  );
  return (out.Responses?.[table]?.length ?? 0) > 0 || Object.keys(out.UnprocessedKeys ?? {}).length > 0;
}

interface Conditioned {
  item: object;
  /** What a failed condition of this item means: a field error, or a conflict with another write. */
  failure: FieldErrors | 'conflict' | 'notFound';
}

const CONFLICT_RETRIES = 6;
const backoffMs = (attempt: number) => (10 + Math.random() * 40) * 2 ** attempt;

/**
 * Writes the items in one transaction; the first failed condition decides the answer (422 on its
 * field, 409 UserChangedMeanwhile, or 404 UserNotFound), and a transaction cancelled only by
 * another one on the same items is tried again.
 */
async function transact(items: readonly Conditioned[]): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    try {
      await dynamo().send(new TransactWriteCommand({ TransactItems: items.map((i) => i.item) as never }));
      return;
    } catch (error) {
      const reasons = cancellationCodes(error);
      if (!reasons) throw error;
      const failed = items.filter((_, i) => reasons[i] === 'ConditionalCheckFailed');
      if (failed.some((f) => f.failure === 'notFound')) throw new NotFoundError(keys.UserNotFound);
      const fieldErrors: FieldErrors = {};
      for (const { failure } of failed) {
        if (failure === 'conflict') throw new ConflictError(keys.UserChangedMeanwhile);
        if (failure === 'notFound') continue;
        for (const [field, list] of Object.entries(failure)) fieldErrors[field] = [...new Set([...(fieldErrors[field] ?? []), ...list])];
      }
      if (Object.keys(fieldErrors).length) throw new ValidationError(fieldErrors);
      if (failed.length) throw new ConflictError(keys.UserChangedMeanwhile);
      if (!reasons.includes('TransactionConflict') || attempt >= CONFLICT_RETRIES) throw error;
      await sleep(backoffMs(attempt));
    }
  }
}

/** The unit gains or loses the user among its viewers; the unit must still be the account's. */
function viewerChange(imei: string, accountId: string, userId: string, op: 'ADD' | 'DELETE'): Conditioned {
  return {
    item: {
      Update: {
        TableName: tableName('units'),
        Key: { imei },
        UpdateExpression: `${op} viewers :u`,
        ConditionExpression: 'accountId = :a',
        ExpressionAttributeValues: { ':u': new Set([userId]), ':a': accountId },
      },
    },
    failure: { imeis: [keys.UserUnitNotFound] },
  };
}

const claimPut = (claim: UserClaimRecord): Conditioned => ({
  item: {
    Put: { TableName: tableName('uniques'), Item: claim, ConditionExpression: 'attribute_not_exists(#k)', ExpressionAttributeNames: { '#k': 'key' } },
  },
  failure: { email: [keys.UserEmailInUse] },
});

/** The new user, their e-mail and login name claims, and their place among the viewers of each granted unit. */
export async function writeNewUser(user: UserRecord): Promise<void> {
  const claims = [...new Map([emailClaimKey(user.email), usernameClaimKey(user.username)].map((key) => [key, { key, userId: user.userId }])).values()];
  await transact([
    ...claims.map(claimPut),
    {
      item: { Put: { TableName: tableName('users'), Item: user, ConditionExpression: 'attribute_not_exists(userId)' } },
      failure: 'conflict',
    },
    ...(user.unitImeis ?? []).map((imei) => viewerChange(imei, user.accountId, user.userId, 'ADD')),
  ]);
}

export interface UserChanges {
  firstName: string;
  lastName: string;
  isAdmin: boolean;
  lang: UserRecord['lang'];
  unitImeis: string[];
  added: readonly string[];
  removed: readonly string[];
}

/**
 * The user's fields and unit access as read in `before`, conditional on the grants being still as
 * read (another admin's save or a unit added meanwhile: 409), with each changed unit's viewers.
 */
export async function writeUserChanges(before: UserItem, changes: UserChanges, now: Date): Promise<void> {
  const hadGrants = before.unitImeis !== undefined;
  await transact([
    {
      item: {
        Update: {
          TableName: tableName('users'),
          Key: { userId: before.userId },
          UpdateExpression: 'SET firstName = :f, lastName = :l, isAdmin = :admin, lang = :lang, unitImeis = :units, updatedAt = :at',
          ConditionExpression: `accountId = :a AND ${hadGrants ? 'unitImeis = :before' : 'attribute_not_exists(unitImeis)'}`,
          ExpressionAttributeValues: {
            ':f': changes.firstName,
            ':l': changes.lastName,
            ':admin': changes.isAdmin,
            ':lang': changes.lang,
            ':units': changes.unitImeis,
            ':at': now.toISOString(),
            ':a': before.accountId,
            ...(hadGrants ? { ':before': before.unitImeis } : {}),
          },
        },
      },
      failure: 'conflict',
    },
    ...changes.added.map((imei) => viewerChange(imei, before.accountId, before.userId, 'ADD')),
    ...changes.removed.map((imei) => viewerChange(imei, before.accountId, before.userId, 'DELETE')),
  ]);
}

/** Units whose viewers one deleting transaction updates beside the user item and two claims. */
const DELETE_VIEWERS_IN_TRANSACTION = 95;

/**
 * Removes the user item, the user's claims and the user from the viewers of the granted units in
 * one transaction (of two admins deleting one user at once, one commits; the other gets 404). A
 * user granted more units than one transaction holds loses the rest of their viewer entries right
 * after: their requests and live connections end with the user item anyway.
 */
export async function deleteUserItems(user: UserItem): Promise<void> {
  const units = user.isAdmin ? [] : (user.unitImeis ?? []);
  const claimDelete = (key: string): Conditioned => ({
    item: {
      Delete: {
        TableName: tableName('uniques'),
        Key: { key },
        ConditionExpression: 'attribute_not_exists(#k) OR userId = :u',
        ExpressionAttributeNames: { '#k': 'key' },
        ExpressionAttributeValues: { ':u': user.userId },
      },
    },
    failure: 'conflict',
  });
  // Removing a viewer from a unit that left the account meanwhile is no reason to keep the user.
  const leave = (imei: string): Conditioned => ({
    item: {
      Update: {
        TableName: tableName('units'),
        Key: { imei },
        UpdateExpression: 'DELETE viewers :u',
        ConditionExpression: 'attribute_exists(imei)',
        ExpressionAttributeValues: { ':u': new Set([user.userId]) },
      },
    },
    failure: 'conflict',
  });
  const keysToDelete = [...new Set([emailClaimKey(user.email), usernameClaimKey(user.username)])];
  await transact([
    {
      item: {
        Delete: { TableName: tableName('users'), Key: { userId: user.userId }, ConditionExpression: 'accountId = :a', ExpressionAttributeValues: { ':a': user.accountId } },
      },
      failure: 'notFound',
    },
    ...keysToDelete.map(claimDelete),
    ...units.slice(0, DELETE_VIEWERS_IN_TRANSACTION).map(leave),
  ]);
  for (const imei of units.slice(DELETE_VIEWERS_IN_TRANSACTION)) await transact([leave(imei)]).catch(() => undefined);
}
