/**
 * The API client's token renewal against the real embedded runtime (login, refresh and log-out
 * handlers, DynamoDB Local): a 401 renews the token once and retries, concurrent calls share one
 * renewal, and a refresh token that no longer works falls back to the 'Unauthenticated.' path.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { DEMO_PASSWORD, demoUsers } from '../../../infra/local/seed';
import type { SessionUser } from '../../../shared/schemas/auth';
import { startRuntime } from '../../../test/support/runtime';
import { logout } from '../features/auth/api/session-calls';
import { ApiError, apiRequest, configureApiClient, REFRESH_PATH } from './api-client';
import { asSessionUser, endSession, getSessionUser, startSession } from './session';

type App = Awaited<ReturnType<typeof startRuntime>>;
let app: App;
const realFetch = globalThis.fetch;
/** Every request the client made, as "METHOD path". */
let calls: string[] = [];
const unauthenticated = vi.fn(() => endSession());

beforeAll(async () => {
  app = await startRuntime();
  // The client calls relative paths, as in the browser: send them to the runtime.
  vi.stubGlobal('fetch', (input: string, init?: RequestInit) => {
    calls.push(`${init?.method ?? 'GET'} ${input}`);
    return realFetch(new URL(input, app.url), init);
  });
  configureApiClient({ onUnauthenticated: unauthenticated, onSafeHomeUnauthorized: () => {} });
});

afterAll(async () => {
  vi.unstubAllGlobals();
  await app?.stop();
});

afterEach(() => {
  calls = [];
  unauthenticated.mockClear();
  endSession();
});

async function logIn(role: 'admin' | 'user' = 'admin'): Promise<SessionUser> {
  const response = await realFetch(`${app.url}/api/v1/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: demoUsers[role].username, password: DEMO_PASSWORD, subsiteid: 0, remember_me: false }),
  });
  const body = (await response.json()) as { data: { user: unknown } };
  const user = asSessionUser(body.data.user);
  if (!user?.refresh_token || !user.Username) throw new Error(`login answered no refresh token: ${JSON.stringify(body)}`);
  return user;
}

const refreshCalls = () => calls.filter((c) => c === `POST ${REFRESH_PATH}`).length;
const settingsCalls = () => calls.filter((c) => c === 'GET /api/v1/user/settings').length;

describe('apiRequest token renewal', () => {
  it('renews a token the server refuses, stores it and retries the call once', async () => {
    const user = await logIn();
    await startSession({ ...user, token: 'expired-access-token' });

    const settings = await apiRequest<{ is_admin: boolean }>('GET', '/api/v1/user/settings');

    expect(settings.is_admin).toBe(true);
    expect(refreshCalls()).toBe(1);
    expect(settingsCalls()).toBe(2);
    const renewed = getSessionUser();
    expect(renewed?.token).not.toBe('expired-access-token');
    expect(renewed?.refresh_token).toBeTruthy();
    expect(renewed?.ID).toBe(user.ID);
    // The stored token works on its own: no further renewal.
    calls = [];
    await apiRequest('GET', '/api/v1/user/settings');
    expect(calls).toEqual(['GET /api/v1/user/settings']);
    expect(unauthenticated).not.toHaveBeenCalled();
  });

  it('renews once for concurrent calls that all meet a 401 (single flight)', async () => {
    const user = await logIn('user');
    await startSession({ ...user, token: 'expired-access-token' });

    const answers = await Promise.all([1, 2, 3, 4].map(() => apiRequest<{ is_admin: boolean }>('GET', '/api/v1/user/settings')));

    expect(answers.map((a) => a.is_admin)).toEqual([false, false, false, false]);
    expect(refreshCalls()).toBe(1);
    expect(settingsCalls()).toBe(8);
    expect(unauthenticated).not.toHaveBeenCalled();
  });

  it("falls back to 'Unauthenticated.' when the refresh token no longer works", async () => {
    const user = await logIn();
    await startSession({ ...user, token: 'expired-access-token', refresh_token: 'revoked-refresh-token' });

    const error = await apiRequest('GET', '/api/v1/user/settings').catch((e: unknown) => e);

    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(401);
    expect(refreshCalls()).toBe(1);
    expect(settingsCalls()).toBe(1);
    expect(unauthenticated).toHaveBeenCalledTimes(1);
    expect(getSessionUser()).toBeNull();
  });

  it('does not try to renew without a session (a wrong password is not an expired token)', async () => {
    const error = await apiRequest('POST', '/api/v1/login', {
      body: { username: demoUsers.user.username, password: 'wrong-password', subsiteid: 0, remember_me: false },
    }).catch((e: unknown) => e);
    expect((error as ApiError).status).toBe(401);
    expect(refreshCalls()).toBe(0);
    expect(unauthenticated).not.toHaveBeenCalled();
  });

  it('log-out revokes the refresh token: it renews nothing afterwards', async () => {
    const user = await logIn();
    await startSession(user);
    await logout();
    expect(calls).toEqual(['POST /api/v1/user/logout']);
    expect(getSessionUser()).toBeNull();

    const refresh = await realFetch(`${app.url}${REFRESH_PATH}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ refresh_token: user.refresh_token, username: user.Username }),
    });
    expect(refresh.status).toBe(401);
  });

  it('a 401 that arrives after a log-out and a new login leaves the new session alone', async () => {
    const old = await logIn();
    await startSession({ ...old, token: 'expired-access-token', refresh_token: 'revoked-refresh-token' });
    // A call of the old session is on its way; its answer is held until the next login is in.
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    vi.stubGlobal('fetch', async (input: string, init?: RequestInit) => {
      calls.push(`${init?.method ?? 'GET'} ${input}`);
      const response = await realFetch(new URL(input, app.url), init);
      if (input === REFRESH_PATH) await held;
      return response;
    });
    const late = apiRequest('GET', '/api/v1/user/settings').catch((e: unknown) => e);
    await vi.waitFor(() => expect(refreshCalls()).toBe(1));
    endSession();
    const next = await logIn('user');
    await startSession(next);
    release();

    const error = await late;
    expect((error as ApiError).status).toBe(401);
    expect(unauthenticated).not.toHaveBeenCalled();
    expect(getSessionUser()?.token).toBe(next.token);
    vi.stubGlobal('fetch', (input: string, init?: RequestInit) => {
      calls.push(`${init?.method ?? 'GET'} ${input}`);
      return realFetch(new URL(input, app.url), init);
    });
  });
});
