/**
 * POST /api/v1/token/refresh: a new access token for a refresh token, only while the login
 * session it belongs to lives (logout, a password change, or its end after a day or 30 days stops
 * it). Limited per client: each call is a guess at a refresh token and costs a provider call.
 */
import { routes } from '../../shared/routes';
import { UnauthenticatedError } from '../platform/errors';
import { httpHandler } from '../platform/http';
import { clientKey, consumeRateLimit } from '../platform/rate-limit';
import { findLiveSession } from './sessions';

/** A browser refreshes about once an hour per tab; a whole office behind one address stays far below. */
export const REFRESH_CLIENT_LIMIT = 120;
export const REFRESH_CLIENT_WINDOW_SECONDS = 600;

export const handler = httpHandler(routes.refreshToken, async ({ body, ports, event }) => {
  await consumeRateLimit(`refresh-client#${clientKey(event)}`, REFRESH_CLIENT_LIMIT, REFRESH_CLIENT_WINDOW_SECONDS, ports.clock.now());
  const tokens = await ports.identity.refresh(body.refresh_token, body.username);
  const principal = await ports.identity.verifyAccessToken(tokens.accessToken);
  if (!principal) throw new UnauthenticatedError();
  const session = await findLiveSession(principal.sessionId, ports.clock.now());
  if (!session || session.userId !== principal.userId) throw new UnauthenticatedError();
  return {
    token: tokens.accessToken,
    expires_in: tokens.expiresIn,
    ...(tokens.refreshToken !== body.refresh_token ? { refresh_token: tokens.refreshToken } : {}),
  };
});
