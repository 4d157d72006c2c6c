/**
 * Feature profiles: kept on the accounts item (`featureProfiles.<id>`), which the middleware
 * already reads for a route's account feature, so limiting a user costs one GetItem of a table
 * every member function may read (docs/decisions/0026-organisation-profiles-support.md). Their
 * names are claimed in the `organisation` table (`name#profile#...`) in the same transaction.
 */
import { randomUUID } from 'node:crypto';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { organisationMessageKeys as keys } from '../../shared/schemas/organisation-messages';
import { isConditionFailure } from '../platform/conditions';
import { dynamo, tableName } from '../platform/db';
import { ConflictError, NotFoundError } from '../platform/errors';
import { getAccountFields } from '../domain/account/reads';
import type { StoredFeatureProfile } from '../domain/account/schema';
import { nameClaimKey, transactNamed } from './organisation-repository';


export async function getProfiles(accountId: string): Promise<Map<string, StoredFeatureProfile>> {
  // A malformed profile reads as absent (the accounts item's schema, functions/domain/account/schema.ts).
  const account = await getAccountFields(accountId, ['featureProfiles'], { consistent: true });
  return new Map(Object.entries(account?.featureProfiles ?? {}));
}

async function getProfile(accountId: string, id: string): Promise<StoredFeatureProfile> {
  const profile = (await getProfiles(accountId)).get(id);
  if (!profile) throw new NotFoundError();
  return profile;
}

/** A nested attribute can only be set inside an existing map: the account gets an empty one first (idempotent). */
async function ensureProfileMap(accountId: string): Promise<void> {
  await dynamo().send(
    new UpdateCommand({
      TableName: tableName('accounts'),
      Key: { accountId },
      UpdateExpression: 'SET featureProfiles = if_not_exists(featureProfiles, :empty)',
      ConditionExpression: 'attribute_exists(accountId)',
      ExpressionAttributeValues: { ':empty': {} },
    }),
  );
}

const claimPut = (accountId: string, name: string, id: string) => ({
  Put: { TableName: tableName('organisation'), Item: { accountId, sk: nameClaimKey('profiles', name), itemId: id }, ConditionExpression: 'attribute_not_exists(sk)' },
});
const claimDelete = (accountId: string, name: string, id: string) => ({
  Delete: { TableName: tableName('organisation'), Key: { accountId, sk: nameClaimKey('profiles', name) }, ConditionExpression: 'itemId = :id', ExpressionAttributeValues: { ':id': id } },
});

export async function createProfile(accountId: string, input: Omit<StoredFeatureProfile, 'createdAt'>, now: Date): Promise<string> {
  await ensureProfileMap(accountId);
  const id = randomUUID();
  const profile: StoredFeatureProfile = { ...input, createdAt: now.toISOString() };
  await transactNamed(
    [
      claimPut(accountId, input.name, id),
      {
        Update: {
          TableName: tableName('accounts'),
          Key: { accountId },
          UpdateExpression: 'SET featureProfiles.#id = :profile',
          ConditionExpression: 'attribute_not_exists(featureProfiles.#id)',
          ExpressionAttributeNames: { '#id': id },
          ExpressionAttributeValues: { ':profile': profile },
        },
      },
    ],
    0,
    keys.DuplicateFeatureProfileName,
  );
  return id;
}

export async function updateProfile(accountId: string, id: string, input: Omit<StoredFeatureProfile, 'createdAt'>): Promise<void> {
  const current = await getProfile(accountId, id);
  const next: StoredFeatureProfile = { ...input, createdAt: current.createdAt };
  const update = {
    Update: {
      TableName: tableName('accounts'),
      Key: { accountId },
      UpdateExpression: 'SET featureProfiles.#id = :profile',
      ConditionExpression: 'featureProfiles.#id.#name = :old',
      ExpressionAttributeNames: { '#id': id, '#name': 'name' },
      ExpressionAttributeValues: { ':profile': next, ':old': current.name },
    },
  };
  if (nameClaimKey('profiles', current.name) === nameClaimKey('profiles', input.name)) {
    try {
      await dynamo().send(new UpdateCommand(update.Update));
      return;
    } catch (error) {
      if (isConditionFailure(error)) throw new ConflictError(keys.OrganisationItemChanged);
      throw error;
    }
  }
  await transactNamed([claimPut(accountId, input.name, id), update, claimDelete(accountId, current.name, id)], 0, keys.DuplicateFeatureProfileName);
}

export async function deleteProfile(accountId: string, id: string): Promise<void> {
  const current = await getProfile(accountId, id);
  await transactNamed(
    [
      claimDelete(accountId, current.name, id),
      {
        Update: {
          TableName: tableName('accounts'),
          Key: { accountId },
          UpdateExpression: 'REMOVE featureProfiles.#id',
          ConditionExpression: 'attribute_exists(featureProfiles.#id)',
          ExpressionAttributeNames: { '#id': id },
        },
      },
    ],
    -1,
    keys.DuplicateFeatureProfileName,
  );
}

export { getProfile };
