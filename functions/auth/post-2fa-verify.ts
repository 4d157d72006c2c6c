/** POST /api/v1/2fa/verify: the e-mailed code of a challenge turns it into a session (two-factor.ts). */
import { routes } from '../../shared/routes';
import { httpHandler } from '../platform/http';
import { verifyCode } from './two-factor';

export const handler = httpHandler(routes.verifyTwoFactorCode, async ({ body, ports, event }) => {
  const user = await verifyCode(
    { userId: body.user_id, challenge: body.challenge, code: body.code, trustBrowser: body.trust_browser, fingerprint: body.fingerprint },
    ports,
    event,
  );
  return { user };
});
