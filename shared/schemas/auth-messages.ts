/**
 * Every message key the accounts routes (login, 2FA, token refresh, logout, password, profile,
 * forgot/reset password, alert opt-out, contact addresses) can answer with, as `message`, as
 * `errors` (a key, or `{ msg, count }`), or in 422 field lists. The browser must have a text for
 * each; a test checks it.
 *
 * Keys with a count (`errors: { msg, count }`): InvalidCredentials (login attempts left before the
 * one-hour block) and InvalidCodeTriesLeft (tries left for the current 2FA code; 0 means a new
 * code is needed).
 */
export const authMessageKeys = [
  // Login and the alert opt-out page (same password check)
  'SpecifyUsername',
  'SpecifyPassword',
  'InvalidCredentials',
  'TooManyAttempts',
  'InvalidAccess',
  'AlertOptOutDone',
  // Rate limits on login, 2FA and forgot-password per client or address (429)
  'TooManyRequests',
  // Two-factor login
  'SpecifyCode',
  'InvalidCode',
  'InvalidCodeTriesLeft',
  'CodeExpired',
  'InvalidEmail2FA',
  /** The challenge is unknown, expired, used, or another user's: start again from the password. */
  'LoginAgain',
  // Forgot and reset password
  'GetPasswordResetLink',
  'EnterValidEmail',
  'EmailDoesNotExist',
  'PasswordResetLink',
  'InvalidResetCode',
  'ResetCodeExpired',
  'PasswordChanged',
  // Passwords
  'SpecifyNewPassword',
  'PasswordMustInclude',
  'PasswordNotMatch',
  'UserNotFound',
  'User updated successfully.',
  // Profile
  'SpecifyFirstName',
  'SpecifyLastName',
  'MaxLength50',
  'MakeSurePhoneNunIsCorrect',
  'AccountNotFound',
  // Generic answers of the middleware on these routes
  'Unauthenticated.',
  'ValidationFailed',
  'FieldRequired',
  'InvalidType',
  'TooLong',
  'InvalidValue',
  'InvalidSubsite',
  'InvalidJson',
  'UnsupportedContentType',
  'InvalidTimeZone',
  'SomethingWentWrong',
] as const;

export type AuthMessageKey = (typeof authMessageKeys)[number];
