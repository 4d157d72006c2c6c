import { describe, expect, it } from 'vitest';
import { bookingFieldErrors, defaultBookingTimes, monthGrid, overlaps, refusedForThePast, splitBookingTime, weekOf, type BookingFields } from './car-schedule';

const NOW = '2025-03-12T12:05';
const fields = (extra: Partial<BookingFields> = {}): BookingFields => ({
  imei: '356938031000007',
  start_date: '2025-03-13 09:00',
  end_date: '2025-03-13 10:00',
  purpose: 'Customer visit',
  driver_id: 'u1',
  ...extra,
});
const check = (extra: Partial<BookingFields>) => bookingFieldErrors(fields(extra), NOW);

describe('bookingFieldErrors: the booking rules of spec section 5', () => {
  it('accepts a booking tomorrow, and one later today', () => {
    expect(check({})).toEqual({});
    expect(check({ start_date: '2025-03-12T12:05', end_date: '2025-03-12T12:15' })).toEqual({});
  });

  it('needs a purpose of at most 100 characters, a driver and a vehicle', () => {
    expect(check({ purpose: '  ' })).toEqual({ purpose: ['SpecifyPurpose'] });
    expect(check({ purpose: 'x'.repeat(101) })).toEqual({ purpose: ['PurposeLength'] });
    expect(check({ purpose: 'x'.repeat(100) })).toEqual({});
    expect(check({ driver_id: '' })).toEqual({ driver_id: ['SelectDriver'] });
    expect(check({ imei: '' })).toEqual({ imei: ['SelectImei'] });
  });

  it('orders start and end on one day, at least 10 minutes apart', () => {
    expect(check({ end_date: '2025-03-13 08:00' })).toEqual({ end_date: ['EndDateMustBeAfterStart'] });
    expect(check({ end_date: '2025-03-13 09:00' })).toEqual({ end_date: ['StartTimeAndEndTimeCannotBeSame'] });
    expect(check({ end_date: '2025-03-13 09:09' })).toEqual({ end_date: ['BookingMinimumTenMinutes'] });
    expect(check({ end_date: '2025-03-13 09:10' })).toEqual({});
    expect(check({ end_date: '2025-03-14 09:00' })).toEqual({ end_date: ['BookingSameDay'] });
  });

  it('refuses the past: a past day, a start or an end before now today', () => {
    expect(check({ start_date: '2025-03-11 09:00', end_date: '2025-03-11 10:00' })).toEqual({ start_date: ['ErrPastDateMsg'] });
    expect(check({ start_date: '2025-03-12 11:00', end_date: '2025-03-12 14:00' })).toEqual({ start_date: ['SetToCurrentTime'] });
    expect(check({ start_date: '2025-03-12 11:00', end_date: '2025-03-12 12:00' })).toEqual({ start_date: ['SetToCurrentTime'], end_date: ['SetToOneHourAhead'] });
    expect(refusedForThePast(check({ start_date: '2025-03-12 11:00', end_date: '2025-03-12 14:00' }))).toBe(true);
    expect(refusedForThePast(check({ purpose: '' }))).toBe(false);
  });

  it('refuses what is not a date and time', () => {
    expect(check({ start_date: '2025-02-30 09:00', end_date: 'tomorrow' })).toEqual({ start_date: ['InvalidBookingTime'], end_date: ['InvalidBookingTime'] });
    expect(splitBookingTime('2025-03-13T09:00:00+01:00')).toEqual({ wall: '2025-03-13T09:00', offset: '+01:00' });
    expect(splitBookingTime('2025-03-13 24:00')).toBeNull();
  });
});

describe('calendar days and defaults', () => {
  it('weeks run Monday to Sunday, the month grid is 42 days from Monday', () => {
    expect(weekOf('2025-03-16')).toEqual(['2025-03-10', '2025-03-11', '2025-03-12', '2025-03-13', '2025-03-14', '2025-03-15', '2025-03-16']);
    const grid = monthGrid('2025-03');
    expect([grid.length, grid[0], grid[41]]).toEqual([42, '2025-02-24', '2025-04-06']);
  });

  it('a new booking runs from the next full hour for one hour', () => {
    expect(defaultBookingTimes('2025-03-12T12:05')).toEqual({ start: '2025-03-12T13:00', end: '2025-03-12T14:00' });
    expect(defaultBookingTimes('2025-03-12T23:30')).toEqual({ start: '2025-03-13T00:00', end: '2025-03-13T01:00' });
  });

  it('bookings that only touch do not overlap', () => {
    expect(overlaps({ startMs: 0, endMs: 10 }, { startMs: 10, endMs: 20 })).toBe(false);
    expect(overlaps({ startMs: 0, endMs: 11 }, { startMs: 10, endMs: 20 })).toBe(true);
  });
});
