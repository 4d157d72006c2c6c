/**
 * Member calls of the session: log-out and set-new-password. Their server routes arrive with the
 * accounts issue (API.md: POST /api/v1/user/logout, POST /api/v1/user/password).
 */
import { changePasswordRequestSchema, type ChangePasswordRequest } from '../../../../../shared/schemas/auth';
import { apiRequest } from '../../../app/api-client';
import { asSessionUser, endSession, getSessionUser, startSession } from '../../../app/session';

export const LOGOUT_PATH = '/api/v1/user/logout';
export const CHANGE_PASSWORD_PATH = '/api/v1/user/password';

/** Tells the server (best effort), then forgets the session whatever it answered. */
export async function logout(): Promise<void> {
  try {
    await apiRequest('POST', LOGOUT_PATH);
  } catch {
    // The token is dropped here either way; a failed log-out call must not keep anyone logged in.
  }
  endSession();
}

/** Sets a new password; refreshes the stored user when the answer carries one. */
export async function changePassword(body: ChangePasswordRequest): Promise<void> {
  const data = await apiRequest<unknown>('POST', CHANGE_PASSWORD_PATH, { body: changePasswordRequestSchema.parse(body) });
  const refreshed = asSessionUser(typeof data === 'object' && data !== null && 'user' in data ? data.user : null);
  const current = getSessionUser();
  if (refreshed && current) await startSession({ ...current, ...refreshed });
}
