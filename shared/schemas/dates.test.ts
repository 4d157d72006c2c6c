import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { splitBookingTime } from './car-schedule';
import { placeApplyRequestSchema } from './places';
import { isCalendarDay, isDateTime, isValidOffset } from './dates';
import { dateTimeSchema, tripPeriodProblem, tripsQuerySchema } from './trips';

/** Field and key of each issue, once each (as the API answers them). */
const issuesOf = (error: z.ZodError | undefined) => [...new Set(error?.issues.map((i) => `${i.path.join('.')} ${i.message}`))];

describe('days and date-times of a request', () => {
  it('a day is a calendar day that exists', () => {
    for (const day of ['2026-01-31', '2024-02-29', '2000-02-29', '0001-01-01', '9999-12-31']) expect(isCalendarDay(day), day).toBe(true);
    for (const day of ['2026-02-29', '1900-02-29', '2026-04-31', '2026-13-01', '2026-00-10', '2026-01-00', '0000-01-01', '1x', '2026-1-01', ' 2026-01-01', 20260101]) {
      expect(isCalendarDay(day), String(day)).toBe(false);
    }
  });

  it('an offset is Z or within ±14:00', () => {
    for (const offset of ['Z', '+00:00', '-12:00', '+14:00', '+05:45']) expect(isValidOffset(offset), offset).toBe(true);
    for (const offset of ['+99:99', '+14:01', '-15:00', '+02:60', '+0200', 'z', '']) expect(isValidOffset(offset), offset).toBe(false);
  });

  it('a date-time has a day, a time of day and an offset that exist', () => {
    expect(isDateTime('2026-03-01T23:59:59.999+01:00')).toBe(true);
    expect(isDateTime('2026-03-01T10:00')).toBe(true);
    expect(isDateTime('2026-03-01 10:00')).toBe(false);
    expect(isDateTime('2026-03-01 10:00', { allowSpace: true })).toBe(true);
    expect(isDateTime('2026-03-01T10:00', { requireOffset: true })).toBe(false);
    for (const text of ['2026-03-01T10:00+99:99', '2026-02-30T10:00', '2026-03-01T24:00', '2026-03-01T10:60', '2026-03-01T10:00:60Z', '1x']) {
      expect(isDateTime(text), text).toBe(false);
    }
    expect(dateTimeSchema.safeParse('2026-03-01T10:00+99:99').success).toBe(false);
    expect(splitBookingTime('2026-03-01T10:00+99:99')).toBeNull();
    expect(splitBookingTime('2026-03-01 10:00+14:00')).toEqual({ wall: '2026-03-01T10:00', offset: '+14:00' });
  });

  it('a period rule says nothing of a from or to that is no day: the field answers it', () => {
    expect(tripPeriodProblem('1x', '2026-01-01')).toBeNull();
    const trips = tripsQuerySchema.safeParse({ imei: '356938031000004', from: '1x', to: '2026-01-01' });
    expect(issuesOf(trips.error)).toEqual(['from InvalidDate']);
    const apply = placeApplyRequestSchema.safeParse({ from: '1x', to: '2026-01-01' });
    expect(issuesOf(apply.error)).toEqual(['from PlaceApplyInvalidDate']);
  });
});
