import { randomUUID } from 'node:crypto';
import {
  AdminCreateUserCommand,
  AdminDeleteUserCommand,
  AdminGetUserCommand,
  AdminInitiateAuthCommand,
  AdminRespondToAuthChallengeCommand,
  AdminSetUserPasswordCommand,
  AdminUpdateUserAttributesCommand,
  AliasExistsException,
  CognitoIdentityProviderClient,
  InternalErrorException,
  InvalidPasswordException,
  NotAuthorizedException,
  RevokeTokenCommand,
  UnsupportedTokenTypeException,
  UserNotFoundException,
  UsernameExistsException,
} from '@aws-sdk/client-cognito-identity-provider';
import { mockClient } from 'aws-sdk-client-mock';
import { CognitoJwtVerifier } from 'aws-jwt-verify';
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWK } from 'jose';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ConflictError, NotFoundError, UnauthenticatedError, ValidationError } from '../../errors';
import type { IdentityProvider } from '../../ports';
import { createCognitoIdentity } from './identity';

const POOL = 'eu-north-1_TestPool1';
const CLIENT = 'test-client-id';
const ISSUER = `https://cognito-idp.eu-north-1.amazonaws.com/${POOL}`;
const meta = { $metadata: {} };

const cognito = mockClient(CognitoIdentityProviderClient);
afterEach(() => cognito.reset());

let signingKey: CryptoKey;
let foreignKey: CryptoKey;
let jwk: JWK;
let identity: IdentityProvider;

beforeAll(async () => {
  const pair = await generateKeyPair('RS256', { extractable: true });
  signingKey = pair.privateKey;
  foreignKey = (await generateKeyPair('RS256')).privateKey;
  jwk = { ...(await exportJWK(pair.publicKey)), kid: 'test-kid', alg: 'RS256', use: 'sig' };
  const verifier = CognitoJwtVerifier.create({ userPoolId: POOL, tokenUse: 'access', clientId: CLIENT });
  verifier.cacheJwks({ keys: [jwk] } as Parameters<typeof verifier.cacheJwks>[0]);
  identity = createCognitoIdentity({ client: new CognitoIdentityProviderClient({ region: 'eu-north-1' }), userPoolId: POOL, clientId: CLIENT, verifier });
});

/** An access token shaped like Cognito's: `username` is the Cognito username (our userId). */
async function accessToken(
  claims: { username: string; origin_jti: string } & Record<string, unknown>,
  options: { key?: CryptoKey; expiresIn?: number; kid?: string } = {},
): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({
    client_id: CLIENT,
    token_use: 'access',
    scope: 'aws.cognito.signin.user.admin',
    auth_time: now,
    jti: randomUUID(),
    event_id: randomUUID(),
    ...claims,
  })
    .setProtectedHeader({ alg: 'RS256', kid: options.kid ?? 'test-kid' })
    .setIssuer(ISSUER)
    .setSubject(randomUUID())
    .setIssuedAt(now - 10)
    .setExpirationTime(now + (options.expiresIn ?? 3600))
    .sign(options.key ?? signingKey);
}

const newIdentity = { userId: '7c9e6679-7425-40de-944b-e07fc1f90ae7', username: 'Anna_S', email: 'anna@example.se', password: 'Secret#123' };

