import { randomUUID } from 'node:crypto';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { SignJWT } from 'jose';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { dynamo, tableName } from '../../db';
import { ConflictError, NotFoundError, UnauthenticatedError, ValidationError } from '../../errors';
import type { IdentityProvider } from '../../ports';
import { createLocalIdentity, identityItemId, LOCAL_TOKEN_ISSUER, refreshItemId } from './identity';
import type * as passwordHash from './password-hash';
import { verifyPassword } from './password-hash';
import { useLocalTables } from '../../../../test/support/local-tables';

// verifyPassword is watched (and still runs) so a test can see which hash each login checks.
vi.mock('./password-hash', async (original) => {
  const actual = await original<typeof passwordHash>();
  return { ...actual, verifyPassword: vi.fn(actual.verifyPassword) };
});

const TEST_JWT_SECRET = 'test-secret-test-secret-test-secret-0123456789';
let identity: IdentityProvider;

beforeAll(async () => {
  await useLocalTables();
  identity = createLocalIdentity({ secret: TEST_JWT_SECRET });
});

const key = new TextEncoder().encode(TEST_JWT_SECRET);
const nowSeconds = () => Math.floor(Date.now() / 1000);

async function newUser(password = 'Secret#123') {
  const user = { userId: randomUUID(), username: `User_${randomUUID().slice(0, 8)}`, email: 'anna@example.se', password };
  await identity.createUser(user);
  return user;
}

async function getItem(id: string) {
  const out = await dynamo().send(new GetCommand({ TableName: tableName('tokens'), Key: { id } }));
  return out.Item;
}

