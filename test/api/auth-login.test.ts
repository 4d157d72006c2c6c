/**
 * Black-box tests of login, token refresh and logout against the embedded runtime: login by
 * username and by e-mail, the count-down and the one-hour block, wrong brand, the answer's shape,
 * sessions that refresh until logout. Time moves through the clock port (overridePorts).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { overridePorts } from '../../functions/platform/container';
import type { EmbeddedRuntime } from '../../infra/local/runtime';
import { DEMO_PASSWORD, demoUsers } from '../../infra/local/seed';
import { apiFetch, call as callFrom } from '../support/http';
import { startRuntime } from '../support/runtime';
import { createTestUser } from '../support/sessions';

let rt: EmbeddedRuntime;
let offsetMs = 0;
const clockNow = () => new Date(Date.now() + offsetMs);
const advance = (seconds: number) => {
  offsetMs += seconds * 1000;
};

beforeAll(async () => {
  rt = await startRuntime();
  overridePorts({ clock: { now: clockNow } });
});
afterAll(async () => {
  await rt?.stop();
});
// Every test starts in fresh rate-limit windows (the per-client login limit counts all of them).
beforeEach(() => advance(3601));

interface Body {
  success: boolean;
  message?: string;
  data?: Record<string, unknown> & { user?: Record<string, unknown>; twoFactor?: { user_id: string; challenge: string } };
  errors?: unknown;
}

async function call(method: string, path: string, body?: unknown, token?: string): Promise<{ status: number; body: Body; headers: Headers }> {
  const res = await apiFetch(`${rt.url}${path}`, {
    method,
    headers: { ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...(token ? { authorization: `Bearer ${token}` } : {}) },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  return { status: res.status, body: (await res.json()) as Body, headers: res.headers };
}
const login = (username: string, password: string, subsiteid = 0, extra: Record<string, unknown> = {}) =>
  call('POST', '/api/v1/login', { username, password, subsiteid, ...extra });

describe('POST /api/v1/login', () => {
  it('logs in by username with the user the browser keeps, whose token works', async () => {
    const { status, body } = await login(demoUsers.admin.username, DEMO_PASSWORD);
    expect(status).toBe(200);
    const user = body.data?.user ?? {};
    expect(user).toMatchObject({
      ID: expect.any(String),
      ParentID: null,
      FirstName: demoUsers.admin.firstName,
      LastName: demoUsers.admin.lastName,
      Email: demoUsers.admin.email,
      Username: demoUsers.admin.username,
      token: expect.any(String),
      refresh_token: expect.any(String),
      expires_in: 3600,
      lang: 'en',
      subsiteID: 0,
      isAdmin: true,
      EnableTwoFactorAuth: false,
    });
    const settings = await call('GET', '/api/v1/user/settings', undefined, String(user['token']));
    expect(settings.status).toBe(200);
    expect(settings.body.data).toMatchObject({ is_admin: true });
  });

  it("answers ParentID from the user's account", async () => {
    const u = await createTestUser({ parentId: 'acc-reseller-1' });
    const { body } = await login(u.username, u.password);
    expect(body.data?.user).toMatchObject({ ID: u.userId, ParentID: 'acc-reseller-1', Email: u.email });
  });

  it('logs in by e-mail address, in any case', async () => {
    const { status, body } = await login(demoUsers.user.email.toUpperCase(), DEMO_PASSWORD);
    expect(status).toBe(200);
    expect(body.data?.user).toMatchObject({ Username: demoUsers.user.username, isAdmin: false });
  });

  it('counts down 4, 3, 2, 1, then blocks the name on that client for one hour, even with the right password', async () => {
    const u = await createTestUser();
    const counts: unknown[] = [];
    for (let i = 0; i < 4; i++) {
      const { status, body } = await login(u.username, 'Wrong-pass1');
      expect(status).toBe(401);
      expect(body.message).toBe('InvalidCredentials');
      counts.push(body.errors);
    }
    expect(counts).toEqual([4, 3, 2, 1].map((count) => ({ msg: 'InvalidCredentials', count })));

    const fifth = await login(u.username, 'Wrong-pass1');
    expect(fifth.status).toBe(429);
    expect(fifth.body).toEqual({ success: false, message: 'TooManyAttempts', errors: 'TooManyAttempts' });
    expect(Number(fifth.headers.get('retry-after'))).toBe(3600);

    const blocked = await login(u.username, u.password);
    expect(blocked.status).toBe(429);
    expect(blocked.body.errors).toBe('TooManyAttempts');
    // By e-mail it is the same name, so the same block.
    expect((await login(u.email, u.password)).status).toBe(429);

    advance(59 * 60);
    const later = await login(u.username, u.password);
    expect(later.status).toBe(429);
    expect(Number(later.headers.get('retry-after'))).toBeLessThanOrEqual(60);

    advance(61);
    const free = await login(u.username, u.password);
    expect(free.status).toBe(200);
    expect(free.body.data?.user?.['ID']).toBe(u.userId);
  });

  it('five wrong passwords from one client do not lock the owner out on another client', async () => {
    const u = await createTestUser();
    for (let i = 0; i < 5; i++) await callFrom(rt.url, 'POST', '/api/v1/login', { username: u.username, password: 'Wrong-pass1', subsiteid: 0 }, { from: '127.0.0.3' });
    const attacker = await callFrom<Body>(rt.url, 'POST', '/api/v1/login', { username: u.username, password: u.password, subsiteid: 0 }, { from: '127.0.0.3' });
    expect(attacker.status).toBe(429);
    expect(attacker.body.errors).toBe('TooManyAttempts');

    const owner = await login(u.username, u.password);
    expect(owner.status).toBe(200);
    expect(owner.body.data?.user?.['ID']).toBe(u.userId);
    // And the owner's own count-down starts at 4.
    expect((await login(u.username, 'Wrong-pass1')).body.errors).toEqual({ msg: 'InvalidCredentials', count: 4 });
  });

  it('blocks the name on every client once many clients together fail 50 times in an hour', async () => {
    const u = await createTestUser();
    // 50 failures from 10 addresses, 5 each (127.0.0.10-19 are all loopback).
    for (let c = 0; c < 10; c++) {
      for (let i = 0; i < 5; i++) {
        await callFrom(rt.url, 'POST', '/api/v1/login', { username: u.username, password: 'Wrong-pass1', subsiteid: 0 }, { from: `127.0.0.${10 + c}` });
      }
    }
    const owner = await login(u.username, u.password);
    expect(owner.status).toBe(429);
    expect(owner.body.errors).toBe('TooManyAttempts');
    advance(3600);
    expect((await login(u.username, u.password)).status).toBe(200);
  });

  it('counts failures by username and by e-mail on the same name', async () => {
    const u = await createTestUser();
    expect((await login(u.username, 'Wrong-pass1')).body.errors).toEqual({ msg: 'InvalidCredentials', count: 4 });
    expect((await login(u.email, 'Wrong-pass1')).body.errors).toEqual({ msg: 'InvalidCredentials', count: 3 });
    expect((await login(u.username.toUpperCase(), 'Wrong-pass1')).body.errors).toEqual({ msg: 'InvalidCredentials', count: 2 });
  });

  it('resets the count on success', async () => {
    const u = await createTestUser();
    await login(u.username, 'Wrong-pass1');
    await login(u.username, 'Wrong-pass1');
    expect((await login(u.username, u.password)).status).toBe(200);
    expect((await login(u.username, 'Wrong-pass1')).body.errors).toEqual({ msg: 'InvalidCredentials', count: 4 });
  });

  it('forgets failures an hour after the last one', async () => {
    const u = await createTestUser();
    for (let i = 0; i < 3; i++) await login(u.username, 'Wrong-pass1');
    advance(3601);
    expect((await login(u.username, 'Wrong-pass1')).body.errors).toEqual({ msg: 'InvalidCredentials', count: 4 });
  });

  it('answers an unknown user exactly like a wrong password', async () => {
    const unknown = await login('nobody-by-this-name', 'Wrong-pass1');
    const u = await createTestUser();
    const wrong = await login(u.username, 'Wrong-pass1');
    expect(unknown.status).toBe(401);
    expect(unknown.body).toEqual(wrong.body);
    expect(wrong.body).toEqual({ success: false, message: 'InvalidCredentials', errors: { msg: 'InvalidCredentials', count: 4 } });
  });

  it('refuses a user of another brand with 403 InvalidAccess, only after the password is right', async () => {
    const u = await createTestUser({ subsiteId: 3 });
    const wrongSite = await login(u.username, u.password, 0);
    expect(wrongSite.status).toBe(403);
    expect(wrongSite.body).toEqual({ success: false, message: 'InvalidAccess', errors: 'InvalidAccess' });
    expect(wrongSite.body.data).toBeUndefined();
    // A wrong password on the wrong site is a wrong password.
    expect((await login(u.username, 'Wrong-pass1', 0)).status).toBe(401);
    const rightSite = await login(u.username, u.password, 3);
    expect(rightSite.status).toBe(200);
    expect(rightSite.body.data?.user?.['subsiteID']).toBe(3);
  });

  it('validates the body with the spec keys', async () => {
    const { status, body } = await call('POST', '/api/v1/login', { username: ' ', subsiteid: 9 });
    expect(status).toBe(422);
    expect(body.errors).toEqual({ username: ['SpecifyUsername'], password: ['SpecifyPassword'], subsiteid: ['InvalidSubsite'] });
  });
});

describe('sessions: refresh and logout', () => {
  it('refreshes while the session lives; logout ends the session and revokes the refresh token', async () => {
    const { body } = await login(demoUsers.user.username, DEMO_PASSWORD);
    const user = body.data?.user ?? {};
    const refresh = { refresh_token: user['refresh_token'], username: user['Username'] };

    const refreshed = await call('POST', '/api/v1/token/refresh', refresh);
    expect(refreshed.status).toBe(200);
    expect(refreshed.body.data).toEqual({ token: expect.any(String), expires_in: 3600 });
    const newToken = String(refreshed.body.data?.['token']);
    expect((await call('GET', '/api/v1/user/settings', undefined, newToken)).status).toBe(200);

    const out = await call('POST', '/api/v1/user/logout', { refresh_token: user['refresh_token'] }, String(user['token']));
    expect(out.status).toBe(200);
    expect(out.body).toEqual({ success: true, data: null });

    // The session is gone for the old and the refreshed token alike, and refresh no longer works.
    expect((await call('GET', '/api/v1/user/settings', undefined, String(user['token']))).status).toBe(401);
    expect((await call('GET', '/api/v1/user/settings', undefined, newToken)).status).toBe(401);
    const after = await call('POST', '/api/v1/token/refresh', refresh);
    expect(after.status).toBe(401);
    expect(after.body).toEqual({ message: 'Unauthenticated.' });
  });

  it('logout without a refresh token still ends the session, and refresh stops with it', async () => {
    const { body } = await login(demoUsers.user.username, DEMO_PASSWORD);
    const user = body.data?.user ?? {};
    expect((await call('POST', '/api/v1/user/logout', undefined, String(user['token']))).status).toBe(200);
    expect((await call('POST', '/api/v1/token/refresh', { refresh_token: user['refresh_token'], username: user['Username'] })).status).toBe(401);
  });

  it("refuses another user's refresh token and a made-up one", async () => {
    const { body } = await login(demoUsers.user.username, DEMO_PASSWORD);
    const token = body.data?.user?.['refresh_token'];
    expect((await call('POST', '/api/v1/token/refresh', { refresh_token: token, username: demoUsers.admin.username })).status).toBe(401);
    expect((await call('POST', '/api/v1/token/refresh', { refresh_token: 'made-up', username: demoUsers.user.username })).status).toBe(401);
  });

  it('ends a session after a day without "remember me", and after 30 days with it', async () => {
    const plain = (await login(demoUsers.user.username, DEMO_PASSWORD)).body.data?.user ?? {};
    const remembered = (await login(demoUsers.user.username, DEMO_PASSWORD, 0, { remember_me: true })).body.data?.user ?? {};
    const refresh = (u: Record<string, unknown>) => call('POST', '/api/v1/token/refresh', { refresh_token: u['refresh_token'], username: u['Username'] });

    advance(23 * 3600);
    expect((await refresh(plain)).status).toBe(200);
    advance(2 * 3600);
    expect((await refresh(plain)).status).toBe(401);
    expect((await call('GET', '/api/v1/user/settings', undefined, String(plain['token']))).status).toBe(401);
    expect((await refresh(remembered)).status).toBe(200);
  });

  it('logout needs a valid session', async () => {
    expect((await call('POST', '/api/v1/user/logout')).status).toBe(401);
  });
});
