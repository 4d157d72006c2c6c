/**
 * Notices other pages hand to the login page, by navigation state `{ notice }` or `?notice=`:
 * after registration, a reset-link request and a password reset (spec section 8).
 */
export const loginNotices = {
  registered: 'YouCanNowLogin',
  'reset-link-sent': 'PasswordResetLink',
  'password-changed': 'PasswordChanged',
} as const;
export type LoginNotice = keyof typeof loginNotices;

/** The i18n key of the notice to show, if any. */
export function loginNoticeKey(state: unknown, search: URLSearchParams): string | null {
  const fromState = typeof state === 'object' && state !== null && 'notice' in state ? state.notice : null;
  const notice = typeof fromState === 'string' ? fromState : search.get('notice');
  return notice && Object.prototype.hasOwnProperty.call(loginNotices, notice) ? loginNotices[notice as LoginNotice] : null;
}