describe('Cognito createUser', () => {
  const answerNewPasswordRequired = () =>
    cognito.on(AdminInitiateAuthCommand).resolves({ ChallengeName: 'NEW_PASSWORD_REQUIRED', Session: 'session-1', ChallengeParameters: {} });

  it('creates the user with a random temporary password, answers NEW_PASSWORD_REQUIRED with the chosen one, then sets the login name', async () => {
    cognito.on(AdminCreateUserCommand).resolves({});
    answerNewPasswordRequired();
    cognito.on(AdminRespondToAuthChallengeCommand).resolves({ AuthenticationResult: { AccessToken: 'a', RefreshToken: 'r' } });
    cognito.on(AdminUpdateUserAttributesCommand).resolves({});
    await identity.createUser(newIdentity);

    const create = cognito.commandCalls(AdminCreateUserCommand)[0]?.args[0].input;
    const temporary = create?.TemporaryPassword ?? '';
    expect(create).toEqual({
      UserPoolId: POOL,
      Username: newIdentity.userId,
      TemporaryPassword: temporary,
      MessageAction: 'SUPPRESS',
      UserAttributes: [
        { Name: 'email', Value: 'anna@example.se' },
        { Name: 'email_verified', Value: 'true' },
      ],
    });
    // Random, long and of every class the pool's policy asks for; never the user's password.
    expect(temporary).toMatch(/^[\w-]{32}Aa1!$/);
    expect(temporary).not.toBe(newIdentity.password);
    expect(cognito.commandCalls(AdminInitiateAuthCommand)[0]?.args[0].input).toEqual({
      UserPoolId: POOL,
      ClientId: CLIENT,
      AuthFlow: 'ADMIN_USER_PASSWORD_AUTH',
      AuthParameters: { USERNAME: newIdentity.userId, PASSWORD: temporary },
    });
    expect(cognito.commandCalls(AdminRespondToAuthChallengeCommand)[0]?.args[0].input).toEqual({
      UserPoolId: POOL,
      ClientId: CLIENT,
      ChallengeName: 'NEW_PASSWORD_REQUIRED',
      Session: 'session-1',
      ChallengeResponses: { USERNAME: newIdentity.userId, NEW_PASSWORD: 'Secret#123' },
    });
    expect(cognito.commandCalls(AdminUpdateUserAttributesCommand)[0]?.args[0].input).toEqual({
      UserPoolId: POOL,
      Username: newIdentity.userId,
      UserAttributes: [{ Name: 'preferred_username', Value: 'anna_s' }],
    });
    // Exactly these four calls, in this order: no AdminSetUserPassword, no clean-up.
    expect(cognito.calls().map((c) => c.args[0].constructor.name)).toEqual([
      'AdminCreateUserCommand',
      'AdminInitiateAuthCommand',
      'AdminRespondToAuthChallengeCommand',
      'AdminUpdateUserAttributesCommand',
    ]);
    expect(cognito.commandCalls(AdminSetUserPasswordCommand)).toHaveLength(0);
  });

  it('uses a new temporary password for every user', async () => {
    cognito.on(AdminCreateUserCommand).resolves({});
    answerNewPasswordRequired();
    cognito.on(AdminRespondToAuthChallengeCommand).resolves({});
    cognito.on(AdminUpdateUserAttributesCommand).resolves({});
    await identity.createUser(newIdentity);
    await identity.createUser({ ...newIdentity, userId: randomUUID(), username: 'other', email: 'other@example.se' });
    const [first, second] = cognito.commandCalls(AdminCreateUserCommand).map((c) => c.args[0].input.TemporaryPassword);
    expect(first).not.toBe(second);
  });

  it('a taken login name is a Conflict, and the half-made user is removed', async () => {
    cognito.on(AdminCreateUserCommand).resolves({});
    answerNewPasswordRequired();
    cognito.on(AdminRespondToAuthChallengeCommand).resolves({});
    cognito.on(AdminUpdateUserAttributesCommand).rejects(new AliasExistsException({ message: 'An account with the given alias already exists.', ...meta }));
    cognito.on(AdminDeleteUserCommand).resolves({});
    const creating = identity.createUser(newIdentity);
    await expect(creating).rejects.toBeInstanceOf(ConflictError);
    await expect(creating).rejects.toMatchObject({ key: 'UsernameTaken' });
    expect(cognito.commandCalls(AdminDeleteUserCommand)[0]?.args[0].input).toEqual({ UserPoolId: POOL, Username: newIdentity.userId });
  });

  it('an existing Cognito username is a Conflict, and nothing else is called', async () => {
    cognito.on(AdminCreateUserCommand).rejects(new UsernameExistsException({ message: 'User account already exists', ...meta }));
    await expect(identity.createUser(newIdentity)).rejects.toBeInstanceOf(ConflictError);
    expect(cognito.calls()).toHaveLength(1);
    expect(cognito.commandCalls(AdminDeleteUserCommand)).toHaveLength(0);
  });

  it('a password outside the pool policy is a validation error, and the user is removed', async () => {
    cognito.on(AdminCreateUserCommand).resolves({});
    answerNewPasswordRequired();
    cognito.on(AdminRespondToAuthChallengeCommand).rejects(new InvalidPasswordException({ message: 'Password does not conform to policy', ...meta }));
    cognito.on(AdminDeleteUserCommand).resolves({});
    const creating = identity.createUser(newIdentity);
    await expect(creating).rejects.toBeInstanceOf(ValidationError);
    await expect(creating).rejects.toMatchObject({ fieldErrors: { password: ['PasswordMustInclude'] } });
    expect(cognito.commandCalls(AdminDeleteUserCommand)[0]?.args[0].input).toEqual({ UserPoolId: POOL, Username: newIdentity.userId });
    expect(cognito.commandCalls(AdminUpdateUserAttributesCommand)).toHaveLength(0);
  });

  it('a first sign-in without the NEW_PASSWORD_REQUIRED challenge is an error, and the user is removed', async () => {
    cognito.on(AdminCreateUserCommand).resolves({});
    cognito.on(AdminInitiateAuthCommand).resolves({ AuthenticationResult: { AccessToken: 'a' } });
    cognito.on(AdminDeleteUserCommand).resolves({});
    await expect(identity.createUser(newIdentity)).rejects.toThrow(/NEW_PASSWORD_REQUIRED/);
    expect(cognito.commandCalls(AdminRespondToAuthChallengeCommand)).toHaveLength(0);
    expect(cognito.commandCalls(AdminDeleteUserCommand)[0]?.args[0].input).toEqual({ UserPoolId: POOL, Username: newIdentity.userId });
  });

  it('a failure of the clean-up does not hide the first error', async () => {
    cognito.on(AdminCreateUserCommand).resolves({});
    answerNewPasswordRequired();
    cognito.on(AdminRespondToAuthChallengeCommand).rejects(new InternalErrorException({ message: 'boom', ...meta }));
    cognito.on(AdminDeleteUserCommand).rejects(new InternalErrorException({ message: 'also down', ...meta }));
    await expect(identity.createUser(newIdentity)).rejects.toThrow('boom');
  });
});

