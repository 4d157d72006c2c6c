/**
 * The login handler with hand-made API Gateway events: what a black-box test from one machine
 * cannot show, namely that the per-client limit counts each source IP on its own.
 */
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { beforeAll, describe, expect, it } from 'vitest';
import { useLocalTables } from '../../test/support/local-tables';
import { createTestUser } from '../../test/support/sessions';
import { overridePorts } from '../platform/container';
import { LOGIN_CLIENT_LIMIT } from './credentials';
import { handler } from './post-login';

beforeAll(async () => {
  await useLocalTables();
  // The start of a 10-minute window, so the test does not straddle two.
  overridePorts({ clock: { now: () => new Date('2031-03-01T08:00:05Z') } });
});

function event(body: unknown, sourceIp: string): APIGatewayProxyEventV2 {
  return {
    version: '2.0',
    routeKey: 'POST /api/v1/login',
    rawPath: '/api/v1/login',
    rawQueryString: '',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': '198.51.100.1' },
    requestContext: { requestId: 'r', http: { method: 'POST', path: '/api/v1/login', sourceIp } } as APIGatewayProxyEventV2['requestContext'],
    body: JSON.stringify(body),
    isBase64Encoded: false,
  } as APIGatewayProxyEventV2;
}

async function login(body: unknown, sourceIp: string) {
  const res = (await handler(event(body, sourceIp), {} as Context)) as APIGatewayProxyStructuredResultV2;
  return { status: res.statusCode, body: JSON.parse(String(res.body)) as { errors?: unknown } };
}

describe('login rate limit per client', () => {
  it('limits one source IP without touching another, whatever X-Forwarded-For says', async () => {
    const u = await createTestUser();
    for (let i = 0; i < LOGIN_CLIENT_LIMIT; i++) {
      expect((await login({ username: `guess-${i}`, password: 'Wrong-pass1', subsiteid: 0 }, '203.0.113.10')).status).toBe(401);
    }
    const limited = await login({ username: u.username, password: u.password, subsiteid: 0 }, '203.0.113.10');
    expect(limited.status).toBe(429);
    expect(limited.body.errors).toBe('TooManyRequests');

    const otherClient = await login({ username: u.username, password: u.password, subsiteid: 0 }, '203.0.113.11');
    expect(otherClient.status).toBe(200);
  });
});
