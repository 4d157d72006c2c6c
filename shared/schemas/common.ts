import { z } from 'zod';

export const languages = ['en', 'sv', 'no'] as const;
export const languageSchema = z.enum(languages);
export type Language = z.infer<typeof languageSchema>;

export const subsiteIds = [0, 1, 2, 3, 4, 5, 6, 7] as const;
/** Subsite (brand) ids arrive as numbers or numeric strings (query strings). */
export const subsiteIdSchema = z.coerce.number().int('InvalidSubsite').min(0, 'InvalidSubsite').max(7, 'InvalidSubsite');

/** The success envelope of docs/api.md. */
export function successEnvelope<T extends z.ZodType>(data: T) {
  return z.object({ success: z.literal(true), data, message: z.string().optional() });
}

export const validationErrorSchema = z.object({
  success: z.literal(false),
  message: z.string(),
  errors: z.record(z.string(), z.array(z.string())),
});

export const messageSchema = z.object({ message: z.string() });

/**
 * The zones found valid so far: building a formatter to find out costs about as much as the rest
 * of a small request's validation, and nearly every request carries a TimeZone header. Only known
 * zones are kept (a few hundred exist), so made-up names cannot grow it.
 */
const knownZones = new Set<string>();

/** Whether a text is an IANA time zone this runtime knows (the TimeZone header, a job's zone). */
export function isValidTimeZone(zone: string): boolean {
  if (knownZones.has(zone)) return true;
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
  } catch {
    return false;
  }
  knownZones.add(zone);
  return true;
}
