/**
 * Adding a tracker from the inventory to an existing account: one transaction of the IMEI claim,
 * the inventory item (still unregistered), the new unit item (with its viewers) and each granted
 * user's `unitImeis` (still an ordinary user of the account). The conditions are registration's
 * (functions/registration/registration-repository.ts), so of two admins adding one IMEI at once,
 * or an admin and a registration, exactly one commits.
 */
import { QueryCommand, TransactWriteCommand, type QueryCommandOutput } from '@aws-sdk/lib-dynamodb';
import { setTimeout as sleep } from 'node:timers/promises';
import { addUnitMessageKeys as keys } from '../../shared/schemas/add-unit';
import { cancellationCodes } from '../platform/conditions';
import { dynamo, tableName } from '../platform/db';
import { ValidationError, type FieldErrors } from '../platform/errors';
import type { UnitRecord, UserRecord } from '../platform/records';
import { newUnitItemPut } from '../platform/unit-item';
import { getInventoryItem, imeiProblemOf } from '../registration/registration-repository';

export type AccountUser = Pick<UserRecord, 'userId' | 'accountId' | 'firstName' | 'lastName' | 'email' | 'isAdmin' | 'unitImeis'>;

/** Every user of the account (one Query on the users' byAccount index). */
export async function accountUsers(accountId: string): Promise<AccountUser[]> {
  const users: AccountUser[] = [];
  let start: QueryCommandOutput['LastEvaluatedKey'];
  do {
    const page: QueryCommandOutput = await dynamo().send(
      new QueryCommand({
        TableName: tableName('users'),
        IndexName: 'byAccount',
        KeyConditionExpression: 'accountId = :a',
        ExpressionAttributeValues: { ':a': accountId },
        ProjectionExpression: 'userId, accountId, firstName, lastName, email, isAdmin, unitImeis',
        ExclusiveStartKey: start,
      }),
    );
    users.push(...((page.Items ?? []) as AccountUser[]));
    start = page.LastEvaluatedKey;
  } while (start);
  return users;
}

const CONFLICT_RETRIES = 6;

/** Writes the unit and its grants; a failed condition becomes the 422 of the field it concerns. */
export async function writeAddedUnit(unit: UnitRecord & { viewers?: Set<string> }, userIds: readonly string[]): Promise<void> {
  const items: { item: object; errors: FieldErrors | 'inventory' }[] = [
    {
      item: {
        Put: {
          TableName: tableName('uniques'),
          Item: { key: `imei#${unit.imei}`, accountId: unit.accountId },
          ConditionExpression: 'attribute_not_exists(#k)',
          ExpressionAttributeNames: { '#k': 'key' },
        },
      },
      errors: { imei: ['ImeiAlreadyRegistered'] },
    },
    {
      item: {
        Update: {
          TableName: tableName('inventory'),
          Key: { imei: unit.imei },
          UpdateExpression: 'SET registered = :yes, accountId = :account, registeredAt = :at',
          ConditionExpression: 'attribute_exists(imei) AND (attribute_not_exists(registered) OR registered = :no)',
          ExpressionAttributeValues: { ':yes': true, ':no': false, ':account': unit.accountId, ':at': unit.createdAt },
        },
      },
      errors: 'inventory',
    },
    { item: newUnitItemPut(unit), errors: { imei: ['ImeiAlreadyRegistered'] } },
    ...userIds.map((userId) => ({
      item: {
        Update: {
          TableName: tableName('users'),
          Key: { userId },
          // A list, as registration and the seed write it; the new IMEI cannot be in it yet (it was unregistered).
          UpdateExpression: 'SET unitImeis = list_append(if_not_exists(unitImeis, :empty), :imei)',
          ConditionExpression: 'accountId = :account AND isAdmin = :no',
          ExpressionAttributeValues: { ':empty': [], ':imei': [unit.imei], ':account': unit.accountId, ':no': false },
        },
      },
      errors: { userIds: [keys.GrantUserNotFound] },
    })),
  ];

  for (let attempt = 0; ; attempt++) {
    try {
      await dynamo().send(new TransactWriteCommand({ TransactItems: items.map((i) => i.item) as never }));
      return;
    } catch (error) {
      const reasons = cancellationCodes(error);
      if (!reasons) throw error;
      const failed = items.filter((_, i) => reasons[i] === 'ConditionalCheckFailed');
      if (failed.length) {
        const fieldErrors: FieldErrors = {};
        for (const { errors } of failed) {
          const resolved = errors === 'inventory' ? { imei: [imeiProblemOf(await getInventoryItem(unit.imei)) ?? 'ImeiAlreadyRegistered'] } : errors;
          for (const [field, list] of Object.entries(resolved)) fieldErrors[field] = [...new Set([...(fieldErrors[field] ?? []), ...list])];
        }
        throw new ValidationError(fieldErrors);
      }
      if (!reasons.includes('TransactionConflict') || attempt >= CONFLICT_RETRIES) throw error;
      await sleep((10 + Math.random() * 40) * 2 ** attempt);
    }
  }
}
