/**
 * Member calls of the session (docs/api.md): log-out (POST /api/v1/user/logout) and set-new-password
 * (POST /api/v1/user/password).
 */
import { routes } from '../../../../../shared/routes';
import type { ChangePasswordRequest, ChangePasswordResponse } from '../../../../../shared/schemas/auth';
import { apiRequest, type ResponseSchema } from '../../../app/api-client';
import { endSession, getSessionUser, startSession } from '../../../app/session';
import { fetchProfile } from './profile';

/**
 * Tells the server (best effort), sending the refresh token so it is revoked too, then forgets the
 * session whatever it answered.
 */
export async function logout(): Promise<void> {
  const refreshToken = getSessionUser()?.refresh_token;
  try {
    await apiRequest(routes.logout.method, routes.logout.path, { body: refreshToken ? { refresh_token: refreshToken } : {} });
  } catch {
    // The token is dropped here either way; a failed log-out call must not keep anyone logged in.
  }
  endSession();
}

/** The answer's shape (changePasswordResponseSchema), checked by hand: zod stays out of the shell's JavaScript. */
const newTokens: ResponseSchema<ChangePasswordResponse> = {
  safeParse(data: unknown) {
    const r = typeof data === 'object' && data !== null ? (data as Record<string, unknown>) : {};
    const { token, refresh_token, expires_in } = r;
    return typeof token === 'string' && token && typeof refresh_token === 'string' && refresh_token && typeof expires_in === 'number'
      ? { success: true, data: { token, refresh_token, expires_in } }
      : { success: false, error: { issues: ['no token, refresh_token and expires_in'] } };
  },
};

/**
 * Sets a new password. The server ends every session of the user and answers the tokens of a new
 * one for this browser, which replace the stored ones; then the stored user is refreshed from the
 * profile (spec section 4: "stored session refreshed"), so a name or e-mail changed elsewhere shows too.
 */
export async function changePassword(body: ChangePasswordRequest): Promise<void> {
  const tokens = await apiRequest(routes.changePassword.method, routes.changePassword.path, { body, schema: newTokens });
  const current = getSessionUser();
  if (current?.ID === body.userId) await startSession({ ...current, ...tokens });
  await fetchProfile();
}
