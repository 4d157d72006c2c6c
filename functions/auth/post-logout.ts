/** POST /api/v1/user/logout: ends the token's session and revokes the refresh token when sent. */
import { routes } from '../../shared/routes';
import { httpHandler } from '../platform/http';
import { endSession } from './sessions';

export const handler = httpHandler(routes.logout, async ({ body, auth, ports }) => {
  await endSession(auth.sessionId);
  if (body.refresh_token) await ports.identity.revoke(body.refresh_token);
  return null;
});
