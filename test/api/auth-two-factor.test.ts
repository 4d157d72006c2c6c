/**
 * Black-box tests of two-factor login against the embedded runtime: challenge, code by e-mail
 * (read from the outbox), tries, expiry, single use, binding to the user, trusted browsers; and
 * that neither logs nor tables ever hold a password, code, challenge or token.
 */
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { overridePorts } from '../../functions/platform/container';
import { dynamo, tableName } from '../../functions/platform/db';
import type { EmbeddedRuntime } from '../../infra/local/runtime';
import type { OutboxMessage } from '../../shared/schemas/system';
import { apiFetch, call, cookiePair } from '../support/http';
import { startRuntime } from '../support/runtime';
import { createTestUser, type TestUser } from '../support/sessions';

let rt: EmbeddedRuntime;
let offsetMs = 0;
const advance = (seconds: number) => {
  offsetMs += seconds * 1000;
};

/** Everything the handlers log during this file (Powertools writes to process.stdout/stderr). */
const logged: string[] = [];
const capture = (chunk: unknown) => {
  logged.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk as Uint8Array).toString('utf8'));
  return true;
};

beforeAll(async () => {
  rt = await startRuntime();
  overridePorts({ clock: { now: () => new Date(Date.now() + offsetMs) } });
  vi.spyOn(process.stdout, 'write').mockImplementation(capture);
  vi.spyOn(process.stderr, 'write').mockImplementation(capture);
});
afterAll(async () => {
  vi.restoreAllMocks();
  await rt?.stop();
});
beforeEach(() => advance(3601));

