/**
 * Login and session payloads. The server (the accounts issue) validates POST /api/v1/login with
 * loginRequestSchema; the browser's login form applies the same rules as loginSchema (see
 * web/src/features/auth/api/login-validation.ts, which a unit test keeps in step with it).
 */
import { z } from 'zod';
import { subsiteIdSchema } from './common';

const id = z.union([z.string(), z.number()]).transform(String);

/** The login form: what the user types. Messages are i18n keys (spec section 5). */
export const loginSchema = z.object({
  username: z.string().trim().min(1, 'SpecifyUsername'),
  password: z.string().min(1, 'SpecifyPassword'),
  remember_me: z.boolean(),
});
export type LoginForm = z.infer<typeof loginSchema>;

/** Body of `POST /api/v1/login` (API.md). */
export const loginRequestSchema = z.object({
  username: z.string('SpecifyUsername').trim().min(1, 'SpecifyUsername').max(320, 'TooLong'),
  password: z.string('SpecifyPassword').min(1, 'SpecifyPassword').max(256, 'TooLong'),
  subsiteid: subsiteIdSchema,
  remember_me: z.boolean().default(false),
  /** SHA-256 (hex) of user agent, hardware concurrency, device memory and platform: the trusted-browser check. */
  fingerprint: z.string().max(128, 'TooLong').optional(),
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

/** Body of `POST /api/v1/user/password` (the set-new-password modal). */
export const changePasswordRequestSchema = z.object({
  userId: z.string().min(1, 'FieldRequired'),
  email: z.string(),
  password: z.string().min(1, 'SpecifyNewPassword'),
});
export type ChangePasswordRequest = z.infer<typeof changePasswordRequestSchema>;
