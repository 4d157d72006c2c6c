/**
 * Black-box tests of the rate limits on login, 2FA and forgot-password, per address and per client
 * (every request here comes from 127.0.0.1; functions/auth/post-login.test.ts shows that other
 * clients are not affected).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { overridePorts } from '../../functions/platform/container';
import type { EmbeddedRuntime } from '../../infra/local/runtime';
import { DEMO_PASSWORD, demoUsers } from '../../infra/local/seed';
import { apiFetch } from '../support/http';
import { startRuntime } from '../support/runtime';
import { createTestUser } from '../support/sessions';

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
// Each test starts at the beginning of a fresh hour, so no window ends in the middle of one.
beforeEach(() => {
  const now = Date.now() + offsetMs;
  offsetMs += 3600_000 - (now % 3600_000) + 1000;
});

async function post(path: string, body: unknown): Promise<{ status: number; body: { message?: string; errors?: unknown }; retryAfter: number }> {
  const res = await apiFetch(`${rt.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: res.status, body: (await res.json()) as { errors?: unknown }, retryAfter: Number(res.headers.get('retry-after')) };
}

describe('rate limits', () => {
  it('login: 30 attempts per client in 10 minutes, whatever the names', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 30; i++) statuses.push((await post('/api/v1/login', { username: `nobody-${i}`, password: 'Wrong-pass1', subsiteid: 0 })).status);
    expect(statuses).toEqual(Array(30).fill(401));

    const limited = await post('/api/v1/login', { username: demoUsers.admin.username, password: DEMO_PASSWORD, subsiteid: 0 });
    expect(limited.status).toBe(429);
    expect(limited.body).toMatchObject({ message: 'TooManyRequests', errors: 'TooManyRequests' });
    expect(limited.retryAfter).toBeGreaterThan(0);
    expect(limited.retryAfter).toBeLessThanOrEqual(600);

    advance(600);
    expect((await post('/api/v1/login', { username: demoUsers.admin.username, password: DEMO_PASSWORD, subsiteid: 0 })).status).toBe(200);
  });

  it('forgot-password: 3 e-mails per address an hour', async () => {
    const u = await createTestUser();
    const other = await createTestUser();
    const ask = (email: string) => post('/api/v1/forgot-password', { email_address: email, lang: 'en' });
    for (let i = 0; i < 3; i++) expect((await ask(u.email)).status).toBe(200);
    const fourth = await ask(u.email.toUpperCase());
    expect(fourth.status).toBe(429);
    expect(fourth.body.errors).toBe('TooManyRequests');
    expect(fourth.retryAfter).toBeLessThanOrEqual(3600);
    // The client itself is not yet limited: another address still works.
    expect((await ask(other.email)).status).toBe(200);

    const sent = await apiFetch(`${rt.url}/api/dev/outbox?to=${encodeURIComponent(u.email)}&kind=email`);
    expect(((await sent.json()) as { data: unknown[] }).data).toHaveLength(3);
  });

  it('forgot-password: 10 lookups per client an hour, so addresses cannot be tried in bulk', async () => {
    const u = await createTestUser();
    const statuses: number[] = [];
    for (let i = 0; i < 10; i++) statuses.push((await post('/api/v1/forgot-password', { email_address: `guess-${i}@example.se` })).status);
    expect(statuses).toEqual(Array(10).fill(422));
    const limited = await post('/api/v1/forgot-password', { email_address: u.email });
    expect(limited.status).toBe(429);
    advance(3600);
    expect((await post('/api/v1/forgot-password', { email_address: u.email })).status).toBe(200);
  });

  it('2FA: 30 calls per client in 10 minutes', async () => {
    const statuses: number[] = [];
    const body = { user_id: 'someone', challenge: 'made-up', code: '123456' };
    for (let i = 0; i < 30; i++) statuses.push((await post('/api/v1/2fa/verify', body)).status);
    expect(statuses).toEqual(Array(30).fill(403));
    expect((await post('/api/v1/2fa/verify', body)).status).toBe(429);
    expect((await post('/api/v1/2fa/generate', body)).status).toBe(403);
  });
});
