/**
 * Registration's reads and its one write. Reads are GetItems on keys; the write is a single
 * TransactWrite whose conditions are what makes registration atomic: two registrations of one
 * IMEI or one e-mail cannot both commit, whatever the order of their requests.
 */
import { accountSearchKeys } from '../domain/account/search-keys';
import { BatchGetCommand, GetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { setTimeout as sleep } from 'node:timers/promises';
import { dynamo, tableName } from '../platform/db';
import { ValidationError, type FieldErrors } from '../platform/errors';
import type { AccountRecord } from '../domain/account/schema';
import type { UnitRecord } from '../domain/unit/schema';
import { emailClaimKey, usernameClaimKey, type UserClaimRecord, type UserRecord } from '../domain/user/schema';
import { cancellationCodes } from '../platform/conditions';
import { newUnitItemPut } from '../domain/unit/writes';

export interface InventoryItem {
  imei: string;
  registered: boolean;
  accountId?: string;
  protocol?: UnitRecord['protocol'];
  provisionedAt: string;
  registeredAt?: string;
}

export type ImeiProblem = 'ImeiNotInSystem' | 'ImeiAlreadyRegistered';

export async function getInventoryItem(imei: string): Promise<InventoryItem | null> {
  const out = await dynamo().send(new GetCommand({ TableName: tableName('inventory'), Key: { imei }, ConsistentRead: true }));
  return (out.Item as InventoryItem | undefined) ?? null;
}

/** Why an IMEI with a valid format cannot be registered, or null when it can. */
export function imeiProblemOf(item: InventoryItem | null): ImeiProblem | null {
  if (!item) return 'ImeiNotInSystem';
  return item.registered ? 'ImeiAlreadyRegistered' : null;
}

/** Whether an address is taken, as an e-mail or as a login name (registration uses it as both). */
export async function isEmailClaimed(email: string): Promise<boolean> {
  const table = tableName('uniques');
  const out = await dynamo().send(
    new BatchGetCommand({
      RequestItems: { [table]: { Keys: [{ key: emailClaimKey(email) }, { key: usernameClaimKey(email) }], ConsistentRead: true } },
    }),
  );
  // Two small keys never exceed a batch's limits, so nothing comes back unprocessed in practice;
  // if it did, treating the address as taken errs on the safe side.
  return (out.Responses?.[table]?.length ?? 0) > 0 || Object.keys(out.UnprocessedKeys ?? {}).length > 0;
}

export interface NewRegistration {
  account: AccountRecord;
  user: UserRecord;
  unit: UnitRecord;
}


/** A transaction cancelled only by another transaction on the same items is tried again. */
const CONFLICT_RETRIES = 6;
const conflictBackoffMs = (attempt: number) => (10 + Math.random() * 40) * 2 ** attempt;

/** One item of a transaction with the field error its failed condition means; the inventory's depends on why it failed. */
export interface ConditionedItem {
  item: object;
  errors: FieldErrors | 'inventory';
}

/**
 * Claims the IMEI for the account and marks its inventory item registered (registration and an
 * admin's added unit alike); `field` is the payload field their failures concern.
 */
export function imeiClaimItems(imei: string, accountId: string, registeredAt: string, field: string): ConditionedItem[] {
  return [
    {
      item: {
        Put: {
          TableName: tableName('uniques'),
          Item: { key: `imei#${imei}`, accountId },
          ConditionExpression: 'attribute_not_exists(#k)',
          ExpressionAttributeNames: { '#k': 'key' },
        },
      },
      errors: { [field]: ['ImeiAlreadyRegistered'] },
    },
    {
      item: {
        Update: {
          TableName: tableName('inventory'),
          Key: { imei },
          UpdateExpression: 'SET registered = :yes, accountId = :account, registeredAt = :at',
          ConditionExpression: 'attribute_exists(imei) AND (attribute_not_exists(registered) OR registered = :no)',
          ExpressionAttributeValues: { ':yes': true, ':no': false, ':account': accountId, ':at': registeredAt },
        },
      },
      errors: 'inventory',
    },
  ];
}

/**
 * Writes the items in one transaction. A failed condition becomes a 422 on the field it concerns
 * (the inventory's: why the IMEI cannot be registered, as `imeiField`); a transaction cancelled only
 * by another one on the same items is tried again.
 */
export async function transactWithFieldErrors(items: readonly ConditionedItem[], imei: string, imeiField: string): Promise<void> {
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
          const resolved = errors === 'inventory' ? { [imeiField]: [imeiProblemOf(await getInventoryItem(imei)) ?? 'ImeiAlreadyRegistered'] } : errors;
          for (const [field, keys] of Object.entries(resolved)) fieldErrors[field] = [...new Set([...(fieldErrors[field] ?? []), ...keys])];
        }
        // A failed condition that concerns no field (fresh random ids cannot collide) means nothing here.
        if (Object.keys(fieldErrors).length) throw new ValidationError(fieldErrors);
      }
      if (!reasons.includes('TransactionConflict') || attempt >= CONFLICT_RETRIES) throw error;
      await sleep(conflictBackoffMs(attempt));
    }
  }
}

/**
 * Writes account, admin user and unit, claims the e-mail, the login name and the IMEI, and marks
 * the inventory item registered, in one transaction. A condition that fails becomes a 422 on the
 * payload field it concerns.
 */
export async function writeRegistration({ account, user, unit }: NewRegistration): Promise<void> {
  // Table names stay literal at each call, where the grant check (shared/capability-resources.ts) reads them.
  const put = (TableName: string, Item: object, key: string) => ({
    Put: { TableName, Item, ConditionExpression: 'attribute_not_exists(#k)', ExpressionAttributeNames: { '#k': key } },
  });
  const emailClaim: UserClaimRecord = { key: emailClaimKey(user.email), userId: user.userId };
  const usernameClaim: UserClaimRecord = { key: usernameClaimKey(user.username), userId: user.userId };
  const items: ConditionedItem[] = [
    { item: put(tableName('uniques'), emailClaim, 'key'), errors: { userName: ['EmailAlreadyInUse'] } },
    { item: put(tableName('uniques'), usernameClaim, 'key'), errors: { userName: ['UsernameAlreadyInUse'] } },
    ...imeiClaimItems(unit.imei, account.accountId, unit.createdAt, 'Imei'),
    // With the keys support finds it by (functions/domain/account/search-keys.ts).
    { item: put(tableName('accounts'), { ...account, ...accountSearchKeys(account) }, 'accountId'), errors: {} },
    { item: put(tableName('users'), user, 'userId'), errors: {} },
    { item: newUnitItemPut(unit), errors: { Imei: ['ImeiAlreadyRegistered'] } },
  ];
  await transactWithFieldErrors(items, unit.imei, 'Imei');
}