describe('local identity', () => {
  it('authenticates the right password, case-insensitively on the login name', async () => {
    const user = await newUser();
    const result = await identity.authenticate(user.username.toUpperCase(), user.password);
    expect(result).not.toBeNull();
    expect(result?.userId).toBe(user.userId);
    expect(result?.sessionId).toMatch(/^[0-9a-f-]{36}$/);
    expect(result?.tokens.expiresIn).toBe(3600);
    expect(result?.tokens.refreshToken).toMatch(/^[A-Za-z0-9_-]{43}$/);

    const principal = await identity.verifyAccessToken(result?.tokens.accessToken ?? '');
    expect(principal).toEqual({ userId: user.userId, sessionId: result?.sessionId });
  });

  it('answers null for a wrong password and for an unknown user', async () => {
    const user = await newUser();
    expect(await identity.authenticate(user.username, 'Wrong#123')).toBeNull();
    expect(await identity.authenticate('nobody-here', user.password)).toBeNull();
  });

  it('spends the same work on an unknown user as on a wrong password', async () => {
    // Timing a login on a shared machine proves nothing either way, so the test checks the cause of
    // equal timing instead: both paths run one scrypt, of the same cost.
    const user = await newUser();
    const verify = vi.mocked(verifyPassword);
    const costOf = (hash: unknown) => String(hash).split('$').slice(0, 4).join('$');

    verify.mockClear();
    expect(await identity.authenticate(user.username, 'Wrong#123')).toBeNull();
    expect(verify).toHaveBeenCalledTimes(1);
    const realHash = verify.mock.calls[0]?.[1];

    verify.mockClear();
    expect(await identity.authenticate('nobody-at-all', 'Wrong#123')).toBeNull();
    expect(verify).toHaveBeenCalledTimes(1);
    const decoyHash = verify.mock.calls[0]?.[1];
    expect(verify.mock.calls[0]?.[0]).toBe('Wrong#123');
    expect(decoyHash).not.toBe(realHash);
    expect(costOf(decoyHash)).toBe(costOf(realHash));
    expect(costOf(decoyHash)).toBe('scrypt$16384$8$1');
    // The decoy is a well-formed hash, so its scrypt runs rather than failing fast on its format.
    expect(await verify.mock.results[0]?.value).toBe(false);
    expect(String(decoyHash)).toMatch(/^scrypt\$16384\$8\$1\$[A-Za-z0-9+/=]{24}\$[A-Za-z0-9+/=]{88}$/);
  });

  it('never stores the password in plain text', async () => {
    const user = await newUser('Plain#Text-123');
    const item = await getItem(identityItemId(user.username));
    expect(item).toBeDefined();
    expect(JSON.stringify(item)).not.toContain('Plain#Text-123');
    expect(item?.['passwordHash']).toMatch(/^scrypt\$16384\$8\$1\$[A-Za-z0-9+/=]{24}\$[A-Za-z0-9+/=]{88}$/);
    expect(item?.['expiresAt']).toBeUndefined();
    expect(await verifyPassword('Plain#Text-123', String(item?.['passwordHash']))).toBe(true);
  });

  it('refuses a second user with the same login name (any case)', async () => {
    const user = await newUser();
    const again = { userId: randomUUID(), username: user.username.toLowerCase(), email: 'other@example.se', password: 'Other#123' };
    await expect(identity.createUser(again)).rejects.toBeInstanceOf(ConflictError);
    await expect(identity.createUser(again)).rejects.toMatchObject({ key: 'UsernameTaken' });
    // The first user is untouched.
    expect(await identity.authenticate(user.username, user.password)).not.toBeNull();
  });

  it('rejects tampered, foreign, expired and non-access tokens', async () => {
    const user = await newUser();
    const result = await identity.authenticate(user.username, user.password);
    const token = result?.tokens.accessToken ?? '';
    const [header, payload, signature] = token.split('.');
    const claims = JSON.parse(Buffer.from(payload ?? '', 'base64url').toString());
    const forged = Buffer.from(JSON.stringify({ ...claims, sub: randomUUID() })).toString('base64url');
    expect(await identity.verifyAccessToken(`${header}.${forged}.${signature}`)).toBeNull();
    expect(await identity.verifyAccessToken(`${token.slice(0, -2)}xx`)).toBeNull();
    expect(await identity.verifyAccessToken('not-a-jwt')).toBeNull();

    const sign = (claims: Record<string, unknown>, exp: number, secret = key, alg = 'HS256') =>
      new SignJWT(claims)
        .setProtectedHeader({ alg })
        .setIssuer(LOCAL_TOKEN_ISSUER)
        .setSubject(user.userId)
        .setIssuedAt(exp - 3600)
        .setExpirationTime(exp)
        .sign(secret);
    const good = { sid: 's-1', token_use: 'access' };
    expect(await identity.verifyAccessToken(await sign(good, nowSeconds() + 60))).toEqual({ userId: user.userId, sessionId: 's-1' });
    // Expired (beyond the 5 s clock tolerance).
    expect(await identity.verifyAccessToken(await sign(good, nowSeconds() - 30))).toBeNull();
    // Signed with another secret.
    expect(await identity.verifyAccessToken(await sign(good, nowSeconds() + 60, new TextEncoder().encode('x'.repeat(40))))).toBeNull();
    // Another algorithm than the pinned HS256.
    expect(await identity.verifyAccessToken(await sign(good, nowSeconds() + 60, key, 'HS512'))).toBeNull();
    // Not an access token, or without a session.
    expect(await identity.verifyAccessToken(await sign({ sid: 's-1', token_use: 'live' }, nowSeconds() + 60))).toBeNull();
    expect(await identity.verifyAccessToken(await sign({ token_use: 'access' }, nowSeconds() + 60))).toBeNull();
  });

  it('refreshes with the same session and refresh token, only for its own user', async () => {
    const user = await newUser();
    const other = await newUser();
    const result = await identity.authenticate(user.username, user.password);
    const refreshToken = result?.tokens.refreshToken ?? '';

    const record = await getItem(refreshItemId(refreshToken));
    expect(record).toMatchObject({ userId: user.userId, sessionId: result?.sessionId });
    expect(JSON.stringify(record)).not.toContain(refreshToken);
    expect(Number(record?.['expiresAt'])).toBeGreaterThan(nowSeconds() + 29 * 24 * 3600);

    const tokens = await identity.refresh(refreshToken, user.username);
    expect(tokens.refreshToken).toBe(refreshToken);
    expect(tokens.expiresIn).toBe(3600);
    expect(await identity.verifyAccessToken(tokens.accessToken)).toEqual({ userId: user.userId, sessionId: result?.sessionId });

    await expect(identity.refresh(refreshToken, other.username)).rejects.toBeInstanceOf(UnauthenticatedError);
    await expect(identity.refresh('unknown-token', user.username)).rejects.toBeInstanceOf(UnauthenticatedError);
  });

  it('revoke ends the refresh token', async () => {
    const user = await newUser();
    const result = await identity.authenticate(user.username, user.password);
    const refreshToken = result?.tokens.refreshToken ?? '';
    await identity.revoke(refreshToken);
    await expect(identity.refresh(refreshToken, user.username)).rejects.toBeInstanceOf(UnauthenticatedError);
    await identity.revoke(refreshToken); // twice is fine
  });

  it('refreshes no token of an expired record (TTL deletion lags)', async () => {
    const user = await newUser();
    const past = new Date(Date.now() - 31 * 24 * 3600 * 1000);
    const oldIdentity = createLocalIdentity({ secret: TEST_JWT_SECRET, now: () => past });
    const result = await oldIdentity.authenticate(user.username, user.password);
    await expect(identity.refresh(result?.tokens.refreshToken ?? '', user.username)).rejects.toBeInstanceOf(UnauthenticatedError);
  });

  it('setPassword replaces the password; an unknown user is NotFound', async () => {
    const user = await newUser();
    await identity.setPassword(user.username, 'Changed#456');
    expect(await identity.authenticate(user.username, user.password)).toBeNull();
    expect(await identity.authenticate(user.username, 'Changed#456')).not.toBeNull();
    const item = await getItem(identityItemId(user.username));
    expect(JSON.stringify(item)).not.toContain('Changed#456');
    await expect(identity.setPassword('nobody-here', 'Changed#456')).rejects.toBeInstanceOf(NotFoundError);
  });

  it('deleteUser removes the identity and stops its refresh tokens', async () => {
    const user = await newUser();
    const result = await identity.authenticate(user.username, user.password);
    await identity.deleteUser(user.username);
    expect(await getItem(identityItemId(user.username))).toBeUndefined();
    expect(await identity.authenticate(user.username, user.password)).toBeNull();
    await expect(identity.refresh(result?.tokens.refreshToken ?? '', user.username)).rejects.toBeInstanceOf(UnauthenticatedError);
    await identity.deleteUser(user.username); // twice is fine
    // The login name is free again.
    await identity.createUser({ ...user, userId: randomUUID() });
  });

  it('refuses a password outside the rule, as the user pool policy does in Cognito', async () => {
    const weak = { userId: randomUUID(), username: `User_${randomUUID().slice(0, 8)}`, email: 'weak@example.se', password: 'weakpass' };
    await expect(identity.createUser(weak)).rejects.toBeInstanceOf(ValidationError);
    await expect(identity.createUser(weak)).rejects.toMatchObject({ fieldErrors: { password: ['PasswordMustInclude'] } });
    expect(await getItem(identityItemId(weak.username))).toBeUndefined();

    const user = await newUser();
    await expect(identity.setPassword(user.username, 'NoDigits!')).rejects.toMatchObject({ fieldErrors: { password: ['PasswordMustInclude'] } });
    expect(await identity.authenticate(user.username, user.password)).not.toBeNull();
  });

  it('issues access tokens that expire after one hour, and refreshes them within the session', async () => {
    const user = await newUser();
    const issuedAt = new Date(Date.now() - 3600 * 1000 - 10 * 1000);
    const earlier = createLocalIdentity({ secret: TEST_JWT_SECRET, now: () => issuedAt });
    const result = await earlier.authenticate(user.username, user.password);
    const token = result?.tokens.accessToken ?? '';
    // Valid when issued, expired an hour (plus the 5 s tolerance) later.
    expect(await earlier.verifyAccessToken(token)).toEqual({ userId: user.userId, sessionId: result?.sessionId });
    expect(await identity.verifyAccessToken(token)).toBeNull();
    const fresh = await identity.refresh(result?.tokens.refreshToken ?? '', user.username);
    expect(await identity.verifyAccessToken(fresh.accessToken)).toEqual({ userId: user.userId, sessionId: result?.sessionId });
  });
});
