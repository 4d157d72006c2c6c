/**
 * Opaque page cursors, for every list answered in pages (the units list, the map's realtime view):
 * base64url JSON of a version, where the next page resumes (`at`) and a digest binding it to what
 * the cursor was handed out for (`bind`: the caller, the search, the order). A cursor that is cut,
 * changed, of another format or handed out for another binding is a translated 422 on `cursor`
 * (InvalidCursor) rather than a page from an unexpected place.
 *
 * The digest has no secret, so it detects mistakes and tampering that does not recompute it; it is
 * not what keeps accounts apart. That is the reader's rule: the account and the grants always come
 * from the caller's token, never from a cursor, so any cursor can only start a page elsewhere in
 * the caller's own units.
 */
import { createHash } from 'node:crypto';
import { ValidationError } from './errors';

const VERSION = 3;

type Field = string | number | null;

function digest(bind: readonly string[], at: readonly Field[]): string {
  return createHash('sha256').update(JSON.stringify([VERSION, bind, at])).digest('base64url').slice(0, 16);
}

export function encodePageCursor(bind: readonly string[], at: readonly Field[]): string {
  return Buffer.from(JSON.stringify([VERSION, at, digest(bind, at)]), 'utf8').toString('base64url');
}

/** The 422 every cursor refusal answers. */
export const invalidCursor = (): ValidationError => new ValidationError({ cursor: ['InvalidCursor'] }, 'InvalidCursor');

/** Where a cursor resumes (the `at` it was made with); throws `invalidCursor()` unless it was made for `bind`. */
export function decodePageCursor(raw: string, bind: readonly string[]): unknown[] {
  if (!/^[A-Za-z0-9_-]{1,2048}$/.test(raw)) throw invalidCursor();
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8'));
  } catch {
    throw invalidCursor();
  }
  if (!Array.isArray(parsed) || parsed.length !== 3) throw invalidCursor();
  const [version, at, check] = parsed as unknown[];
  if (version !== VERSION || !Array.isArray(at) || !at.every((f) => f === null || typeof f === 'string' || typeof f === 'number')) throw invalidCursor();
  if (check !== digest(bind, at as Field[])) throw invalidCursor();
  return at as unknown[];
}
