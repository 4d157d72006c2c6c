/**
 * The RFID forms' checks, with the server's own schemas (shared/schemas/rfid.ts): the browser shows
 * the same message key per field before asking, and the server's 422 keys on the same fields after.
 */
import type { z } from 'zod';
import { rfidCardUpdateSchema, rfidPairRequestSchema } from '../../../../shared/schemas/rfid';
import { ApiError } from '../../app/api-client';

export type FieldKeys = Record<string, string>;

function firstKeys(error: z.ZodError): FieldKeys {
  const out: FieldKeys = {};
  for (const issue of error.issues) {
    const field = String(issue.path[0] ?? 'body');
    out[field] ??= issue.message;
  }
  return out;
}

/** The field problems of a form, or the checked body. */
export function checkForm<S extends z.ZodType>(schema: S, values: unknown): { body: z.output<S>; errors: null } | { body: null; errors: FieldKeys } {
  const parsed = schema.safeParse(values);
  return parsed.success ? { body: parsed.data, errors: null } : { body: null, errors: firstKeys(parsed.error) };
}

export const checkCard = (values: { name: string; userId: string | null; description: string }) =>
  checkForm(rfidCardUpdateSchema, { ...values, userId: values.userId ?? undefined });
export const checkPairing = (values: { imei: string | null; readerId: string }) => checkForm(rfidPairRequestSchema, { ...values, imei: values.imei ?? '' });

/** The server's 422 keys on these fields, or null when it named none of them. */
export function serverFieldKeys(error: unknown, fields: readonly string[]): FieldKeys | null {
  if (!(error instanceof ApiError) || error.status !== 422) return null;
  const out: FieldKeys = {};
  for (const field of fields) {
    const key = error.fieldErrors[field]?.[0];
    if (key) out[field] = key;
  }
  return Object.keys(out).length ? out : null;
}
