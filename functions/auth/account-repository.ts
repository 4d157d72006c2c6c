import { NotFoundError } from '../platform/errors';
import { getAccountItem } from '../domain/account/reads';
import type { AccountItem } from '../domain/account/schema';

export async function getAccount(accountId: string): Promise<AccountItem> {
  const account = await getAccountItem(accountId);
  if (!account) throw new NotFoundError('AccountNotFound');
  return account;
}
