/**
 * Black-box tests of passwords against the embedded runtime: the set-new-password call, and
 * forgot/reset with the e-mailed link (read from the outbox): once only, 1 hour, the password rule,
 * and two concurrent resets with one code.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { overridePorts } from '../../functions/platform/container';
import type { EmbeddedRuntime } from '../../infra/local/runtime';
import type { OutboxMessage } from '../../shared/schemas/system';
import { startRuntime } from '../support/runtime';
import { createTestUser, type TestUser } from '../support/sessions';

let rt: EmbeddedRuntime;
let offsetMs = 0;
const advance = (seconds: number) => {
  offsetMs += seconds * 1000;
};

beforeAll(async () => {
  rt = await startRuntime();
  overridePorts({ clock: { now: () => new Date(Date.now() + offsetMs) } });
});
afterAll(async () => {
  await rt?.stop();
});
beforeEach(() => advance(3601));

interface Body {
  success: boolean;
  message?: string;
  data?: { user?: Record<string, unknown> } | null;
  errors?: unknown;
}

async function post(path: string, body: unknown, token?: string): Promise<{ status: number; body: Body }> {
  const res = await fetch(`${rt.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Body };
}
const login = (username: string, password: string) => post('/api/v1/login', { username, password, subsiteid: 0 });
async function tokenOf(u: TestUser): Promise<string> {
  const { body } = await login(u.username, u.password);
  return String(body.data?.user?.['token']);
}

async function lastEmail(to: string): Promise<OutboxMessage> {
  const res = await fetch(`${rt.url}/api/dev/outbox?to=${encodeURIComponent(to)}&kind=email`);
  const [latest] = ((await res.json()) as { data: OutboxMessage[] }).data;
  if (!latest) throw new Error(`no e-mail to ${to}`);
  return latest;
}

/** Asks for a link and returns the `_c` code from the e-mail. */
async function resetCode(u: TestUser, lang = 'en'): Promise<string> {
  const res = await post('/api/v1/forgot-password', { subsite_id: 0, email_address: u.email, lang });
  expect(res.status).toBe(200);
  expect(res.body).toEqual({ success: true, data: null, message: 'PasswordResetLink' });
  const mail = await lastEmail(u.email);
  const link = /(http\S+\/user\/reset-password\?_c=[A-Za-z0-9_-]+)/.exec(mail.text)?.[1] ?? '';
  expect(link.startsWith(`${rt.url}/user/reset-password?_c=`)).toBe(true);
  expect(mail.html).toContain(`href="${link}"`);
  return new URL(link).searchParams.get('_c') ?? '';
}

const reset = (code: string, password: string, confirmation = password) =>
  post('/api/v1/reset-password', { subsite_id: 0, code, password, password_confirmation: confirmation });

describe('POST /api/v1/user/password', () => {
  it("sets the caller's own password", async () => {
    const u = await createTestUser();
    const token = await tokenOf(u);
    const res = await post('/api/v1/user/password', { userId: u.userId, email: u.email, password: 'Changed-pass2' }, token);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, data: null, message: 'User updated successfully.' });
    expect((await login(u.username, u.password)).status).toBe(401);
    expect((await login(u.username, 'Changed-pass2')).status).toBe(200);
  });

  it("refuses another user's id as not found and leaves that password alone", async () => {
    const u = await createTestUser();
    const other = await createTestUser();
    const res = await post('/api/v1/user/password', { userId: other.userId, email: other.email, password: 'Hijack-pass3' }, await tokenOf(u));
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ success: false, message: 'UserNotFound', errors: 'UserNotFound' });
    expect((await login(other.username, other.password)).status).toBe(200);
  });

  it('applies the password rule', async () => {
    const u = await createTestUser();
    const token = await tokenOf(u);
    for (const weak of ['short1!', 'nouppercase1!', 'NoDigits!!', 'NoSpecial123']) {
      const res = await post('/api/v1/user/password', { userId: u.userId, email: u.email, password: weak }, token);
      expect(res.status, weak).toBe(422);
      expect(res.body.errors).toEqual({ password: ['PasswordMustInclude'] });
    }
    // The browser shows the first key of a field.
    const empty = await post('/api/v1/user/password', { userId: u.userId, email: u.email, password: '' }, token);
    expect((empty.body.errors as Record<string, string[]>)['password']?.[0]).toBe('SpecifyNewPassword');
  });

  it('needs a session', async () => {
    const u = await createTestUser();
    expect((await post('/api/v1/user/password', { userId: u.userId, email: u.email, password: 'Changed-pass2' })).status).toBe(401);
  });
});

