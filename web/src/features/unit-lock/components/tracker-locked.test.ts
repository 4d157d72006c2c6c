import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../app/api-client';
import { lockedByAmong, lockedByOf } from './tracker-locked';

const locked = (lockedBy: unknown) =>
  new ApiError(423, 'locked', 'TrackerIsLocked', {}, { success: false, message: 'TrackerIsLocked', errors: { msg: 'TrackerIsLocked', lockedBy } });

describe('lockedByOf', () => {
  it('names the locker of a 423 TrackerIsLocked', () => {
    expect(lockedByOf(locked('Erik Lind'))).toBe('Erik Lind');
    // A lock without a name is still a lock.
    expect(lockedByOf(locked(undefined))).toBe('');
  });

  it('is null for any other failure', () => {
    expect(lockedByOf(null)).toBeNull();
    expect(lockedByOf(new Error('x'))).toBeNull();
    expect(lockedByOf(new ApiError(404, 'gone', 'NotFound', {}, null))).toBeNull();
    expect(lockedByOf(new ApiError(423, 'attested', 'TripIsAttested', {}, null))).toBeNull();
  });
});

describe('lockedByAmong', () => {
  it('finds the lock among several queries, whichever failed', () => {
    expect(lockedByAmong(null, new Error('x'), locked('Erik Lind'))).toBe('Erik Lind');
    expect(lockedByAmong(null, undefined)).toBeNull();
  });
});
