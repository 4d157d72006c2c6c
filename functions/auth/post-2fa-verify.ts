/** POST /api/v1/2fa/verify: the e-mailed code of a challenge turns it into a session (two-factor.ts). */
import { routes } from '../../shared/routes';
import { HttpReply, httpHandler } from '../platform/http';
import { presentedTrustTokens, trustCookie } from './trusted-browsers';
import { verifyCode } from './two-factor';

export const handler = httpHandler(routes.verifyTwoFactorCode, async ({ body, ports, event }) => {
  const verified = await verifyCode(
    { userId: body.user_id, challenge: body.challenge, code: body.code, trustBrowser: body.trust_browser },
    ports,
    event,
  );
  if (!verified.trustToken) return { user: verified.user };
  const cookie = trustCookie(verified.trustToken, presentedTrustTokens(undefined, event));
  return new HttpReply(200, { user: verified.user, trustToken: verified.trustToken }, undefined, [cookie]);
});