describe('forgot and reset password', () => {
  it('answers an unknown address with 422 EmailDoesNotExist and sends nothing', async () => {
    const res = await post('/api/v1/forgot-password', { subsite_id: 0, email_address: 'Nobody@Example.se', lang: 'en' });
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual({ email_address: ['EmailDoesNotExist'] });
    const outbox = await fetch(`${rt.url}/api/dev/outbox?to=nobody@example.se&kind=email`);
    expect(((await outbox.json()) as { data: unknown[] }).data).toEqual([]);
  });

  it('validates the address', async () => {
    const empty = (await post('/api/v1/forgot-password', { email_address: '' })).body.errors as Record<string, string[]>;
    // The browser shows the first key of a field.
    expect(empty['email_address']?.[0]).toBe('GetPasswordResetLink');
    expect((await post('/api/v1/forgot-password', { email_address: 'not-an-address' })).body.errors).toEqual({ email_address: ['EnterValidEmail'] });
  });

  it('e-mails a link in the language asked for; the link sets a new password once', async () => {
    const u = await createTestUser();
    const code = await resetCode(u, 'sv');
    expect((await lastEmail(u.email)).subject).toBe('Återställ ditt lösenord för TrackPortal');

    const done = await reset(code, 'Brand-new-pass4');
    expect(done.status).toBe(200);
    expect(done.body).toEqual({ success: true, data: null, message: 'PasswordChanged' });
    expect((await login(u.username, 'Brand-new-pass4')).status).toBe(200);
    expect((await login(u.username, u.password)).status).toBe(401);

    const again = await reset(code, 'Other-new-pass5');
    expect(again.status).toBe(422);
    expect(again.body.errors).toEqual({ code: ['InvalidResetCode'] });
    expect((await login(u.username, 'Other-new-pass5')).status).toBe(401);
  });

  it('a link expires after one hour', async () => {
    const u = await createTestUser();
    const code = await resetCode(u);
    advance(3600 + 1);
    const late = await reset(code, 'Brand-new-pass4');
    expect(late.status).toBe(422);
    expect(late.body.errors).toEqual({ code: ['ResetCodeExpired'] });
    expect((await login(u.username, u.password)).status).toBe(200);
  });

  it('a link works just before the hour ends', async () => {
    const u = await createTestUser();
    const code = await resetCode(u);
    advance(3600 - 10);
    expect((await reset(code, 'Brand-new-pass4')).status).toBe(200);
  });

  it('refuses an invalid code', async () => {
    const res = await reset('not-a-code-we-sent', 'Brand-new-pass4');
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ success: false, message: 'ValidationFailed', errors: { code: ['InvalidResetCode'] } });
  });

  it('applies the password rule and the confirmation, and keeps the link usable', async () => {
    const u = await createTestUser();
    const code = await resetCode(u);
    const weak = await reset(code, 'weakpass');
    expect(weak.status).toBe(422);
    expect(weak.body.errors).toEqual({ password: ['PasswordMustInclude'] });
    const mismatch = await reset(code, 'Brand-new-pass4', 'Brand-new-pass5');
    expect(mismatch.status).toBe(422);
    expect(mismatch.body.errors).toEqual({ password_confirmation: ['PasswordNotMatch'] });
    expect((await reset(code, 'Brand-new-pass4')).status).toBe(200);
  });

  it('two concurrent resets with one code: one wins, the other is refused', async () => {
    const u = await createTestUser();
    const code = await resetCode(u);
    const [a, b] = await Promise.all([reset(code, 'First-winner-1'), reset(code, 'Second-winner-2')]);
    expect([a.status, b.status].sort()).toEqual([200, 422]);
    const loser = a.status === 422 ? a : b;
    expect(loser.body.errors).toEqual({ code: ['InvalidResetCode'] });
    const winner = a.status === 200 ? 'First-winner-1' : 'Second-winner-2';
    const other = a.status === 200 ? 'Second-winner-2' : 'First-winner-1';
    expect((await login(u.username, winner)).status).toBe(200);
    expect((await login(u.username, other)).status).toBe(401);
  });

  it('a reset lifts a login block', async () => {
    const u = await createTestUser();
    for (let i = 0; i < 5; i++) await login(u.username, 'Wrong-pass1');
    expect((await login(u.username, u.password)).status).toBe(429);
    const code = await resetCode(u);
    expect((await reset(code, 'Brand-new-pass4')).status).toBe(200);
    expect((await login(u.username, 'Brand-new-pass4')).status).toBe(200);
  });
});