describe('Cognito authenticate', () => {
  it('signs in with ADMIN_USER_PASSWORD_AUTH on the login name and reads userId and session from the token', async () => {
    const sessionId = randomUUID();
    const token = await accessToken({ username: newIdentity.userId, origin_jti: sessionId });
    cognito.on(AdminInitiateAuthCommand).resolves({
      AuthenticationResult: { AccessToken: token, RefreshToken: 'refresh-1', IdToken: 'id-1', ExpiresIn: 3600, TokenType: 'Bearer' },
    });
    const result = await identity.authenticate(' Anna_S ', 'Secret#123');
    expect(cognito.commandCalls(AdminInitiateAuthCommand)[0]?.args[0].input).toEqual({
      UserPoolId: POOL,
      ClientId: CLIENT,
      AuthFlow: 'ADMIN_USER_PASSWORD_AUTH',
      AuthParameters: { USERNAME: 'anna_s', PASSWORD: 'Secret#123' },
    });
    expect(result).toEqual({
      userId: newIdentity.userId,
      sessionId,
      tokens: { accessToken: token, refreshToken: 'refresh-1', expiresIn: 3600 },
    });
  });

  it('a wrong password or an unknown user is null', async () => {
    cognito.on(AdminInitiateAuthCommand).rejects(new NotAuthorizedException({ message: 'Incorrect username or password.', ...meta }));
    expect(await identity.authenticate('anna_s', 'wrong')).toBeNull();
    cognito.on(AdminInitiateAuthCommand).rejects(new UserNotFoundException({ message: 'User does not exist.', ...meta }));
    expect(await identity.authenticate('nobody', 'x')).toBeNull();
  });

  it('other failures are not mistaken for a wrong password', async () => {
    cognito.on(AdminInitiateAuthCommand).rejects(new InternalErrorException({ message: 'boom', ...meta }));
    await expect(identity.authenticate('anna_s', 'Secret#123')).rejects.toThrow('boom');
    cognito.on(AdminInitiateAuthCommand).resolves({ ChallengeName: 'NEW_PASSWORD_REQUIRED', Session: 's' });
    await expect(identity.authenticate('anna_s', 'Secret#123')).rejects.toThrow(/NEW_PASSWORD_REQUIRED/);
  });
});

