/**
 * The password step shared by login and the alert opt-out page: per-client rate limit, the
 * lockout per name and client, the identity provider's check, then the brand. An unknown user and
 * a wrong password give the same answer; the brand is checked only after the password is right,
 * so a wrong-site answer never tells a stranger that an account exists.
 *
 * The current-password check of a logged-in user (password change, turning 2FA off) goes through
 * the same lockout, so a stolen token cannot be used to guess the password either.
 */
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { normalizeUsername } from '../platform/adapters/username';
import { DetailedError, ForbiddenError, TooManyRequestsError, ValidationError } from '../platform/errors';
import { logger } from '../platform/logger';
import type { Authenticated, Ports } from '../platform/ports';
import { clientKey, consumeRateLimit } from '../platform/rate-limit';
import type { UserItem } from '../domain/user/schema';
import { beginLoginAttempt, clearLoginAttempts, LOCKOUT_SECONDS, MAX_LOGIN_FAILURES } from './login-attempts';
import { findUser, findUserIdByEmail } from './user-repository';

/** Password attempts per client address, whatever the names: stops spraying one password over many names. */
export const LOGIN_CLIENT_LIMIT = 30;
export const LOGIN_CLIENT_WINDOW_SECONDS = 600;

export interface VerifiedLogin {
  user: UserItem;
  /** Tokens of a fresh login session at the identity provider; not yet valid (no session record). */
  auth: Authenticated;
}

/**
 * The login name for what was typed: an e-mail address leads to its user's login name through the
 * e-mail claim. Anything else (or an address nobody claims, since login names may look like
 * addresses) is taken as a login name.
 */
async function loginNameFor(typed: string): Promise<string> {
  if (typed.includes('@')) {
    const userId = await findUserIdByEmail(typed);
    const user = userId ? await findUser(userId) : null;
    if (user) return normalizeUsername(user.username);
  }
  return normalizeUsername(typed);
}

/** Ends a provider login we will not hand out; failing to do so must not change the answer. */
export async function discardLogin(ports: Ports, auth: Authenticated): Promise<void> {
  await ports.identity.revoke(auth.tokens.refreshToken).catch((error: unknown) => {
    logger.warn('Could not revoke an unused refresh token', { errorName: error instanceof Error ? error.name : typeof error });
  });
}

export async function checkCredentials(
  typed: string,
  password: string,
  subsiteId: number,
  ports: Ports,
  event: APIGatewayProxyEventV2,
): Promise<VerifiedLogin> {
  const now = ports.clock.now();
  const client = clientKey(event);
  await consumeRateLimit(`login-client#${client}`, LOGIN_CLIENT_LIMIT, LOGIN_CLIENT_WINDOW_SECONDS, now);
  const loginName = await loginNameFor(typed);
  const attempts = await beginLoginAttempt(loginName, client, now);

  const auth = await ports.identity.authenticate(loginName, password);
  const user = auth ? await findUser(auth.userId) : null;
  if (!auth || !user) {
    // An identity without a portal user (a registration that failed half-way) cannot log in either.
    if (auth) await discardLogin(ports, auth);
    const left = MAX_LOGIN_FAILURES - attempts;
    if (left <= 0) throw new TooManyRequestsError(LOCKOUT_SECONDS, 'TooManyAttempts');
    throw new DetailedError(401, 'InvalidCredentials', { msg: 'InvalidCredentials', count: left });
  }
  await clearLoginAttempts(loginName, client, now);

  if (user.subsiteId !== subsiteId) {
    await discardLogin(ports, auth);
    throw new ForbiddenError('InvalidAccess');
  }
  return { user, auth };
}

/**
 * Checks the caller's current password: 422 `errors.current_password` when it is missing or
 * wrong (with the attempts left), 429 once the lockout applies.
 */
export async function checkCurrentPassword(
  user: UserItem,
  password: string | undefined,
  ports: Ports,
  event: APIGatewayProxyEventV2,
): Promise<void> {
  if (!password) throw new ValidationError({ current_password: ['SpecifyCurrentPassword'] });
  const now = ports.clock.now();
  const client = clientKey(event);
  const attempts = await beginLoginAttempt(user.username, client, now);
  const auth = await ports.identity.authenticate(user.username, password);
  if (!auth || auth.userId !== user.userId) {
    if (auth) await discardLogin(ports, auth);
    if (MAX_LOGIN_FAILURES - attempts <= 0) throw new TooManyRequestsError(LOCKOUT_SECONDS, 'TooManyAttempts');
    throw new ValidationError({ current_password: ['WrongCurrentPassword'] });
  }
  // Only the check was wanted, not another session at the provider.
  await discardLogin(ports, auth);
  await clearLoginAttempts(user.username, client, now);
}
