/**
 * API keys as stored (table `apiKeys`, docs/decisions/0045-api-keys-and-typed-client.md): per
 * account the key items and the count of active keys, per hash what a call resolves to. Creating
 * writes the three in one transaction whose condition is the limit of active keys; revoking marks
 * the key revoked, deletes its hash item and counts it off in one transaction, so a key is either
 * usable and counted or revoked and unusable, whatever runs at the same time.
 */
import { randomBytes } from 'node:crypto';
import { GetCommand, QueryCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { apiKeyMessageKeys as keys, MAX_ACTIVE_API_KEYS, apiKeyScopes, type ApiKey, type ApiKeyScope } from '../../shared/schemas/api-keys';
import type { Language } from '../../shared/schemas/common';
import { apiKeyItemKeys, newApiKey } from '../platform/api-key-format';
import { cancellationCodes, lostTransactionRace } from '../platform/conditions';
import { dynamo, tableName } from '../platform/db';
import { ConflictError, NotFoundError, ValidationError } from '../platform/errors';
import { queryAll } from '../platform/queries';

/** A key item as stored; `hash` is the SHA-256 of the key, which itself is never stored. */
export interface ApiKeyRecord extends ApiKey {
  accountId: string;
  hash: string;
}

const TRIES = 8;
export const newApiKeyId = (): string => `ak-${randomBytes(8).toString('hex')}`;

function toRecord(item: Record<string, unknown>): ApiKeyRecord {
  const str = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);
  const scopes = Array.isArray(item['scopes']) ? item['scopes'].map(String) : [];
  return {
    id: String(item['id']),
    accountId: String(item['accountId']),
    name: String(item['name'] ?? ''),
    prefix: String(item['prefix'] ?? ''),
    hash: String(item['hash'] ?? ''),
    scopes: apiKeyScopes.filter((s) => scopes.includes(s)),
    createdAt: String(item['createdAt'] ?? ''),
    createdBy: String(item['createdBy'] ?? ''),
    lastUsedAt: str(item['lastUsedAt']),
    revokedAt: str(item['revokedAt']),
  };
}

/** The account's keys, revoked ones included, newest first. */
export async function listApiKeys(accountId: string): Promise<ApiKeyRecord[]> {
  const items = await queryAll(
    (start) =>
      new QueryCommand({
        TableName: tableName('apiKeys'),
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :key)',
        ExpressionAttributeValues: { ':pk': apiKeyItemKeys.count(accountId).pk, ':key': 'key#' },
        ExclusiveStartKey: start,
      }),
  );
  return items.map(toRecord).sort((a, b) => b.createdAt.localeCompare(a.createdAt) || b.id.localeCompare(a.id));
}

/** One key of the account (consistent), or 404: another account's key is never found. */
export async function getApiKey(accountId: string, id: string): Promise<ApiKeyRecord> {
  const out = await dynamo().send(new GetCommand({ TableName: tableName('apiKeys'), Key: apiKeyItemKeys.key(accountId, id), ConsistentRead: true }));
  if (!out.Item) throw new NotFoundError(keys.ApiKeyNotFound);
  return toRecord(out.Item);
}

export interface NewApiKey {
  accountId: string;
  name: string;
  scopes: readonly ApiKeyScope[];
  createdBy: string;
  /** The brand and language the key's calls answer in: the creating admin's. */
  subsiteId: number;
  lang: Language;
}

/** Creates a key: 422 TooManyApiKeys when the account already has the most active keys. */
export async function createApiKey(input: NewApiKey, now: Date): Promise<{ id: string; key: string }> {
  const id = newApiKeyId();
  const { key, hash, prefix } = newApiKey();
  const scopes = [...input.scopes];
  for (let attempt = 1; ; attempt++) {
    try {
      await dynamo().send(
        new TransactWriteCommand({
          TransactItems: [
            {
              Update: {
                TableName: tableName('apiKeys'),
                Key: apiKeyItemKeys.count(input.accountId),
                UpdateExpression: 'ADD active :one',
                ConditionExpression: 'attribute_not_exists(active) OR active < :max',
                ExpressionAttributeValues: { ':one': 1, ':max': MAX_ACTIVE_API_KEYS },
              },
            },
            {
              Put: {
                TableName: tableName('apiKeys'),
                Item: {
                  ...apiKeyItemKeys.key(input.accountId, id),
                  id,
                  accountId: input.accountId,
                  name: input.name,
                  prefix,
                  hash,
                  scopes,
                  createdAt: now.toISOString(),
                  createdBy: input.createdBy,
                },
                ConditionExpression: 'attribute_not_exists(pk)',
              },
            },
            {
              Put: {
                TableName: tableName('apiKeys'),
                Item: { ...apiKeyItemKeys.hash(hash), keyId: id, accountId: input.accountId, scopes, subsiteId: input.subsiteId, lang: input.lang },
                ConditionExpression: 'attribute_not_exists(pk)',
              },
            },
          ],
        }),
      );
      return { id, key };
    } catch (error) {
      if (cancellationCodes(error)?.[0] === 'ConditionalCheckFailed') {
        throw new ValidationError({ body: [keys.TooManyApiKeys] }, keys.TooManyApiKeys);
      }
      if (!lostTransactionRace(error) || attempt >= TRIES) throw error;
      await backoff(attempt);
    }
  }
}

/**
 * Revokes a key of the account: 404 for none (or another account's). A key already revoked stays as
 * it was. The hash item goes in the same transaction, so the next call with the key finds nothing.
 */
export async function revokeApiKey(accountId: string, id: string, revokedBy: string, now: Date): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    const current = await getApiKey(accountId, id);
    if (current.revokedAt) return;
    try {
      await dynamo().send(
        new TransactWriteCommand({
          TransactItems: [
            {
              Update: {
                TableName: tableName('apiKeys'),
                Key: apiKeyItemKeys.key(accountId, id),
                UpdateExpression: 'SET revokedAt = :now, revokedBy = :by',
                ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(revokedAt)',
                ExpressionAttributeValues: { ':now': now.toISOString(), ':by': revokedBy },
              },
            },
            { Delete: { TableName: tableName('apiKeys'), Key: apiKeyItemKeys.hash(current.hash) } },
            {
              Update: {
                TableName: tableName('apiKeys'),
                Key: apiKeyItemKeys.count(accountId),
                UpdateExpression: 'ADD active :minusOne',
                ExpressionAttributeValues: { ':minusOne': -1 },
              },
            },
          ],
        }),
      );
      return;
    } catch (error) {
      // Another revoke came first (the condition), or wrote at the same time: read again.
      if (!lostTransactionRace(error)) throw error;
      if (attempt >= TRIES) throw new ConflictError();
      await backoff(attempt);
    }
  }
}

const backoff = (attempt: number) => new Promise((resolve) => setTimeout(resolve, 10 * attempt + Math.random() * 20));
