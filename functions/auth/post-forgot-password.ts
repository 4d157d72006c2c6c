/** POST /api/v1/forgot-password: e-mails a reset link (password-reset.ts). */
import { routes } from '../../shared/routes';
import { HttpReply, httpHandler } from '../platform/http';
import { requestPasswordReset } from './password-reset';

export const handler = httpHandler(routes.forgotPassword, async ({ body, ports, event }) => {
  await requestPasswordReset({ email: body.email_address, lang: body.lang }, ports, event);
  return new HttpReply(200, null, 'PasswordResetLink');
});
