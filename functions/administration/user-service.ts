/**
 * The account's users as their admin manages them (spec sections 2, 3, 6 and 8): listing, creating
 * with a welcome e-mail, changing (unit access, admin flag, a new password) and deleting.
 *
 * Creating follows registration's order (functions/registration/registration-service.ts): cheap
 * reads first, then the identity, which is unique by login name (the e-mail), so of two admins
 * creating one address at once only one gets past it; then the transaction, the decision point;
 * the identity is removed again when the transaction does not commit. The welcome e-mail goes
 * out once, after the commit.
 *
 * A change of unit access writes the user's grants and the units' viewers in one transaction, and
 * then tells the user's open map on their own live topic (`{ type: 'access', imei, granted }`), so
 * a revoked unit leaves it without a reload.
 */
import { randomUUID } from 'node:crypto';
import { administrationMessageKeys as keys } from '../../shared/schemas/administration-messages';
import { MAX_UNIT_CHANGES, type AccountUser, type UserSave } from '../../shared/schemas/administration';
import type { AuthContext } from '../platform/auth-context';
import { sendTemplatedEmail } from '../platform/email/templates';
import { ConflictError, NotFoundError, ValidationError } from '../platform/errors';
import { logger } from '../platform/logger';
import type { Ports } from '../platform/ports';
import type { UserItem, UserRecord } from '../domain/user/schema';
import { issueResetCode, resetLink } from '../auth/reset-codes';
import { randomSecret } from '../auth/secrets';
import { endEverySession } from '../auth/sessions';
import {
  accountUnitImeis,
  deleteUserItems,
  getAccountUser,
  isAddressClaimed,
  listAccountUserRecords,
  writeNewUser,
  writeUserChanges,
} from './user-repository';

type Caller = Pick<AuthContext, 'userId' | 'accountId' | 'lang' | 'subsiteId'>;

/** The welcome e-mail's set-password link: an admin's new user may not read their mail within the hour a reset link lasts. */
export const WELCOME_LINK_DAYS = 7;
export const WELCOME_LINK_SECONDS = WELCOME_LINK_DAYS * 24 * 3600;

export function toAccountUser(user: UserItem): AccountUser {
  return {
    id: user.userId,
    FirstName: user.firstName ?? '',
    LastName: user.lastName ?? '',
    email: user.email ?? '',
    username: user.username ?? '',
    isAdmin: user.isAdmin === true,
    imeis: user.isAdmin ? [] : [...(user.unitImeis ?? [])],
    lang: user.lang ?? 'en',
  };
}

const collatorFor = (lang: Caller['lang']) => new Intl.Collator(lang === 'no' ? 'nb' : lang, { sensitivity: 'base' });

/** By full name in the caller's language, then by id (namesakes keep one order). */
export async function listUsers(caller: Caller): Promise<AccountUser[]> {
  const collator = collatorFor(caller.lang);
  return (await listAccountUserRecords(caller.accountId))
    .map(toAccountUser)
    .sort((a, b) => collator.compare(`${a.FirstName} ${a.LastName}`, `${b.FirstName} ${b.LastName}`) || a.id.localeCompare(b.id));
}

/** The units an ordinary user is granted: all of the account's, or 422 on imeis. Admins are granted none (they see all). */
async function grantsOf(caller: Caller, body: UserSave): Promise<string[]> {
  if (body.isAdmin || body.imeis.length === 0) return [];
  const owned = await accountUnitImeis(caller.accountId);
  if (body.imeis.some((imei) => !owned.has(imei))) throw new ValidationError({ imeis: [keys.UserUnitNotFound] });
  return [...body.imeis].sort();
}

/** A password nobody knows, within every provider's password rule, until the user sets theirs with the welcome link. */
const unknownPassword = () => `${randomSecret()}Aa1!`;

