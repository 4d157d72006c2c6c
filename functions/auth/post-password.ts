/**
 * POST /api/v1/user/password: the set-new-password modal; only the caller's own password, and
 * only with the current one. Whoever changes a password suspects someone else may know it, so
 * every other session and trusted browser ends (sessions.ts endEverySession) and the caller goes
 * on in a fresh session under the new password.
 */
import { routes } from '../../shared/routes';
import { NotFoundError } from '../platform/errors';
import { HttpReply, httpHandler } from '../platform/http';
import { checkCurrentPassword } from './credentials';
import { createSession, endEverySession, endSession } from './sessions';
import { getUser } from './user-repository';

export const handler = httpHandler(routes.changePassword, async ({ body, auth, ports, event }) => {
  // Another user's id is answered as unknown: whether it exists is not the caller's business.
  if (body.userId !== auth.userId) throw new NotFoundError('UserNotFound');
  const user = await getUser(auth.userId);
  await checkCurrentPassword(user, body.current_password, ports, event);
  const now = ports.clock.now();
  await ports.identity.setPassword(user.username, body.password);
  const renewed = await endEverySession(user, ports, now);
  // Signed in again only after the provider's sign-out, which would revoke these tokens too.
  const fresh = await ports.identity.authenticate(user.username, body.password);
  if (!fresh) throw new Error('The new password was not accepted right after it was set');
  await createSession(renewed, fresh.sessionId, now, false, auth.sessionExpiresAt);
  await endSession(auth.sessionId);
  return new HttpReply(
    200,
    { token: fresh.tokens.accessToken, refresh_token: fresh.tokens.refreshToken, expires_in: fresh.tokens.expiresIn },
    'User updated successfully.',
  );
});
