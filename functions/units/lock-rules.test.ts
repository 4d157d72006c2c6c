import { describe, expect, it } from 'vitest';
import { DetailedError } from '../platform/errors';
import { assertNotLockedFor, isLockedFor, lockStateFor, mayUnlock } from './lock-rules';

const locked = { lockedBy: 'u-locker', lockedByName: 'Lisa Locker', lockedAt: '2026-03-01T10:00:00.000Z' };
const locker = { userId: 'u-locker', isSupport: false };
const admin = { userId: 'u-admin', isSupport: false };
const support = { userId: 'u-support', isSupport: true };

describe('access lock rules', () => {
  it('hides a locked unit from everybody but the locker and support', () => {
    expect(isLockedFor(admin, locked)).toBe(true);
    expect(isLockedFor(locker, locked)).toBe(false);
    expect(isLockedFor(support, locked)).toBe(false);
    expect(isLockedFor(admin, {})).toBe(false);
  });

  it('lets only the locker or support unlock', () => {
    expect(mayUnlock(locker, locked)).toBe(true);
    expect(mayUnlock(support, locked)).toBe(true);
    expect(mayUnlock(admin, locked)).toBe(false);
    expect(mayUnlock(support, {})).toBe(false);
  });

  it('refuses with 423 TrackerIsLocked naming the locker', () => {
    let caught: unknown;
    try {
      assertNotLockedFor(admin, locked);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(DetailedError);
    expect(caught).toMatchObject({ status: 423, key: 'TrackerIsLocked', errors: { msg: 'TrackerIsLocked', lockedBy: 'Lisa Locker' } });
    expect(() => assertNotLockedFor(locker, locked)).not.toThrow();
  });

  it('describes the lock from the caller\'s side', () => {
    expect(lockStateFor(locker, locked)).toEqual({ ...locked, mine: true, mayUnlock: true });
    expect(lockStateFor(admin, locked)).toEqual({ ...locked, mine: false, mayUnlock: false });
    expect(lockStateFor(admin, {})).toBeNull();
  });
});
