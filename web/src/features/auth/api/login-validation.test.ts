import { describe, expect, it } from 'vitest';
import { loginSchema } from '../../../../../shared/schemas/auth';
import { validateLoginForm } from './login-validation';

const cases = [
  { username: '', password: '', remember_me: false },
  { username: '   ', password: 'x', remember_me: true },
  { username: 'anna', password: '', remember_me: false },
  { username: '  anna@example.com ', password: ' ', remember_me: false },
  { username: 'ola', password: 'Secret1!', remember_me: true },
];

describe('validateLoginForm', () => {
  it('applies exactly the rules of the shared loginSchema', () => {
    for (const input of cases) {
      const ours = validateLoginForm(input);
      const shared = loginSchema.safeParse(input);
      const sharedErrors: Record<string, string> = {};
      if (!shared.success) for (const issue of shared.error.issues) sharedErrors[String(issue.path[0])] ??= issue.message;
      expect(ours.errors).toEqual(sharedErrors);
      if (shared.success) expect(ours.values).toEqual(shared.data);
    }
  });
});
