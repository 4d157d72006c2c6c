/**
 * Car booking (docs/api.md Car booking; spec sections 2, 3, 5, 6 and 9): the schedule answers,
 * the booking payload as the contract writes it (imei, start_date, end_date, purpose, driver_id),
 * and the one rule function both the booking form and the server check a booking with.
 *
 * Times of a booking are wall times of the caller's zone (the TimeZone header), `yyyy-MM-dd HH:mm`
 * or `yyyy-MM-ddTHH:mm[:ss]`; one with an offset (`Z`, `+02:00`) is that instant. A booking is one
 * local date with a start and an end time (docs/decisions/0023-car-booking.md).
 */
import { z } from 'zod';
import { carScheduleMessageKeys as keys, type CarScheduleMessageKey } from './car-schedule-messages';
import { isCalendarDay, isDateTime } from './dates';

/** Spec section 9. */
export const BOOKING_PURPOSE_MAX = 100;
export const BOOKING_MINIMUM_MINUTES = 10;
/** The time pickers' step; the server takes any minute (SetToCurrentTime moves a start to now). */
export const BOOKING_TIME_STEP_MINUTES = 15;
/** Calendar grid of My booking: 6 weeks from Monday. */
export const CALENDAR_CELLS = 42;
/** The week grid and the month calendar show this many bookings per day, then '+N more'. */
export const BOOKINGS_PER_CELL = 2;
/** Units of this subscription type have the trip log only and are not in the car schedule. */
export const UNBOOKABLE_SUBSCRIPTION = 'Bas';

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})?$/;

/**
 * A date-time of a booking split into its wall time (`yyyy-MM-ddTHH:mm`) and its offset, or null when
 * it is none: the day, the time of day and the offset must exist (shared/schemas/dates.ts).
 */
export function splitBookingTime(text: string): { wall: string; offset: string | null } | null {
  const trimmed = text.trim();
  if (!isDateTime(trimmed, { allowSpace: true })) return null;
  const m = DATE_TIME.exec(trimmed);
  if (!m) return null;
  const [, y, mo, d, h, mi, , offset] = m;
  return { wall: `${y}-${mo}-${d}T${h}:${mi}`, offset: offset ?? null };
}

/** Minutes of a wall time `yyyy-MM-ddTHH:mm` since the epoch, as if it were UTC (differences within a day). */
export function wallMinutes(wall: string): number {
  const [day = '1970-01-01', time = '00:00'] = wall.split('T');
  const [y = 1970, m = 1, d = 1] = day.split('-').map(Number);
  const [h = 0, mi = 0] = time.split(':').map(Number);
  return Date.UTC(y, m - 1, d, h, mi) / 60_000;
}

/** A wall time from minutes since the epoch (the inverse of wallMinutes). */
export function wallFromMinutes(minutes: number): string {
  return new Date(minutes * 60_000).toISOString().slice(0, 16);
}

/** yyyy-MM-dd plus days. */
export function addCalendarDays(day: string, days: number): string {
  const [y = 1970, m = 1, d = 1] = day.split('-').map(Number);
  return new Date(Date.UTC(y, m - 1, d + days)).toISOString().slice(0, 10);
}

/** The Monday of the week a day is in (weeks start on Monday). */
export function mondayOf(day: string): string {
  const [y = 1970, m = 1, d = 1] = day.split('-').map(Number);
  const weekday = (new Date(Date.UTC(y, m - 1, d)).getUTCDay() + 6) % 7;
  return addCalendarDays(day, -weekday);
}

/** The seven days, Monday to Sunday, of the week a day is in. */
export function weekOf(day: string): string[] {
  const monday = mondayOf(day);
  return Array.from({ length: 7 }, (_, i) => addCalendarDays(monday, i));
}

/** The 42 days of a month's calendar (yyyy-MM): six weeks from the Monday on or before the 1st. */
export function monthGrid(month: string): string[] {
  const first = mondayOf(`${month}-01`);
  return Array.from({ length: CALENDAR_CELLS }, (_, i) => addCalendarDays(first, i));
}

