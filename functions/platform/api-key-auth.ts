/**
 * API keys in the middleware (functions/platform/http.ts; docs/decisions/0045-api-keys-and-typed-client.md):
 * who a key is (one strongly consistent GetItem of its hash, never cached, so a revoked key answers
 * 401 on the next call), its rate limit, and the call log with the key's last use.
 *
 * Only reached for routes with an `apiKeyScope`, so infra/bundling/resource-usage.ts counts this
 * module's tables only for the functions serving such a route.
 */
import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { languages } from '../../shared/schemas/common';
import {
  API_KEY_CALL_RETENTION_DAYS,
  API_KEY_RATE_LIMIT,
  API_KEY_RATE_WINDOW_SECONDS,
  apiKeyScopes,
  type ApiKeyScope,
} from '../../shared/schemas/api-keys';
import { apiKeyHash, apiKeyItemKeys, hasApiKeyShape } from './api-key-format';
import type { AuthContext } from './auth-context';
import { isConditionFailure } from './conditions';
import { dynamo, epochSeconds, tableName } from './db';
import { TooManyRequestsError, UnauthenticatedError } from './errors';
import { hitRateLimit } from './rate-limit';

/** What the hash item of an active key says. */
const hashItemSchema = z.object({
  keyId: z.string(),
  accountId: z.string(),
  scopes: z.array(z.string()).transform((list) => list.filter((s): s is ApiKeyScope => (apiKeyScopes as readonly string[]).includes(s))),
  subsiteId: z.number().int(),
  lang: z.enum(languages).catch('en'),
});
export type ApiKeyPrincipal = z.output<typeof hashItemSchema>;

/** The active key a bearer token is, or 401. */
export async function resolveApiKey(token: string): Promise<ApiKeyPrincipal> {
  if (!hasApiKeyShape(token)) throw new UnauthenticatedError();
  const out = await dynamo().send(
    new GetCommand({ TableName: tableName('apiKeys'), Key: apiKeyItemKeys.hash(apiKeyHash(token)), ConsistentRead: true }),
  );
  const parsed = hashItemSchema.safeParse(out.Item ?? null);
  if (!parsed.success) throw new UnauthenticatedError();
  return parsed.data;
}

/**
 * A key to the handlers: the whole account's units (like an admin) but not an admin, no support,
 * no feature profile, and a user id of its own that no user has (so it is never a unit's locker or
 * a trip's driver).
 */
export function apiKeyAuthContext(key: ApiKeyPrincipal): AuthContext {
  return {
    userId: `apikey:${key.keyId}`,
    accountId: key.accountId,
    sessionId: `apikey:${key.keyId}`,
    sessionExpiresAt: 0,
    username: `apikey:${key.keyId}`,
    isAdmin: false,
    isSupport: false,
    subsiteId: key.subsiteId,
    lang: key.lang,
    unitImeis: undefined,
    featureProfileId: undefined,
    apiKeyId: key.keyId,
  };
}

/** Counts a call against the key's own limit; 429 with retry-after beyond it. */
export async function countApiKeyCall(key: ApiKeyPrincipal, now: Date): Promise<void> {
  const state = await hitRateLimit(`apikey#${key.keyId}`, API_KEY_RATE_LIMIT, API_KEY_RATE_WINDOW_SECONDS, now);
  if (state.limited) throw new TooManyRequestsError(state.retryAfter, 'TooManyRequests');
}

export interface ApiKeyCallRecord {
  operationId: string;
  method: string;
  path: string;
  status: number;
  client: string;
}

/** Writes the call into the key's call log and moves its last use on (once a minute at most). */
export async function recordApiKeyCall(key: Pick<ApiKeyPrincipal, 'keyId' | 'accountId'>, call: ApiKeyCallRecord, now: Date): Promise<void> {
  const at = now.toISOString();
  const minute = `${at.slice(0, 16)}:00.000Z`;
  const db = dynamo();
  await Promise.all([
    db.send(
      new PutCommand({
        TableName: tableName('apiKeyCalls'),
        Item: {
          keyId: key.keyId,
          sk: `${at}#${randomBytes(4).toString('hex')}`,
          at,
          ...call,
          expiresAt: epochSeconds(now) + API_KEY_CALL_RETENTION_DAYS * 86_400,
        },
      }),
    ),
    db
      .send(
        new UpdateCommand({
          TableName: tableName('apiKeys'),
          Key: apiKeyItemKeys.key(key.accountId, key.keyId),
          UpdateExpression: 'SET lastUsedAt = :minute',
          ConditionExpression: 'attribute_exists(pk) AND (attribute_not_exists(lastUsedAt) OR lastUsedAt < :minute)',
          ExpressionAttributeValues: { ':minute': minute },
        }),
      )
      .catch((error: unknown) => {
        // Already noted this minute (or the key is gone): nothing to move on.
        if (!isConditionFailure(error)) throw error;
      }),
  ]);
}
