/**
 * The cursor of the map's paged view of the realtime units: opaque to the client (base64url), it
 * carries the IMEI the next page starts after and a digest that binds it to the user and account
 * it was handed to. The account and the grants always come from the caller's token, never from
 * the cursor, so even a forged cursor can only start a page elsewhere in the caller's own units;
 * the digest makes a cursor changed, cut or taken from another user answer a translated 422
 * (InvalidCursor) instead of a page from an unexpected place.
 */
import { createHash } from 'node:crypto';
import { trackingMessageKeys } from '../../shared/schemas/tracking-messages';
import { IMEI_PATTERN } from '../../shared/validators/imei';
import type { AuthContext } from '../platform/auth-context';
import { ValidationError } from '../platform/errors';

type CursorOwner = Pick<AuthContext, 'accountId' | 'userId'>;

const VERSION = '1';

function digest(owner: CursorOwner, after: string): string {
  return createHash('sha256').update(`${VERSION}\n${owner.accountId}\n${owner.userId}\n${after}`).digest('base64url').slice(0, 16);
}

export function encodeCursor(owner: CursorOwner, after: string): string {
  return Buffer.from(`${VERSION}.${after}.${digest(owner, after)}`).toString('base64url');
}

/** The IMEI a page starts after; a cursor that is not this caller's is a 422 on `cursor`. */
export function decodeCursor(owner: CursorOwner, cursor: string): string {
  const [version, after, check, ...rest] = Buffer.from(cursor, 'base64url').toString('utf8').split('.');
  if (version !== VERSION || after === undefined || !IMEI_PATTERN.test(after) || rest.length || check !== digest(owner, after)) {
    throw new ValidationError({ cursor: [trackingMessageKeys.InvalidCursor] });
  }
  return after;
}
