/**
 * Locking and unlocking a unit's access (spec sections 4 and 6): a user with access to the unit
 * locks it; only the locker or support unlocks; every change lands in the lock log in the same
 * transaction; an unlock by support e-mails the locker, once: only the one unlock whose
 * conditional write wins sends it.
 */
import { unitLockMessageKeys as keys, type UnitLock } from '../../shared/schemas/unit-lock';
import type { AuthContext } from '../platform/auth-context';
import { getEnv } from '../platform/env';
import { ConflictError, DetailedError, ForbiddenError, NotFoundError } from '../platform/errors';
import { logger } from '../platform/logger';
import type { Ports } from '../platform/ports';
import { getUnitItem } from '../domain/unit/reads';
import type { UnitItem } from '../domain/unit/schema';
import { getUnit } from '../tracking/unit-repository';
import { renderSupportUnlockMail } from './lock-mail';
import { fullNameOf, getLockUser, lockLogOf, writeLock, writeUnlock, type LockActor } from './lock-repository';
import { lockerNameOf, lockStateFor, mayUnlock } from './lock-rules';

type Caller = Pick<AuthContext, 'userId' | 'accountId' | 'unitImeis' | 'isSupport' | 'username'>;

/**
 * The unit as the caller may reach it: support any unit (support staff belong to no customer
 * account), everybody else a unit they may see (tracking's rule); anything else 404.
 */
async function reachableUnit(caller: Caller, imei: string, consistent = false): Promise<UnitItem> {
  if (caller.isSupport) {
    const unit = await getUnitItem(imei, { consistent });
    if (!unit) throw new NotFoundError();
    return unit;
  }
  const unit = await getUnit(caller, imei);
  return consistent ? ((await getUnitItem(imei, { consistent: true })) ?? unit) : unit;
}

async function actorOf(caller: Caller): Promise<LockActor> {
  const user = await getLockUser(caller.userId);
  return { userId: caller.userId, name: user ? fullNameOf(user) : caller.username, bySupport: caller.isSupport };
}

async function viewOf(caller: Caller, unit: UnitItem): Promise<UnitLock> {
  return { imei: unit.imei, lock: lockStateFor(caller, unit), entries: await lockLogOf(unit) };
}

function alreadyLocked(unit: UnitItem): DetailedError {
  return new DetailedError(409, keys.UnitAlreadyLocked, { msg: keys.UnitAlreadyLocked, lockedBy: lockerNameOf(unit) });
}

export async function getUnitLock(caller: Caller, imei: string): Promise<UnitLock> {
  return viewOf(caller, await reachableUnit(caller, imei, true));
}

export async function lockUnit(caller: Caller, imei: string, ports: Pick<Ports, 'clock'>): Promise<UnitLock> {
  // Support staff lock nothing of an account they do not belong to: they may only unlock there.
  const unit = await getUnit(caller, imei);
  if (unit.lockedBy !== undefined) throw alreadyLocked(unit);
  const result = await writeLock(unit, await actorOf(caller), ports.clock.now());
  const now = await getUnitItem(imei, { consistent: true });
  if (!now || now.accountId !== unit.accountId) throw new NotFoundError();
  // Another lock came first.
  if (result === 'changed') throw now.lockedBy !== undefined ? alreadyLocked(now) : new ConflictError(keys.UnitAlreadyLocked);
  return viewOf(caller, now);
}

export async function unlockUnit(caller: Caller, imei: string, ports: Pick<Ports, 'clock' | 'mailer'>, timeZone: string): Promise<UnitLock> {
  const unit = await reachableUnit(caller, imei, true);
  if (unit.lockedBy === undefined) throw new ConflictError(keys.UnitNotLocked);
  if (!mayUnlock(caller, unit)) throw new ForbiddenError(keys.OnlyLockerOrSupportUnlocks);
  const at = ports.clock.now();
  const result = await writeUnlock(unit, await actorOf(caller), at);
  const now = await getUnitItem(imei, { consistent: true });
  if (!now || now.accountId !== unit.accountId) throw new NotFoundError();
  if (result === 'changed') {
    // Someone else unlocked (or unlocked and locked again) first.
    if (now.lockedBy === undefined) throw new ConflictError(keys.UnitNotLocked);
    if (!mayUnlock(caller, now)) throw new ForbiddenError(keys.OnlyLockerOrSupportUnlocks);
    throw alreadyLocked(now);
  }
  if (caller.isSupport && unit.lockedBy !== caller.userId) await mailLocker(unit, at, timeZone, ports);
  return viewOf(caller, now);
}

/** Tells the locker that support unlocked their unit. A lost e-mail does not undo the unlock. */
async function mailLocker(unit: UnitItem, at: Date, timeZone: string, ports: Pick<Ports, 'mailer'>): Promise<void> {
  try {
    const locker = unit.lockedBy === undefined ? null : await getLockUser(unit.lockedBy);
    if (!locker?.email) return;
    const appUrl = getEnv().APP_URL;
    const when = new Intl.DateTimeFormat(locker.lang === 'en' ? 'en-GB' : locker.lang === 'no' ? 'nb-NO' : 'sv-SE', {
      dateStyle: 'medium',
      timeStyle: 'short',
      timeZone,
    }).format(at);
    const unitUrl = new URL(`/user/edit-terminal?imei=${unit.imei}`, appUrl).href;
    const email = renderSupportUnlockMail(locker.lang, locker.subsiteId, { unit: unit.name, imei: unit.imei, when, unitUrl }, appUrl);
    await ports.mailer.send({ to: locker.email, ...email });
  } catch (error) {
    logger.error('Could not e-mail the locker of an unlocked unit', { imei: unit.imei, error: error as Error });
  }
}
