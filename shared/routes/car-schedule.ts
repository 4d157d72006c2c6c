/**
 * The bookings capability's routes (spread into the manifest, shared/routes.ts): the car schedule
 * by week and month, the drivers of a vehicle, and bookings; docs/decisions/0023-car-booking.md.
 * Every route needs the account's car booking (403 CarBookingNotIncluded).
 */
import { z } from 'zod';
import {
  bookingDriversRequestSchema,
  bookingDriversSchema,
  bookingIdParamSchema,
  bookingSaveSchema,
  bookingSchema,
  carScheduleSchema,
  monthScheduleQuerySchema,
  weekScheduleQuerySchema,
} from '../schemas/car-schedule';
import { defineRoute } from '../route-def';

const nothing = z.null();
const base = '/api/v1/user/car-schedule';
const vehicles =
  "The vehicles the caller may see (an ordinary user the granted ones), without units of subscription type 'Bas', optionally only those of Imeis (comma-separated), by name";
const rules =
  "Times are wall times of the TimeZone header's zone (yyyy-MM-dd HH:mm), on one date. 422 per field: purpose required, at most 100 (SpecifyPurpose, PurposeLength); driver_id (SelectDriver; an ordinary user only themself: BookOnlyForYourself; a user who may not use the vehicle: DriverCannotUseVehicle); imei (SelectImei); start_date and end_date (InvalidBookingTime, BookingSameDay, EndDateMustBeAfterStart, StartTimeAndEndTimeCannotBeSame, BookingMinimumTenMinutes, ErrPastDateMsg, SetToCurrentTime, SetToOneHourAhead; the message is then ErrSavePastDateMsg or ErrEditPastDateMsg); an overlapping booking of the vehicle: start_date AlreadyBookedSlot, also when saves race.";

export const carScheduleRoutes = {
  getCarScheduleWeek: defineRoute({
    operationId: 'getCarScheduleWeek',
    method: 'GET',
    path: `${base}/week`,
    capability: 'bookings',
    file: 'get-car-schedule-week',
    access: 'member',
    feature: 'carBooking',
    summary: `${vehicles}, each with its bookings in the week (Monday to Sunday, local days) of week_day; OldestBooking: the date of the vehicles' earliest booking.`,
    query: weekScheduleQuerySchema,
    response: carScheduleSchema,
  }),
  getCarScheduleMonth: defineRoute({
    operationId: 'getCarScheduleMonth',
    method: 'GET',
    path: `${base}/month`,
    capability: 'bookings',
    file: 'get-car-schedule-month',
    access: 'member',
    feature: 'carBooking',
    summary: `My booking: ${vehicles}, each with the caller's own bookings (as driver) in the month's calendar of 42 days from the Monday on or before the 1st; OldestBooking: the date of the caller's earliest booking.`,
    query: monthScheduleQuerySchema,
    response: carScheduleSchema,
  }),
  getCarScheduleDrivers: defineRoute({
    operationId: 'getCarScheduleDrivers',
    method: 'POST',
    path: `${base}/drivers`,
    capability: 'bookings',
    file: 'post-car-schedule-drivers',
    access: 'member',
    feature: 'carBooking',
    summary:
      "Who a vehicle can be booked for: an admin gets the account's users who may see it (admins and the users granted it), an ordinary user only themself. A vehicle the caller may not see: 404.",
    body: bookingDriversRequestSchema,
    response: bookingDriversSchema,
  }),
  createBooking: defineRoute({
    operationId: 'createBooking',
    method: 'POST',
    path: base,
    capability: 'bookings',
    file: 'post-booking',
    access: 'member',
    feature: 'carBooking',
    summary: `Books a vehicle (201, message NewBookingSuccessMsg). ${rules}`,
    body: bookingSaveSchema,
    response: bookingSchema,
  }),
  updateBooking: defineRoute({
    operationId: 'updateBooking',
    method: 'PUT',
    path: `${base}/{id}`,
    capability: 'bookings',
    file: 'put-booking',
    access: 'member',
    feature: 'carBooking',
    summary: `Changes a booking, also to another vehicle (message UpdateSuccessMsg). Another driver's booking, for an ordinary user: 403 CannotEditOthersBooking; a booking that has begun: 422 BookingAlreadyStarted. ${rules}`,
    params: bookingIdParamSchema,
    body: bookingSaveSchema,
    response: bookingSchema,
  }),
  deleteBooking: defineRoute({
    operationId: 'deleteBooking',
    method: 'DELETE',
    path: `${base}/{id}`,
    capability: 'bookings',
    file: 'delete-booking',
    access: 'member',
    feature: 'carBooking',
    summary:
      "Deletes a booking (message DeleteMsg). Another driver's booking, for an ordinary user: 403 CannotEditOthersBooking; a booking that has begun: 422 BookingAlreadyStarted; another account's or none: 404 BookingNotFound.",
    params: bookingIdParamSchema,
    response: nothing,
  }),
};
