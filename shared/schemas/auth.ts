/**
 * Login and session payloads. The server (the accounts issue) validates POST /api/v1/login with
 * loginRequestSchema; the browser's login form applies the same rules as loginSchema (see
 * web/src/features/auth/api/login-validation.ts, which a unit test keeps in step with it).
 */
import { z } from 'zod';
import { defaultPhoneCountry, INVALID_PHONE, PHONE_INPUT_MAX, phoneError } from '../validators/phone-rule';
import { landingPageSchema } from './fleet-overview';
import { languageSchema, subsiteIdSchema, type Language } from './common';

const id = z.union([z.string(), z.number()]).transform(String);

/** The login form: what the user types. Messages are i18n keys (spec section 5). */
export const loginSchema = z.object({
  username: z.string().trim().min(1, 'SpecifyUsername'),
  password: z.string().min(1, 'SpecifyPassword'),
  remember_me: z.boolean(),
});
export type LoginForm = z.infer<typeof loginSchema>;

/** Body of `POST /api/v1/login` (docs/api.md). */
export const loginRequestSchema = z.object({
  username: z.string('SpecifyUsername').trim().min(1, 'SpecifyUsername').max(320, 'TooLong'),
  password: z.string('SpecifyPassword').min(1, 'SpecifyPassword').max(256, 'TooLong'),
  subsiteid: subsiteIdSchema,
  remember_me: z.boolean().default(false),
  /** Accepted for older clients and ignored: a fingerprint is computable by any page, so it never skips the code. */
  fingerprint: z.string().max(128, 'TooLong').optional(),
  /** The secret `data.trustToken` of an earlier verify with trust_browser (browsers send the `trusted_browser` cookie instead). */
  trust_token: z.string().max(256, 'TooLong').optional(),
});
export type LoginRequest = z.infer<typeof loginRequestSchema>;

/**
 * The user the browser keeps in its session (spec section 3: ID, ParentID, FirstName, last name,
 * username/e-mail, admin flag, token, subsite id...). Only what the shell needs is required; fields
 * the accounts issue adds are kept as they come.
 */
export const sessionUserSchema = z.looseObject({
  ID: id,
  ParentID: id.nullable().optional(),
  FirstName: z.string().default(''),
  LastName: z.string().default(''),
  Email: z.string().default(''),
  token: z.string().min(1),
  /** Exchanged at POST /api/v1/token/refresh for a new token while the login session lasts. */
  refresh_token: z.string().optional(),
  /** The login name (refresh needs it). */
  Username: z.string().optional(),
  /** Seconds until `token` expires (refresh before then). */
  expires_in: z.number().int().optional(),
  lang: languageSchema.optional(),
  subsiteID: z.number().int().optional(),
  isAdmin: z.boolean().optional(),
  EnableTwoFactorAuth: z.boolean().optional(),
});
export type SessionUser = z.infer<typeof sessionUserSchema>;

/** A login that needs a second factor: the code screen continues with this challenge. */
export const twoFactorChallengeSchema = z.object({ user_id: id, challenge: z.string() });
export type TwoFactorChallenge = z.infer<typeof twoFactorChallengeSchema>;

/** `data` of a successful `POST /api/v1/login`: a user, or a 2FA challenge. */
export const loginResponseSchema = z.union([
  z.object({ user: sessionUserSchema }),
  z.object({ twoFactor: twoFactorChallengeSchema }),
]);
export type LoginResponse = z.infer<typeof loginResponseSchema>;

/** Login failure bodies: `errors` is a key, or `{ msg, count }` for wrong credentials (count = attempts left). */
export const loginErrorsSchema = z.union([z.string(), z.object({ msg: z.string(), count: z.number().int().optional() })]);

// Passwords: at least 8 characters with an upper-case letter, a digit and a special character

export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 128;

/** The password rule, without zod (the login route's forms use it directly). */
export function isStrongPassword(password: string): boolean {
  return (
    password.length >= PASSWORD_MIN_LENGTH &&
    password.length <= PASSWORD_MAX_LENGTH &&
    /\p{Lu}/u.test(password) &&
    /\p{Nd}/u.test(password) &&
    /[^\p{L}\p{Nd}\s]/u.test(password)
  );
}

/** A password being set: empty gives SpecifyNewPassword, a weak one PasswordMustInclude. */
export const newPasswordSchema = z
  .string('SpecifyNewPassword')
  .min(1, { message: 'SpecifyNewPassword', abort: true })
  .refine(isStrongPassword, 'PasswordMustInclude');

/** The caller's current password, asked before a password change or turning 2FA off. */
export const currentPasswordSchema = z.string('SpecifyCurrentPassword').min(1, 'SpecifyCurrentPassword').max(256, 'TooLong');

/** Body of `POST /api/v1/user/password` (the set-new-password modal). */
export const changePasswordRequestSchema = z.object({
  userId: z.string().min(1, 'FieldRequired'),
  email: z.string(),
  password: newPasswordSchema,
  current_password: currentPasswordSchema,
});
export type ChangePasswordRequest = z.infer<typeof changePasswordRequestSchema>;

/**
 * `data` of a password change: every other session has ended and the caller continues in a new
 * one, with these tokens in place of the old.
 */
export const changePasswordResponseSchema = z.object({
  token: z.string(),
  refresh_token: z.string(),
  expires_in: z.number().int(),
});
export type ChangePasswordResponse = z.infer<typeof changePasswordResponseSchema>;

// Session tokens

