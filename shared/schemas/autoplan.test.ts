import { describe, expect, it } from 'vitest';
import { autoplanRefusal, autoplanWindow } from './autoplan';

const at = (iso: string) => Date.parse(iso);

describe('the Autoplan window', () => {
  it('is open on days 1 to 4 of the month in the zone, for the month before', () => {
    // 1 January 2027, 00:30 in Stockholm; still 2026 in UTC.
    expect(autoplanWindow(at('2026-12-31T23:30:00Z'), 'Europe/Stockholm')).toEqual({ today: '2027-01-01', open: true, month: '2026-12' });
    expect(autoplanWindow(at('2026-12-31T23:30:00Z'), 'Europe/London')).toEqual({ today: '2026-12-31', open: false, month: '2026-11' });
    expect(autoplanWindow(at('2027-03-04T22:59:00Z'), 'Europe/Stockholm').open).toBe(true);
    expect(autoplanWindow(at('2027-03-04T23:00:00Z'), 'Europe/Stockholm').open).toBe(false);
  });

  it('refuses a closed day before a wrong month', () => {
    const fifth = at('2026-10-05T10:00:00Z');
    const second = at('2026-10-02T10:00:00Z');
    expect(autoplanRefusal('2026-09', fifth, 'Europe/Stockholm')).toBe('AutoplanWrongDay');
    expect(autoplanRefusal('2026-08', fifth, 'Europe/Stockholm')).toBe('AutoplanWrongDay');
    expect(autoplanRefusal('2026-08', second, 'Europe/Stockholm')).toBe('AutoplanWrongMonth');
    expect(autoplanRefusal('2026-10', second, 'Europe/Stockholm')).toBe('AutoplanWrongMonth');
    expect(autoplanRefusal('2026-09', second, 'Europe/Stockholm')).toBeNull();
  });
});
