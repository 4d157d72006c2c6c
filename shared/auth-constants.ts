/**
 * Login constants (spec section 9), without zod: the login route imports them and
 * must stay within its size budget. shared/schemas/auth.ts re-exports them beside its schemas.
 */

/** Two-factor code by e-mail: 6 digits, valid 10 minutes, at most 5 tries. */
export const TWO_FACTOR_CODE_LENGTH = 6;
/** The code screen enables Verify when the code has more than this many characters (spec section 4). */
export const TWO_FACTOR_MIN_INPUT = 5;
export const TWO_FACTOR_CODE_SECONDS = 600;
export const TWO_FACTOR_MAX_TRIES = 5;
/** Resend countdown: 03:00 after the first code, 00:10 after a resend (spec section 9). */
export const TWO_FACTOR_FIRST_COUNTDOWN_SECONDS = 180;
export const TWO_FACTOR_RESEND_COUNTDOWN_SECONDS = 10;
/** A trusted browser skips the code for 180 days (15552000 s, spec section 9). */
export const TRUSTED_BROWSER_SECONDS = 15_552_000;

/** A password reset link is valid 1 hour and works once. */
export const RESET_LINK_SECONDS = 3600;
/** The query parameter of the reset link: `/user/reset-password?_c=<code>`. */
export const RESET_CODE_PARAM = '_c';
