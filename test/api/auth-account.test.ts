/**
 * Black-box tests of the profile, the alert opt-out page and the brands' contact addresses
 * against the embedded runtime.
 */
import { GetCommand, ScanCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { overridePorts } from '../../functions/platform/container';
import { dynamo, tableName } from '../../functions/platform/db';
import type { UserRecord } from '../../functions/domain/user/schema';
import type { EmbeddedRuntime } from '../../infra/local/runtime';
import { brands } from '../../shared/brands';
import { apiFetch } from '../support/http';
import { startRuntime } from '../support/runtime';
import { createTestUser, type TestUser } from '../support/sessions';

let rt: EmbeddedRuntime;
let offsetMs = 0;

beforeAll(async () => {
  rt = await startRuntime();
  overridePorts({ clock: { now: () => new Date(Date.now() + offsetMs) } });
});
afterAll(async () => {
  await rt?.stop();
});
beforeEach(() => {
  offsetMs += 3601 * 1000;
});

interface Body {
  success: boolean;
  message?: string;
  data?: Record<string, unknown> | null;
  errors?: unknown;
}

async function call(method: string, path: string, body?: unknown, token?: string): Promise<{ status: number; body: Body }> {
  const res = await apiFetch(`${rt.url}${path}`, {
    method,
    headers: { ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...(token ? { authorization: `Bearer ${token}` } : {}) },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  return { status: res.status, body: (await res.json()) as Body };
}
const login = (username: string, password: string) => call('POST', '/api/v1/login', { username, password, subsiteid: 0 });
async function tokenOf(u: TestUser): Promise<string> {
  const { body } = await login(u.username, u.password);
  return String((body.data?.['user'] as Record<string, unknown>)['token']);
}
async function userRecord(userId: string): Promise<UserRecord> {
  const out = await dynamo().send(new GetCommand({ TableName: tableName('users'), Key: { userId } }));
  return out.Item as UserRecord;
}

const profileBody = { FirstName: 'Kim', LastName: 'Berg', phone: '', lang: 'sv', EnableTwoFactorAuth: false };

describe('GET and PUT /api/v1/user/profile', () => {
  it("answers the caller's own profile", async () => {
    const u = await createTestUser({ firstName: 'Ada' });
    const { status, body } = await call('GET', '/api/v1/user/profile', undefined, await tokenOf(u));
    expect(status).toBe(200);
    expect(body.data).toEqual({
      ID: u.userId,
      Username: u.username,
      Email: u.email,
      FirstName: 'Ada',
      LastName: 'User',
      phone: '',
      lang: 'en',
      EnableTwoFactorAuth: false,
      landingPage: 'default',
    });
  });

  it('updates name, language and phone (as E.164), and only for the caller', async () => {
    const u = await createTestUser();
    const other = await createTestUser({ firstName: 'Other' });
    const token = await tokenOf(u);
    const res = await call('PUT', '/api/v1/user/profile', { ...profileBody, phone: '070-123 45 67' }, token);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ ID: u.userId, FirstName: 'Kim', LastName: 'Berg', phone: '+46701234567', lang: 'sv' });
    expect((await call('GET', '/api/v1/user/profile', undefined, token)).body.data).toMatchObject({ FirstName: 'Kim', phone: '+46701234567' });
    expect((await userRecord(other.userId)).firstName).toBe('Other');

    const norwegian = await call('PUT', '/api/v1/user/profile', { ...profileBody, phone: '+47 412 34 567' }, token);
    expect(norwegian.body.data).toMatchObject({ phone: '+4741234567' });
    // The country chosen beside the number reads it; without one, the language's country does.
    const chosen = await call('PUT', '/api/v1/user/profile', { ...profileBody, phone: '0701234567', phoneCountry: 'SE' }, token);
    expect(chosen.body.data).toMatchObject({ phone: '+46701234567' });
    expect((await userRecord(u.userId)).phone).toBe('+46701234567');
    const inNorwegian = await call('PUT', '/api/v1/user/profile', { ...profileBody, lang: 'no', phone: '412 34 567' }, token);
    expect(inNorwegian.body.data).toMatchObject({ phone: '+4741234567' });
    const cleared = await call('PUT', '/api/v1/user/profile', { ...profileBody, phone: '' }, token);
    expect(cleared.body.data).toMatchObject({ phone: '' });
    expect((await userRecord(u.userId)).phone).toBeUndefined();
  });

  it('validates the phone number and the names', async () => {
    const u = await createTestUser();
    const token = await tokenOf(u);
    for (const phone of ['12345', '+46 70', 'not a number', '+999 1234567', '08-123 45 67', '070 123 45 6']) {
      const res = await call('PUT', '/api/v1/user/profile', { ...profileBody, phone }, token);
      expect(res.status, phone).toBe(422);
      expect(res.body.errors).toEqual({ phone: ['MakeSurePhoneNunIsCorrect'] });
    }
    // A Swedish number read as Norwegian is no number.
    const norway = await call('PUT', '/api/v1/user/profile', { ...profileBody, phone: '0701234567', phoneCountry: 'NO' }, token);
    expect(norway.body.errors).toEqual({ phone: ['MakeSurePhoneNunIsCorrect'] });
    const names = await call('PUT', '/api/v1/user/profile', { ...profileBody, FirstName: ' ', LastName: 'x'.repeat(51) }, token);
    expect(names.status).toBe(422);
    expect(names.body.errors).toEqual({ FirstName: ['SpecifyFirstName'], LastName: ['MaxLength50'] });
    expect((await userRecord(u.userId)).firstName).toBe('Test');
  });

  it('switches two-factor login on freely, and off only with the current password', async () => {
    const u = await createTestUser();
    const token = await tokenOf(u);
    const on = await call('PUT', '/api/v1/user/profile', { ...profileBody, EnableTwoFactorAuth: true }, token);
    expect(on.body.data).toMatchObject({ EnableTwoFactorAuth: true });
    expect((await login(u.username, u.password)).body.data).toEqual({ twoFactor: { user_id: u.userId, challenge: expect.any(String) } });

    // A stolen session alone cannot remove the second factor.
    const without = await call('PUT', '/api/v1/user/profile', { ...profileBody, EnableTwoFactorAuth: false }, token);
    expect(without.status).toBe(422);
    expect(without.body.errors).toEqual({ current_password: ['SpecifyCurrentPassword'] });
    const wrong = await call('PUT', '/api/v1/user/profile', { ...profileBody, EnableTwoFactorAuth: false, current_password: 'Wrong-pass1' }, token);
    expect(wrong.status).toBe(422);
    expect(wrong.body.errors).toEqual({ current_password: ['WrongCurrentPassword'] });
    expect((await userRecord(u.userId)).enableTwoFactorAuth).toBe(true);
    // Other changes need no password while 2FA stays on.
    expect((await call('PUT', '/api/v1/user/profile', { ...profileBody, FirstName: 'Kept', EnableTwoFactorAuth: true }, token)).status).toBe(200);

    const off = await call('PUT', '/api/v1/user/profile', { ...profileBody, EnableTwoFactorAuth: false, current_password: u.password }, token);
    expect(off.status).toBe(200);
    expect((await login(u.username, u.password)).body.data?.['user']).toBeDefined();
  });

  it('counts wrong current passwords towards the lockout', async () => {
    const u = await createTestUser();
    const token = await tokenOf(u);
    expect((await call('PUT', '/api/v1/user/profile', { ...profileBody, EnableTwoFactorAuth: true }, token)).status).toBe(200);
    for (let i = 0; i < 4; i++) {
      expect((await call('PUT', '/api/v1/user/profile', { ...profileBody, EnableTwoFactorAuth: false, current_password: 'Wrong-pass1' }, token)).status).toBe(422);
    }
    const fifth = await call('PUT', '/api/v1/user/profile', { ...profileBody, EnableTwoFactorAuth: false, current_password: 'Wrong-pass1' }, token);
    expect(fifth.status).toBe(429);
    const right = await call('PUT', '/api/v1/user/profile', { ...profileBody, EnableTwoFactorAuth: false, current_password: u.password }, token);
    expect(right.status).toBe(429);
    expect((await userRecord(u.userId)).enableTwoFactorAuth).toBe(true);
  });

  it('needs a session', async () => {
    expect((await call('GET', '/api/v1/user/profile')).status).toBe(401);
    expect((await call('PUT', '/api/v1/user/profile', profileBody)).status).toBe(401);
  });
});

describe('POST /api/v1/alert-opt-out', () => {
  const optOut = (u: TestUser, password: string, extra: Record<string, unknown> = {}) =>
    call('POST', '/api/v1/alert-opt-out', { nt_useremail: u.email, nt_password: password, remove_push: false, subsite_id: 0, ...extra });

  it('stops alerts for a user who gives the right password; push only when asked', async () => {
    const keep = await createTestUser({ pushId: 'push-keep' });
    const res = await optOut(keep, keep.password);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, data: { message: 'AlertOptOutDone' } });
    expect(await userRecord(keep.userId)).toMatchObject({ alertsOptOut: true, pushId: 'push-keep' });

    const drop = await createTestUser({ pushId: 'push-drop' });
    expect((await optOut(drop, drop.password, { remove_push: true, nt_useremail: drop.username })).status).toBe(200);
    const record = await userRecord(drop.userId);
    expect(record.alertsOptOut).toBe(true);
    expect(record.pushId).toBeUndefined();
  });

  it('checks the password like a login: counts down, blocks, changes nothing', async () => {
    const u = await createTestUser({ pushId: 'push-1' });
    const wrong = await optOut(u, 'Wrong-pass1', { remove_push: true });
    expect(wrong.status).toBe(401);
    expect(wrong.body.errors).toEqual({ msg: 'InvalidCredentials', count: 4 });
    // The same counter as the login.
    expect((await login(u.username, 'Wrong-pass1')).body.errors).toEqual({ msg: 'InvalidCredentials', count: 3 });
    for (let i = 0; i < 3; i++) await optOut(u, 'Wrong-pass1');
    expect((await optOut(u, u.password)).status).toBe(429);
    expect(await userRecord(u.userId)).toMatchObject({ pushId: 'push-1' });
    expect((await userRecord(u.userId)).alertsOptOut).toBeUndefined();
  });

  it('refuses a user of another brand', async () => {
    const u = await createTestUser({ subsiteId: 5 });
    expect((await optOut(u, u.password)).status).toBe(403);
    expect((await optOut(u, u.password, { subsite_id: 5 })).status).toBe(200);
  });

  it('starts no session and leaves no refresh token behind', async () => {
    const u = await createTestUser();
    expect((await optOut(u, u.password)).status).toBe(200);
    // A test may Scan: which items of this user exist in the tokens table?
    const out = await dynamo().send(
      new ScanCommand({ TableName: tableName('tokens'), FilterExpression: 'userId = :u', ExpressionAttributeValues: { ':u': u.userId } }),
    );
    expect((out.Items ?? []).map((i) => String(i['id']).split('#')[0])).toEqual(['identity']);
  });
});

describe('GET /api/v1/contact-addresses', () => {
  it("answers each brand's contact e-mail and phone", async () => {
    for (const brand of brands) {
      const res = await call('GET', `/api/v1/contact-addresses?SubsiteID=${brand.id}`);
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual({ email: brand.contactEmail, phonelbl: brand.contactPhone });
    }
    expect(new Set(brands.map((b) => b.contactEmail)).size).toBe(brands.length);
  });

  it('defaults to brand 0 and refuses an unknown brand', async () => {
    expect((await call('GET', '/api/v1/contact-addresses')).body.data).toEqual({ email: brands[0]?.contactEmail, phonelbl: brands[0]?.contactPhone });
    const bad = await call('GET', '/api/v1/contact-addresses?SubsiteID=9');
    expect(bad.status).toBe(422);
    expect(bad.body.errors).toEqual({ SubsiteID: ['InvalidSubsite'] });
  });
});