describe('Cognito refresh', () => {
  it('uses REFRESH_TOKEN_AUTH and keeps the refresh token', async () => {
    const token = await accessToken({ username: newIdentity.userId, origin_jti: 's-1' });
    cognito.on(AdminInitiateAuthCommand).resolves({ AuthenticationResult: { AccessToken: token, ExpiresIn: 3600 } });
    cognito.on(AdminGetUserCommand).resolves({ Username: newIdentity.userId });
    const tokens = await identity.refresh('refresh-1', 'Anna_S');
    expect(cognito.commandCalls(AdminInitiateAuthCommand)[0]?.args[0].input).toEqual({
      UserPoolId: POOL,
      ClientId: CLIENT,
      AuthFlow: 'REFRESH_TOKEN_AUTH',
      AuthParameters: { REFRESH_TOKEN: 'refresh-1' },
    });
    expect(cognito.commandCalls(AdminGetUserCommand)[0]?.args[0].input).toEqual({ UserPoolId: POOL, Username: 'anna_s' });
    expect(tokens).toEqual({ accessToken: token, refreshToken: 'refresh-1', expiresIn: 3600 });
  });

  it('hands back a rotated refresh token when the pool rotates them', async () => {
    const token = await accessToken({ username: newIdentity.userId, origin_jti: 's-1' });
    cognito.on(AdminInitiateAuthCommand).resolves({ AuthenticationResult: { AccessToken: token, RefreshToken: 'refresh-2', ExpiresIn: 3600 } });
    cognito.on(AdminGetUserCommand).resolves({ Username: newIdentity.userId });
    expect(await identity.refresh('refresh-1', 'anna_s')).toEqual({ accessToken: token, refreshToken: 'refresh-2', expiresIn: 3600 });
  });

  it('an answer without an access token is unauthenticated, not a crash', async () => {
    cognito.on(AdminInitiateAuthCommand).resolves({});
    cognito.on(AdminGetUserCommand).resolves({ Username: newIdentity.userId });
    await expect(identity.refresh('refresh-1', 'anna_s')).rejects.toBeInstanceOf(UnauthenticatedError);
  });

  it("refuses another user's refresh token, a revoked one and an unknown user", async () => {
    const token = await accessToken({ username: newIdentity.userId, origin_jti: 's-1' });
    cognito.on(AdminInitiateAuthCommand).resolves({ AuthenticationResult: { AccessToken: token, ExpiresIn: 3600 } });
    cognito.on(AdminGetUserCommand).resolves({ Username: randomUUID() });
    await expect(identity.refresh('refresh-1', 'someone_else')).rejects.toBeInstanceOf(UnauthenticatedError);

    cognito.on(AdminGetUserCommand).rejects(new UserNotFoundException({ message: 'User does not exist.', ...meta }));
    await expect(identity.refresh('refresh-1', 'nobody')).rejects.toBeInstanceOf(UnauthenticatedError);

    cognito.on(AdminGetUserCommand).resolves({ Username: newIdentity.userId });
    cognito.on(AdminInitiateAuthCommand).rejects(new NotAuthorizedException({ message: 'Refresh Token has been revoked', ...meta }));
    await expect(identity.refresh('refresh-1', 'anna_s')).rejects.toBeInstanceOf(UnauthenticatedError);
  });
});

