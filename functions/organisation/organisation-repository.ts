/**
 * Departments, tags and projects of an account in the `organisation` table
 * (docs/decisions/0026-organisation-profiles-support.md): an item `<kind>#<id>` with its name, and
 * a claim `name#<kind>#<normalised name>` written in the same transaction, conditional on not
 * existing, so that two creates (or renames) to one name cannot both win. Units and users carry
 * the ids of their departments and tags (`departmentIds`, `tagIds`); names are resolved when read,
 * so a rename shows everywhere at once without rewriting them.
 */
import { randomUUID } from 'node:crypto';
import { GetCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { normalizeOrganisationName, duplicateNameKey, type OrganisationKind } from '../../shared/schemas/organisation';
import { organisationMessageKeys as keys } from '../../shared/schemas/organisation-messages';
import { cancellationCodes, isConditionFailure } from '../platform/conditions';
import { dynamo, tableName } from '../platform/db';
import { accountUserRecords } from '../domain/user/reads';
import { ConflictError, NotFoundError, ValidationError } from '../platform/errors';
import type { UserRecord } from '../domain/user/schema';
import { itemSortKey, singular, type ClaimKind, type OrganisationRecord } from './organisation-items';

export const nameClaimKey = (kind: ClaimKind, name: string): string => `name#${singular[kind]}#${normalizeOrganisationName(name)}`;

/** Transactions lost to a concurrent one are tried again this often; a failed condition is an answer, not retried. */
const RETRIES = 4;
const pause = (attempt: number) => new Promise((resolve) => setTimeout(resolve, 20 * 2 ** attempt + Math.random() * 20));

/**
 * Runs a transaction whose failed condition at index `claimIndex` means the name is taken (422
 * `duplicateKey` on `name`) and any other failed condition that the item changed meanwhile (409).
 */
export async function transactNamed(items: NonNullable<ConstructorParameters<typeof TransactWriteCommand>[0]['TransactItems']>, claimIndex: number, duplicateKey: string): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    try {
      await dynamo().send(new TransactWriteCommand({ TransactItems: items }));
      return;
    } catch (error) {
      const codes = cancellationCodes(error);
      if (!codes) throw error;
      if (codes[claimIndex] === 'ConditionalCheckFailed') throw new ValidationError({ name: [duplicateKey] });
      if (codes.includes('ConditionalCheckFailed')) throw new ConflictError(keys.OrganisationItemChanged);
      if (attempt >= RETRIES) throw new ConflictError(keys.OrganisationItemChanged);
      await pause(attempt);
    }
  }
}

/** An item of the account; another account's or a missing one: 404. */
export async function getItem(accountId: string, kind: OrganisationKind, id: string): Promise<OrganisationRecord> {
  const out = await dynamo().send(new GetCommand({ TableName: tableName('organisation'), Key: { accountId, sk: itemSortKey(kind, id) }, ConsistentRead: true }));
  if (!out.Item) throw new NotFoundError();
  return out.Item as OrganisationRecord;
}

export async function createItem(accountId: string, kind: OrganisationKind, name: string, now: Date): Promise<string> {
  const id = randomUUID();
  const table = tableName('organisation');
  const item: OrganisationRecord = { accountId, sk: itemSortKey(kind, id), id, name, createdAt: now.toISOString() };
  await transactNamed(
    [
      { Put: { TableName: table, Item: { accountId, sk: nameClaimKey(kind, name), itemId: id }, ConditionExpression: 'attribute_not_exists(sk)' } },
      { Put: { TableName: table, Item: item, ConditionExpression: 'attribute_not_exists(sk)' } },
    ],
    0,
    duplicateNameKey[kind],
  );
  return id;
}

