/** The forgot-password and reset-password calls (docs/api.md, Public). */
import { routes } from '../../../../../shared/routes';
import type { z } from 'zod';
import type { forgotPasswordRequestSchema, resetPasswordRequestSchema } from '../../../../../shared/schemas/auth';
import { apiRequest } from '../../../app/api-client';

export type ForgotPasswordRequest = z.input<typeof forgotPasswordRequestSchema>;
export type ResetPasswordRequest = z.input<typeof resetPasswordRequestSchema>;

/** E-mails a reset link (valid 1 hour) to the address, in the given language. */
export async function requestResetLink(body: ForgotPasswordRequest): Promise<void> {
  await apiRequest(routes.forgotPassword.method, routes.forgotPassword.path, { body });
}

/** Sets the new password with the code of the link. */
export async function resetPassword(body: ResetPasswordRequest): Promise<void> {
  await apiRequest(routes.resetPassword.method, routes.resetPassword.path, { body });
}
