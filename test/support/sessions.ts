/**
 * Test users and sessions. `loginAs` logs a user in the way the login handler does (the identity
 * provider checks the password, our session record makes the token valid) without the lockout,
 * brand and 2FA steps; `createTestUser` adds a user the way registration does (identity, user
 * record, e-mail and username claims).
 */
import { randomUUID } from 'node:crypto';
import { GetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { createSession } from '../../functions/auth/sessions';
import { getPorts } from '../../functions/platform/container';
import { dynamo, tableName } from '../../functions/platform/db';
import type { AccountRecord } from '../../functions/domain/account/schema';
import { emailClaimKey, usernameClaimKey, type UserRecord } from '../../functions/domain/user/schema';

export async function loginAs(username: string, password: string): Promise<{ token: string; userId: string; sessionId: string }> {
  const auth = await getPorts().identity.authenticate(username, password);
  if (!auth) throw new Error(`cannot log in as ${username}`);
  const user = await dynamo().send(new GetCommand({ TableName: tableName('users'), Key: { userId: auth.userId }, ConsistentRead: true }));
  await createSession((user.Item as UserRecord | undefined) ?? { userId: auth.userId }, auth.sessionId, new Date());
  return { token: auth.tokens.accessToken, userId: auth.userId, sessionId: auth.sessionId };
}

export interface TestUserOptions {
  password?: string;
  subsiteId?: number;
  enableTwoFactorAuth?: boolean;
  lang?: UserRecord['lang'];
  firstName?: string;
  pushId?: string;
  parentId?: string | null;
}

export interface TestUser {
  userId: string;
  accountId: string;
  username: string;
  email: string;
  password: string;
}

/** A new account with one admin user; names are unique per call. */
export async function createTestUser(options: TestUserOptions = {}): Promise<TestUser> {
  const suffix = randomUUID().slice(0, 8);
  const user: TestUser = {
    userId: randomUUID(),
    accountId: randomUUID(),
    username: `user-${suffix}`,
    email: `user-${suffix}@example.se`,
    password: options.password ?? 'Test-pass1',
  };
  const createdAt = new Date().toISOString();
  const subsiteId = options.subsiteId ?? 0;
  await getPorts().identity.createUser({ userId: user.userId, username: user.username, email: user.email, password: user.password });
  const account: AccountRecord = {
    accountId: user.accountId,
    parentId: options.parentId ?? null,
    type: 'company',
    name: `Test ${suffix} AB`,
    subsiteId,
    features: { realtimeMap: true, carBooking: false, rfid: false, safeReturnHome: false, basicOnly: false },
    smsCredits: 0,
    retentionDays: 395,
    createdAt,
  };
  const record: UserRecord = {
    userId: user.userId,
    accountId: user.accountId,
    username: user.username,
    email: user.email,
    firstName: options.firstName ?? 'Test',
    lastName: 'User',
    lang: options.lang ?? 'en',
    subsiteId,
    isAdmin: true,
    isSupport: false,
    enableTwoFactorAuth: options.enableTwoFactorAuth ?? false,
    ...(options.pushId ? { pushId: options.pushId } : {}),
    createdAt,
  };
  await dynamo().send(
    new TransactWriteCommand({
      TransactItems: [
        { Put: { TableName: tableName('accounts'), Item: account } },
        { Put: { TableName: tableName('users'), Item: record } },
        { Put: { TableName: tableName('uniques'), Item: { key: emailClaimKey(user.email), userId: user.userId } } },
        { Put: { TableName: tableName('uniques'), Item: { key: usernameClaimKey(user.username), userId: user.userId } } },
      ],
    }),
  );
  return user;
}
