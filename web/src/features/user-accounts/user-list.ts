/** Search and sort of the users table and the unit access picker's search, as pure functions. */
import type { AccountUser } from '../../../../shared/schemas/administration';

export type UserSortColumn = 'name' | 'email' | 'admin' | 'units';
export interface UserSort {
  column: UserSortColumn;
  desc: boolean;
}

export const fullName = (u: Pick<AccountUser, 'FirstName' | 'LastName'>): string => `${u.FirstName} ${u.LastName}`.trim();

/** Name or e-mail contains the search (case-insensitive). */
export function matchesUser(u: AccountUser, query: string): boolean {
  const q = query.trim().toLowerCase();
  return !q || fullName(u).toLowerCase().includes(q) || u.email.toLowerCase().includes(q);
}

/** A click on the sorted column turns its direction; on another column sorts by it ascending. */
export function nextSort(current: UserSort, column: UserSortColumn): UserSort {
  return current.column === column ? { column, desc: !current.desc } : { column, desc: false };
}

/** How many units the user sees: an admin every unit of the account. */
export const unitCountOf = (u: AccountUser, accountUnits: number): number => (u.isAdmin ? accountUnits : u.imeis.length);

export function sortUsers(rows: readonly AccountUser[], sort: UserSort, locale: string, accountUnits: number): AccountUser[] {
  const collator = new Intl.Collator(locale, { numeric: true, sensitivity: 'base' });
  const compare = (a: AccountUser, b: AccountUser): number => {
    switch (sort.column) {
      case 'name':
        return collator.compare(fullName(a), fullName(b));
      case 'email':
        return collator.compare(a.email, b.email);
      case 'admin':
        return Number(b.isAdmin) - Number(a.isAdmin);
      case 'units':
        return unitCountOf(a, accountUnits) - unitCountOf(b, accountUnits);
    }
  };
  return [...rows].sort((a, b) => {
    const order = compare(a, b) || collator.compare(fullName(a), fullName(b)) || a.id.localeCompare(b.id);
    return sort.desc ? -order : order;
  });
}
