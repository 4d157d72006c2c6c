/**
 * Login sessions: the `session#<sessionId>` record in the tokens table makes the identity
 * provider's tokens count (functions/platform/auth-context.ts). Logout deletes it; refresh works
 * only while it lives. The session id is the provider's (Cognito's origin_jti, the local `sid`),
 * so every access token refreshed from one login belongs to the same session.
 */
import { DeleteCommand, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { SessionUser } from '../../shared/schemas/auth';
import { dynamo, epochSeconds, tableName } from '../platform/db';
import type { Tokens } from '../platform/ports';
import { sessionItemId, type SessionRecord, type UserRecord } from '../platform/records';
import { getAccount } from './account-repository';

/** A session without "remember me" ends after a day, even if the browser keeps refreshing. */
export const SESSION_SECONDS = 24 * 3600;
/** With "remember me" it lasts as long as the refresh token (30 days, both identity adapters). */
export const REMEMBERED_SESSION_SECONDS = 30 * 24 * 3600;

export async function createSession(userId: string, sessionId: string, now: Date, remember = false): Promise<SessionRecord> {
  const record: SessionRecord = {
    id: sessionItemId(sessionId),
    userId,
    createdAt: now.toISOString(),
    expiresAt: epochSeconds(now) + (remember ? REMEMBERED_SESSION_SECONDS : SESSION_SECONDS),
  };
  await dynamo().send(new PutCommand({ TableName: tableName('tokens'), Item: record }));
  return record;
}

/** The session if it exists and has not expired (TTL deletion lags, so expiry is checked here). */
export async function findLiveSession(sessionId: string, now: Date): Promise<SessionRecord | null> {
  const out = await dynamo().send(new GetCommand({ TableName: tableName('tokens'), Key: { id: sessionItemId(sessionId) }, ConsistentRead: true }));
  const record = out.Item as SessionRecord | undefined;
  return record && record.expiresAt > epochSeconds(now) ? record : null;
}

export async function endSession(sessionId: string): Promise<void> {
  await dynamo().send(new DeleteCommand({ TableName: tableName('tokens'), Key: { id: sessionItemId(sessionId) } }));
}

/** `data.user` of a login: the shape the browser keeps (shared/schemas/auth.ts sessionUserSchema). */
export type LoggedInUser = Omit<SessionUser, 'ParentID'> & { ParentID: string | null };

export async function loggedInUser(user: UserRecord, tokens: Tokens): Promise<LoggedInUser> {
  const account = await getAccount(user.accountId);
  return {
    ID: user.userId,
    ParentID: account.parentId,
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
