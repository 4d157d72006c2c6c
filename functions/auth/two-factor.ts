/**
 * Two-factor login by e-mail: 6-digit code, valid 10 minutes, 5 tries, single use, and a trusted
 * browser that skips the code for 180 days (trusted-browsers.ts).
 *
 * The password step ends in a challenge, not in a session. The challenge is a random secret held
 * by the browser; its record (tokens table, `2fa#<sha256 of the challenge>`) is bound to the user
 * and holds the login's refresh token sealed under the challenge (see secrets.ts). So neither a
 * user id nor the table alone gets anyone in: generating a code needs the challenge, and turning
 * a right code into a session needs the challenge again to open the refresh token.
 *
 * The current code lives on the challenge record (HMAC, expiry, tries used); a new code replaces
 * it. A try is counted with a conditional write before the code is compared, so concurrent
 * guesses cannot exceed 5; the right code deletes the record conditionally, so it works once.
 */
import { DeleteCommand, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { TWO_FACTOR_CODE_SECONDS, TWO_FACTOR_MAX_TRIES } from '../../shared/schemas/auth';
import type { Language } from '../../shared/schemas/common';
import { dynamo, epochSeconds, tableName } from '../platform/db';
import { sendTemplatedEmail } from '../platform/email/templates';
import { DetailedError, ForbiddenError, UnauthenticatedError, ValidationError } from '../platform/errors';
import { logger } from '../platform/logger';
import type { Authenticated, Ports } from '../platform/ports';
import { clientKey, consumeRateLimit } from '../platform/rate-limit';
import type { UserItem } from '../domain/user/schema';
import { codeHash, randomCode, randomSecret, sameHash, seal, sha256Hex, unseal } from './secrets';
import { createSession, loggedInUser, type LoggedInUser } from './sessions';
import { issueTrustToken } from './trusted-browsers';
import { findUser, getUser } from './user-repository';
import { isConditionFailure } from '../platform/conditions';

/** Time from the password step to a verified code, resends included. */
export const CHALLENGE_SECONDS = 30 * 60;
/** Codes e-mailed per user; the resend countdown (3 min, then 10 s) stays far below this. */
export const CODES_PER_USER_LIMIT = 5;
export const CODES_PER_USER_WINDOW_SECONDS = 600;
/** 2FA calls per client address, counted apart for generate and for verify. */
export const TWO_FACTOR_CLIENT_LIMIT = 30;
export const TWO_FACTOR_CLIENT_WINDOW_SECONDS = 600;

interface ChallengeItem {
  id: string;
  userId: string;
  /** The login name: refresh needs it. */
  username: string;
  sessionId: string;
  remember: boolean;
  /** The refresh token as JWE under a key derived from the challenge. */
  sealedRefreshToken: string;
  createdAt: string;
  expiresAt: number;
  codeHash?: string;
  codeExpiresAt?: number;
  codeTries?: number;
}

const challengeItemId = (challenge: string): string => `2fa#${sha256Hex(challenge)}`;

const loginAgain = () => new ForbiddenError('LoginAgain');

async function getChallenge(challenge: string): Promise<ChallengeItem | undefined> {
  const out = await dynamo().send(new GetCommand({ TableName: tableName('tokens'), Key: { id: challengeItemId(challenge) }, ConsistentRead: true }));
  return out.Item as ChallengeItem | undefined;
}

/** After the password step of a user with 2FA on: the challenge the browser continues with. */
export async function startChallenge(user: UserItem, auth: Authenticated, remember: boolean, now: Date): Promise<string> {
  const challenge = randomSecret();
  const item: ChallengeItem = {
    id: challengeItemId(challenge),
    userId: user.userId,
    username: user.username,
    sessionId: auth.sessionId,
    remember,
    sealedRefreshToken: await seal(auth.tokens.refreshToken, challenge),
    createdAt: now.toISOString(),
    expiresAt: epochSeconds(now) + CHALLENGE_SECONDS,
  };
  await dynamo().send(new PutCommand({ TableName: tableName('tokens'), Item: item, ConditionExpression: 'attribute_not_exists(id)' }));
  return challenge;
}

export interface CodeRequest {
  userId: string;
  challenge: string;
  lang: Language;
}

/** E-mails a new code for a live challenge of this user; the previous code stops working. */
export async function sendCode(request: CodeRequest, ports: Ports, event: APIGatewayProxyEventV2): Promise<void> {
  const now = ports.clock.now();
  const nowSeconds = epochSeconds(now);
  await consumeRateLimit(`2fa-send-client#${clientKey(event)}`, TWO_FACTOR_CLIENT_LIMIT, TWO_FACTOR_CLIENT_WINDOW_SECONDS, now);
  const item = await getChallenge(request.challenge);
  if (!item || item.userId !== request.userId || item.expiresAt <= nowSeconds) throw loginAgain();
  await consumeRateLimit(`2fa-codes#${item.userId}`, CODES_PER_USER_LIMIT, CODES_PER_USER_WINDOW_SECONDS, now);

  const user = await findUser(item.userId);
  if (!user?.email) throw new DetailedError(422, 'InvalidEmail2FA', 'InvalidEmail2FA');

  const code = randomCode();
  try {
    await dynamo().send(
      new UpdateCommand({
        TableName: tableName('tokens'),
        Key: { id: item.id },
        UpdateExpression: 'SET codeHash = :hash, codeExpiresAt = :codeExpires, codeTries = :zero',
        ConditionExpression: 'attribute_exists(id) AND expiresAt > :now',
        ExpressionAttributeValues: { ':hash': codeHash(request.challenge, code), ':codeExpires': nowSeconds + TWO_FACTOR_CODE_SECONDS, ':zero': 0, ':now': nowSeconds },
      }),
    );
  } catch (error) {
    // Verified (and so deleted) in the meantime.
    if (isConditionFailure(error)) throw loginAgain();
    throw error;
  }
  try {
    await sendTemplatedEmail('twoFactorCode', user.email, request.lang, user.subsiteId, { code });
  } catch (error) {
    logger.error('Could not send the 2FA code e-mail', { errorName: error instanceof Error ? error.name : typeof error });
    throw new DetailedError(503, 'InvalidEmail2FA', 'InvalidEmail2FA');
  }
}

export interface VerifyRequest {
  userId: string;
  challenge: string;
  code: string;
  trustBrowser: boolean;
}

export interface Verified {
  user: LoggedInUser;
  /** With trustBrowser: the secret that lets this browser skip the code for 180 days. */
  trustToken?: string;
}

/** Checks the code of a challenge; the right one ends the challenge and starts the session. */
export async function verifyCode(request: VerifyRequest, ports: Ports, event: APIGatewayProxyEventV2): Promise<Verified> {
  const now = ports.clock.now();
  const nowSeconds = epochSeconds(now);
  await consumeRateLimit(`2fa-verify-client#${clientKey(event)}`, TWO_FACTOR_CLIENT_LIMIT, TWO_FACTOR_CLIENT_WINDOW_SECONDS, now);
  const id = challengeItemId(request.challenge);

  let item: ChallengeItem;
  try {
    const out = await dynamo().send(
      new UpdateCommand({
        TableName: tableName('tokens'),
        Key: { id },
        UpdateExpression: 'SET codeTries = codeTries + :one',
        ConditionExpression:
          'userId = :userId AND expiresAt > :now AND attribute_exists(codeHash) AND codeExpiresAt > :now AND codeTries < :max',
        ExpressionAttributeValues: { ':one': 1, ':userId': request.userId, ':now': nowSeconds, ':max': TWO_FACTOR_MAX_TRIES },
        ReturnValues: 'ALL_NEW',
      }),
    );
    item = out.Attributes as ChallengeItem;
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
    const current = await getChallenge(request.challenge);
    if (!current || current.userId !== request.userId || current.expiresAt <= nowSeconds) throw loginAgain();
    // Never sent, older than 10 minutes, or its 5 tries are used up: a new code is needed.
    throw new ValidationError({ code: ['CodeExpired'] }, 'CodeExpired');
  }

  const expected = item.codeHash ?? '';
  if (!sameHash(expected, codeHash(request.challenge, request.code))) {
    const left = Math.max(0, TWO_FACTOR_MAX_TRIES - Number(item.codeTries ?? TWO_FACTOR_MAX_TRIES));
    throw new DetailedError(401, 'InvalidCode', { msg: 'InvalidCodeTriesLeft', count: left });
  }

  try {
    await dynamo().send(
      new DeleteCommand({
        TableName: tableName('tokens'),
        Key: { id },
        ConditionExpression: 'codeHash = :hash',
        ExpressionAttributeValues: { ':hash': expected },
      }),
    );
  } catch (error) {
    // A concurrent verify with the same code won.
    if (isConditionFailure(error)) throw loginAgain();
    throw error;
  }

  const refreshToken = await unseal(item.sealedRefreshToken, request.challenge);
  if (!refreshToken) throw loginAgain();
  const tokens = await ports.identity.refresh(refreshToken, item.username).catch((error: unknown) => {
    if (error instanceof UnauthenticatedError) throw loginAgain();
    throw error;
  });
  const user = await getUser(item.userId);
  await createSession(user, item.sessionId, now, item.remember);
  const trustToken = request.trustBrowser ? await issueTrustToken(user, now) : undefined;
  return { user: await loggedInUser(user, tokens), ...(trustToken ? { trustToken } : {}) };
}
