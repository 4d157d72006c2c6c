/**
 * The access lock's rules without I/O: who a locked unit is hidden from, who may unlock, and the
 * refusal every other capability answers with. A locked unit's movements are the locker's and
 * support's only; everybody else (an account admin included) gets 423 TrackerIsLocked naming the
 * locker wherever positions, trips, events or commands of it would show.
 */
import { unitLockMessageKeys as keys, type TrackerLockedError, type UnitLockState } from '../../shared/schemas/unit-lock';
import type { AuthContext } from '../platform/auth-context';
import { DetailedError } from '../platform/errors';
import type { UnitItem } from '../domain/unit/schema';

export type LockCaller = Pick<AuthContext, 'userId' | 'isSupport'>;
type LockFields = Pick<UnitItem, 'lockedBy' | 'lockedByName' | 'lockedAt'>;

/** The unit is locked and the caller is neither the locker nor support. */
export function isLockedFor(caller: LockCaller, unit: LockFields): boolean {
  return unit.lockedBy !== undefined && unit.lockedBy !== caller.userId && !caller.isSupport;
}

/** Only the locker or support unlocks. */
export const mayUnlock = (caller: LockCaller, unit: LockFields): boolean => unit.lockedBy !== undefined && (unit.lockedBy === caller.userId || caller.isSupport);

/** The locker's name as the refusal shows it. */
export const lockerNameOf = (unit: LockFields): string => unit.lockedByName || '';

/** 423 TrackerIsLocked, naming the locker (`errors: { msg, lockedBy }`). */
export function trackerLockedError(unit: LockFields): DetailedError {
  const errors: TrackerLockedError = { msg: keys.TrackerIsLocked, lockedBy: lockerNameOf(unit) };
  return new DetailedError(423, keys.TrackerIsLocked, errors);
}

/** Throws TrackerIsLocked when the unit is locked for the caller. */
export function assertNotLockedFor(caller: LockCaller, unit: LockFields): void {
  if (isLockedFor(caller, unit)) throw trackerLockedError(unit);
}

/** The lock as the caller sees it; null when the unit is not locked. */
export function lockStateFor(caller: LockCaller, unit: LockFields): UnitLockState | null {
  if (unit.lockedBy === undefined) return null;
  return {
    lockedBy: unit.lockedBy,
    lockedByName: lockerNameOf(unit),
    lockedAt: unit.lockedAt ?? '',
    mine: unit.lockedBy === caller.userId,
    mayUnlock: mayUnlock(caller, unit),
  };
}
