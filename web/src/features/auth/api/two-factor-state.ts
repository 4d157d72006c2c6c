/**
 * The state of a two-factor login, as pure functions over plain records (spec sections 3, 4, 9):
 *
 * - the login in progress (the temporary session record): the challenge and when Resend opens,
 *   so a reload keeps the code screen and its countdown;
 * - the trusted-browser records (the first-login session record): per login name the remember
 *   flag, the device fingerprint and the expiry, 180 days after the code was verified.
 *
 * Written without zod: the code screen is part of the login route and its 150 kB budget.
 */
import type { TwoFactorChallenge } from '../../../../../shared/schemas/auth';

import {
  TWO_FACTOR_FIRST_COUNTDOWN_SECONDS as FIRST_COUNTDOWN_SECONDS,
  TWO_FACTOR_MIN_INPUT as MIN_CODE_INPUT,
  TWO_FACTOR_RESEND_COUNTDOWN_SECONDS as RESEND_COUNTDOWN_SECONDS,
  TRUSTED_BROWSER_SECONDS as TRUSTED_SECONDS,
} from '../../../../../shared/auth-constants';

export { FIRST_COUNTDOWN_SECONDS, MIN_CODE_INPUT, RESEND_COUNTDOWN_SECONDS, TRUSTED_SECONDS };

export interface PendingLogin {
  /** The login name as typed: the trusted-browser record is kept under it. */
  username: string;
  user_id: string;
  challenge: string;
  remember_me: boolean;
  /** Epoch ms when Resend opens (the countdown reaches 00:00). */
  resendAt: number;
  /** Whether the first code was asked for (a reload must not send another one). */
  codeRequested: boolean;
  /** Epoch ms the challenge was issued. */
  startedAt: number;
}

/** A login left waiting longer than this is forgotten: the server's challenge lasts 30 minutes. */
export const PENDING_LOGIN_MAX_AGE_MS = 30 * 60 * 1000;

/** A new login in progress: the countdown starts at 03:00. */
export function startPendingLogin(challenge: TwoFactorChallenge, username: string, rememberMe: boolean, now: number): PendingLogin {
  return {
    username,
    user_id: challenge.user_id,
    challenge: challenge.challenge,
    remember_me: rememberMe,
    resendAt: now + FIRST_COUNTDOWN_SECONDS * 1000,
    codeRequested: false,
    startedAt: now,
  };
}

/** A resent code: the countdown restarts at 00:10. */
export function afterResend(pending: PendingLogin, now: number): PendingLogin {
  return { ...pending, codeRequested: true, resendAt: now + RESEND_COUNTDOWN_SECONDS * 1000 };
}

/** A failed verification (or a code that could not be sent): Resend opens at once. */
export function resendNow(pending: PendingLogin, now: number): PendingLogin {
  return { ...pending, resendAt: Math.min(pending.resendAt, now) };
}

/** Whole seconds until Resend opens, never below 0. */
export function secondsLeft(pending: Pick<PendingLogin, 'resendAt'>, now: number): number {
  return Math.max(0, Math.ceil((pending.resendAt - now) / 1000));
}

/** 180 → "03:00", 9 → "00:09". */
export function formatCountdown(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  return `${String(Math.floor(s / 60)).padStart(2, '0')}:${String(s % 60).padStart(2, '0')}`;
}

/** Verify is enabled only when the code has more than 5 characters (spec section 4). */
export function canVerify(code: string): boolean {
  return code.trim().length > MIN_CODE_INPUT;
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const isText = (value: unknown): value is string => typeof value === 'string' && value !== '';
const isTime = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);

/** A stored login in progress, or null when it is malformed or too old to continue. */
export function parsePendingLogin(value: unknown, now: number): PendingLogin | null {
  if (!isRecord(value)) return null;
  const { username, user_id, challenge, remember_me, resendAt, codeRequested, startedAt } = value;
  if (!isText(username) || !isText(user_id) || !isText(challenge) || !isTime(resendAt) || !isTime(startedAt)) return null;
  if (now - startedAt > PENDING_LOGIN_MAX_AGE_MS || startedAt > now + 60_000) return null;
  // A countdown further away than its longest length was not written by us: clamp it.
  const latest = now + FIRST_COUNTDOWN_SECONDS * 1000;
  return {
    username,
    user_id,
    challenge,
    remember_me: remember_me === true,
    resendAt: Math.min(resendAt, latest),
    codeRequested: codeRequested === true,
    startedAt,
  };
}

// Trusted browsers

export interface TrustedBrowser {
  remember: boolean;
  fingerprint: string;
  /** Epoch ms. */
  expiresAt: number;
}
export type TrustedBrowsers = Readonly<Record<string, TrustedBrowser>>;

/** Login names are matched as the server matches them: trimmed, case-insensitive. */
export function loginNameKey(name: string): string {
  return name.trim().toLowerCase();
}

/** The stored records still valid at `now`; malformed or expired ones are dropped. */
export function parseTrustedBrowsers(value: unknown, now: number): TrustedBrowsers {
  const out: Record<string, TrustedBrowser> = {};
  if (!isRecord(value)) return out;
  for (const [name, entry] of Object.entries(value)) {
    if (!isRecord(entry)) continue;
    const { remember, fingerprint, expiresAt } = entry;
    if (remember === true && isText(fingerprint) && isTime(expiresAt) && expiresAt > now) out[name] = { remember, fingerprint, expiresAt };
  }
  return out;
}

/** Trusts this browser for 180 days under every name the user may log in with (username, e-mail). */
export function trustBrowser(records: TrustedBrowsers, names: readonly string[], fingerprint: string, now: number): TrustedBrowsers {
  const entry: TrustedBrowser = { remember: true, fingerprint, expiresAt: now + TRUSTED_SECONDS * 1000 };
  const out: Record<string, TrustedBrowser> = { ...records };
  for (const name of names) if (loginNameKey(name)) out[loginNameKey(name)] = entry;
  return out;
}
