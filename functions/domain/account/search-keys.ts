/**
 * The search keys support finds an account by (the accounts table's `byName` and `byOrgNumber`
 * indexes, shared/tables.ts): written with the account by whoever writes its name or org number
 * (registration, the demo seed), so that the search is a Query, never a Scan.
 */
import { normalizeOrganisationName } from '../../../shared/schemas/organisation';

/** A company name as searched: the organisation names' rule (case, whitespace and compatibility forms ignored). */
export const accountSearchName = (name: string): string => normalizeOrganisationName(name);

/** An org number as searched: its digits only ('556677-8899' and '5566778899' are one). */
export const orgNumberSearchKey = (orgNumber: string): string => orgNumber.replace(/\D/g, '');

export interface AccountSearchKeys {
  searchBucket?: string;
  searchName?: string;
  orgNumberKey?: string;
}

/** The attributes to write on the accounts item; a key index attribute cannot be empty, so absent ones are left out. */
export function accountSearchKeys(account: { accountId: string; name: string; orgNumber?: string | undefined }): AccountSearchKeys {
  const name = accountSearchName(account.name);
  const org = account.orgNumber ? orgNumberSearchKey(account.orgNumber) : '';
  return {
    ...(name ? { searchBucket: [...name][0] as string, searchName: `${name}#${account.accountId}` } : {}),
    ...(org ? { orgNumberKey: org } : {}),
  };
}
