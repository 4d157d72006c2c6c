/** POST /api/v1/reset-password: a new password with the code of a reset link (password-reset.ts). */
import { routes } from '../../shared/routes';
import { HttpReply, httpHandler } from '../platform/http';
import { resetPassword } from './password-reset';

export const handler = httpHandler(routes.resetPassword, async ({ body, ports, event }) => {
  await resetPassword(body.code, body.password, ports, event);
  return new HttpReply(200, null, 'PasswordChanged');
});
