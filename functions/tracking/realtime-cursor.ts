/**
 * The cursor of the map's paged view of the realtime units (functions/platform/page-cursor.ts): it
 * carries the IMEI the next page starts after and, in a segment (`segments`), the last IMEI of that
 * segment, bound to the user and account it was handed to. The account and the grants always come
 * from the caller's token, never from the cursor.
 */
import { IMEI_PATTERN } from '../../shared/validators/imei';
import type { AuthContext } from '../platform/auth-context';
import { decodePageCursor, encodePageCursor, invalidCursor } from '../platform/page-cursor';

type CursorOwner = Pick<AuthContext, 'accountId' | 'userId'>;

const bindingOf = (owner: CursorOwner) => ['realtime', owner.accountId, owner.userId];

export interface CursorPosition {
  /** The page starts after this IMEI (15 digits; a segment's start need not be a unit's). */
  after: string;
  /** The segment ends with this IMEI, inclusive; none: at the last unit. */
  until?: string;
}

export const encodeCursor = (owner: CursorOwner, { after, until }: CursorPosition): string =>
  encodePageCursor(bindingOf(owner), until === undefined ? [after] : [after, until]);

/** Where a page starts (and its segment ends); a cursor that is not this caller's is a 422 on `cursor`. */
export function decodeCursor(owner: CursorOwner, cursor: string): CursorPosition {
  const [after, until, ...rest] = decodePageCursor(cursor, bindingOf(owner));
  if (typeof after !== 'string' || !IMEI_PATTERN.test(after) || rest.length) throw invalidCursor();
  if (until === undefined) return { after };
  if (typeof until !== 'string' || !IMEI_PATTERN.test(until) || until <= after) throw invalidCursor();
  return { after, until };
}
