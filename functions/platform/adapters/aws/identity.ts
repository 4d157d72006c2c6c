/**
 * Identity on Cognito, driven only through the Admin APIs (our handlers own lockout, brands and
 * 2FA; Cognito holds the password and issues the tokens). See docs/decisions/0005-identity.md:
 * the Cognito username is OUR userId (so the access token's `username` claim is our userId), and
 * the login name is the `preferred_username` alias, which every Admin API accepts as `Username`.
 */
import { randomBytes } from 'node:crypto';
import {
  AdminCreateUserCommand,
  AdminDeleteUserCommand,
  AdminGetUserCommand,
  AdminInitiateAuthCommand,
  AdminRespondToAuthChallengeCommand,
  AdminSetUserPasswordCommand,
  AdminUpdateUserAttributesCommand,
  AdminUserGlobalSignOutCommand,
  RevokeTokenCommand,
  type AuthenticationResultType,
  type CognitoIdentityProviderClient,
} from '@aws-sdk/client-cognito-identity-provider';
import { CognitoJwtVerifier } from 'aws-jwt-verify';
import { decodeJwt } from 'jose';
import { ConflictError, NotFoundError, UnauthenticatedError, ValidationError } from '../../errors';
import type { Authenticated, IdentityProvider, NewIdentity, Principal, Tokens } from '../../ports';
import { normalizeUsername } from '../username';

/** What we need of aws-jwt-verify's CognitoJwtVerifier (tests hand in one with a cached JWKS). */
export interface AccessTokenVerifier {
  verify(token: string): Promise<{ username?: unknown; origin_jti?: unknown }>;
}

export interface CognitoIdentityConfig {
  client: CognitoIdentityProviderClient;
  userPoolId: string;
  clientId: string;
  verifier?: AccessTokenVerifier;
}

/** Cognito's own default access token lifetime, used when an answer leaves ExpiresIn out. */
const DEFAULT_EXPIRES_IN = 3600;

/**
 * 192 random bits, plus one character of each class the pool's password policy asks for, so that
 * Cognito accepts it whatever the random part happens to contain.
 */
function temporaryPassword(): string {
  return `${randomBytes(24).toString('base64url')}Aa1!`;
}

const errorName = (error: unknown): string | undefined => (error instanceof Error ? error.name : undefined);

function passwordError(error: unknown): never {
  if (errorName(error) === 'InvalidPasswordException') throw new ValidationError({ password: ['PasswordMustInclude'] });
  throw error;
}

/** The payload of a token Cognito has just handed to us over TLS: read, not verified again. */
function claimsOf(accessToken: string): { userId: string; sessionId: string } {
  const claims = decodeJwt(accessToken);
  if (typeof claims['username'] !== 'string' || typeof claims['origin_jti'] !== 'string') {
    throw new Error('Cognito access token without username or origin_jti');
  }
  return { userId: claims['username'], sessionId: claims['origin_jti'] };
}

