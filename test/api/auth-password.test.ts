/**
 * Black-box tests of passwords against the embedded runtime: the set-new-password call, and
 * forgot/reset with the e-mailed link (read from the outbox): once only, 1 hour, the password rule,
 * and two concurrent resets with one code.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { overridePorts } from '../../functions/platform/container';
import type { EmbeddedRuntime } from '../../infra/local/runtime';
import type { OutboxMessage } from '../../shared/schemas/system';
import { apiFetch, call as callFrom, type CallOptions } from '../support/http';
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
  const res = await apiFetch(`${rt.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Body };
}
const login = (username: string, password: string) => post('/api/v1/login', { username, password, subsiteid: 0 });
const call = <B = Body>(method: string, path: string, body?: unknown, options: CallOptions = {}) => callFrom<B>(rt.url, method, path, body, options);

/** The code e-mailed for a challenge of a 2FA login. */
async function codeFor(u: TestUser, challenge: { user_id: string; challenge: string }): Promise<string> {
  expect((await post('/api/v1/2fa/generate', { ...challenge, lang: 'en' })).status).toBe(200);
  return /\b(\d{6})\b/.exec((await lastEmail(u.email)).text)?.[1] ?? '';
}
async function challengeOf(u: TestUser, password: string) {
  const data = (await login(u.username, password)).body.data as { twoFactor?: { user_id: string; challenge: string } };
  if (!data.twoFactor) throw new Error('no 2FA challenge');
  return data.twoFactor;
}
/** A 2FA login with trust_browser: the trust token. */
async function trustBrowserOf(u: TestUser, password: string): Promise<string> {
  const challenge = await challengeOf(u, password);
  const res = await post('/api/v1/2fa/verify', { ...challenge, code: await codeFor(u, challenge), trust_browser: true });
  return String((res.body.data as Record<string, unknown>)['trustToken']);
}
/** A 2FA login: the access token. */
async function verifiedSession(u: TestUser, password: string): Promise<string> {
  const challenge = await challengeOf(u, password);
  const res = await post('/api/v1/2fa/verify', { ...challenge, code: await codeFor(u, challenge) });
  return String(res.body.data?.user?.['token']);
}
async function tokenOf(u: TestUser): Promise<string> {
  const { body } = await login(u.username, u.password);
  return String(body.data?.user?.['token']);
}

