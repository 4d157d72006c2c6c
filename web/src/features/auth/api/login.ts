/**
 * POST /api/v1/login (docs/api.md): the user with its token, or a two-factor challenge for the code
 * screen. A browser this user trusted skips the code by the `trusted_browser` cookie the server set.
 */
import type { BrandId } from '../../../../../shared/brands';
import type { LoginForm, LoginRequest, SessionUser, TwoFactorChallenge } from '../../../../../shared/schemas/auth';
import { apiRequest, type ResponseSchema } from '../../../app/api-client';
import { asSessionUser } from '../../../app/session';

export const LOGIN_PATH = '/api/v1/login';

export type LoginAnswer = { user: SessionUser } | { twoFactor: TwoFactorChallenge };

/**
 * Checks the answer's shape by hand (the same shape as loginResponseSchema), keeping zod out of
 * the login route's JavaScript.
 */
export const loginAnswer: ResponseSchema<LoginAnswer> = {
  safeParse(data: unknown) {
    const record = typeof data === 'object' && data !== null ? (data as Record<string, unknown>) : {};
    const user = asSessionUser(record['user']);
    if (user) return { success: true, data: { user } };
    const twoFactor = record['twoFactor'];
    if (typeof twoFactor === 'object' && twoFactor !== null) {
      const { user_id, challenge } = twoFactor as Record<string, unknown>;
      if ((typeof user_id === 'string' || typeof user_id === 'number') && typeof challenge === 'string') {
        return { success: true, data: { twoFactor: { user_id: String(user_id), challenge } } };
      }
    }
    return { success: false, error: { issues: ['neither data.user with a token nor data.twoFactor'] } };
  },
};

export async function login(form: LoginForm, subsiteid: BrandId): Promise<LoginAnswer> {
  const body: LoginRequest = {
    username: form.username.trim(),
    password: form.password,
    subsiteid,
    remember_me: form.remember_me,
  };
  return apiRequest('POST', LOGIN_PATH, { body, schema: loginAnswer });
}
