/**
 * Member calls of the session (API.md): log-out (POST /api/v1/user/logout) and set-new-password
 * (POST /api/v1/user/password).
 */
import { routes } from '../../../../../shared/routes';
import { changePasswordResponseSchema, type ChangePasswordRequest } from '../../../../../shared/schemas/auth';
import { apiRequest } from '../../../app/api-client';
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

/**
 * Sets a new password. The server ends every session of the user and answers the tokens of a new
 * one for this browser, which replace the stored ones; then the stored user is refreshed from the
 * profile (spec section 4: "stored session refreshed"), so a name or e-mail changed elsewhere shows too.
 */
export async function changePassword(body: ChangePasswordRequest): Promise<void> {
  const tokens = await apiRequest(routes.changePassword.method, routes.changePassword.path, { body, schema: changePasswordResponseSchema });
  const current = getSessionUser();
  if (current?.ID === body.userId) await startSession({ ...current, ...tokens });
  await fetchProfile();
}