/**
 * A new booking's default times (spec section 5): from the next full hour to one hour later, from
 * the caller's wall time now (`yyyy-MM-ddTHH:mm`).
 */
export function defaultBookingTimes(now: string): { start: string; end: string } {
  const next = Math.floor(wallMinutes(now.slice(0, 16)) / 60) * 60 + 60;
  return { start: wallFromMinutes(next), end: wallFromMinutes(next + 60) };
}

export interface BookingFields {
  imei: string;
  start_date: string;
  end_date: string;
  purpose: string;
  driver_id: string;
}

export type BookingFieldErrors = Partial<Record<keyof BookingFields, CarScheduleMessageKey[]>>;

const PAST_KEYS: readonly CarScheduleMessageKey[] = [keys.ErrPastDateMsg, keys.SetToCurrentTime, keys.SetToOneHourAhead];

/** Whether the errors refuse a booking because of a past date or time (its message is then ErrSavePastDateMsg or ErrEditPastDateMsg). */
export const refusedForThePast = (errors: BookingFieldErrors): boolean =>
  Object.values(errors).some((list) => list?.some((key) => PAST_KEYS.includes(key)));

/**
 * The rules of spec section 5 for one booking, for the form and the server alike. `now` is the wall
 * time in the booking's zone (`yyyy-MM-ddTHH:mm[:ss]`); the date-times are wall times of that zone
 * (an offset is converted by the caller first). One key per field, the first rule that fails:
 * purpose required and at most 100 (SpecifyPurpose, PurposeLength); driver (SelectDriver) and vehicle
 * (SelectImei) required; start and end on one day (BookingSameDay), end after the start
 * (EndDateMustBeAfterStart, StartTimeAndEndTimeCannotBeSame) by at least 10 minutes
 * (BookingMinimumTenMinutes); not a past day (ErrPastDateMsg); today, a start before now
 * (SetToCurrentTime) or an end before now (SetToOneHourAhead).
 */
export function bookingFieldErrors(fields: BookingFields, now: string): BookingFieldErrors {
  const errors: BookingFieldErrors = {};
  const purpose = fields.purpose.trim();
  if (!purpose) errors.purpose = [keys.SpecifyPurpose];
  else if (purpose.length > BOOKING_PURPOSE_MAX) errors.purpose = [keys.PurposeLength];
  if (!fields.driver_id.trim()) errors.driver_id = [keys.SelectDriver];
  if (!fields.imei.trim()) errors.imei = [keys.SelectImei];

  const start = splitBookingTime(fields.start_date);
  const end = splitBookingTime(fields.end_date);
  if (!start) errors.start_date = [keys.InvalidBookingTime];
  if (!end) errors.end_date = [keys.InvalidBookingTime];
  if (!start || !end) return errors;

  const nowWall = now.slice(0, 16);
  const today = nowWall.slice(0, 10);
  const startDay = start.wall.slice(0, 10);
  const length = wallMinutes(end.wall) - wallMinutes(start.wall);
  if (startDay < today) errors.start_date = [keys.ErrPastDateMsg];
  else if (start.wall < nowWall) errors.start_date = [keys.SetToCurrentTime];

  if (end.wall.slice(0, 10) !== startDay) errors.end_date = [keys.BookingSameDay];
  else if (length < 0) errors.end_date = [keys.EndDateMustBeAfterStart];
  else if (length === 0) errors.end_date = [keys.StartTimeAndEndTimeCannotBeSame];
  else if (length < BOOKING_MINIMUM_MINUTES) errors.end_date = [keys.BookingMinimumTenMinutes];
  else if (startDay >= today && end.wall < nowWall) errors.end_date = [keys.SetToOneHourAhead];
  return errors;
}

/** Two bookings overlap when each starts before the other ends (one ending as the next starts is fine). */
export const overlaps = (a: { startMs: number; endMs: number }, b: { startMs: number; endMs: number }): boolean => a.startMs < b.endMs && b.startMs < a.endMs;

