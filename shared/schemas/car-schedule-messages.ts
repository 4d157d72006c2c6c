/**
 * Message keys of car booking (spec sections 5 and 8): the server answers with these keys and the
 * browser translates them (shared/i18n/features/car-schedule holds each in en, sv and no, except
 * EndDateMustBeAfterStart, which lives in the tracking module, and NotFound in core).
 */
export const carScheduleMessageKeys = {
  SpecifyPurpose: 'SpecifyPurpose',
  /** More than BOOKING_PURPOSE_MAX characters. */
  PurposeLength: 'PurposeLength',
  SelectDriver: 'SelectDriver',
  /** No vehicle chosen (My booking with more than one vehicle, and the API). */
  SelectImei: 'SelectImei',
  /** A start or end that is not a date and time. */
  InvalidBookingTime: 'InvalidBookingTime',
  /** Start and end on different local days (a booking is one date with a start and an end time). */
  BookingSameDay: 'BookingSameDay',
  EndDateMustBeAfterStart: 'EndDateMustBeAfterStart',
  StartTimeAndEndTimeCannotBeSame: 'StartTimeAndEndTimeCannotBeSame',
  /** End less than BOOKING_MINIMUM_MINUTES after the start. */
  BookingMinimumTenMinutes: 'BookingMinimumTenMinutes',
  /** The booking's date is a past day. */
  ErrPastDateMsg: 'ErrPastDateMsg',
  /** The message of a new booking refused because of a past date or time. */
  ErrSavePastDateMsg: 'ErrSavePastDateMsg',
  /** The message of an edit refused because of a past date or time. */
  ErrEditPastDateMsg: 'ErrEditPastDateMsg',
  /** Today, a start earlier than now. */
  SetToCurrentTime: 'SetToCurrentTime',
  /** Today, an end earlier than now. */
  SetToOneHourAhead: 'SetToOneHourAhead',
  /** The vehicle is booked at an overlapping time ('Already booked slot'). */
  AlreadyBookedSlot: 'AlreadyBookedSlot',
  /** An ordinary user's edit or delete of a booking of another driver. */
  CannotEditOthersBooking: 'CannotEditOthersBooking',
  /** A booking that has begun (past or ongoing) cannot be edited or deleted. */
  BookingAlreadyStarted: 'BookingAlreadyStarted',
  /** An ordinary user books only for themself. */
  BookOnlyForYourself: 'BookOnlyForYourself',
  /** A driver who is not a user of the account that may use the vehicle. */
  DriverCannotUseVehicle: 'DriverCannotUseVehicle',
  BookingNotFound: 'BookingNotFound',
  /** The vehicle's bookings kept changing while this one was saved: try again. */
  BookingChanged: 'BookingChanged',
  NewBookingSuccessMsg: 'NewBookingSuccessMsg',
  UpdateSuccessMsg: 'UpdateSuccessMsg',
  DeleteMsg: 'DeleteMsg',
} as const;

export type CarScheduleMessageKey = (typeof carScheduleMessageKeys)[keyof typeof carScheduleMessageKeys];
