/**
 * The local identity adapter: users with scrypt password hashes in the `tokens` table and HS256
 * access tokens signed with JWT_SECRET. It behaves like the Cognito adapter (docs/decisions/0005):
 * login names are case-insensitive, a wrong password and an unknown user look the same (also in
 * time), refresh keeps the session id, and the refresh token is bound to its user.
 *
 * Items (table `tokens`, key `id`):
 * - `identity#<login name>`: { userId, username, email, passwordHash, createdAt }, no expiry;
 * - `refresh#<sha256 of the refresh token>`: { userId, username, sessionId, generation, createdAt, expiresAt }.
 * A refresh token works only while its `generation` is the identity's `tokenGeneration`, so
 * signOutEverywhere is one counter increment that ends every refresh token issued before it,
 * however many there are (Cognito's AdminUserGlobalSignOut does the same by time).
 * Only hashes are stored: neither the password nor the refresh token can be read back.
 * Like the user pool's password policy, createUser and setPassword refuse a password outside the
 * portal's rule (PasswordMustInclude), so a weak password fails the same way in both runtimes.
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { DeleteCommand, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { jwtVerify, SignJWT } from 'jose';
import { isStrongPassword } from '../../../../shared/schemas/auth';
import { dynamo, epochSeconds, tableName } from '../../db';
import { ConflictError, NotFoundError, UnauthenticatedError, ValidationError } from '../../errors';
import type { Authenticated, IdentityProvider, NewIdentity, Principal, Tokens } from '../../ports';
import { normalizeUsername } from '../username';
import { hashPassword, verifyPassword } from './password-hash';
import { isConditionFailure } from '../../conditions';

export const LOCAL_TOKEN_ISSUER = 'tracking-portal/local';
export const ACCESS_TOKEN_SECONDS = 3600;
export const REFRESH_TOKEN_SECONDS = 30 * 24 * 3600;
const CLOCK_TOLERANCE_SECONDS = 5;

export const identityItemId = (username: string): string => `identity#${normalizeUsername(username)}`;
export const refreshItemId = (refreshToken: string): string =>
  `refresh#${createHash('sha256').update(refreshToken, 'utf8').digest('hex')}`;

export interface IdentityItem {
  id: string;
  userId: string;
  username: string;
  email: string;
  passwordHash: string;
  createdAt: string;
  passwordChangedAt?: string;
  /** Raised by signOutEverywhere; absent means 0. */
  tokenGeneration?: number;
}

interface RefreshItem {
  id: string;
  userId: string;
  username: string;
  sessionId: string;
  /** The identity's tokenGeneration when the token was issued; absent means 0. */
  generation?: number;
  createdAt: string;
  expiresAt: number;
}

export interface LocalIdentityOptions {
  /** JWT_SECRET: signs and checks the access tokens. */
  secret: string;
  now?: () => Date;
}

/** The pool's policy (docs/decisions/0005-identity.md) is the portal's password rule. */
function checkPasswordPolicy(password: string): void {
  if (!isStrongPassword(password)) throw new ValidationError({ password: ['PasswordMustInclude'] });
}

/** Compared against when the user is unknown, so that answer takes as long as a wrong password. */
let decoyHash: Promise<string> | undefined;
const decoy = (): Promise<string> => (decoyHash ??= hashPassword(randomBytes(16).toString('hex')));