/** Renames an item: the new name's claim, the old one's release and the item, in one transaction. */
export async function renameItem(accountId: string, kind: OrganisationKind, id: string, name: string): Promise<void> {
  const table = tableName('organisation');
  const current = await getItem(accountId, kind, id);
  const itemUpdate = {
    Update: {
      TableName: table,
      Key: { accountId, sk: current.sk },
      UpdateExpression: 'SET #name = :name',
      ConditionExpression: '#name = :old',
      ExpressionAttributeNames: { '#name': 'name' },
      ExpressionAttributeValues: { ':name': name, ':old': current.name },
    },
  };
  if (nameClaimKey(kind, current.name) === nameClaimKey(kind, name)) {
    // The same name written otherwise ('north' to 'North'): the claim stays.
    try {
      await dynamo().send(new UpdateCommand(itemUpdate.Update));
      return;
    } catch (error) {
      if (isConditionFailure(error)) throw new ConflictError(keys.OrganisationItemChanged);
      throw error;
    }
  }
  await transactNamed(
    [
      { Put: { TableName: table, Item: { accountId, sk: nameClaimKey(kind, name), itemId: id }, ConditionExpression: 'attribute_not_exists(sk)' } },
      itemUpdate,
      { Delete: { TableName: table, Key: { accountId, sk: nameClaimKey(kind, current.name) }, ConditionExpression: 'itemId = :id', ExpressionAttributeValues: { ':id': id } } },
    ],
    0,
    duplicateNameKey[kind],
  );
}

/** Deletes an item and releases its name; 404 when it is not the account's. */
export async function deleteItem(accountId: string, kind: OrganisationKind, id: string): Promise<void> {
  const table = tableName('organisation');
  const current = await getItem(accountId, kind, id);
  await transactNamed(
    [
      { Delete: { TableName: table, Key: { accountId, sk: nameClaimKey(kind, current.name) }, ConditionExpression: 'itemId = :id', ExpressionAttributeValues: { ':id': id } } },
      { Delete: { TableName: table, Key: { accountId, sk: current.sk }, ConditionExpression: '#name = :name', ExpressionAttributeNames: { '#name': 'name' }, ExpressionAttributeValues: { ':name': current.name } } },
    ],
    -1,
    duplicateNameKey[kind],
  );
}

// ------------------------------------------------------------------------------------------------
// The account's users, as assignments and feature profiles read and write them.
// ------------------------------------------------------------------------------------------------

export type AccountUser = Pick<UserRecord, 'userId' | 'firstName' | 'lastName' | 'email' | 'isAdmin'> & {
  departmentIds: string[];
  tagIds: string[];
  featureProfileId?: string;
};

export async function listAccountUsers(accountId: string): Promise<AccountUser[]> {
  const users = await accountUserRecords(accountId);
  return users.map((u) => ({
    userId: u.userId,
    firstName: u.firstName,
    lastName: u.lastName,
    email: u.email,
    isAdmin: u.isAdmin,
    departmentIds: [...(u.departmentIds ?? [])],
    tagIds: [...(u.tagIds ?? [])],
    ...(u.featureProfileId !== undefined ? { featureProfileId: u.featureProfileId } : {}),
  }));
}

const userAttribute = { departments: 'departmentIds', tags: 'tagIds' } as const;

/** Adds (removes) a department or tag to (from) a user of the account; a set ADD or DELETE touches nothing else of the user. */
export async function setUserOrganisationItem(userId: string, accountId: string, kind: keyof typeof userAttribute, id: string, carry: boolean): Promise<void> {
  try {
    await dynamo().send(
      new UpdateCommand({
        TableName: tableName('users'),
        Key: { userId },
        UpdateExpression: `${carry ? 'ADD' : 'DELETE'} #set :id`,
        ConditionExpression: 'accountId = :account',
        ExpressionAttributeNames: { '#set': userAttribute[kind] },
        ExpressionAttributeValues: { ':id': new Set([id]), ':account': accountId },
      }),
    );
  } catch (error) {
    // The user left the account meanwhile: nothing to carry.
    if (!isConditionFailure(error)) throw error;
  }
}

/** Gives a user of the account a feature profile (null: none); `onlyIf` removes it only while it is still that one. */
export async function setUserFeatureProfile(userId: string, accountId: string, profileId: string | null, onlyIf?: string): Promise<void> {
  try {
    await dynamo().send(
      new UpdateCommand({
        TableName: tableName('users'),
        Key: { userId },
        UpdateExpression: profileId === null ? 'REMOVE featureProfileId' : 'SET featureProfileId = :profile',
        ConditionExpression: `accountId = :account${onlyIf ? ' AND featureProfileId = :was' : ''}`,
        ExpressionAttributeValues: { ':account': accountId, ...(profileId === null ? {} : { ':profile': profileId }), ...(onlyIf ? { ':was': onlyIf } : {}) },
      }),
    );
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
  }
}
