/** The safe return home schedule arithmetic: weekdays, start date, frequency and daylight saving. */
import { describe, expect, it } from 'vitest';
import { isOnDay, nextCheckAfter, weekdayOf, type CheckSchedule } from './schedule';

const at = (iso: string) => Date.parse(iso);
const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
const weekdays = (time = '18:00') => [1, 2, 3, 4, 5].map((day) => ({ day, time }));
const base: CheckSchedule = { schedule: weekdays(), frequency: 1, startDate: '2025-01-01', timeZone: 'Europe/Stockholm' };

describe('safe return home schedule', () => {
  it('numbers days 0 Sunday to 6 Saturday', () => {
    expect(weekdayOf('2025-06-01')).toBe(0); // a Sunday
    expect(weekdayOf('2025-06-02')).toBe(1);
    expect(weekdayOf('2025-06-07')).toBe(6);
  });

  it('finds the next weekday at 18:00 local, strictly after the instant', () => {
    // Friday 2025-06-06 17:59 in Stockholm (UTC+2): due at 18:00 local = 16:00Z.
    expect(iso(nextCheckAfter(base, at('2025-06-06T15:59:00Z')))).toBe('2025-06-06T16:00:00.000Z');
    // At that very minute: the next one, Monday.
    expect(iso(nextCheckAfter(base, at('2025-06-06T16:00:00Z')))).toBe('2025-06-09T16:00:00.000Z');
    // Winter: UTC+1.
    expect(iso(nextCheckAfter(base, at('2025-01-10T12:00:00Z')))).toBe('2025-01-10T17:00:00.000Z');
  });

  it('keeps the local time across daylight saving changes', () => {
    const every = { ...base, schedule: [0, 1, 2, 3, 4, 5, 6].map((day) => ({ day, time: '18:00' })) };
    // Spring forward on Sunday 2025-03-30: Saturday 18:00 is 17:00Z, Sunday 18:00 is 16:00Z.
    expect(iso(nextCheckAfter(every, at('2025-03-29T12:00:00Z')))).toBe('2025-03-29T17:00:00.000Z');
    expect(iso(nextCheckAfter(every, at('2025-03-29T17:00:00Z')))).toBe('2025-03-30T16:00:00.000Z');
    // Fall back on Sunday 2025-10-26: Saturday 16:00Z, Sunday 17:00Z.
    expect(iso(nextCheckAfter(every, at('2025-10-25T16:00:00Z')))).toBe('2025-10-26T17:00:00.000Z');
    // New York changes on other days: 18:00 stays 18:00 local on 2025-03-09.
    const ny = { ...every, timeZone: 'America/New_York' };
    expect(iso(nextCheckAfter(ny, at('2025-03-08T23:00:00Z')))).toBe('2025-03-09T22:00:00.000Z');
  });

  it('checks a wall time skipped by daylight saving just after the gap, a repeated one once', () => {
    const sunday = { ...base, schedule: [{ day: 0, time: '02:30' }] };
    // 02:30 does not exist in Stockholm on 2025-03-30: the check is 03:30 local (01:30Z).
    expect(iso(nextCheckAfter(sunday, at('2025-03-29T12:00:00Z')))).toBe('2025-03-30T01:30:00.000Z');
    // 02:30 happens twice on 2025-10-26: the first time (00:30Z), then next week.
    const first = nextCheckAfter(sunday, at('2025-10-25T12:00:00Z'));
    expect(iso(first)).toBe('2025-10-26T00:30:00.000Z');
    expect(iso(nextCheckAfter(sunday, first!))).toBe('2025-11-02T01:30:00.000Z');
  });

  it('starts on the start date', () => {
    const later = { ...base, startDate: '2025-06-11' }; // a Wednesday
    expect(iso(nextCheckAfter(later, at('2025-06-02T08:00:00Z')))).toBe('2025-06-11T16:00:00.000Z');
    expect(isOnDay('2025-06-10', later)).toBe(false);
    expect(isOnDay('2025-06-11', later)).toBe(true);
  });

  it('every 2 or 3 weeks counts calendar weeks from the start date\'s week', () => {
    // Start Wednesday 2025-06-04: its week (Mon 2 June) is on, 9 June off, 16 June on.
    const two = { ...base, frequency: 2 as const, startDate: '2025-06-04' };
    expect(iso(nextCheckAfter(two, at('2025-06-06T16:00:00Z')))).toBe('2025-06-16T16:00:00.000Z');
    expect(isOnDay('2025-06-09', two)).toBe(false);
    expect(isOnDay('2025-06-15', two)).toBe(false);
    expect(isOnDay('2025-06-16', two)).toBe(true);
    const three = { ...two, frequency: 3 as const };
    expect(iso(nextCheckAfter(three, at('2025-06-06T16:00:00Z')))).toBe('2025-06-23T16:00:00.000Z');
    // Only Sundays, every third week: Sunday 8 June is in the start's week.
    const sundays = { ...three, schedule: [{ day: 0, time: '09:15' }] };
    expect(iso(nextCheckAfter(sundays, at('2025-06-04T00:00:00Z')))).toBe('2025-06-08T07:15:00.000Z');
    expect(iso(nextCheckAfter(sundays, at('2025-06-08T07:15:00Z')))).toBe('2025-06-29T07:15:00.000Z');
  });

  it('has no next check without entries', () => {
    expect(nextCheckAfter({ ...base, schedule: [] }, at('2025-06-01T00:00:00Z'))).toBeNull();
  });
});