export function createLocalIdentity(options: LocalIdentityOptions): IdentityProvider {
  const key = new TextEncoder().encode(options.secret);
  const now = options.now ?? (() => new Date());
  const table = () => tableName('tokens');

  async function accessToken(userId: string, sessionId: string, at: Date): Promise<string> {
    const iat = epochSeconds(at);
    return new SignJWT({ sid: sessionId, token_use: 'access' })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setIssuer(LOCAL_TOKEN_ISSUER)
      .setSubject(userId)
      .setIssuedAt(iat)
      .setExpirationTime(iat + ACCESS_TOKEN_SECONDS)
      .sign(key);
  }

  /** Changes an existing identity; an unknown login name is UserNotFound. */
  async function updateIdentity(username: string, UpdateExpression: string, ExpressionAttributeValues: Record<string, unknown>): Promise<void> {
    try {
      await dynamo().send(
        new UpdateCommand({ TableName: table(), Key: { id: identityItemId(username) }, UpdateExpression, ConditionExpression: 'attribute_exists(id)', ExpressionAttributeValues }),
      );
    } catch (error) {
      if (isConditionFailure(error)) throw new NotFoundError('UserNotFound');
      throw error;
    }
  }

  async function getIdentity(username: string): Promise<IdentityItem | undefined> {
    const out = await dynamo().send(new GetCommand({ TableName: table(), Key: { id: identityItemId(username) }, ConsistentRead: true }));
    return out.Item as IdentityItem | undefined;
  }

  return {
    async createUser(identity: NewIdentity) {
      checkPasswordPolicy(identity.password);
      const at = now();
      const item: IdentityItem = {
        id: identityItemId(identity.username),
        userId: identity.userId,
        username: normalizeUsername(identity.username),
        email: identity.email,
        passwordHash: await hashPassword(identity.password),
        createdAt: at.toISOString(),
      };
      try {
        await dynamo().send(new PutCommand({ TableName: table(), Item: item, ConditionExpression: 'attribute_not_exists(id)' }));
      } catch (error) {
        if (isConditionFailure(error)) throw new ConflictError('UsernameTaken');
        throw error;
      }
    },

    async authenticate(username: string, password: string): Promise<Authenticated | null> {
      const identity = await getIdentity(username);
      if (!identity) {
        await verifyPassword(password, await decoy());
        return null;
      }
      if (!(await verifyPassword(password, identity.passwordHash))) return null;

      const at = now();
      const sessionId = randomUUID();
      const refreshToken = randomBytes(32).toString('base64url');
      const record: RefreshItem = {
        id: refreshItemId(refreshToken),
        userId: identity.userId,
        username: identity.username,
        sessionId,
        generation: identity.tokenGeneration ?? 0,
        createdAt: at.toISOString(),
        expiresAt: epochSeconds(at) + REFRESH_TOKEN_SECONDS,
      };
      await dynamo().send(new PutCommand({ TableName: table(), Item: record }));
      return {
        userId: identity.userId,
        sessionId,
        tokens: { accessToken: await accessToken(identity.userId, sessionId, at), refreshToken, expiresIn: ACCESS_TOKEN_SECONDS },
      };
    },

    async refresh(refreshToken: string, username: string): Promise<Tokens> {
      const at = now();
      const out = await dynamo().send(new GetCommand({ TableName: table(), Key: { id: refreshItemId(refreshToken) }, ConsistentRead: true }));
      const record = out.Item as RefreshItem | undefined;
      // TTL deletion lags, so expiry is checked here as well.
      if (!record || record.expiresAt <= epochSeconds(at) || record.username !== normalizeUsername(username)) {
        throw new UnauthenticatedError();
      }
      const identity = await getIdentity(record.username);
      if (!identity || identity.userId !== record.userId) throw new UnauthenticatedError();
      if ((record.generation ?? 0) !== (identity.tokenGeneration ?? 0)) throw new UnauthenticatedError();
      return { accessToken: await accessToken(record.userId, record.sessionId, at), refreshToken, expiresIn: ACCESS_TOKEN_SECONDS };
    },

    async verifyAccessToken(token: string): Promise<Principal | null> {
      try {
        const { payload } = await jwtVerify(token, key, {
          algorithms: ['HS256'],
          issuer: LOCAL_TOKEN_ISSUER,
          clockTolerance: CLOCK_TOLERANCE_SECONDS,
          currentDate: now(),
          requiredClaims: ['sub', 'exp', 'iat'],
        });
        if (payload['token_use'] !== 'access' || typeof payload.sub !== 'string' || typeof payload['sid'] !== 'string') return null;
        return { userId: payload.sub, sessionId: payload['sid'] };
      } catch {
        return null;
      }
    },

    async revoke(refreshToken: string) {
      await dynamo().send(new DeleteCommand({ TableName: table(), Key: { id: refreshItemId(refreshToken) } }));
    },

    async setPassword(username: string, password: string) {
      checkPasswordPolicy(password);
      await updateIdentity(username, 'SET passwordHash = :hash, passwordChangedAt = :at', { ':hash': await hashPassword(password), ':at': now().toISOString() });
    },

    async signOutEverywhere(username: string) {
      await updateIdentity(username, 'SET tokenGeneration = if_not_exists(tokenGeneration, :zero) + :one', { ':zero': 0, ':one': 1 });
    },

    async deleteUser(username: string) {
      await dynamo().send(new DeleteCommand({ TableName: table(), Key: { id: identityItemId(username) } }));
    },
  };
}
