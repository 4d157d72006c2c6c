/**
 * POST /api/v1/login: username or e-mail and password. Answers the user with its tokens, or a
 * two-factor challenge when the user has 2FA on and the request presents no valid trust token
 * (in `trust_token` or the `trusted_browser` cookie). A fingerprint alone never skips the code.
 */
import { routes } from '../../shared/routes';
import { httpHandler } from '../platform/http';
import { checkCredentials } from './credentials';
import { createSession, loggedInUser } from './sessions';
import { isTrustedBrowser, presentedTrustTokens } from './trusted-browsers';
import { startChallenge } from './two-factor';

export const handler = httpHandler(routes.login, async ({ body, ports, event }) => {
  const { user, auth } = await checkCredentials(body.username, body.password, body.subsiteid, ports, event);
  const now = ports.clock.now();
  const needsCode = user.enableTwoFactorAuth && !(await isTrustedBrowser(user, presentedTrustTokens(body.trust_token, event), now));
  if (needsCode) {
    return { twoFactor: { user_id: user.userId, challenge: await startChallenge(user, auth, body.remember_me, now) } };
  }
  await createSession(user, auth.sessionId, now, body.remember_me);
  return { user: await loggedInUser(user, auth.tokens) };
});
