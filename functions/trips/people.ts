/**
 * The users the trip log names: drivers (a trip's driverId, a check-in) and attesters. A driver
 * must be a user of the same account; names are "First Last".
 */
import type { Driver } from '../../shared/schemas/trips';
import { accountUserFields, getUserFields } from '../domain/user/reads';
import type { UserRecord } from '../domain/user/schema';

export type Person = Pick<UserRecord, 'userId' | 'accountId' | 'firstName' | 'lastName' | 'email' | 'lang' | 'subsiteId' | 'isAdmin' | 'unitImeis'>;

const PERSON_ATTRIBUTES = ['userId', 'accountId', 'firstName', 'lastName', 'email', 'lang', 'subsiteId', 'isAdmin', 'unitImeis'] as const;

export const fullName = (user: Pick<UserRecord, 'firstName' | 'lastName'>): string => `${user.firstName} ${user.lastName}`.trim();

/** A user of the account, or null (another account's user is none). */
export async function accountUser(accountId: string, userId: string): Promise<Person | null> {
  if (!userId) return null;
  const user = await getUserFields(userId, PERSON_ATTRIBUTES);
  return user && user.accountId === accountId ? user : null;
}

/** Every user of the account (one Query on the byAccount index). */
export async function accountUsers(accountId: string): Promise<Person[]> {
  return accountUserFields(accountId, PERSON_ATTRIBUTES);
}

/**
 * Who can be a driver of the account's units: every user of the account, as `accountUser` is the
 * rule a trip's driver and a check-in are checked by. By full name in the caller's language, then
 * by id (namesakes keep one order).
 */
export async function accountDrivers(accountId: string, locale: string): Promise<Driver[]> {
  const collator = new Intl.Collator(locale, { sensitivity: 'base' });
  return (await accountUsers(accountId))
    .map((u) => ({ id: u.userId, firstName: u.firstName ?? '', lastName: u.lastName ?? '' }))
    .sort((a, b) => collator.compare(fullName(a), fullName(b)) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/** Names by user id of the account's users, read only when some id needs one. */
export async function namesOf(accountId: string, ids: Iterable<string | undefined>): Promise<Map<string, string>> {
  const wanted = new Set([...ids].filter((id): id is string => !!id));
  if (!wanted.size) return new Map();
  if (wanted.size === 1) {
    const [id] = wanted as Set<string>;
    const user = await accountUser(accountId, id as string);
    return new Map(user ? [[user.userId, fullName(user)]] : []);
  }
  return new Map((await accountUsers(accountId)).map((u) => [u.userId, fullName(u)]));
}