interface Body {
  success: boolean;
  message?: string;
  data?: { user?: Record<string, unknown>; twoFactor?: { user_id: string; challenge: string } } | null;
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

async function lastEmail(to: string): Promise<OutboxMessage> {
  const res = await apiFetch(`${rt.url}/api/dev/outbox?to=${encodeURIComponent(to)}&kind=email`);
  const [latest] = ((await res.json()) as { data: OutboxMessage[] }).data;
  if (!latest) throw new Error(`no e-mail to ${to}`);
  return latest;
}
const codeIn = (mail: OutboxMessage): string => /\b(\d{6})\b/.exec(mail.text)?.[1] ?? '';

const FINGERPRINT = 'a'.repeat(64);
const OTHER_FINGERPRINT = 'b'.repeat(64);
const secretsSeen: string[] = [];
/** As a whole word: a 6-digit code may occur by chance inside a hash or an epoch number. */
const holds = (text: string, secret: string): boolean =>
  new RegExp(`(?<![A-Za-z0-9_-])${secret.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![A-Za-z0-9_-])`).test(text);

async function passwordStep(u: TestUser, extra: Record<string, unknown> = {}) {
  secretsSeen.push(u.password);
  const { status, body } = await post('/api/v1/login', { username: u.username, password: u.password, subsiteid: 0, ...extra });
  expect(status).toBe(200);
  return body.data ?? {};
}

async function challengeFor(u: TestUser, extra: Record<string, unknown> = {}) {
  const data = await passwordStep(u, extra);
  expect(data.user).toBeUndefined();
  expect(data.twoFactor).toEqual({ user_id: u.userId, challenge: expect.any(String) });
  const challenge = data.twoFactor?.challenge ?? '';
  secretsSeen.push(challenge);
  return { user_id: u.userId, challenge };
}

async function sendCode(u: TestUser, ch: { user_id: string; challenge: string }, lang = 'en'): Promise<string> {
  const res = await post('/api/v1/2fa/generate', { ...ch, lang });
  expect(res.status).toBe(200);
  expect(res.body).toEqual({ success: true, data: null });
  const code = codeIn(await lastEmail(u.email));
  expect(code).toMatch(/^\d{6}$/);
  secretsSeen.push(code);
  return code;
}

const verify = (ch: { user_id: string; challenge: string }, code: string, extra: Record<string, unknown> = {}) =>
  post('/api/v1/2fa/verify', { ...ch, code, ...extra });

/** A code that is surely not the one sent. */
const wrongCode = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

describe('two-factor login', () => {
  it('goes from password to challenge to e-mailed code to a session', async () => {
    const u = await createTestUser({ enableTwoFactorAuth: true });
    const ch = await challengeFor(u);
    const code = await sendCode(u, ch);

    const mail = await lastEmail(u.email);
    expect(mail.subject).toBe('Your login code for TrackPortal');
    expect(mail.html).toContain(code);

    const { status, body } = await verify(ch, code);
    expect(status).toBe(200);
    const user = body.data?.user ?? {};
    expect(user).toMatchObject({ ID: u.userId, Username: u.username, EnableTwoFactorAuth: true, token: expect.any(String), refresh_token: expect.any(String) });
    secretsSeen.push(String(user['token']), String(user['refresh_token']));

    const settings = await apiFetch(`${rt.url}/api/v1/user/settings`, { headers: { authorization: `Bearer ${String(user['token'])}` } });
    expect(settings.status).toBe(200);
    // The session refreshes like any other.
    const refreshed = await post('/api/v1/token/refresh', { refresh_token: user['refresh_token'], username: user['Username'] });
    expect(refreshed.status).toBe(200);
  });

  it('sends the code in the language asked for', async () => {
    const u = await createTestUser({ enableTwoFactorAuth: true, subsiteId: 0 });
    const ch = await challengeFor(u);
    await sendCode(u, ch, 'sv');
    expect((await lastEmail(u.email)).subject).toBe('Din inloggningskod för TrackPortal');
    await sendCode(u, ch, 'no');
    expect((await lastEmail(u.email)).text).toContain('Koden er gyldig i 10 minutter');
  });

  it('works once: the same code and challenge cannot be used again', async () => {
    const u = await createTestUser({ enableTwoFactorAuth: true });
    const ch = await challengeFor(u);
    const code = await sendCode(u, ch);
    expect((await verify(ch, code)).status).toBe(200);
    const again = await verify(ch, code);
    expect(again.status).toBe(403);
    expect(again.body).toEqual({ success: false, message: 'LoginAgain', errors: 'LoginAgain' });
    expect((await post('/api/v1/2fa/generate', ch)).status).toBe(403);
  });

  it('two concurrent verifies of one code: exactly one gets a session', async () => {
    const u = await createTestUser({ enableTwoFactorAuth: true });
    const ch = await challengeFor(u);
    const code = await sendCode(u, ch);
    const results = await Promise.all([verify(ch, code), verify(ch, code), verify(ch, code)]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 403, 403]);
  });

  it('gives 5 tries per code, counting down, then needs a new code', async () => {
    const u = await createTestUser({ enableTwoFactorAuth: true });
    const ch = await challengeFor(u);
    const code = await sendCode(u, ch);
    const answers = [];
    for (let i = 0; i < 5; i++) answers.push(await verify(ch, wrongCode(code)));
    expect(answers.map((a) => a.status)).toEqual([401, 401, 401, 401, 401]);
    expect(answers.map((a) => a.body.errors)).toEqual([4, 3, 2, 1, 0].map((count) => ({ msg: 'InvalidCodeTriesLeft', count })));
    expect(answers[0]?.body.message).toBe('InvalidCode');

    const right = await verify(ch, code);
    expect(right.status).toBe(422);
    expect(right.body.errors).toEqual({ code: ['CodeExpired'] });

    const fresh = await sendCode(u, ch);
    expect((await verify(ch, fresh)).status).toBe(200);
  });

  it('a code expires after 10 minutes', async () => {
    const u = await createTestUser({ enableTwoFactorAuth: true });
    const ch = await challengeFor(u);
    const code = await sendCode(u, ch);
    advance(10 * 60 + 1);
    const late = await verify(ch, code);
    expect(late.status).toBe(422);
    expect(late.body).toEqual({ success: false, message: 'CodeExpired', errors: { code: ['CodeExpired'] } });
  });

  it('a code is still good just before 10 minutes', async () => {
    const u = await createTestUser({ enableTwoFactorAuth: true });
    const ch = await challengeFor(u);
    const code = await sendCode(u, ch);
    advance(9 * 60 + 50);
    expect((await verify(ch, code)).status).toBe(200);
  });

  it('a new code replaces the previous one', async () => {
    const u = await createTestUser({ enableTwoFactorAuth: true });
    const ch = await challengeFor(u);
    let first = await sendCode(u, ch);
    let second = await sendCode(u, ch);
    // One in a million: both codes equal. Send again until they differ.
    while (second === first) [first, second] = [second, await sendCode(u, ch)];
    expect((await verify(ch, first)).status).toBe(401);
    expect((await verify(ch, second)).status).toBe(200);
  });

  it("refuses a user id alone, another user's challenge, and a made-up challenge", async () => {
    const a = await createTestUser({ enableTwoFactorAuth: true });
    const b = await createTestUser({ enableTwoFactorAuth: true });
    const chB = await challengeFor(b);
    const codeB = await sendCode(b, chB);

    const alone = await post('/api/v1/2fa/generate', { user_id: a.userId, lang: 'en' });
    expect(alone.status).toBe(422);
    expect(alone.body.errors).toEqual({ challenge: ['FieldRequired'] });
    const aloneVerify = await post('/api/v1/2fa/verify', { user_id: a.userId, code: codeB });
    expect(aloneVerify.status).toBe(422);

    const crossed = { user_id: a.userId, challenge: chB.challenge };
    expect((await post('/api/v1/2fa/generate', crossed)).body).toEqual({ success: false, message: 'LoginAgain', errors: 'LoginAgain' });
    expect((await verify(crossed, codeB)).status).toBe(403);
    expect((await verify({ user_id: a.userId, challenge: 'made-up' }, codeB)).status).toBe(403);

    // B's own login is untouched by the attempts.
    expect((await verify(chB, codeB)).status).toBe(200);
  });

  it('a challenge expires after 30 minutes', async () => {
    const u = await createTestUser({ enableTwoFactorAuth: true });
    const ch = await challengeFor(u);
    advance(30 * 60 + 1);
    expect((await post('/api/v1/2fa/generate', ch)).status).toBe(403);
  });

  it('limits codes e-mailed per user', async () => {
    const u = await createTestUser({ enableTwoFactorAuth: true });
    const ch = await challengeFor(u);
    for (let i = 0; i < 5; i++) await sendCode(u, ch);
    const sixth = await post('/api/v1/2fa/generate', ch);
    expect(sixth.status).toBe(429);
    expect(sixth.body.errors).toBe('TooManyRequests');
  });
});

