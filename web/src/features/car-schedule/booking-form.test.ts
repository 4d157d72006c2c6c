import { describe, expect, it } from 'vitest';
import { bookingBody, bookingFormErrors, newBookingValues, timeOptions } from './booking-form';

describe('the booking form', () => {
  it('offers times in 15-minute steps, with a time off the steps (now) in order', () => {
    const options = timeOptions(['12:07']);
    expect([options.length, options[0], options[1], options.at(-1)]).toEqual([97, '00:00', '00:15', '23:45']);
    expect(options.slice(48, 51)).toEqual(['12:00', '12:07', '12:15']);
  });

  it('starts a new booking at the next full hour for one hour, on the day chosen', () => {
    expect(newBookingValues('2025-03-12T12:05', 'u1')).toMatchObject({ date: '2025-03-12', start: '13:00', end: '14:00', driverId: 'u1' });
    expect(newBookingValues('2025-03-12T12:05', 'u1', 'imei', '2025-03-14')).toMatchObject({ date: '2025-03-14', start: '13:00', imei: 'imei' });
    expect(newBookingValues('2025-03-12T22:40', 'u1')).toMatchObject({ date: '2025-03-12', start: '23:00', end: '23:45' });
  });

  it('checks with the shared rules and sends the contract payload', () => {
    const values = { ...newBookingValues('2025-03-12T12:05', 'u1', 'imei'), purpose: '' };
    expect(bookingFormErrors(values, '2025-03-12T12:05')).toEqual({ purpose: ['SpecifyPurpose'] });
    expect(bookingFormErrors({ ...values, purpose: 'x', imei: '' }, '2025-03-12T12:05')).toEqual({ imei: ['SelectImei'] });
    expect(bookingBody({ ...values, purpose: 'Visit' })).toEqual({ imei: 'imei', start_date: '2025-03-12 13:00', end_date: '2025-03-12 14:00', purpose: 'Visit', driver_id: 'u1' });
  });
});