export function createCognitoIdentity(config: CognitoIdentityConfig): IdentityProvider {
  const { client, userPoolId: UserPoolId, clientId: ClientId } = config;
  // Built on first use: creating it checks the pool id's format, which should fail a request
  // that needs it, not every cold start that merely wires the ports.
  let verifier = config.verifier;
  const getVerifier = (): AccessTokenVerifier =>
    (verifier ??= CognitoJwtVerifier.create({ userPoolId: UserPoolId, clientId: ClientId, tokenUse: 'access' }));

  return {
    async createUser(identity: NewIdentity) {
      const temporary = temporaryPassword();
      try {
        await client.send(
          new AdminCreateUserCommand({
            UserPoolId,
            Username: identity.userId,
            // Never sent (SUPPRESS) and replaced below, it only lets the first sign-in answer
            // NEW_PASSWORD_REQUIRED with the user's password: this confirms the user without
            // AdminSetUserPassword, a permission that could reset anybody's password.
            TemporaryPassword: temporary,
            MessageAction: 'SUPPRESS',
            UserAttributes: [
              { Name: 'email', Value: identity.email },
              { Name: 'email_verified', Value: 'true' },
            ],
          }),
        );
      } catch (error) {
        if (errorName(error) === 'UsernameExistsException') throw new ConflictError('UsernameTaken');
        throw error;
      }
      try {
        const challenge = await client.send(
          new AdminInitiateAuthCommand({
            UserPoolId,
            ClientId,
            AuthFlow: 'ADMIN_USER_PASSWORD_AUTH',
            AuthParameters: { USERNAME: identity.userId, PASSWORD: temporary },
          }),
        );
        if (challenge.ChallengeName !== 'NEW_PASSWORD_REQUIRED' || !challenge.Session) {
          throw new Error(`Cognito answered a new user's first sign-in with ${challenge.ChallengeName ?? 'no challenge'}, not NEW_PASSWORD_REQUIRED`);
        }
        await client.send(
          new AdminRespondToAuthChallengeCommand({
            UserPoolId,
            ClientId,
            ChallengeName: 'NEW_PASSWORD_REQUIRED',
            Session: challenge.Session,
            ChallengeResponses: { USERNAME: identity.userId, NEW_PASSWORD: identity.password },
          }),
        );
        // preferred_username works as an alias only on confirmed users, so it is set after the
        // password. Cognito refuses a taken alias.
        await client.send(
          new AdminUpdateUserAttributesCommand({
            UserPoolId,
            Username: identity.userId,
            UserAttributes: [{ Name: 'preferred_username', Value: normalizeUsername(identity.username) }],
          }),
        );
      } catch (error) {
        // Leave no half-made user behind: it would hold the userId without a login name.
        await client.send(new AdminDeleteUserCommand({ UserPoolId, Username: identity.userId })).catch(() => undefined);
        if (errorName(error) === 'AliasExistsException') throw new ConflictError('UsernameTaken');
        passwordError(error);
      }
    },

    async authenticate(username: string, password: string): Promise<Authenticated | null> {
      let result: AuthenticationResultType | undefined;
      try {
        const out = await client.send(
          new AdminInitiateAuthCommand({
            UserPoolId,
            ClientId,
            AuthFlow: 'ADMIN_USER_PASSWORD_AUTH',
            AuthParameters: { USERNAME: normalizeUsername(username), PASSWORD: password },
          }),
        );
        if (out.ChallengeName) throw new Error(`Cognito asked for the ${out.ChallengeName} challenge; the pool must not require one`);
        result = out.AuthenticationResult;
      } catch (error) {
        const name = errorName(error);
        if (name === 'NotAuthorizedException' || name === 'UserNotFoundException') return null;
        throw error;
      }
      if (!result?.AccessToken || !result.RefreshToken) throw new Error('Cognito authenticated without issuing tokens');
      return {
        ...claimsOf(result.AccessToken),
        tokens: { accessToken: result.AccessToken, refreshToken: result.RefreshToken, expiresIn: result.ExpiresIn ?? DEFAULT_EXPIRES_IN },
      };
    },

    async refresh(refreshToken: string, username: string): Promise<Tokens> {
      const [auth, owner] = await Promise.all([
        client
          .send(
            new AdminInitiateAuthCommand({
              UserPoolId,
              ClientId,
              AuthFlow: 'REFRESH_TOKEN_AUTH',
              AuthParameters: { REFRESH_TOKEN: refreshToken },
            }),
          )
          .catch((error: unknown) => {
            if (errorName(error) === 'NotAuthorizedException') return null;
            throw error;
          }),
        client.send(new AdminGetUserCommand({ UserPoolId, Username: normalizeUsername(username) })).catch((error: unknown) => {
          if (errorName(error) === 'UserNotFoundException') return null;
          throw error;
        }),
      ]);
      const accessToken = auth?.AuthenticationResult?.AccessToken;
      // The refresh token must belong to the user it is presented for.
      if (!accessToken || !owner?.Username || claimsOf(accessToken).userId !== owner.Username) throw new UnauthenticatedError();
      return {
        accessToken,
        refreshToken: auth?.AuthenticationResult?.RefreshToken ?? refreshToken,
        expiresIn: auth?.AuthenticationResult?.ExpiresIn ?? DEFAULT_EXPIRES_IN,
      };
    },

    async verifyAccessToken(token: string): Promise<Principal | null> {
      const tokenVerifier = getVerifier();
      try {
        const payload = await tokenVerifier.verify(token);
        if (typeof payload.username !== 'string' || typeof payload.origin_jti !== 'string') return null;
        return { userId: payload.username, sessionId: payload.origin_jti };
      } catch {
        return null;
      }
    },

    async revoke(refreshToken: string) {
      try {
        await client.send(new RevokeTokenCommand({ ClientId, Token: refreshToken }));
      } catch (error) {
        // Not a refresh token at all: there is nothing to revoke.
        if (errorName(error) === 'UnsupportedTokenTypeException') return;
        throw error;
      }
    },

    async setPassword(username: string, password: string) {
      try {
        await client.send(
          new AdminSetUserPasswordCommand({ UserPoolId, Username: normalizeUsername(username), Password: password, Permanent: true }),
        );
      } catch (error) {
        if (errorName(error) === 'UserNotFoundException') throw new NotFoundError('UserNotFound');
        passwordError(error);
      }
    },

    async signOutEverywhere(username: string) {
      try {
        await client.send(new AdminUserGlobalSignOutCommand({ UserPoolId, Username: normalizeUsername(username) }));
      } catch (error) {
        if (errorName(error) === 'UserNotFoundException') throw new NotFoundError('UserNotFound');
        throw error;
      }
    },

    async deleteUser(username: string) {
      try {
        await client.send(new AdminDeleteUserCommand({ UserPoolId, Username: normalizeUsername(username) }));
      } catch (error) {
        if (errorName(error) === 'UserNotFoundException') return;
        throw error;
      }
    },
  };
}
