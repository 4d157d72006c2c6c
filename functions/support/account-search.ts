/**
 * Finding a customer account for support, never by Scan: a company name prefix through the
 * accounts' `byName` index, an org number through `byOrgNumber`, a user's e-mail through its
 * uniqueness claim, a unit's IMEI through the units item (docs/decisions/0026-organisation-profiles-support.md).
 */
import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { SUPPORT_SEARCH_LIMIT, type SupportAccount, type SupportSearchField } from '../../shared/schemas/support';
import { accountSearchName, orgNumberSearchKey } from '../domain/account/search-keys';
import { dynamo, tableName } from '../platform/db';
import { NotFoundError } from '../platform/errors';
import { getAccountItem } from '../domain/account/reads';
import { getUserFields } from '../domain/user/reads';
import type { AccountItem } from '../domain/account/schema';
import { emailClaimKey } from '../domain/user/schema';
import { getUnitItem } from '../domain/unit/reads';

export const toSupportAccount = (a: Pick<AccountItem, 'accountId' | 'name' | 'type' | 'orgNumber' | 'subsiteId'>): SupportAccount => ({
  accountId: a.accountId,
  name: a.name,
  type: a.type,
  orgNumber: a.orgNumber ?? null,
  subsiteId: a.subsiteId,
});

export const findAccount = (accountId: string, options: { consistent?: boolean } = {}): Promise<AccountItem | null> => getAccountItem(accountId, options);

export async function getSupportAccount(accountId: string, options: { consistent?: boolean } = {}): Promise<AccountItem> {
  const account = await findAccount(accountId, options);
  if (!account) throw new NotFoundError();
  return account;
}

async function queryIndex(index: 'byName' | 'byOrgNumber', key: string, value: string, prefix?: string): Promise<string[]> {
  const out = await dynamo().send(
    new QueryCommand({
      TableName: tableName('accounts'),
      IndexName: index,
      KeyConditionExpression: prefix === undefined ? '#k = :v' : '#k = :v AND begins_with(searchName, :prefix)',
      ExpressionAttributeNames: { '#k': key },
      ExpressionAttributeValues: { ':v': value, ...(prefix === undefined ? {} : { ':prefix': prefix }) },
      Limit: SUPPORT_SEARCH_LIMIT,
    }),
  );
  return (out.Items ?? []).map((i) => String(i['accountId']));
}

async function accountIdsFor(by: SupportSearchField, q: string): Promise<string[]> {
  switch (by) {
    case 'name': {
      const name = accountSearchName(q);
      return name ? queryIndex('byName', 'searchBucket', [...name][0] as string, name) : [];
    }
    case 'orgNumber': {
      const digits = orgNumberSearchKey(q);
      return digits ? queryIndex('byOrgNumber', 'orgNumberKey', digits) : [];
    }
    case 'email': {
      const claim = await dynamo().send(new GetCommand({ TableName: tableName('uniques'), Key: { key: emailClaimKey(q) } }));
      const userId = claim.Item?.['userId'];
      if (typeof userId !== 'string') return [];
      const user = await getUserFields(userId, ['accountId']);
      return user ? [user.accountId] : [];
    }
    case 'imei': {
      const unit = /^\d{15}$/.test(q.trim()) ? await getUnitItem(q.trim()) : null;
      return unit ? [unit.accountId] : [];
    }
  }
}

export async function searchAccounts(by: SupportSearchField, q: string, lang: string): Promise<SupportAccount[]> {
  const ids = [...new Set(await accountIdsFor(by, q))];
  const accounts = await Promise.all(ids.map((id) => findAccount(id)));
  return accounts
    .filter((a): a is AccountItem => a !== null)
    .map(toSupportAccount)
    .sort((a, b) => a.name.localeCompare(b.name, lang));
}
