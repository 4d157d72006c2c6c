/**
 * A unit's access lock (spec sections 3, 4, 6 and 8): a user with access to a unit locks it (a
 * benefit or private car), and from then on only the locker and support see where it is. Only the
 * locker or support unlocks; every lock and unlock is kept in the unit's lock log; an unlock by
 * support e-mails the locker. Validation and refusal messages are message keys
 * (shared/i18n/features/unit-lock).
 *
 * Where a locked unit's movements would show (positions, the latest position, trips and their
 * routes, events, commands), every other caller, an account admin included, gets
 * `423 { message: "TrackerIsLocked", errors: { msg: "TrackerIsLocked", lockedBy: <locker's name> } }`,
 * and the map and units list show the unit without its position, with `lockedBy`.
 */
import { z } from 'zod';

export const unitLockMessageKeys = {
  /** 423: the unit is locked by someone else (errors.lockedBy names them). */
  TrackerIsLocked: 'TrackerIsLocked',
  /** 409: locking a unit that is locked already (errors.lockedBy names the locker). */
  UnitAlreadyLocked: 'UnitAlreadyLocked',
  /** 409: unlocking a unit that is not locked. */
  UnitNotLocked: 'UnitNotLocked',
  /** 403: only the locker or support unlocks. */
  OnlyLockerOrSupportUnlocks: 'OnlyLockerOrSupportUnlocks',
} as const;

/** The newest entries of the lock log an answer carries. */
export const LOCK_LOG_LIMIT = 50;

export const lockActions = ['lock', 'unlock'] as const;
export type LockAction = (typeof lockActions)[number];

/** The unit's lock now, from the caller's point of view; null while it is not locked. */
export const unitLockStateSchema = z.object({
  /** User id of the locker. */
  lockedBy: z.string(),
  /** The locker's full name as it was when they locked. */
  lockedByName: z.string(),
  /** ISO 8601 UTC. */
  lockedAt: z.string(),
  /** The caller is the locker. */
  mine: z.boolean(),
  /** The caller may unlock (the locker or support). */
  mayUnlock: z.boolean(),
});
export type UnitLockState = z.infer<typeof unitLockStateSchema>;

export const lockLogEntrySchema = z.object({
  id: z.string(),
  action: z.enum(lockActions),
  /** ISO 8601 UTC. */
  at: z.string(),
  userId: z.string(),
  userName: z.string(),
  /** Done by support staff (an unlock by support e-mails the locker). */
  bySupport: z.boolean(),
});
export type LockLogEntry = z.infer<typeof lockLogEntrySchema>;

/** `GET .../lock-log` and the answer of a lock or unlock: the lock now and the newest log entries first. */
export const unitLockSchema = z.object({
  imei: z.string(),
  lock: unitLockStateSchema.nullable(),
  entries: z.array(lockLogEntrySchema),
});
export type UnitLock = z.infer<typeof unitLockSchema>;

/** The `errors` of a 423 TrackerIsLocked (and of a 409 UnitAlreadyLocked). */
export const trackerLockedErrorSchema = z.object({ msg: z.string(), lockedBy: z.string() });
export type TrackerLockedError = z.infer<typeof trackerLockedErrorSchema>;