/** Body of `POST /api/v1/token/refresh`: a new access token while the login session lasts. */
export const refreshRequestSchema = z.object({
  refresh_token: z.string().min(1, 'FieldRequired').max(4096, 'TooLong'),
  username: z.string().min(1, 'FieldRequired').max(320, 'TooLong'),
});
export const refreshResponseSchema = z.object({
  token: z.string(),
  expires_in: z.number().int(),
  /** Only when the identity provider rotated the refresh token: keep this one from now on. */
  refresh_token: z.string().optional(),
});

/** Body of `POST /api/v1/user/logout`: the refresh token to revoke, when the browser has one. */
export const logoutRequestSchema = z.object({ refresh_token: z.string().max(4096, 'TooLong').optional() });

// Two-factor login by e-mail (docs/api.md: 6 digits, valid 10 minutes, 5 tries, single use)

export {
  TRUSTED_BROWSER_SECONDS,
  TWO_FACTOR_CODE_LENGTH,
  TWO_FACTOR_CODE_SECONDS,
  TWO_FACTOR_FIRST_COUNTDOWN_SECONDS,
  TWO_FACTOR_MAX_TRIES,
  TWO_FACTOR_MIN_INPUT,
  TWO_FACTOR_RESEND_COUNTDOWN_SECONDS,
} from '../auth-constants';

const challengeField = z.string('FieldRequired').min(1, 'FieldRequired').max(256, 'TooLong');

export const twoFactorGenerateRequestSchema = z.object({
  lang: languageSchema.default('en'),
  user_id: id,
  challenge: challengeField,
});

export const twoFactorVerifyRequestSchema = z.object({
  code: z.string('SpecifyCode').trim().min(1, 'SpecifyCode').max(32, 'InvalidCode'),
  user_id: id,
  challenge: challengeField,
  trust_browser: z.boolean().default(false),
  fingerprint: z.string().max(128, 'TooLong').optional(),
});

/** `data` of a successful verify: the logged-in user, and with trust_browser the browser's trust token. */
export const sessionUserResponseSchema = z.object({ user: sessionUserSchema, trustToken: z.string().optional() });

// Password reset (link valid 1 hour, single use)

export { RESET_CODE_PARAM, RESET_LINK_SECONDS } from '../auth-constants';

export const emailAddressSchema = z.string().trim().toLowerCase().max(254, 'TooLong');

export const forgotPasswordRequestSchema = z.object({
  subsite_id: subsiteIdSchema.default(0),
  email_address: z.string('GetPasswordResetLink').trim().toLowerCase().min(1, { message: 'GetPasswordResetLink', abort: true }).max(254, 'TooLong').email('EnterValidEmail'),
  lang: languageSchema.default('en'),
});

export const resetPasswordRequestSchema = z
  .object({
    subsite_id: subsiteIdSchema.default(0),
    code: z.string('InvalidResetCode').min(1, 'InvalidResetCode').max(256, 'InvalidResetCode'),
    password: newPasswordSchema,
    password_confirmation: z.string('SpecifyNewPassword').min(1, 'SpecifyNewPassword'),
  })
  .refine((b) => b.password === b.password_confirmation, { path: ['password_confirmation'], message: 'PasswordNotMatch' });

// Profile (GET and PUT /api/v1/user/profile)

export const profileSchema = z.object({
  ID: z.string(),
  Username: z.string(),
  Email: z.string(),
  FirstName: z.string(),
  LastName: z.string(),
  phone: z.string(),
  lang: languageSchema,
  EnableTwoFactorAuth: z.boolean(),
  /** Where the user lands after logging in: the portal's default or, for admins, the fleet overview. */
  landingPage: landingPageSchema,
});
export type Profile = z.infer<typeof profileSchema>;

export const profileUpdateSchema = z
  .object({
    FirstName: z.string().trim().min(1, 'SpecifyFirstName').max(50, 'MaxLength50'),
    LastName: z.string().trim().min(1, 'SpecifyLastName').max(50, 'MaxLength50'),
    /** A mobile number as the user knows it (national, with or without its 0, or international), or empty for none; stored as E.164. */
    phone: z.string().trim().max(PHONE_INPUT_MAX, INVALID_PHONE).default(''),
    /** The ISO country a national number is read in; without it, that of `lang` (defaultPhoneCountry). */
    phoneCountry: z.string().trim().max(3, INVALID_PHONE).optional(),
    lang: languageSchema,
    EnableTwoFactorAuth: z.boolean(),
    /** Needed only to turn two-factor login off. */
    current_password: z.string().max(256, 'TooLong').optional(),
    /** Absent: unchanged. The fleet overview only for admins (422 LandingPageAdminsOnly). */
    landingPage: landingPageSchema.optional(),
  })
  .superRefine((b, ctx) => {
    const key = phoneError(b.phone, profilePhoneCountry(b));
    if (key) ctx.addIssue({ code: 'custom', message: key, path: ['phone'] });
  });

/** The country the profile's phone is read in. */
export const profilePhoneCountry = (b: { phoneCountry?: string | undefined; lang: Language }): string => b.phoneCountry || defaultPhoneCountry(b.lang);
export type ProfileUpdate = z.infer<typeof profileUpdateSchema>;

// Public extras

export const contactAddressesQuerySchema = z.object({ SubsiteID: subsiteIdSchema.default(0) });
export const contactAddressesSchema = z.object({ email: z.string().nullable(), phonelbl: z.string().nullable() });

export const alertOptOutRequestSchema = z.object({
  nt_useremail: z.string('SpecifyUsername').trim().min(1, 'SpecifyUsername').max(320, 'TooLong'),
  nt_password: z.string('SpecifyPassword').min(1, 'SpecifyPassword').max(256, 'TooLong'),
  remove_push: z.boolean().default(false),
  subsite_id: subsiteIdSchema.default(0),
});
export const alertOptOutResponseSchema = z.object({ message: z.string() });
