import { describe, expect, it } from 'vitest';
import { addDays, isoInZone, localDayOf, localDaysRange, monthDays, offsetAt, parseDateTime, startOfLocalDay } from './local-time';

describe('local days in a zone', () => {
  it('starts a Stockholm day at its local midnight, in winter and in summer', () => {
    expect(new Date(startOfLocalDay('2025-01-15', 'Europe/Stockholm')).toISOString()).toBe('2025-01-14T23:00:00.000Z');
    expect(new Date(startOfLocalDay('2025-07-15', 'Europe/Stockholm')).toISOString()).toBe('2025-07-14T22:00:00.000Z');
    expect(new Date(startOfLocalDay('2025-07-15', 'UTC')).toISOString()).toBe('2025-07-15T00:00:00.000Z');
  });

  it('spans the daylight-saving days with their 23 and 25 hours', () => {
    const spring = localDaysRange('2025-03-30', '2025-03-30', 'Europe/Stockholm');
    expect(spring.toMs - spring.fromMs).toBe(23 * 3_600_000);
    const autumn = localDaysRange('2025-10-26', '2025-10-26', 'Europe/Stockholm');
    expect(autumn.toMs - autumn.fromMs).toBe(25 * 3_600_000);
  });

  it('changes the offset at the very second the clocks change, also on days it has seen before', () => {
    const change = Date.UTC(2025, 2, 30, 1, 0, 0);
    for (let round = 0; round < 2; round++) {
      expect(offsetAt(change - 1000, 'Europe/Stockholm')).toBe(3_600_000);
      expect(offsetAt(change, 'Europe/Stockholm')).toBe(7_200_000);
      expect(isoInZone(change - 1000, 'Europe/Stockholm')).toBe('2025-03-30T01:59:59.000+01:00');
      expect(isoInZone(change, 'Europe/Stockholm')).toBe('2025-03-30T03:00:00.000+02:00');
      // A day without a change, in a zone west of UTC.
      expect(isoInZone(Date.UTC(2025, 6, 1, 3, 30), 'America/New_York')).toBe('2025-06-30T23:30:00.000-04:00');
    }
  });

  it('tells the local day of an instant and writes it with the offset', () => {
    const t = Date.parse('2025-03-10T23:30:00Z');
    expect(localDayOf(t, 'Europe/Stockholm')).toBe('2025-03-11');
    expect(localDayOf(t, 'UTC')).toBe('2025-03-10');
    expect(isoInZone(t, 'Europe/Stockholm')).toBe('2025-03-11T00:30:00.000+01:00');
    expect(isoInZone(t, 'America/New_York')).toBe('2025-03-10T19:30:00.000-04:00');
    expect(isoInZone(Date.parse('2025-03-10T12:00:00.123Z'), 'Asia/Kathmandu')).toBe('2025-03-10T17:45:00.123+05:45');
  });

  it('reads naive date-times in the zone and others as given', () => {
    expect(parseDateTime('2025-07-01T08:00', 'Europe/Stockholm')).toBe(Date.parse('2025-07-01T06:00:00Z'));
    expect(parseDateTime('2025-07-01T08:00:00+00:00', 'Europe/Stockholm')).toBe(Date.parse('2025-07-01T08:00:00Z'));
    expect(parseDateTime('2025-07-01T08:00:00Z', 'Europe/Stockholm')).toBe(Date.parse('2025-07-01T08:00:00Z'));
    // In the spring-forward gap, the time after it.
    expect(parseDateTime('2025-03-30T02:30', 'Europe/Stockholm')).toBe(Date.parse('2025-03-30T01:30:00Z'));
  });

  it('counts days and months', () => {
    expect(addDays('2024-02-28', 1)).toBe('2024-02-29');
    expect(addDays('2025-12-31', 1)).toBe('2026-01-01');
    expect(monthDays('2024-02')).toEqual({ first: '2024-02-01', last: '2024-02-29' });
  });
});

describe('local days of the web trip log', () => {
  it('takes the day of an instant in the given zone, not in UTC', () => {
    // 23:30 UTC on 31 March is 01:30 on 1 April in Stockholm (summer time, +02:00).
    expect(localDayOf(Date.parse('2025-03-31T23:30:00Z'), 'Europe/Stockholm')).toBe('2025-04-01');
    expect(localDayOf(Date.parse('2025-03-31T23:30:00Z'), 'America/New_York')).toBe('2025-03-31');
    expect(localDayOf(Date.parse('2025-01-15T10:00:00+01:00'), 'Europe/Stockholm')).toBe('2025-01-15');
  });

  it('steps over month ends and leap days', () => {
    expect(addDays('2024-02-28', 1)).toBe('2024-02-29');
    expect(addDays('2024-03-01', -1)).toBe('2024-02-29');
    expect(addDays('2025-12-31', 1)).toBe('2026-01-01');
  });
});
