/**
 * POST /api/v1/token/refresh: a new access token for a refresh token, only while the login
 * session it belongs to lives (logout, or its end after a day or 30 days, stops it).
 */
import { routes } from '../../shared/routes';
import { UnauthenticatedError } from '../platform/errors';
import { httpHandler } from '../platform/http';
import { findLiveSession } from './sessions';

export const handler = httpHandler(routes.refreshToken, async ({ body, ports }) => {
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
