/**
 * Login sessions: the `session#<sessionId>` record in the tokens table makes the identity
 * provider's tokens count (functions/platform/auth-context.ts). Logout deletes it; refresh works
 * only while it lives. The session id is the provider's (Cognito's origin_jti, the local `sid`),
 * so every access token refreshed from one login belongs to the same session.
 */
import { DeleteCommand, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Language } from '../../shared/schemas/common';
import { dynamo, epochSeconds, tableName } from '../platform/db';
import type { Ports, Tokens } from '../platform/ports';
import { isCurrentSession, parseSessionItem, sessionItemId, type SessionRecord } from '../domain/session/schema';
import { getUserItem } from '../domain/user/reads';
import { parseUserItem, sessionGenerationOf, type UserItem, type UserRecord } from '../domain/user/schema';
import { getAccount } from './account-repository';

/** A session without "remember me" ends after a day, even if the browser keeps refreshing. */
export const SESSION_SECONDS = 24 * 3600;
/** With "remember me" it lasts as long as the refresh token (30 days, both identity adapters). */
export const REMEMBERED_SESSION_SECONDS = 30 * 24 * 3600;

/**
 * Starts a session of the user's current generation. It ends after a day, or 30 days with
 * "remember me", unless `expiresAt` (epoch seconds) carries on the end of a session it replaces.
 */
export async function createSession(
  user: Pick<UserRecord, 'userId' | 'sessionGeneration'>,
  sessionId: string,
  now: Date,
  remember = false,
  expiresAt?: number,
): Promise<SessionRecord> {
  const record: SessionRecord = {
    id: sessionItemId(sessionId),
    userId: user.userId,
    generation: sessionGenerationOf(user),
    createdAt: now.toISOString(),
    expiresAt: expiresAt ?? epochSeconds(now) + (remember ? REMEMBERED_SESSION_SECONDS : SESSION_SECONDS),
  };
  await dynamo().send(new PutCommand({ TableName: tableName('tokens'), Item: record }));
  return record;
}

/** The session if it exists, has not expired and no password change has ended it since. */
export async function findLiveSession(sessionId: string, now: Date): Promise<SessionRecord | null> {
  const out = await dynamo().send(new GetCommand({ TableName: tableName('tokens'), Key: { id: sessionItemId(sessionId) }, ConsistentRead: true }));
  if (!out.Item) return null;
  const record = parseSessionItem(out.Item);
  return isCurrentSession(record, await getUserItem(record.userId, { consistent: true }), now) ? record : null;
}

/**
 * Ends every session and trusted browser of the user (a password change or reset): one counter
 * raised on the user record makes all of them stale at once, however many there are, and the
 * identity provider revokes every refresh token it has issued to the user so far.
 * Returns the user with the new generation.
 */
export async function endEverySession(user: Pick<UserRecord, 'userId' | 'username'>, ports: Ports, now: Date): Promise<UserItem> {
  const out = await dynamo().send(
    new UpdateCommand({
      TableName: tableName('users'),
      Key: { userId: user.userId },
      UpdateExpression: 'SET sessionGeneration = if_not_exists(sessionGeneration, :zero) + :one, updatedAt = :at',
      ConditionExpression: 'attribute_exists(userId)',
      ExpressionAttributeValues: { ':zero': 0, ':one': 1, ':at': now.toISOString() },
      ReturnValues: 'ALL_NEW',
    }),
  );
  await ports.identity.signOutEverywhere(user.username);
  return parseUserItem(out.Attributes ?? {});
}

export async function endSession(sessionId: string): Promise<void> {
  await dynamo().send(new DeleteCommand({ TableName: tableName('tokens'), Key: { id: sessionItemId(sessionId) } }));
}

/**
 * `data.user` of a login: every field the browser keeps (shared/schemas/auth.ts sessionUserSchema,
 * which the handlers' return types check this against). Spelled out rather than derived: that
 * schema is a loose object, and `Omit` over its index signature would keep none of the names. A
 * type literal, not an interface, so that it fits the schema's index signature.
 */
export type LoggedInUser = {
  ID: string;
  ParentID: string | null;
  FirstName: string;
  LastName: string;
  Email: string;
  Username: string;
  token: string;
  refresh_token: string;
  expires_in: number;
  lang: Language;
  subsiteID: number;
  isAdmin: boolean;
  EnableTwoFactorAuth: boolean;
};

export async function loggedInUser(user: UserItem, tokens: Tokens): Promise<LoggedInUser> {
  const account = await getAccount(user.accountId);
  return {
    ID: user.userId,
    ParentID: account.parentId ?? null,
    FirstName: user.firstName,
    LastName: user.lastName,
    Email: user.email,
    Username: user.username,
    token: tokens.accessToken,
    refresh_token: tokens.refreshToken,
    expires_in: tokens.expiresIn,
    lang: user.lang,
    subsiteID: user.subsiteId,
    isAdmin: user.isAdmin,
    EnableTwoFactorAuth: user.enableTwoFactorAuth,
  };
}