describe('Cognito verifyAccessToken (aws-jwt-verify with a local JWKS)', () => {
  it('accepts a valid access token: userId is its username, sessionId its origin_jti', async () => {
    const token = await accessToken({ username: newIdentity.userId, origin_jti: 'session-1' });
    expect(await identity.verifyAccessToken(token)).toEqual({ userId: newIdentity.userId, sessionId: 'session-1' });
  });

  it('rejects wrong, foreign, expired and tampered tokens with null', async () => {
    const claims = { username: newIdentity.userId, origin_jti: 'session-1' };
    expect(await identity.verifyAccessToken('not-a-jwt')).toBeNull();
    expect(await identity.verifyAccessToken(await accessToken(claims, { key: foreignKey }))).toBeNull();
    expect(await identity.verifyAccessToken(await accessToken(claims, { expiresIn: -60 }))).toBeNull();
    expect(await identity.verifyAccessToken(await accessToken({ ...claims, client_id: 'other-client' }))).toBeNull();
    expect(await identity.verifyAccessToken(await accessToken({ ...claims, token_use: 'id' }))).toBeNull();
    expect(await identity.verifyAccessToken(await accessToken(claims, { kid: 'unknown-kid' }))).toBeNull();

    const token = await accessToken(claims);
    const [header, payload, signature] = token.split('.');
    const forged = Buffer.from(
      JSON.stringify({ ...JSON.parse(Buffer.from(payload ?? '', 'base64url').toString()), username: randomUUID() }),
    ).toString('base64url');
    expect(await identity.verifyAccessToken(`${header}.${forged}.${signature}`)).toBeNull();
  });

  it('rejects a valid token without origin_jti', async () => {
    const token = await accessToken({ username: newIdentity.userId, origin_jti: undefined as unknown as string });
    expect(await identity.verifyAccessToken(token)).toBeNull();
  });
});

describe('Cognito revoke, setPassword, deleteUser', () => {
  it('revokes the refresh token for our client', async () => {
    cognito.on(RevokeTokenCommand).resolves({});
    await identity.revoke('refresh-1');
    expect(cognito.commandCalls(RevokeTokenCommand)[0]?.args[0].input).toEqual({ ClientId: CLIENT, Token: 'refresh-1' });
    cognito.on(RevokeTokenCommand).rejects(new UnsupportedTokenTypeException({ message: 'bad token', ...meta }));
    await identity.revoke('not-a-refresh-token');
  });

  it('revoke reports other failures instead of pretending the token is gone', async () => {
    cognito.on(RevokeTokenCommand).rejects(new InternalErrorException({ message: 'boom', ...meta }));
    await expect(identity.revoke('refresh-1')).rejects.toThrow('boom');
  });

  it('sets a permanent password on the login name', async () => {
    cognito.on(AdminSetUserPasswordCommand).resolves({});
    await identity.setPassword('Anna_S', 'Changed#456');
    expect(cognito.commandCalls(AdminSetUserPasswordCommand)[0]?.args[0].input).toEqual({
      UserPoolId: POOL,
      Username: 'anna_s',
      Password: 'Changed#456',
      Permanent: true,
    });
  });

  it('setPassword: unknown user is NotFound, a weak password a validation error', async () => {
    cognito.on(AdminSetUserPasswordCommand).rejects(new UserNotFoundException({ message: 'User does not exist.', ...meta }));
    await expect(identity.setPassword('nobody', 'Changed#456')).rejects.toBeInstanceOf(NotFoundError);
    cognito.on(AdminSetUserPasswordCommand).rejects(new InvalidPasswordException({ message: 'too short', ...meta }));
    await expect(identity.setPassword('anna_s', 'x')).rejects.toBeInstanceOf(ValidationError);
  });

  it('deletes by login name; an unknown user is already gone', async () => {
    cognito.on(AdminDeleteUserCommand).resolves({});
    await identity.deleteUser('Anna_S');
    expect(cognito.commandCalls(AdminDeleteUserCommand)[0]?.args[0].input).toEqual({ UserPoolId: POOL, Username: 'anna_s' });
    cognito.on(AdminDeleteUserCommand).rejects(new UserNotFoundException({ message: 'User does not exist.', ...meta }));
    await identity.deleteUser('nobody');
  });
});
