import { describe, expect, it } from 'vitest';
import { inWeeklyWindows, wallTimeAt } from './weekly-windows';

const nightsOff = [{ days: [1, 2, 3, 4, 5], from: '18:00', to: '06:00' }];

describe('weekly windows in a zone', () => {
  it('reads the weekday and minute of the local wall time, across daylight saving', () => {
    // Monday 2025-03-31 07:30 in Stockholm is 05:30 UTC (summer time).
    expect(wallTimeAt(Date.UTC(2025, 2, 31, 5, 30), 'Europe/Stockholm')).toEqual({ weekday: 1, minute: 450 });
    // Sunday 2025-01-05 23:59 in Stockholm is 22:59 UTC (winter time).
    expect(wallTimeAt(Date.UTC(2025, 0, 5, 22, 59), 'Europe/Stockholm')).toEqual({ weekday: 7, minute: 1439 });
    // Before 1970 the weekday still counts right: 1969-12-31 was a Wednesday.
    expect(wallTimeAt(Date.UTC(1969, 11, 31, 12), 'UTC')).toEqual({ weekday: 3, minute: 720 });
  });

  it('runs a window past midnight into the next day, only from a listed day', () => {
    const at = (iso: string) => inWeeklyWindows(Date.parse(iso), 'Europe/Stockholm', nightsOff);
    expect(at('2025-06-02T17:59:00+02:00')).toBe(false); // Monday before 18:00
    expect(at('2025-06-02T18:00:00+02:00')).toBe(true); // Monday 18:00
    expect(at('2025-06-03T05:59:00+02:00')).toBe(true); // Tuesday morning, from Monday
    expect(at('2025-06-03T06:00:00+02:00')).toBe(false);
    expect(at('2025-06-07T02:00:00+02:00')).toBe(true); // Saturday morning, from Friday
    expect(at('2025-06-08T02:00:00+02:00')).toBe(false); // Sunday morning: Saturday is not listed
    expect(at('2025-06-07T20:00:00+02:00')).toBe(false); // Saturday evening
  });

  it('covers a same-day window from its start up to (not including) its end', () => {
    const lunch = [{ days: [6], from: '11:30', to: '13:00' }];
    expect(inWeeklyWindows(Date.parse('2025-06-07T11:30:00+02:00'), 'Europe/Stockholm', lunch)).toBe(true);
    expect(inWeeklyWindows(Date.parse('2025-06-07T13:00:00+02:00'), 'Europe/Stockholm', lunch)).toBe(false);
    expect(inWeeklyWindows(Date.parse('2025-06-07T12:00:00+02:00'), 'Europe/Stockholm', [])).toBe(false);
  });
});
