/**
 * The booking form's pure parts: the browser's wall time now, the 15-minute time options, and the
 * check of spec section 5 with the server's own rule function (bookingFieldErrors), so the form
 * shows the same key per field before asking as the server's 422 after.
 */
import {
  BOOKING_TIME_STEP_MINUTES,
  bookingFieldErrors,
  defaultBookingTimes,
  type Booking,
  type BookingFieldErrors,
  type BookingSaveRequest,
} from '../../../../shared/schemas/car-schedule';

/** The wall time now in the browser's zone (the zone the API calls send), `yyyy-MM-ddTHH:mm`. */
export function wallNow(now: Date = new Date()): string {
  const local = new Date(now.getTime() - now.getTimezoneOffset() * 60_000);
  return local.toISOString().slice(0, 16);
}

/** Today's local date, yyyy-MM-dd. */
export const today = (now: Date = new Date()): string => wallNow(now).slice(0, 10);

/** 00:00, 00:15, ... 23:45, and `extra` (a time that is not on a step, such as now) in order. */
export function timeOptions(extra: readonly string[] = []): string[] {
  const steps = Array.from({ length: (24 * 60) / BOOKING_TIME_STEP_MINUTES }, (_, i) => {
    const minutes = i * BOOKING_TIME_STEP_MINUTES;
    return `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
  });
  return [...new Set([...steps, ...extra.filter((t) => /^\d{2}:\d{2}$/.test(t))])].sort();
}

export interface BookingFormValues {
  imei: string;
  date: string;
  start: string;
  end: string;
  purpose: string;
  driverId: string;
}

/** A new booking's values (spec section 5): today (or the day chosen), the next full hour to one hour later. */
export function newBookingValues(nowWall: string, driverId: string, imei = '', date?: string): BookingFormValues {
  const { start, end } = defaultBookingTimes(nowWall);
  // A default that would run past midnight ends at the day's last step.
  const endTime = end.slice(0, 10) === start.slice(0, 10) ? end.slice(11) : '23:45';
  return { imei, date: date ?? start.slice(0, 10), start: start.slice(11), end: endTime, purpose: '', driverId };
}

export const bookingValues = (b: Booking): BookingFormValues => ({ imei: b.imei, date: b.date, start: b.start_time, end: b.end_time, purpose: b.purpose, driverId: b.driver_id });

export const bookingBody = (v: BookingFormValues): BookingSaveRequest => ({
  imei: v.imei,
  start_date: `${v.date} ${v.start}`,
  end_date: `${v.date} ${v.end}`,
  purpose: v.purpose,
  driver_id: v.driverId,
});

/** The form's field problems by the shared rules, keyed by the API's field names. */
export const bookingFormErrors = (v: BookingFormValues, nowWall: string): BookingFieldErrors =>
  bookingFieldErrors({ imei: v.imei, start_date: `${v.date} ${v.start}`, end_date: `${v.date} ${v.end}`, purpose: v.purpose, driver_id: v.driverId }, nowWall);
