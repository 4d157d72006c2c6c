import { describe, expect, it } from 'vitest';
import {
  PENDING_LOGIN_MAX_AGE_MS,
  afterResend,
  canVerify,
  formatCountdown,
  parsePendingLogin,
  parseTrustedBrowsers,
  resendNow,
  secondsLeft,
  startPendingLogin,
  trustBrowser,
} from './two-factor-state';

const T0 = Date.UTC(2025, 2, 1, 8, 0, 0);
const challenge = { user_id: 'u-1', challenge: 'secret-challenge' };

describe('resend countdown', () => {
  it('starts at 03:00 and counts down to 00:00, where it stays', () => {
    const pending = startPendingLogin(challenge, 'Anna', true, T0);
    expect(pending).toMatchObject({ user_id: 'u-1', challenge: 'secret-challenge', username: 'Anna', remember_me: true, codeRequested: false });
    expect(formatCountdown(secondsLeft(pending, T0))).toBe('03:00');
    expect(formatCountdown(secondsLeft(pending, T0 + 1))).toBe('03:00');
    expect(formatCountdown(secondsLeft(pending, T0 + 1000))).toBe('02:59');
    expect(formatCountdown(secondsLeft(pending, T0 + 170_500))).toBe('00:10');
    expect(secondsLeft(pending, T0 + 180_000)).toBe(0);
    expect(secondsLeft(pending, T0 + 999_000)).toBe(0);
  });

  it('restarts at 00:10 after a resend', () => {
    const later = T0 + 200_000;
    const resent = afterResend(startPendingLogin(challenge, 'Anna', false, T0), later);
    expect(resent.codeRequested).toBe(true);
    expect(formatCountdown(secondsLeft(resent, later))).toBe('00:10');
    expect(formatCountdown(secondsLeft(resent, later + 9_001))).toBe('00:01');
    expect(secondsLeft(resent, later + 10_000)).toBe(0);
  });

  it('drops to 00:00 at once after a failed verification', () => {
    const pending = startPendingLogin(challenge, 'Anna', false, T0);
    expect(secondsLeft(resendNow(pending, T0 + 5_000), T0 + 5_000)).toBe(0);
    // Never moves a deadline that has already passed further into the future.
    const open = resendNow(pending, T0 + 500_000);
    expect(open.resendAt).toBe(pending.resendAt);
  });

  it('formats minutes and seconds with two digits', () => {
    expect(formatCountdown(180)).toBe('03:00');
    expect(formatCountdown(65)).toBe('01:05');
    expect(formatCountdown(9)).toBe('00:09');
    expect(formatCountdown(0)).toBe('00:00');
    expect(formatCountdown(-3)).toBe('00:00');
  });
});

describe('canVerify', () => {
  it('needs more than 5 characters', () => {
    expect(canVerify('')).toBe(false);
    expect(canVerify('12345')).toBe(false);
    expect(canVerify(' 12345 ')).toBe(false);
    expect(canVerify('123456')).toBe(true);
  });
});

describe('the persisted login in progress', () => {
  it('survives a round trip through storage (JSON), keeping its countdown', () => {
    const pending = afterResend(startPendingLogin(challenge, 'Anna', true, T0), T0 + 190_000);
    const stored = JSON.parse(JSON.stringify(pending)) as unknown;
    const restored = parsePendingLogin(stored, T0 + 195_000);
    expect(restored).toEqual(pending);
    expect(formatCountdown(secondsLeft(restored!, T0 + 195_000))).toBe('00:05');
  });

  it('is forgotten once the server challenge (30 minutes) is over, or when malformed', () => {
    const pending = startPendingLogin(challenge, 'Anna', false, T0);
    expect(parsePendingLogin(pending, T0 + PENDING_LOGIN_MAX_AGE_MS)).not.toBeNull();
    expect(parsePendingLogin(pending, T0 + PENDING_LOGIN_MAX_AGE_MS + 1)).toBeNull();
    expect(parsePendingLogin({ ...pending, challenge: '' }, T0)).toBeNull();
    expect(parsePendingLogin({ ...pending, resendAt: 'soon' }, T0)).toBeNull();
    expect(parsePendingLogin(null, T0)).toBeNull();
    expect(parsePendingLogin('pending', T0)).toBeNull();
  });

  it('never shows a countdown longer than 03:00, whatever was stored', () => {
    const pending = { ...startPendingLogin(challenge, 'Anna', false, T0), resendAt: T0 + 86_400_000 };
    expect(formatCountdown(secondsLeft(parsePendingLogin(pending, T0)!, T0))).toBe('03:00');
  });
});

describe('trusted browsers', () => {
  it('trusts the browser for 180 days under every login name, case-insensitively', () => {
    const records = trustBrowser({}, ['Anna', 'anna@example.com', ''], 'fp-1', T0);
    expect(Object.keys(records).sort()).toEqual(['anna', 'anna@example.com']);
    expect(records['anna']).toEqual({ remember: true, fingerprint: 'fp-1', expiresAt: T0 + 15_552_000_000 });
    expect(records['anna@example.com']).toEqual(records['anna']);
  });

  it('reads back only valid, unexpired records from storage', () => {
    const records = trustBrowser(trustBrowser({}, ['old'], 'fp-0', T0 - 15_552_000_000), ['anna'], 'fp-1', T0);
    const stored = JSON.parse(JSON.stringify({ ...records, broken: { remember: true }, other: 'x' })) as unknown;
    expect(Object.keys(parseTrustedBrowsers(stored, T0))).toEqual(['anna']);
    expect(parseTrustedBrowsers(null, T0)).toEqual({});
  });

  it('keeps other users when one more is trusted', () => {
    const both = trustBrowser(trustBrowser({}, ['anna'], 'fp-1', T0), ['erik'], 'fp-1', T0 + 1000);
    expect(Object.keys(parseTrustedBrowsers(both, T0 + 2000)).sort()).toEqual(['anna', 'erik']);
  });
});