export async function createUser(caller: Caller, body: UserSave, ports: Ports): Promise<{ id: string }> {
  const [unitImeis, taken] = await Promise.all([grantsOf(caller, body), isAddressClaimed(body.email)]);
  if (taken) throw new ValidationError({ email: [keys.UserEmailInUse] });
  const now = ports.clock.now();
  const user: UserRecord = {
    userId: randomUUID(),
    accountId: caller.accountId,
    username: body.email,
    email: body.email,
    firstName: body.FirstName,
    lastName: body.LastName,
    lang: body.lang ?? caller.lang,
    subsiteId: caller.subsiteId,
    isAdmin: body.isAdmin,
    isSupport: false,
    enableTwoFactorAuth: false,
    ...(body.isAdmin ? {} : { unitImeis }),
    createdAt: now.toISOString(),
  };

  try {
    await ports.identity.createUser({ userId: user.userId, username: user.username, email: user.email, password: body.password ?? unknownPassword() });
  } catch (error) {
    if (error instanceof ConflictError) throw new ValidationError({ email: [keys.UserEmailInUse] });
    throw error;
  }
  try {
    await writeNewUser(user);
  } catch (error) {
    await ports.identity.deleteUser(user.username).catch((cleanup: unknown) => {
      logger.error('Could not remove the identity of a user that was not created', { userId: user.userId, error: cleanup as Error });
    });
    throw error;
  }

  try {
    const code = await issueResetCode(user, now, WELCOME_LINK_SECONDS);
    await sendTemplatedEmail('userInvite', user.email, user.lang, user.subsiteId, {
      firstName: user.firstName,
      username: user.username,
      link: resetLink(code),
      days: String(WELCOME_LINK_DAYS),
    });
  } catch (error) {
    // The user exists and the admin sees them; a lost e-mail must not turn that into a failure (the admin can set a password).
    logger.error('Could not send the welcome e-mail of a new user', { userId: user.userId, error: error as Error });
  }
  return { id: user.userId };
}

/** Which units a change of grants adds and removes. */
export function grantChanges(before: readonly string[], after: readonly string[]): { added: string[]; removed: string[] } {
  const was = new Set(before);
  const now = new Set(after);
  return { added: after.filter((imei) => !was.has(imei)), removed: before.filter((imei) => !now.has(imei)) };
}

export async function updateUser(caller: Caller, userId: string, body: UserSave, ports: Ports): Promise<void> {
  const before = await getAccountUser(caller.accountId, userId);
  if (!before) throw new NotFoundError(keys.UserNotFound);
  if (body.email !== (before.email ?? '').trim().toLowerCase()) throw new ValidationError({ email: [keys.UserEmailCannotChange] });
  if (userId === caller.userId && !body.isAdmin) throw new ValidationError({ isAdmin: [keys.CannotRemoveOwnAdmin] });
  const unitImeis = await grantsOf(caller, body);
  const { added, removed } = grantChanges(before.isAdmin ? [] : (before.unitImeis ?? []), unitImeis);
  if (added.length + removed.length > MAX_UNIT_CHANGES) throw new ValidationError({ imeis: [keys.TooManyUnitChanges] });

  const now = ports.clock.now();
  await writeUserChanges(before, { firstName: body.FirstName, lastName: body.LastName, isAdmin: body.isAdmin, lang: body.lang ?? before.lang, unitImeis, added, removed }, now);

  if (body.password) {
    await ports.identity.setPassword(before.username, body.password);
    // As a reset: whoever held the old password is out.
    await endEverySession(before, ports, now);
  }
  // An admin now sees every unit of the account: nothing left their map.
  await tellAccessChanges(ports, before, added, body.isAdmin ? [] : removed);
}

/** Best effort, QoS 0 like every live message; the user's next GET /realtime/units says the same. */
async function tellAccessChanges(ports: Ports, user: UserItem, added: readonly string[], removed: readonly string[]): Promise<void> {
  const tell = (imei: string, granted: boolean) =>
    ports.live.publish({ accountId: user.accountId, imei, viewers: [], onlyTo: user.userId }, { type: 'access', imei, granted }).catch((error: unknown) => {
      logger.warn('Could not tell a user of an access change', { userId: user.userId, imei, error: error as Error });
    });
  await Promise.all([...removed.map((imei) => tell(imei, false)), ...added.map((imei) => tell(imei, true))]);
}

export async function deleteUser(caller: Caller, userId: string, ports: Ports): Promise<void> {
  if (userId === caller.userId) throw new ValidationError({ id: [keys.CannotDeleteYourself] });
  const user = await getAccountUser(caller.accountId, userId);
  if (!user) throw new NotFoundError(keys.UserNotFound);
  // The decision point: the user item's deletion. With it every session ends (resolveAuth needs the
  // user item), and the user leaves every viewers set, so no live message reaches them any more.
  await deleteUserItems(user);
  try {
    await ports.identity.signOutEverywhere(user.username);
    await ports.identity.deleteUser(user.username);
  } catch (error) {
    // Without the user item the identity opens nothing; its login name stays taken until support removes it.
    logger.error('Could not remove the identity of a deleted user', { userId: user.userId, error: error as Error });
  }
}
