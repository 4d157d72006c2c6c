import { afterEach, describe, expect, it, vi } from 'vitest';
import { apiRequest, browserTimeZone, describeError, requestHeaders, type Translate } from './api-client';
import { attachmentName } from './api-download';

const texts: Record<string, string> = {
  InvalidCredentials: 'Wrong, {{count}} left',
  TooManyAttempts: 'Too many',
  NotFound: 'Not found',
  SpecifyUsername: 'Give a username',
  TooShort: 'Too short',
  FieldRequired: 'Required',
  SomethingWentWrong: 'Oops',
  'Unauthenticated.': 'Log in again',
  Forbidden: 'Forbidden',
};
const translate: Translate = (key, vars) =>
  (texts[key] ?? `?${key}`).replace(/\{\{(\w+)\}\}/g, (_, name: string) => String(vars?.[name] ?? ''));

describe('requestHeaders', () => {
  it('sends the bearer token, JSON accept, time zone and the web marker', () => {
    expect(requestHeaders('abc', 'Europe/Oslo', true)).toEqual({
      Accept: 'application/json',
      TimeZone: 'Europe/Oslo',
      'X-Request-Type': 'web',
      Authorization: 'Bearer abc',
      'Content-Type': 'application/json',
    });
  });
  it('leaves out Authorization without a session and Content-Type without a body', () => {
    const headers = requestHeaders(null, 'UTC', false);
    expect(headers).not.toHaveProperty('Authorization');
    expect(headers).not.toHaveProperty('Content-Type');
  });
});

describe('browserTimeZone', () => {
  afterEach(() => vi.restoreAllMocks());

  it('asks the browser once a minute at most', () => {
    const resolved = vi.spyOn(Intl.DateTimeFormat.prototype, 'resolvedOptions');
    const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    resolved.mockClear();
    const start = 5_000_000_000;
    expect(browserTimeZone(start)).toBe(zone);
    expect(browserTimeZone(start + 59_999)).toBe(zone);
    expect(resolved).toHaveBeenCalledTimes(1);
    expect(browserTimeZone(start + 60_000)).toBe(zone);
    expect(resolved).toHaveBeenCalledTimes(2);
    // A clock set back asks again.
    expect(browserTimeZone(start)).toBe(zone);
    expect(resolved).toHaveBeenCalledTimes(3);
  });
});

describe('describeError', () => {
  it('joins the first message of each field of a 422', () => {
    const body = { success: false, message: 'ValidationFailed', errors: { username: ['SpecifyUsername', 'TooShort'], password: ['FieldRequired'] } };
    const result = describeError(422, body, translate);
    expect(result.text).toBe('Give a username Required');
    expect(result.key).toBe('ValidationFailed');
    expect(result.fieldErrors).toEqual({ username: ['SpecifyUsername', 'TooShort'], password: ['FieldRequired'] });
  });
  it('substitutes the attempts left of a failed login', () => {
    const result = describeError(401, { success: false, message: 'InvalidCredentials', errors: { msg: 'InvalidCredentials', count: 3 } }, translate);
    expect(result).toMatchObject({ key: 'InvalidCredentials', text: 'Wrong, 3 left' });
  });
  it('translates an errors key string', () => {
    expect(describeError(429, { success: false, message: 'TooManyAttempts', errors: 'TooManyAttempts' }, translate).text).toBe('Too many');
    expect(describeError(404, { success: false, message: 'NotFound', errors: 'NotFound' }, translate).text).toBe('Not found');
  });
  it('falls back on the status for keys without a text', () => {
    const known = (key: string) => key in texts;
    expect(describeError(404, { message: 'Not Found' }, translate, known)).toMatchObject({ key: 'NotFound', text: 'Not found' });
    expect(describeError(500, { errors: 'NoSuchKey' }, translate, known).text).toBe('Oops');
  });
  it('falls back on message, then on the status', () => {
    expect(describeError(401, { message: 'Unauthenticated.' }, translate).text).toBe('Log in again');
    expect(describeError(403, null, translate).text).toBe('Forbidden');
    expect(describeError(502, '<html>Bad gateway</html>', translate).text).toBe('Oops');
  });
});

describe('apiRequest success messages', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('hands the message key of a success answer to onMessage and returns the data', async () => {
    const answer = (body: unknown) => new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });
    const keys: string[] = [];
    vi.stubGlobal('fetch', () => Promise.resolve(answer({ success: true, data: [1, 2], message: 'PositionsTruncated' })));
    expect(await apiRequest('GET', '/api/v1/x', { onMessage: (key) => keys.push(key) })).toEqual([1, 2]);
    vi.stubGlobal('fetch', () => Promise.resolve(answer({ success: true, data: [3] })));
    expect(await apiRequest('GET', '/api/v1/x', { onMessage: (key) => keys.push(key) })).toEqual([3]);
    expect(keys).toEqual(['PositionsTruncated']);
  });
});

describe('apiRequest error texts', () => {
  afterEach(() => vi.unstubAllGlobals());

  it("loads the text of a key owned by a feature the page has not loaded, with the answer's locker", async () => {
    vi.stubGlobal('document', { documentElement: { lang: '' } });
    const { initI18n, i18n } = await import('../i18n/i18n');
    await initI18n('sv');
    // The trip log's page loaded the trip texts only; the lock text lives with the unit lock.
    expect(i18n.exists('TrackerIsLocked')).toBe(false);
    const body = { success: false, message: 'TrackerIsLocked', errors: { msg: 'TrackerIsLocked', lockedBy: 'Erik Lind' } };
    vi.stubGlobal('fetch', () => Promise.resolve(new Response(JSON.stringify(body), { status: 423, headers: { 'content-type': 'application/json' } })));
    const error = await apiRequest('GET', '/api/v1/user/trips').catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 423, key: 'TrackerIsLocked', message: 'Enheten är låst av Erik Lind. Bara hen och supporten kan se var den är.' });
  });
});

describe('attachmentName', () => {
  it("reads a download's name, the encoded one first", () => {
    expect(attachmentName('attachment; filename="summary-2026-10-01-2026-10-31.csv"')).toBe('summary-2026-10-01-2026-10-31.csv');
    expect(attachmentName(`attachment; filename="k.csv"; filename*=UTF-8''k%C3%B6rjournal.csv`)).toBe('körjournal.csv');
    expect(attachmentName('attachment; filename=plain.pdf')).toBe('plain.pdf');
    expect(attachmentName('inline')).toBeNull();
    expect(attachmentName(null)).toBeNull();
  });
});
