/**
 * The code screen's calls (docs/api.md: POST /api/v1/2fa/generate and /api/v1/2fa/verify) and the
 * records it keeps in the browser session (the login in progress and the trusted browsers).
 */
import type { Language } from '../../../../../shared/schemas/common';
import type { SessionUser } from '../../../../../shared/schemas/auth';
import { apiRequest, type ResponseSchema } from '../../../app/api-client';
import { asSessionUser, clearLoginInProgress, getLoginInProgress, readSessionRecord, saveLoginInProgress, writeSessionRecord } from '../../../app/session';
import { deviceFingerprint } from './fingerprint';
import { parsePendingLogin, parseTrustedBrowsers, trustBrowser, type PendingLogin } from './two-factor-state';

export const GENERATE_CODE_PATH = '/api/v1/2fa/generate';
export const VERIFY_CODE_PATH = '/api/v1/2fa/verify';

/** E-mails a new code for the challenge. */
export async function requestCode(pending: PendingLogin, lang: Language): Promise<void> {
  await apiRequest('POST', GENERATE_CODE_PATH, { body: { lang, user_id: pending.user_id, challenge: pending.challenge } });
}

const userAnswer: ResponseSchema<SessionUser> = {
  safeParse(data: unknown) {
    const user = asSessionUser(typeof data === 'object' && data !== null && 'user' in data ? data.user : null);
    return user ? { success: true, data: user } : { success: false, error: { issues: ['no data.user with a token'] } };
  },
};

/**
 * Checks the code. With "trust this browser" the server answers a trust token and sets it as the
 * HttpOnly `trusted_browser` cookie, which later logins carry by themselves; the token is not kept
 * in script-readable storage. The fingerprint only feeds this browser's own record (spec section 3).
 */
export async function verifyCode(pending: PendingLogin, code: string, trustBrowserChoice: boolean): Promise<{ user: SessionUser; fingerprint: string | undefined }> {
  const fingerprint = trustBrowserChoice ? await deviceFingerprint() : undefined;
  const body = {
    code: code.trim(),
    user_id: pending.user_id,
    challenge: pending.challenge,
    trust_browser: trustBrowserChoice,
  };
  const user = await apiRequest('POST', VERIFY_CODE_PATH, { body, schema: userAnswer });
  return { user, fingerprint };
}

export function currentPendingLogin(now = Date.now()): PendingLogin | null {
  return parsePendingLogin(getLoginInProgress(), now);
}

export function savePendingLogin(pending: PendingLogin): Promise<void> {
  return saveLoginInProgress(pending);
}

export function cancelPendingLogin(): void {
  clearLoginInProgress();
}

/** Remembers this browser as trusted under the typed name, the username and the e-mail. */
export async function rememberTrustedBrowser(names: readonly string[], fingerprint: string, now = Date.now()): Promise<void> {
  const records = parseTrustedBrowsers(await readSessionRecord('first-login'), now);
  await writeSessionRecord('first-login', trustBrowser(records, names, fingerprint, now));
}
