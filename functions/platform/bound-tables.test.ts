/**
 * On AWS a function knows only the tables the stack granted it (TABLES, bound from
 * shared/capability-resources.ts) and serves HTTP only with the origin secret; the embedded
 * runtime has every table under its prefix and no secret.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { resetDynamoClient, tableName } from './db';
import { EnvironmentError, originSecretOf, parseEnv, resetEnvCache } from './env';

const AWS = {
  RUNTIME: 'aws',
  APP_URL: 'https://portal.example.se',
  USER_POOL_ID: 'eu-north-1_Abc123',
  USER_POOL_CLIENT_ID: 'client',
  MAIL_FROM: 'no-reply@example.se',
  IOT_DATA_ENDPOINT: 'abc-ats.iot.eu-north-1.amazonaws.com',
};
const EMBEDDED = { RUNTIME: 'embedded', TABLE_PREFIX: 'local-', APP_URL: 'http://localhost:3000', DYNAMODB_ENDPOINT: 'http://127.0.0.1:1', DYNAMODB_ACCESS_KEY_ID: 'TESTKEY', JWT_SECRET: 'x'.repeat(32) };

function runtime(env: Record<string, string>) {
  vi.unstubAllEnvs();
  for (const key of ['TABLE_PREFIX', 'TABLES', 'ORIGIN_SECRET']) vi.stubEnv(key, undefined);
  for (const [key, value] of Object.entries(env)) vi.stubEnv(key, value);
  resetEnvCache();
  resetDynamoClient();
}

afterEach(() => {
  vi.unstubAllEnvs();
  resetEnvCache();
  resetDynamoClient();
});

describe('tableName', () => {
  it('on AWS names the granted tables, and refuses any other by name', () => {
    runtime({ ...AWS, TABLES: JSON.stringify({ users: 'Stack-users', rateLimits: 'Stack-rate-limits' }) });
    expect(tableName('users')).toBe('Stack-users');
    expect(tableName('rateLimits')).toBe('Stack-rate-limits');
    expect(() => tableName('positions')).toThrow(EnvironmentError);
    expect(() => tableName('positions')).toThrow(/table positions is not granted to this function/);
  });

  it('on AWS without TABLES names no table at all, even with a prefix in the environment', () => {
    runtime({ ...AWS, TABLE_PREFIX: 'Stack-' });
    expect(() => tableName('users')).toThrow(/not granted/);
  });

  it('in the embedded runtime names every table under the prefix', () => {
    runtime(EMBEDDED);
    expect(tableName('positions')).toBe('local-positions');
    expect(tableName('rateLimits')).toBe('local-rate-limits');
  });
});

describe('the environment schema', () => {
  it('refuses TABLES that is not JSON, names an unknown table or an empty name', () => {
    expect(() => parseEnv({ ...AWS, TABLES: 'users=Stack-users' })).toThrow(/TABLES/);
    expect(() => parseEnv({ ...AWS, TABLES: JSON.stringify({ nope: 'x' }) })).toThrow(/TABLES/);
    expect(() => parseEnv({ ...AWS, TABLES: JSON.stringify({ users: '' }) })).toThrow(/TABLES/);
  });

  it('requires the prefix in the embedded runtime only', () => {
    expect(() => parseEnv({ ...EMBEDDED, TABLE_PREFIX: undefined })).toThrow(/TABLE_PREFIX/);
    expect(() => parseEnv(AWS)).not.toThrow();
  });

  it('gives the origin secret on AWS, refuses to go on without it, and has none embedded', () => {
    expect(originSecretOf(parseEnv({ ...AWS, ORIGIN_SECRET: 'a'.repeat(64) }))).toBe('a'.repeat(64));
    expect(() => originSecretOf(parseEnv(AWS))).toThrow(/ORIGIN_SECRET is not set/);
    expect(() => parseEnv({ ...AWS, ORIGIN_SECRET: 'short' })).toThrow(/ORIGIN_SECRET/);
    expect(originSecretOf(parseEnv({ ...EMBEDDED, ORIGIN_SECRET: 'a'.repeat(64) }))).toBeNull();
  });
});
