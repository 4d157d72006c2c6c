/**
 * Who a request counts as, through a real handler (GET /api/v1/validate-imei and its per-client
 * limit) on the AWS runtime: API Gateway v2 events as CloudFront forwards them, one edge address
 * for every viewer, DynamoDB replaced by an in-memory double that counts like the rate-limits table.
 */
import { randomUUID } from 'node:crypto';
import { DynamoDBDocumentClient, GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { ORIGIN_SECRET_HEADER, VIEWER_ADDRESS_HEADER } from '../../shared/edge-headers';
import { clientAddressKey } from '../../shared/network';
import { IMEI_LOOKUP_LIMIT } from '../registration/limits';
import { handler } from '../registration/get-validate-imei';
import { resetPorts } from './container';
import { resetDynamoClient } from './db';
import { resetEnvCache } from './env';
import { logger } from './logger';
import { clientKey } from './rate-limit';

const SECRET = 'S3cr3t'.repeat(8);
const EDGE = '130.176.212.7';
const IMEI = '356307042441013';
const context = {} as Context;

const AWS_ENV = {
  RUNTIME: 'aws',
  AWS_REGION: 'eu-north-1',
  APP_URL: 'https://portal.example.se',
  USER_POOL_ID: 'eu-north-1_Abc123',
  USER_POOL_CLIENT_ID: 'client',
  MAIL_FROM: 'no-reply@example.se',
  IOT_DATA_ENDPOINT: 'abc-ats.iot.eu-north-1.amazonaws.com',
  TABLES: JSON.stringify({ inventory: 'T-inventory', rateLimits: 'T-rate-limits' }),
  LOG_LEVEL: 'ERROR',
};

const dynamo = mockClient(DynamoDBDocumentClient);
// Window item -> count, as the rate-limits table's atomic ADD keeps it.
const counts = new Map<string, number>();

function useAwsRuntime(env: Record<string, string | undefined>) {
  for (const [key, value] of Object.entries(env)) vi.stubEnv(key, value);
  resetEnvCache();
  resetPorts();
  resetDynamoClient();
}

beforeEach(() => {
  vi.restoreAllMocks();
  // One request log line per call would bury the test output.
  vi.spyOn(logger, 'info').mockImplementation(() => undefined);
  vi.unstubAllEnvs();
  useAwsRuntime({ ...AWS_ENV, ORIGIN_SECRET: SECRET, TABLE_PREFIX: undefined });
  counts.clear();
  dynamo.reset();
  dynamo.on(GetCommand, { TableName: 'T-inventory' }).resolves({ Item: { imei: IMEI, registered: false, provisionedAt: '2030-01-01T00:00:00Z' } });
  dynamo.on(UpdateCommand, { TableName: 'T-rate-limits' }).callsFake((input: { Key: { key: string } }) => {
    const count = (counts.get(input.Key.key) ?? 0) + 1;
    counts.set(input.Key.key, count);
    return { Attributes: { count } };
  });
});

afterAll(() => {
  vi.unstubAllEnvs();
  resetEnvCache();
  resetPorts();
  resetDynamoClient();
});

/** What API Gateway hands the function for a request CloudFront forwarded from `viewer`. */
function viaCloudFront(viewer: string | undefined, headers: Record<string, string> = { [ORIGIN_SECRET_HEADER]: SECRET }): APIGatewayProxyEventV2 {
  return {
    version: '2.0',
    routeKey: 'GET /api/v1/validate-imei',
    rawPath: '/api/v1/validate-imei',
    rawQueryString: `imei=${IMEI}`,
    queryStringParameters: { imei: IMEI },
    headers: {
      host: 'abc123.execute-api.eu-north-1.amazonaws.com',
      via: '2.0 0a1b2c.cloudfront.net (CloudFront)',
      'x-forwarded-for': `${viewer ?? '192.0.2.1'}, ${EDGE}`,
      ...(viewer === undefined ? {} : { [VIEWER_ADDRESS_HEADER]: viewer }),
      ...headers,
    },
    requestContext: { requestId: randomUUID(), http: { method: 'GET', path: '/api/v1/validate-imei', sourceIp: EDGE } },
    isBase64Encoded: false,
  } as unknown as APIGatewayProxyEventV2;
}

async function call(event: APIGatewayProxyEventV2): Promise<APIGatewayProxyStructuredResultV2> {
  return (await handler(event, context)) as APIGatewayProxyStructuredResultV2;
}

const limitKeys = () => [...counts.keys()].map((k) => k.replace(/#\d+$/, ''));

describe('behind CloudFront (origin secret configured)', () => {
  it('counts two viewers behind one edge address apart', async () => {
    for (let i = 0; i < IMEI_LOOKUP_LIMIT; i++) expect((await call(viaCloudFront('203.0.113.10'))).statusCode).toBe(200);
    const over = await call(viaCloudFront('203.0.113.10'));
    expect(over.statusCode).toBe(429);
    expect(JSON.parse(over.body ?? '')).toMatchObject({ success: false, message: 'TooManyRequests' });
    expect(Number(over.headers?.['retry-after'])).toBeGreaterThan(0);

    // Same edge, another viewer: a count of its own.
    expect((await call(viaCloudFront('198.51.100.20'))).statusCode).toBe(200);
    expect(new Set(limitKeys())).toEqual(new Set(['imei-lookup#203.0.113.10', 'imei-lookup#198.51.100.20']));
    expect(limitKeys().some((k) => k.includes(EDGE))).toBe(false);
  });

  it('counts two IPv6 addresses of one /64 as one client, and another /64 apart', async () => {
    await call(viaCloudFront('2001:db8:1:2::a'));
    await call(viaCloudFront('2001:DB8:1:2:ffff:ffff:ffff:1'));
    await call(viaCloudFront('2001:db8:1:3::a'));
    expect(Object.fromEntries([...counts].map(([k, n]) => [k.replace(/#\d+$/, ''), n]))).toEqual({
      'imei-lookup#2001:db8:1:2::/64': 2,
      'imei-lookup#2001:db8:1:3::/64': 1,
    });
  });

  it('refuses a request without the origin secret, or with a wrong one, before anything else', async () => {
    const attempts: Record<string, string>[] = [{}, { [ORIGIN_SECRET_HEADER]: 'not-the-secret' }, { [ORIGIN_SECRET_HEADER]: `${SECRET}x` }, { [ORIGIN_SECRET_HEADER]: '' }];
    for (const headers of attempts) {
      const res = await call(viaCloudFront('203.0.113.10', headers));
      expect(res.statusCode).toBe(403);
      expect(JSON.parse(res.body ?? '')).toEqual({ success: false, message: 'Forbidden', errors: 'Forbidden' });
    }
    // Refused before any lookup or count.
    expect(dynamo.calls()).toHaveLength(0);
  });

  it('accepts the secret header in any case, and hides it from the handler', async () => {
    const event = viaCloudFront('203.0.113.10', { 'X-Origin-Verify': SECRET });
    const res = await call(event);
    expect(res.statusCode).toBe(200);
    expect(Object.keys(event.headers).map((k) => k.toLowerCase())).not.toContain(ORIGIN_SECRET_HEADER);
  });

  it('falls back to the edge address when CloudFront named no viewer', async () => {
    const warn = vi.spyOn(logger, 'warn').mockImplementation(() => undefined);
    await call(viaCloudFront(undefined));
    expect(limitKeys()).toEqual([`imei-lookup#${EDGE}`]);
    warn.mockRestore();
  });

  it('fails closed when the stack did not set ORIGIN_SECRET', async () => {
    useAwsRuntime({ ...AWS_ENV, ORIGIN_SECRET: undefined });
    const error = vi.spyOn(logger, 'error').mockImplementation(() => undefined);
    const res = await call(viaCloudFront('203.0.113.10'));
    expect(res.statusCode).toBe(500);
    expect(dynamo.calls()).toHaveLength(0);
    error.mockRestore();
  });
});

describe('clientKey without the origin secret', () => {
  const direct = (sourceIp: string | undefined, headers: Record<string, string> = {}) =>
    ({ requestContext: { http: { sourceIp } }, headers }) as unknown as APIGatewayProxyEventV2;

  it('believes no header a caller sets: a forged viewer address or X-Forwarded-For counts as the source', () => {
    expect(clientKey(direct('198.51.100.7', { [VIEWER_ADDRESS_HEADER]: '203.0.113.99', 'x-forwarded-for': '203.0.113.98' }))).toBe('198.51.100.7');
  });

  it('keys the embedded runtime socket address the same way', () => {
    useAwsRuntime({ RUNTIME: 'embedded', TABLE_PREFIX: 't-', APP_URL: 'http://localhost:3000', DYNAMODB_ENDPOINT: 'http://127.0.0.1:1', DYNAMODB_ACCESS_KEY_ID: 'TESTKEY', JWT_SECRET: 'x'.repeat(32) });
    expect(clientKey(direct('::ffff:203.0.113.7'))).toBe('203.0.113.7');
    expect(clientKey(direct('2001:db8:aa:bb:1:2:3:4'))).toBe('2001:db8:aa:bb::/64');
    expect(clientKey(direct('127.0.0.1', { [VIEWER_ADDRESS_HEADER]: '203.0.113.99' }))).toBe('127.0.0.1');
    expect(clientKey(direct(undefined))).toBe('unknown');
  });
});

describe('clientAddressKey', () => {
  it.each([
    ['203.0.113.7', '203.0.113.7'],
    ['::ffff:203.0.113.7', '203.0.113.7'],
    ['::FFFF:cb00:7107', '203.0.113.7'],
    ['0:0:0:0:0:ffff:203.0.113.7', '203.0.113.7'],
    ['2001:db8::1', '2001:db8:0:0::/64'],
    ['2001:0db8:0000:0000:0000:0000:0000:0001', '2001:db8:0:0::/64'],
    ['2001:db8:1:2:3:4:5:6', '2001:db8:1:2::/64'],
    ['fe80::1%eth0', 'fe80:0:0:0::/64'],
    ['::1', '0:0:0:0::/64'],
  ])('%s -> %s', (address, key) => {
    expect(clientAddressKey(address)).toBe(key);
  });

  it('is null for what is not an address', () => {
    for (const text of ['', 'unknown', '203.0.113.7:443', '2001:db8::1::2', '256.1.1.1', '[2001:db8::1]']) expect(clientAddressKey(text), text).toBeNull();
    expect(clientAddressKey(undefined)).toBeNull();
  });
});