// The wire.

const text = (max: number) => z.string().max(max, keys.PurposeLength);
const dateTimeText = z
  .string({ message: keys.InvalidBookingTime })
  .max(40, keys.InvalidBookingTime)
  .refine((text) => splitBookingTime(text) !== null, keys.InvalidBookingTime);
/** An id the browser may send as a number. */
const idLike = z.union([z.string().trim().max(64), z.number().int().nonnegative()]).transform(String);

/** POST /car-schedule and PUT /car-schedule/{id}: the contract's payload. `id` in a PUT body is accepted and the path's wins. */
export const bookingSaveSchema = z.object({
  id: idLike.optional(),
  imei: z.union([z.string().trim().max(20, keys.SelectImei), z.number().int().nonnegative()]).transform(String).default(''),
  start_date: dateTimeText,
  end_date: dateTimeText,
  purpose: text(1000).default(''),
  driver_id: idLike.nullable().default('').transform((v) => v ?? ''),
});
export type BookingSaveRequest = z.input<typeof bookingSaveSchema>;
export type BookingSave = z.output<typeof bookingSaveSchema>;

export const bookingIdParamSchema = z.object({ id: z.string().min(1).max(80) });

const imeiList = z
  .string()
  .max(4000)
  .optional()
  .transform((v) => (v ?? '').split(',').map((s) => s.trim()).filter(Boolean));

export const weekScheduleQuerySchema = z.object({
  Imeis: imeiList,
  week_day: z.string().regex(DAY, 'InvalidBookingTime').refine(isCalendarDay, 'InvalidBookingTime'),
});
export const monthScheduleQuerySchema = z.object({
  Imeis: imeiList,
  month: z.string().regex(/^\d{4}-(0[1-9]|1[0-2])$/, 'InvalidBookingTime'),
});

export const bookingSchema = z.object({
  id: z.string(),
  /** The spec's name of the id. */
  booking_id: z.string(),
  imei: z.string(),
  registration_number: z.string(),
  /** The local date (yyyy-MM-dd) and times (HH:mm) in the caller's zone. */
  date: z.string(),
  start_time: z.string(),
  end_time: z.string(),
  /** ISO 8601 with the caller's offset. */
  start_date: z.string(),
  end_date: z.string(),
  purpose: z.string(),
  /** The driver (the spec's booked_by). */
  driver_id: z.string(),
  booked_by: z.string(),
  driver_name: z.string(),
  /** Whether the caller may edit and delete it: their own or an admin's, and not begun. */
  editable: z.boolean(),
});
export type Booking = z.infer<typeof bookingSchema>;

export const vehicleScheduleSchema = z.object({
  ID: z.string(),
  Name: z.string(),
  RegistrationNumber: z.string(),
  Model: z.string(),
  Imei: z.string(),
  SubscriptionType: z.string().nullable(),
  Schedule: z.array(bookingSchema),
});
export type VehicleSchedule = z.infer<typeof vehicleScheduleSchema>;

export const carScheduleSchema = z.object({
  BookingSchedules: z.array(vehicleScheduleSchema),
  /** The local date of the earliest booking shown by this view's kind (the vehicles', or the caller's own in the month), or null. */
  OldestBooking: z.string().nullable(),
  /** The local days the answer covers: a week from Monday, or the month's 42-day grid. */
  from: z.string(),
  to: z.string(),
});
export type CarSchedule = z.infer<typeof carScheduleSchema>;

export const bookingDriversRequestSchema = z.object({
  imei: z.union([z.string().trim().min(1, keys.SelectImei).max(20, keys.SelectImei), z.number().int().nonnegative()]).transform(String),
});
export const bookingDriverSchema = z.object({ ID: z.string(), FirstName: z.string(), LastName: z.string() });
export const bookingDriversSchema = z.object({ members: z.array(bookingDriverSchema) });
export type BookingDriver = z.infer<typeof bookingDriverSchema>;
