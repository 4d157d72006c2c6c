/**
 * configure-alert-numbers (spec section 2): the page is registered only for users whose account's
 * parent is the one account the spec names (ALERT_NUMBERS_PARENT_ID, shared/brands.ts), and sets
 * the SMS sender of alarms (`alertSenderId` on the account item). Who reaches which accounts:
 * - an admin of an account under that parent: their own account only (never a sibling's);
 * - an admin of the parent account itself: every account under it (the `byParent` index).
 * Anyone else gets 403; an account outside the caller's reach is answered as a missing one.
 */
import { ALERT_NUMBERS_PARENT_ID } from '../../shared/brands';
import type { AuthContext } from '../platform/auth-context';
import { ForbiddenError, NotFoundError } from '../platform/errors';
import { childAccounts, getAccountRecord, type AlarmAccount } from './account-data';

/** The accounts whose alert sender the caller may see and set. */
export async function alertNumberAccounts(auth: Pick<AuthContext, 'accountId'>): Promise<AlarmAccount[]> {
  if (auth.accountId === ALERT_NUMBERS_PARENT_ID) return childAccounts(ALERT_NUMBERS_PARENT_ID);
  const own = await getAccountRecord(auth.accountId).catch((error: unknown) => {
    if (error instanceof NotFoundError) return null;
    throw error;
  });
  if (!own || own.parentId !== ALERT_NUMBERS_PARENT_ID) throw new ForbiddenError();
  return [own];
}
