import { randomUUID } from 'node:crypto';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { useLocalTables } from '../../test/support/local-tables';
import { dynamo, epochSeconds, tableName } from '../platform/db';
import { TooManyRequestsError } from '../platform/errors';
import { beginLoginAttempt, clearLoginAttempts, LOCKOUT_SECONDS, MAX_LOGIN_FAILURES } from './login-attempts';

beforeAll(async () => {
  await useLocalTables();
});

const t0 = new Date('2031-01-01T12:00:00Z');
const at = (seconds: number) => new Date(t0.getTime() + seconds * 1000);
const name = () => `Name-${randomUUID().slice(0, 8)}`;

describe('login attempts', () => {
  it('counts attempts per name, case-insensitively, and refuses the 6th for an hour', async () => {
    const n = name();
    const counts = [];
    for (let i = 0; i < MAX_LOGIN_FAILURES; i++) counts.push(await beginLoginAttempt(i % 2 ? n.toUpperCase() : n, at(i)));
    expect(counts).toEqual([1, 2, 3, 4, 5]);
    const blocked = beginLoginAttempt(n, at(10));
    await expect(blocked).rejects.toBeInstanceOf(TooManyRequestsError);
    // The block runs an hour from the last counted attempt (at 4 s).
    await expect(beginLoginAttempt(n, at(10))).rejects.toMatchObject({ key: 'TooManyAttempts', retryAfterSeconds: LOCKOUT_SECONDS - 6 });
    await expect(beginLoginAttempt(n, at(4 + LOCKOUT_SECONDS - 1))).rejects.toBeInstanceOf(TooManyRequestsError);
    expect(await beginLoginAttempt(n, at(4 + LOCKOUT_SECONDS))).toBe(1);
  });

  it('lets at most 5 of many concurrent attempts through', async () => {
    const n = name();
    const results = await Promise.allSettled(Array.from({ length: 12 }, () => beginLoginAttempt(n, at(0))));
    const passed = results.filter((r) => r.status === 'fulfilled').map((r) => (r as PromiseFulfilledResult<number>).value);
    expect(passed.sort()).toEqual([1, 2, 3, 4, 5]);
    for (const r of results.filter((x) => x.status === 'rejected')) expect((r as PromiseRejectedResult).reason).toBeInstanceOf(TooManyRequestsError);
  });

  it('forgets failures an hour after the last one, even before TTL removes the item', async () => {
    const n = name();
    await beginLoginAttempt(n, at(0));
    await beginLoginAttempt(n, at(100));
    expect(await beginLoginAttempt(n, at(100 + LOCKOUT_SECONDS))).toBe(1);
  });

  it('clear forgets every attempt', async () => {
    const n = name();
    await beginLoginAttempt(n, at(0));
    await beginLoginAttempt(n, at(1));
    await clearLoginAttempts(n.toUpperCase());
    expect(await beginLoginAttempt(n, at(2))).toBe(1);
  });

  it('stores a count and an expiry, nothing else', async () => {
    const n = name();
    await beginLoginAttempt(n, at(0));
    const out = await dynamo().send(new GetCommand({ TableName: tableName('rateLimits'), Key: { key: `login#${n.toLowerCase()}` } }));
    expect(out.Item).toEqual({ key: `login#${n.toLowerCase()}`, failures: 1, expiresAt: epochSeconds(at(LOCKOUT_SECONDS)) });
  });
});
