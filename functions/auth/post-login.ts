/**
 * POST /api/v1/login (API.md): username or e-mail and password. Answers the user with its tokens,
 * or a two-factor challenge when the user has 2FA on and this browser is not trusted.
 */
import { routes } from '../../shared/routes';
import { httpHandler } from '../platform/http';
import { checkCredentials } from './credentials';
import { createSession, loggedInUser } from './sessions';
import { isTrustedBrowser, startChallenge } from './two-factor';

export const handler = httpHandler(routes.login, async ({ body, ports, event }) => {
  const { user, auth } = await checkCredentials(body.username, body.password, body.subsiteid, ports, event);
  const now = ports.clock.now();
  const needsCode = user.enableTwoFactorAuth && !(body.fingerprint && (await isTrustedBrowser(user.userId, body.fingerprint, now)));
  if (needsCode) {
    return { twoFactor: { user_id: user.userId, challenge: await startChallenge(user, auth, body.remember_me, now) } };
  }
  await createSession(user.userId, auth.sessionId, now, body.remember_me);
  return { user: await loggedInUser(user, auth.tokens) };
});
