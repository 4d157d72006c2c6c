/**
 * The cursor of the map's paged view of the realtime units (functions/platform/page-cursor.ts): it
 * carries the IMEI the next page starts after, bound to the user and account it was handed to. The
 * account and the grants always come from the caller's token, never from the cursor.
 */
import { IMEI_PATTERN } from '../../shared/validators/imei';
import type { AuthContext } from '../platform/auth-context';
import { decodePageCursor, encodePageCursor, invalidCursor } from '../platform/page-cursor';

type CursorOwner = Pick<AuthContext, 'accountId' | 'userId'>;

const bindingOf = (owner: CursorOwner) => ['realtime', owner.accountId, owner.userId];

export const encodeCursor = (owner: CursorOwner, after: string): string => encodePageCursor(bindingOf(owner), [after]);

/** The IMEI a page starts after; a cursor that is not this caller's is a 422 on `cursor`. */
export function decodeCursor(owner: CursorOwner, cursor: string): string {
  const [after, ...rest] = decodePageCursor(cursor, bindingOf(owner));
  if (typeof after !== 'string' || !IMEI_PATTERN.test(after) || rest.length) throw invalidCursor();
  return after;
}