async function lastEmail(to: string): Promise<OutboxMessage> {
  const res = await apiFetch(`${rt.url}/api/dev/outbox?to=${encodeURIComponent(to)}&kind=email`);
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
  /** `currentPassword` null leaves the field out. */
  const change = (u: TestUser, token: string, password: string, currentPassword: string | null = u.password) =>
    post('/api/v1/user/password', { userId: u.userId, email: u.email, password, ...(currentPassword !== null ? { current_password: currentPassword } : {}) }, token);

  it("sets the caller's own password with the current one, and answers the tokens of a new session", async () => {
    const u = await createTestUser();
    const token = await tokenOf(u);
    const res = await change(u, token, 'Changed-pass2');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      success: true,
      data: { token: expect.any(String), refresh_token: expect.any(String), expires_in: 3600 },
      message: 'User updated successfully.',
    });
    expect((await login(u.username, u.password)).status).toBe(401);
    expect((await login(u.username, 'Changed-pass2')).status).toBe(200);
  });

  it('refuses a missing or wrong current password with 422 current_password, and changes nothing', async () => {
    const u = await createTestUser();
    const token = await tokenOf(u);
    const missing = await change(u, token, 'Changed-pass2', null);
    expect(missing.status).toBe(422);
    expect(missing.body.errors).toEqual({ current_password: ['SpecifyCurrentPassword'] });
    const wrong = await change(u, token, 'Changed-pass2', 'Wrong-pass1');
    expect(wrong.status).toBe(422);
    expect(wrong.body).toEqual({ success: false, message: 'ValidationFailed', errors: { current_password: ['WrongCurrentPassword'] } });
    expect((await login(u.username, u.password)).status).toBe(200);
    // The session that asked is untouched.
    expect((await call('GET', '/api/v1/user/settings', undefined, { token })).status).toBe(200);
  });

  it('counts wrong current passwords towards the lockout, so a stolen token cannot guess the password', async () => {
    const u = await createTestUser();
    const token = await tokenOf(u);
    for (let i = 0; i < 4; i++) expect((await change(u, token, 'Changed-pass2', 'Wrong-pass1')).status).toBe(422);
    expect((await change(u, token, 'Changed-pass2', 'Wrong-pass1')).status).toBe(429);
    expect((await change(u, token, 'Changed-pass2')).status).toBe(429);
  });

  it("ends every other session and refresh token of the user, and the caller's old one; the new tokens work", async () => {
    const u = await createTestUser();
    // Someone else holds a session from another address (a phished password).
    const stolen = (await call<Body>('POST', '/api/v1/login', { username: u.username, password: u.password, subsiteid: 0 }, { from: '127.0.0.2' })).body.data?.user ?? {};
    const stolenToken = String(stolen['token']);
    expect((await call('GET', '/api/v1/user/settings', undefined, { token: stolenToken, from: '127.0.0.2' })).status).toBe(200);

    const own = (await login(u.username, u.password)).body.data?.user ?? {};
    const res = await change(u, String(own['token']), 'Changed-pass2');
    expect(res.status).toBe(200);
    const fresh = (res.body.data ?? {}) as Record<string, unknown>;

    expect((await call('GET', '/api/v1/user/settings', undefined, { token: stolenToken, from: '127.0.0.2' })).status).toBe(401);
    expect((await post('/api/v1/token/refresh', { refresh_token: stolen['refresh_token'], username: u.username })).status).toBe(401);
    expect((await call('GET', '/api/v1/user/settings', undefined, { token: String(own['token']) })).status).toBe(401);
    expect((await post('/api/v1/token/refresh', { refresh_token: own['refresh_token'], username: u.username })).status).toBe(401);

    expect((await call('GET', '/api/v1/user/settings', undefined, { token: String(fresh['token']) })).status).toBe(200);
    const refreshed = await post('/api/v1/token/refresh', { refresh_token: fresh['refresh_token'], username: u.username });
    expect(refreshed.status).toBe(200);
  });

  it('ends trusted browsers too: the next login asks for the code again', async () => {
    const u = await createTestUser();
    const token = await tokenOf(u);
    await call('PUT', '/api/v1/user/profile', { FirstName: 'Kim', LastName: 'Berg', phone: '', lang: 'en', EnableTwoFactorAuth: true }, { token });
    const trustToken = await trustBrowserOf(u, u.password);
    expect((await post('/api/v1/login', { username: u.username, password: u.password, subsiteid: 0, trust_token: trustToken })).body.data?.user).toBeDefined();

    const session = await verifiedSession(u, u.password);
    expect((await change(u, session, 'Changed-pass2')).status).toBe(200);
    const again = await post('/api/v1/login', { username: u.username, password: 'Changed-pass2', subsiteid: 0, trust_token: trustToken });
    expect(again.body.data?.user).toBeUndefined();
    expect((again.body.data as Record<string, unknown> | undefined)?.['twoFactor']).toBeDefined();
  });

  it("refuses another user's id as not found and leaves that password alone", async () => {
    const u = await createTestUser();
    const other = await createTestUser();
    const res = await post('/api/v1/user/password', { userId: other.userId, email: other.email, password: 'Hijack-pass3', current_password: other.password }, await tokenOf(u));
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ success: false, message: 'UserNotFound', errors: 'UserNotFound' });
    expect((await login(other.username, other.password)).status).toBe(200);
  });

  it('applies the password rule', async () => {
    const u = await createTestUser();
    const token = await tokenOf(u);
    for (const weak of ['short1!', 'nouppercase1!', 'NoDigits!!', 'NoSpecial123']) {
      const res = await change(u, token, weak);
      expect(res.status, weak).toBe(422);
      expect(res.body.errors).toEqual({ password: ['PasswordMustInclude'] });
    }
    // The browser shows the first key of a field.
    const empty = await change(u, token, '');
    expect((empty.body.errors as Record<string, string[]>)['password']?.[0]).toBe('SpecifyNewPassword');
  });

  it('needs a session', async () => {
    const u = await createTestUser();
    expect((await post('/api/v1/user/password', { userId: u.userId, email: u.email, password: 'Changed-pass2', current_password: u.password })).status).toBe(401);
  });
});

describe('forgot and reset password', () => {
  it('answers an unknown address with 422 EmailDoesNotExist and sends nothing', async () => {
    const res = await post('/api/v1/forgot-password', { subsite_id: 0, email_address: 'Nobody@Example.se', lang: 'en' });
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual({ email_address: ['EmailDoesNotExist'] });
    const outbox = await apiFetch(`${rt.url}/api/dev/outbox?to=nobody@example.se&kind=email`);
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

  it('a reset ends every session and refresh token of the user', async () => {
    const u = await createTestUser();
    const stolen = (await login(u.username, u.password)).body.data?.user ?? {};
    const code = await resetCode(u);
    expect((await reset(code, 'Brand-new-pass4')).status).toBe(200);
    expect((await call('GET', '/api/v1/user/settings', undefined, { token: String(stolen['token']) })).status).toBe(401);
    expect((await post('/api/v1/token/refresh', { refresh_token: stolen['refresh_token'], username: u.username })).status).toBe(401);
    expect((await login(u.username, 'Brand-new-pass4')).status).toBe(200);
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
