import { describe, expect, it } from 'vitest';
import { lockedUnitsVisibleTo } from './working-hours';

const hours = { enabled: true, days: [1, 2, 3, 4, 5], from: '07:00', to: '17:00', timeZone: 'Europe/Stockholm' };
// Monday 2025-06-02: Stockholm is UTC+2.
const monday = (utc: string) => Date.parse(`2025-06-02T${utc}:00Z`);

describe('locked units for admins in working hours (spec section 6)', () => {
  it('shows them to an admin within the hours of a working day, in the zone they were saved in', () => {
    expect(lockedUnitsVisibleTo({ isAdmin: true }, hours, monday('05:00'))).toBe(true);
    expect(lockedUnitsVisibleTo({ isAdmin: true }, hours, monday('04:59'))).toBe(false);
    expect(lockedUnitsVisibleTo({ isAdmin: true }, hours, monday('15:00'))).toBe(false);
    expect(lockedUnitsVisibleTo({ isAdmin: true }, hours, Date.parse('2025-06-01T10:00:00Z'))).toBe(false);
  });

  it('never to an ordinary user, nor with working hours off or absent', () => {
    expect(lockedUnitsVisibleTo({ isAdmin: false }, hours, monday('10:00'))).toBe(false);
    expect(lockedUnitsVisibleTo({ isAdmin: true }, { ...hours, enabled: false }, monday('10:00'))).toBe(false);
    expect(lockedUnitsVisibleTo({ isAdmin: true }, undefined, monday('10:00'))).toBe(false);
  });
});
