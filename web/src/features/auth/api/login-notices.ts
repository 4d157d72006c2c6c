/**
 * Notices other pages hand to the login page, by navigation state `{ notice }` or `?notice=`:
 * after registration, a reset-link request and a password reset (spec section 8). A page may also
 * hand over a server message key as state `{ message }` (the alert opt-out's answer); state cannot
 * be set by a link from outside, so any known key may show.
 */
export const loginNotices = {
  registered: 'YouCanNowLogin',
  'reset-link-sent': 'PasswordResetLink',
  'password-changed': 'PasswordChanged',
} as const;
export type LoginNotice = keyof typeof loginNotices;

const field = (state: unknown, name: string): unknown =>
  typeof state === 'object' && state !== null && name in state ? (state as Record<string, unknown>)[name] : null;

/** The i18n key of the notice to show, if any. */
export function loginNoticeKey(state: unknown, search: URLSearchParams): string | null {
  const fromState = field(state, 'notice');
  const notice = typeof fromState === 'string' ? fromState : search.get('notice');
  return notice && Object.prototype.hasOwnProperty.call(loginNotices, notice) ? loginNotices[notice as LoginNotice] : null;
}

/** The notice's text in the current language: a named notice, or a known message key from state. */
export function loginNoticeText(state: unknown, search: URLSearchParams, translate: (key: string) => string, isKnown: (key: string) => boolean): string | null {
  const key = loginNoticeKey(state, search);
  if (key) return translate(key);
  const message = field(state, 'message');
  return typeof message === 'string' && isKnown(message) ? translate(message) : null;
}
