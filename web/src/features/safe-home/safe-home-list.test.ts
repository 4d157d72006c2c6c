import { describe, expect, it } from 'vitest';
import type { SafeHomeItem } from '../../../../shared/schemas/safe-home';
import { entriesOf, matchesSafeHome, nextSafeHomeSort, scheduleRows, scheduleSummary, sortSafeHomes } from './safe-home-list';

const item = (name: string, RegistrationNumber: string | null, imei = name): SafeHomeItem => ({
  imei,
  name,
  RegistrationNumber,
  status: 0,
  address: null,
  radius: 300,
  centerLat: null,
  centerLng: null,
  schedule: [],
  frequency: null,
  start_date: null,
  time_zone: null,
  nextCheck: null,
});

describe('safe return home list', () => {
  it('searches name and registration number', () => {
    expect(matchesSafeHome(item('Service van', 'ABC 123'), 'van')).toBe(true);
    expect(matchesSafeHome(item('Service van', 'ABC 123'), 'abc123')).toBe(true);
    expect(matchesSafeHome(item('Service van', null), 'xyz')).toBe(false);
    expect(matchesSafeHome(item('Service van', null), '  ')).toBe(true);
  });

  it('sorts by name or plate, a click turning the direction, empty plates last', () => {
    const rows = [item('b', 'Z1'), item('a', null), item('c', 'A1')];
    expect(sortSafeHomes(rows, { column: 'name', desc: false }, 'en').map((r) => r.name)).toEqual(['a', 'b', 'c']);
    expect(sortSafeHomes(rows, { column: 'regnr', desc: false }, 'en').map((r) => r.name)).toEqual(['c', 'b', 'a']);
    expect(sortSafeHomes(rows, { column: 'regnr', desc: true }, 'en').map((r) => r.name)).toEqual(['b', 'c', 'a']);
    expect(nextSafeHomeSort({ column: 'name', desc: false }, 'name')).toEqual({ column: 'name', desc: true });
    expect(nextSafeHomeSort({ column: 'name', desc: true }, 'regnr')).toEqual({ column: 'regnr', desc: false });
  });

  it('summarises a schedule in week order, ranges of three or more days', () => {
    const weekdays = [1, 2, 3, 4, 5].map((day) => ({ day, time: '18:00' }));
    expect(scheduleSummary(weekdays, 'en')).toBe('Mon–Fri 18:00');
    expect(scheduleSummary([...weekdays, { day: 0, time: '10:00' }, { day: 6, time: '10:00' }], 'en')).toBe('Mon–Fri 18:00; Sat, Sun 10:00');
    expect(scheduleSummary([{ day: 3, time: '07:30' }, { day: 1, time: '07:30' }], 'en')).toBe('Mon, Wed 07:30');
  });

  it('defaults to 18:00 on weekdays, and keeps saved days and times', () => {
    const rows = scheduleRows([]);
    expect(rows.map((r) => r.day)).toEqual([1, 2, 3, 4, 5, 6, 0]);
    expect(entriesOf(rows)).toEqual([1, 2, 3, 4, 5].map((day) => ({ day, time: '18:00' })));
    const saved = scheduleRows([{ day: 0, time: '09:00' }]);
    expect(entriesOf(saved)).toEqual([{ day: 0, time: '09:00' }]);
    expect(saved.find((r) => r.day === 1)).toEqual({ day: 1, on: false, time: '18:00' });
  });
});