describe('trusted browsers', () => {
  /** Verifies a fresh code with trust_browser and returns the answer's token and Set-Cookie. */
  async function trustedVerify(u: TestUser, extra: Record<string, unknown> = {}) {
    const ch = await challengeFor(u, { fingerprint: FINGERPRINT });
    const code = await sendCode(u, ch);
    const res = await call<Body & { data?: { trustToken?: string } }>(rt.url, 'POST', '/api/v1/2fa/verify', { ...ch, code, trust_browser: true, fingerprint: FINGERPRINT, ...extra });
    expect(res.status).toBe(200);
    const token = String(res.body.data?.trustToken ?? '');
    secretsSeen.push(token);
    return { token, setCookies: res.setCookies };
  }
  const loginWith = (u: TestUser, extra: Record<string, unknown> = {}, cookies: readonly string[] = []) =>
    call<Body>(rt.url, 'POST', '/api/v1/login', { username: u.username, password: u.password, subsiteid: 0, ...extra }, { cookies }).then((r) => {
      expect(r.status).toBe(200);
      return r.body.data ?? {};
    });

  it('skip the code with the random token issued at verify (body or HttpOnly cookie), for that user, for 180 days', async () => {
    const u = await createTestUser({ enableTwoFactorAuth: true });
    const { token, setCookies } = await trustedVerify(u);
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(setCookies).toHaveLength(1);
    const cookie = setCookies[0] ?? '';
    expect(cookie).toMatch(new RegExp(`^trusted_browser=${token}; `));
    for (const attribute of ['HttpOnly', 'Secure', 'SameSite=Strict', 'Path=/api/v1', 'Max-Age=15552000']) expect(cookie).toContain(attribute);

    expect((await loginWith(u, {}, [cookiePair(cookie)])).user).toMatchObject({ ID: u.userId, token: expect.any(String) });
    expect((await loginWith(u, { trust_token: token })).user).toMatchObject({ ID: u.userId });
    // The password is still needed.
    expect((await call(rt.url, 'POST', '/api/v1/login', { username: u.username, password: 'Wrong-pass1', subsiteid: 0 }, { cookies: [cookiePair(cookie)] })).status).toBe(401);

    // Another user on the same browser is not trusted by it.
    const other = await createTestUser({ enableTwoFactorAuth: true });
    expect((await loginWith(other, { trust_token: token }, [cookiePair(cookie)])).twoFactor).toBeDefined();

    advance(180 * 24 * 3600 - 3600 * 2);
    expect((await loginWith(u, { trust_token: token })).user).toBeDefined();
    advance(3 * 3600);
    expect((await loginWith(u, { trust_token: token })).twoFactor).toBeDefined();
  });

  it('a fingerprint alone never skips the code, nor does a made-up or altered token', async () => {
    const u = await createTestUser({ enableTwoFactorAuth: true });
    const { token } = await trustedVerify(u);
    expect((await loginWith(u, { fingerprint: FINGERPRINT })).twoFactor).toBeDefined();
    expect((await loginWith(u, { fingerprint: OTHER_FINGERPRINT })).twoFactor).toBeDefined();
    const altered = `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`;
    expect((await loginWith(u, { trust_token: altered, fingerprint: FINGERPRINT })).twoFactor).toBeDefined();
    expect((await loginWith(u, {}, [`trusted_browser=${'x'.repeat(43)}`])).twoFactor).toBeDefined();
  });

  it('keep the tokens of several users of one browser in its cookie', async () => {
    const anna = await createTestUser({ enableTwoFactorAuth: true });
    const erik = await createTestUser({ enableTwoFactorAuth: true });
    const first = await trustedVerify(anna);
    const ch = await challengeFor(erik);
    const code = await sendCode(erik, ch);
    const second = await call<Body>(rt.url, 'POST', '/api/v1/2fa/verify', { ...ch, code, trust_browser: true }, { cookies: [cookiePair(first.setCookies[0] ?? '')] });
    const both = cookiePair(second.setCookies[0] ?? '');
    expect(both.split('.')).toHaveLength(2);
    expect((await loginWith(anna, {}, [both])).user).toBeDefined();
    expect((await loginWith(erik, {}, [both])).user).toBeDefined();
  });

  it('are not issued without trust_browser', async () => {
    const u = await createTestUser({ enableTwoFactorAuth: true });
    const ch = await challengeFor(u, { fingerprint: FINGERPRINT });
    const code = await sendCode(u, ch);
    const res = await call<Body & { data?: { trustToken?: string } }>(rt.url, 'POST', '/api/v1/2fa/verify', { ...ch, code, trust_browser: false, fingerprint: FINGERPRINT });
    expect(res.status).toBe(200);
    expect(res.body.data?.trustToken).toBeUndefined();
    expect(res.setCookies).toEqual([]);
    expect((await loginWith(u, { fingerprint: FINGERPRINT })).twoFactor).toBeDefined();
  });
});

describe('secrets', () => {
  it('never reach the logs', () => {
    const text = logged.join('');
    // The capture works: the request log lines of this file are in it.
    expect(text).toContain('"route":"POST /api/v1/2fa/verify"');
    expect(secretsSeen.length).toBeGreaterThan(20);
    for (const secret of new Set(secretsSeen)) expect(holds(text, secret), `a secret of length ${secret.length} was logged`).toBe(false);
  });

  it('are kept in no table in plain form (tokens and rate-limits scanned)', async () => {
    const items: unknown[] = [];
    for (const table of ['tokens', 'rateLimits'] as const) {
      const out = await dynamo().send(new ScanCommand({ TableName: tableName(table) }));
      items.push(...(out.Items ?? []));
    }
    const text = JSON.stringify(items);
    expect(text).toContain('"2fa#');
    expect(text).toContain('"trust#');
    for (const secret of new Set(secretsSeen)) expect(holds(text, secret), `a secret of length ${secret.length} is stored`).toBe(false);
  });
});
