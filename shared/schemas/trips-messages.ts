/**
 * Message keys of the trip log (spec sections 5 and 8): the server answers with these keys and the
 * browser translates them (shared/i18n/features/trips holds each in en, sv and no).
 */
export const tripMessageKeys = {
  NotFound: 'NotFound',
  InvalidImei: 'InvalidImei',
  InvalidDate: 'InvalidDate',
  EndDateMustBeAfterStart: 'EndDateMustBeAfterStart',
  /** A trip-log search spans at most 12 months (spec sections 5 and 9). */
  TripPeriodTooLong: 'TripPeriodTooLong',
  /** An attested trip cannot be edited, merged or split (423). */
  TripIsAttested: 'TripIsAttested',
  InvalidTripType: 'InvalidTripType',
  /** The note holds at most 100 characters (spec section 9). */
  TripNoteTooLong: 'TripNoteTooLong',
  TripPurposeTooLong: 'TripPurposeTooLong',
  TripPassengersTooLong: 'TripPassengersTooLong',
  /** Free-text purposes or projects while the account does not let users add their own. */
  PurposeNotAllowed: 'PurposeNotAllowed',
  ProjectNotAllowed: 'ProjectNotAllowed',
  /** A driver who is not a user of the account. */
  InvalidDriver: 'InvalidDriver',
  /** Merge refusals of spec sections 5 and 8. */
  CannotMergePrivateWithBusiness: 'CannotMergePrivateWithBusiness',
  CannotMergeDifferentTypes: 'CannotMergeDifferentTypes',
  CannotMergeDifferentDates: 'CannotMergeDifferentDates',
  CannotMergeDifferentDrivers: 'CannotMergeDifferentDrivers',
  CannotMergeAlreadyMerged: 'CannotMergeAlreadyMerged',
  NoTripsFound: 'NoTripsFound',
  /** The second trip is not the one directly after the first. */
  NoTripBelow: 'NoTripBelow',
  CouldNotSplitOrMerge: 'CouldNotSplitOrMerge',
  /** Route display limits of spec sections 5 and 9. */
  RouteTooManyTrips: 'RouteTooManyTrips',
  RouteSpanTooLong: 'RouteSpanTooLong',
  RouteDifferentDays: 'RouteDifferentDays',
  RoutePrivateTrip: 'RoutePrivateTrip',
  /** Driver check-in (spec section 5: 'No driver' is not a driver). */
  NoDriverNotAllowed: 'NoDriverNotAllowed',
  CheckInFuture: 'CheckInFuture',
  InvalidQrCode: 'InvalidQrCode',
  QrCheckInNotAllowed: 'QrCheckInNotAllowed',
  /** Odometer entries. */
  InvalidOdometer: 'InvalidOdometer',
  /** Attestation. */
  AttestNoteTooLong: 'AttestNoteTooLong',
  AttestationNotFound: 'AttestationNotFound',
  NothingToAttest: 'NothingToAttest',
  /** A period attested past today would lock trips not yet driven. */
  AttestPeriodNotEnded: 'AttestPeriodNotEnded',
  /** An attestation an admin unlocked cannot be approved any more (422). */
  AttestationIsUnlocked: 'AttestationIsUnlocked',
  /** A month, yyyy-MM. */
  InvalidMonth: 'InvalidMonth',
  /** A date-time: ISO 8601, with an offset or read in the TimeZone header's zone. */
  InvalidDateTime: 'InvalidDateTime',
  /** An odometer reading dated in the future. */
  OdometerEntryInFuture: 'OdometerEntryInFuture',
} as const;

export type TripMessageKey = (typeof tripMessageKeys)[keyof typeof tripMessageKeys];
