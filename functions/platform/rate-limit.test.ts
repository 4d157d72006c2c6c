import { randomUUID } from 'node:crypto';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { beforeAll, describe, expect, it } from 'vitest';
import { useLocalTables } from '../../test/support/local-tables';
import { dynamo, epochSeconds, tableName } from './db';
import { TooManyRequestsError } from './errors';
import { clientKey, consumeRateLimit, hitRateLimit } from './rate-limit';

beforeAll(async () => {
  await useLocalTables();
});

/** 10:00:00 UTC: the start of a 600-second window. */
const windowStart = new Date('2030-01-01T10:00:00Z');
const at = (seconds: number) => new Date(windowStart.getTime() + seconds * 1000);

describe('hitRateLimit', () => {
  it('counts requests in a fixed window and reports what is left and when the window ends', async () => {
    const key = `test#${randomUUID()}`;
    const first = await hitRateLimit(key, 3, 600, at(0));
    expect(first).toEqual({ count: 1, remaining: 2, retryAfter: 600, limited: false });
    await hitRateLimit(key, 3, 600, at(10));
    const third = await hitRateLimit(key, 3, 600, at(100));
    expect(third).toEqual({ count: 3, remaining: 0, retryAfter: 500, limited: false });
    const fourth = await hitRateLimit(key, 3, 600, at(599));
    expect(fourth).toEqual({ count: 4, remaining: 0, retryAfter: 1, limited: true });
  });

  it('starts counting again in the next window', async () => {
    const key = `test#${randomUUID()}`;
    for (let i = 0; i < 4; i++) await hitRateLimit(key, 3, 600, at(i));
    expect((await hitRateLimit(key, 3, 600, at(599))).limited).toBe(true);
    expect(await hitRateLimit(key, 3, 600, at(600))).toMatchObject({ count: 1, limited: false });
  });

  it('keeps keys apart', async () => {
    const a = `test#${randomUUID()}`;
    const b = `test#${randomUUID()}`;
    for (let i = 0; i < 3; i++) await hitRateLimit(a, 2, 600, at(i));
    expect((await hitRateLimit(a, 2, 600, at(5))).limited).toBe(true);
    expect((await hitRateLimit(b, 2, 600, at(5))).limited).toBe(false);
  });

  it('loses no count under concurrency (one atomic ADD per request)', async () => {
    const key = `test#${randomUUID()}`;
    const results = await Promise.all(Array.from({ length: 25 }, () => hitRateLimit(key, 10, 600, at(1))));
    expect(results.map((r) => r.count).sort((x, y) => x - y)).toEqual(Array.from({ length: 25 }, (_, i) => i + 1));
    expect(results.filter((r) => !r.limited)).toHaveLength(10);
  });

  it('gives each window item a TTL at the end of its window', async () => {
    const key = `test#${randomUUID()}`;
    await hitRateLimit(key, 3, 600, at(42));
    const window = Math.floor(epochSeconds(at(42)) / 600);
    const out = await dynamo().send(new GetCommand({ TableName: tableName('rateLimits'), Key: { key: `${key}#${window}` } }));
    expect(out.Item).toEqual({ key: `${key}#${window}`, count: 1, expiresAt: epochSeconds(at(600)) });
  });
});

describe('consumeRateLimit', () => {
  it('passes under the limit and throws a 429 with retry-after above it', async () => {
    const key = `test#${randomUUID()}`;
    await consumeRateLimit(key, 2, 3600, at(0));
    await consumeRateLimit(key, 2, 3600, at(1));
    const third = consumeRateLimit(key, 2, 3600, at(1800));
    await expect(third).rejects.toBeInstanceOf(TooManyRequestsError);
    await expect(consumeRateLimit(key, 2, 3600, at(1800))).rejects.toMatchObject({ status: 429, key: 'TooManyRequests', retryAfterSeconds: 1800 });
  });
});

describe('clientKey', () => {
  const event = (sourceIp?: string) =>
    ({ requestContext: { http: { sourceIp } }, headers: { 'x-forwarded-for': '10.9.9.9' } }) as unknown as APIGatewayProxyEventV2;

  it('is the source IP API Gateway saw, never a header the client sets', () => {
    expect(clientKey(event('203.0.113.7'))).toBe('203.0.113.7');
    expect(clientKey(event(undefined))).toBe('unknown');
  });
});
