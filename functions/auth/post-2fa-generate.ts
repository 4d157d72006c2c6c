/** POST /api/v1/2fa/generate: e-mails a login code for a pending challenge (two-factor.ts). */
import { routes } from '../../shared/routes';
import { httpHandler } from '../platform/http';
import { sendCode } from './two-factor';

export const handler = httpHandler(routes.generateTwoFactorCode, async ({ body, ports, event }) => {
  await sendCode({ userId: body.user_id, challenge: body.challenge, lang: body.lang }, ports, event);
  return null;
});
