import { randomUUID } from 'node:crypto';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { useLocalTables } from '../../test/support/local-tables';
import { dynamo, epochSeconds, tableName } from '../platform/db';
import { TooManyRequestsError } from '../platform/errors';
import { beginLoginAttempt, clearLoginAttempts, LOCKOUT_SECONDS, MAX_LOGIN_FAILURES, NAME_FAILURES_PER_HOUR } from './login-attempts';

beforeAll(async () => {
  await useLocalTables();
});

// At the start of a clock hour, so the name's hourly window does not roll over inside a test.
const t0 = new Date('2031-01-01T12:00:00Z');
const at = (seconds: number) => new Date(t0.getTime() + seconds * 1000);
const name = () => `Name-${randomUUID().slice(0, 8)}`;
const CLIENT = '192.0.2.10';
const OTHER_CLIENT = '198.51.100.7';

describe('login attempts', () => {
  it('counts attempts per name and client, case-insensitively, and refuses the 6th for an hour', async () => {
    const n = name();
    const counts = [];
    for (let i = 0; i < MAX_LOGIN_FAILURES; i++) counts.push(await beginLoginAttempt(i % 2 ? n.toUpperCase() : n, CLIENT, at(i)));
    expect(counts).toEqual([1, 2, 3, 4, 5]);
    const blocked = beginLoginAttempt(n, CLIENT, at(10));
    await expect(blocked).rejects.toBeInstanceOf(TooManyRequestsError);
    // The block runs an hour from the last counted attempt (at 4 s).
    await expect(beginLoginAttempt(n, CLIENT, at(10))).rejects.toMatchObject({ key: 'TooManyAttempts', retryAfterSeconds: LOCKOUT_SECONDS - 6 });
    await expect(beginLoginAttempt(n, CLIENT, at(4 + LOCKOUT_SECONDS - 1))).rejects.toBeInstanceOf(TooManyRequestsError);
    expect(await beginLoginAttempt(n, CLIENT, at(4 + LOCKOUT_SECONDS))).toBe(1);
  });

  it("does not block the name for another client while one client is blocked", async () => {
    const n = name();
    for (let i = 0; i < MAX_LOGIN_FAILURES; i++) await beginLoginAttempt(n, CLIENT, at(i));
    await expect(beginLoginAttempt(n, CLIENT, at(10))).rejects.toBeInstanceOf(TooManyRequestsError);
    expect(await beginLoginAttempt(n, OTHER_CLIENT, at(11))).toBe(1);
  });

  it('blocks the name everywhere once all clients together reach the hourly ceiling, until the hour ends', async () => {
    const n = name();
    // Many addresses, each staying under its own five.
    for (let i = 0; i < NAME_FAILURES_PER_HOUR; i++) await beginLoginAttempt(n, `203.0.113.${i}`, at(i));
    await expect(beginLoginAttempt(n, OTHER_CLIENT, at(100))).rejects.toMatchObject({ key: 'TooManyAttempts', retryAfterSeconds: 3600 - 100 });
    expect(await beginLoginAttempt(n, OTHER_CLIENT, at(3600))).toBe(2);
  });

  it("takes a success back from the name's ceiling, so the owner's own logins never count against it", async () => {
    const n = name();
    for (let i = 0; i < NAME_FAILURES_PER_HOUR - 1; i++) await beginLoginAttempt(n, `203.0.113.${i}`, at(i));
    for (let i = 0; i < 3; i++) {
      await beginLoginAttempt(n, OTHER_CLIENT, at(100 + i));
      await clearLoginAttempts(n, OTHER_CLIENT, at(100 + i));
    }
    expect(await beginLoginAttempt(n, OTHER_CLIENT, at(200))).toBe(1);
    await expect(beginLoginAttempt(n, CLIENT, at(201))).rejects.toBeInstanceOf(TooManyRequestsError);
  });

  it("lifts the name's ceiling after a password reset", async () => {
    const n = name();
    for (let i = 0; i < NAME_FAILURES_PER_HOUR; i++) await beginLoginAttempt(n, `203.0.113.${i}`, at(i));
    await expect(beginLoginAttempt(n, OTHER_CLIENT, at(100))).rejects.toBeInstanceOf(TooManyRequestsError);
    await clearLoginAttempts(n, OTHER_CLIENT, at(101), true);
    expect(await beginLoginAttempt(n, OTHER_CLIENT, at(102))).toBe(1);
  });

  it('lets at most 5 of many concurrent attempts from one client through', async () => {
    const n = name();
    const results = await Promise.allSettled(Array.from({ length: 12 }, () => beginLoginAttempt(n, CLIENT, at(0))));
    const passed = results.filter((r) => r.status === 'fulfilled').map((r) => (r as PromiseFulfilledResult<number>).value);
    expect(passed.sort()).toEqual([1, 2, 3, 4, 5]);
    for (const r of results.filter((x) => x.status === 'rejected')) expect((r as PromiseRejectedResult).reason).toBeInstanceOf(TooManyRequestsError);
  });

  it('forgets failures an hour after the last one, even before TTL removes the item', async () => {
    const n = name();
    await beginLoginAttempt(n, CLIENT, at(0));
    await beginLoginAttempt(n, CLIENT, at(100));
    expect(await beginLoginAttempt(n, CLIENT, at(100 + LOCKOUT_SECONDS))).toBe(1);
  });

  it("clear forgets every attempt of that client, not another client's", async () => {
    const n = name();
    await beginLoginAttempt(n, CLIENT, at(0));
    await beginLoginAttempt(n, CLIENT, at(1));
    await beginLoginAttempt(n, OTHER_CLIENT, at(1));
    await clearLoginAttempts(n.toUpperCase(), CLIENT, at(2));
    expect(await beginLoginAttempt(n, CLIENT, at(2))).toBe(1);
    expect(await beginLoginAttempt(n, OTHER_CLIENT, at(2))).toBe(2);
  });

  it('stores a count and an expiry, nothing else', async () => {
    const n = name();
    await beginLoginAttempt(n, CLIENT, at(0));
    const key = `login#${n.toLowerCase()}#${CLIENT}`;
    const out = await dynamo().send(new GetCommand({ TableName: tableName('rateLimits'), Key: { key } }));
    expect(out.Item).toEqual({ key, failures: 1, expiresAt: epochSeconds(at(LOCKOUT_SECONDS)) });
  });
});
