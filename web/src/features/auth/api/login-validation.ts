/**
 * The login form's rules, the same as `loginSchema` in shared/schemas/auth.ts (username trimmed and
 * required: SpecifyUsername; password required: SpecifyPassword). They are written out here, not
 * parsed with zod, because the login route has a 150 kB JavaScript budget and zod plus
 * react-hook-form would take a fifth of it for two required fields; login-validation.test.ts runs
 * both over the same inputs so they cannot drift apart. Forms behind the login use react-hook-form
 * with the shared zod schemas.
 */
import type { LoginForm } from '../../../../../shared/schemas/auth';

export type LoginFieldErrors = Partial<Record<'username' | 'password', string>>;

export function validateLoginForm(values: LoginForm): { values: LoginForm; errors: LoginFieldErrors } {
  const username = values.username.trim();
  const errors: LoginFieldErrors = {};
  if (username.length === 0) errors.username = 'SpecifyUsername';
  if (values.password.length === 0) errors.password = 'SpecifyPassword';
  return { values: { ...values, username }, errors };
}
