/**
 * Registration payloads (spec sections 3 and 5, API.md Public). One schema per payload validates
 * both the wizard and the classic form in the browser and POST /api/v1/register-account on the
 * server. Message keys are the spec's.
 */
import { z } from 'zod';
import { languageSchema, subsiteIdSchema } from './common';

/** Query of `GET /api/v1/validate-imei`. */
export const validateImeiQuerySchema = z.object({
  imei: z.string('ImeiNumberError').trim(),
  subsiteID: subsiteIdSchema.default(0),
});

/** Query of `GET /api/v1/validate-email`. */
export const validateEmailQuerySchema = z.object({
  email: z.string('EmailNotEmpty').trim().toLowerCase(),
});

/** Body of `POST /api/v1/subscription-payment-types`. */
export const paymentTypesRequestSchema = z.object({
  imei: z.string('ImeiNumberError').trim(),
  lang: languageSchema.default('en'),
});

/** One payment method a private customer can choose on the review step. */
export const paymentTypeSchema = z.object({ id: z.number().int(), name: z.string() });
export const paymentTypesSchema = z.array(paymentTypeSchema);

/** Body of `POST /api/v1/register-account`: the registration payload of spec section 3. */
export const registerAccountRequestSchema = z.object({
  Imei: z.string(),
});
export type RegisterAccountRequest = z.infer<typeof registerAccountRequestSchema>;

export const registerAccountResponseSchema = z.object({ userId: z.string(), accountId: z.string() });
