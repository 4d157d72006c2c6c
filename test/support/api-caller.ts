/**
 * Calling the API as a logged-in user in black-box tests: who (token, user and account), and one
 * request with the TimeZone header, its answer checked against the route's response schema
 * (apiFetch).
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo, tableName } from '../../functions/platform/db';
import { apiFetch } from './http';
import { DEMO_PASSWORD, demoUsers } from '../../infra/local/seed';
import { createTestUser, loginAs } from './sessions';

export interface Caller {
  token: string;
  userId: string;
  accountId: string;
}
export interface Reply<T> {
  status: number;
  body: { success?: boolean; data?: T; message?: string; errors?: Record<string, string[]> | string };
}

export async function callerFor(username: string, password: string): Promise<Caller> {
  const { token, userId } = await loginAs(username, password);
  const me = await dynamo().send(new GetCommand({ TableName: tableName('users'), Key: { userId } }));
  return { token, userId, accountId: String(me.Item?.['accountId']) };
}

/** The demo account's admin and ordinary user, and the admin of a new account of its own (the stranger). */
export async function demoCallers(): Promise<{ admin: Caller; user: Caller; other: Caller }> {
  const stranger = await createTestUser();
  const [admin, user, other] = await Promise.all([
    callerFor(demoUsers.admin.username, DEMO_PASSWORD),
    callerFor(demoUsers.user.username, DEMO_PASSWORD),
    callerFor(stranger.username, stranger.password),
  ]);
  return { admin, user, other };
}

export async function callAs<T>(baseUrl: string, method: string, path: string, who: Caller | null, body?: unknown, zone = 'Europe/Stockholm'): Promise<Reply<T>> {
  const res = await apiFetch(`${baseUrl}${path}`, {
    method,
    headers: {
      ...(who ? { authorization: `Bearer ${who.token}` } : {}),
      timezone: zone,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : {}) as Reply<T>['body'] };
}
