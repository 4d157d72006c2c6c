/**
 * The trip log's payloads (docs/api.md Trips; spec sections 3, 4, 5 and 9): trips as detected at
 * ingest and edited by their users, merge and split, the route of a trip, odometer entries, driver
 * check-in and attestation. Distances are kilometres with up to 3 decimals, odometers kilometres,
 * times ISO 8601 with offset; a period is local days (yyyy-MM-dd) in the TimeZone header's zone.
 */
import { z } from 'zod';
import { tripMessageKeys as keys } from './trips-messages';
import { IMEI_PATTERN } from '../validators/imei';
import { isCalendarDay, isDateTime } from './dates';

export const tripTypes = ['business', 'private', 'other'] as const;
export const tripTypeSchema = z.enum(tripTypes, { message: keys.InvalidTripType });
export type TripType = z.infer<typeof tripTypeSchema>;

/** Spec section 9: the note holds at most 100 characters. Purpose and passengers get the same bound. */
export const TRIP_NOTE_MAX = 100;
export const TRIP_PURPOSE_MAX = 100;
export const TRIP_PASSENGERS_MAX = 100;
/** Spec sections 5 and 9: a trip-log period is at most 12 months. */
export const TRIP_PERIOD_MAX_MONTHS = 12;
/** Spec sections 5 and 9: routes on the map for at most 10 trips, within 7 days, of one day, no private trip. */
export const ROUTE_MAX_TRIPS = 10;
export const ROUTE_MAX_DAYS = 7;

/** A local calendar day, yyyy-MM-dd, that exists. */
export const localDaySchema = z.iso.date({ message: keys.InvalidDate }).refine(isCalendarDay, keys.InvalidDate);

export const tripSchema = z.object({
  /** Opaque to clients; stable for a detected trip (the unit and its start). */
  id: z.string(),
  imei: z.string(),
  startTime: z.string(),
  stopTime: z.string(),
  startAddress: z.string().nullable(),
  stopAddress: z.string().nullable(),
  startLat: z.number(),
  startLon: z.number(),
  stopLat: z.number(),
  stopLon: z.number(),
  /** km */
  startOdometer: z.number().nullable(),
  stopOdometer: z.number().nullable(),
  /** km, 3 decimals */
  distance: z.number(),
  type: tripTypeSchema,
  purpose: z.string().nullable(),
  note: z.string().nullable(),
  driverId: z.string().nullable(),
  /** The driver's full name, for display; null without a driver. */
  driverName: z.string().nullable(),
  passengers: z.string().nullable(),
  project: z.string().nullable(),
  /** Joined from two or more detected trips; split undoes the last join. */
  merged: z.boolean(),
  attested: z.boolean(),
});
export type Trip = z.infer<typeof tripSchema>;

export const tripTotalsSchema = z.object({
  count: z.number().int(),
  /** km */
  distance: z.number(),
});
export const tripListSchema = z.object({
  trips: z.array(tripSchema),
  /** Per type over the period. */
  totals: z.object({ business: tripTotalsSchema, private: tripTotalsSchema, other: tripTotalsSchema }),
});
export type TripList = z.infer<typeof tripListSchema>;

/** `day` plus `months` calendar months, yyyy-MM-dd (the day of month overflows as Date.UTC does). */
export function addMonthsToDay(day: string, months: number): string {
  const [y = 0, m = 1, d = 1] = day.split('-').map(Number);
  return new Date(Date.UTC(y, m - 1 + months, d)).toISOString().slice(0, 10);
}

/**
 * The problem with a period of local days, or null: `to` before `from`, or a period longer than 12
 * months (spec sections 5 and 9: `to` must come before the same day 12 months after `from`).
 */
export function tripPeriodProblem(from: string, to: string): typeof keys.EndDateMustBeAfterStart | typeof keys.TripPeriodTooLong | null {
  // Not two days: the days' own check (InvalidDate) answers; zod runs this refinement anyway.
  if (!isCalendarDay(from) || !isCalendarDay(to)) return null;
  if (to < from) return keys.EndDateMustBeAfterStart;
  if (to >= addMonthsToDay(from, TRIP_PERIOD_MAX_MONTHS)) return keys.TripPeriodTooLong;
  return null;
}

function checkPeriod(value: { from: string; to: string }, ctx: z.RefinementCtx): void {
  const problem = tripPeriodProblem(value.from, value.to);
  if (problem) ctx.addIssue({ code: 'custom', path: ['to'], message: problem });
}

export const tripsQuerySchema = z
  .object({
    imei: z.string().regex(IMEI_PATTERN, keys.InvalidImei),
    from: localDaySchema,
    to: localDaySchema,
  })
  .superRefine(checkPeriod);

export const tripIdParamSchema = z.object({ id: z.string().min(1, keys.NotFound).max(64, keys.NotFound) });

/** PUT /trips/{id}: any subset; null clears a field. Date, times and distance are never editable. */
export const tripUpdateSchema = z
  .object({
    type: tripTypeSchema,
    purpose: z.string().trim().max(TRIP_PURPOSE_MAX, keys.TripPurposeTooLong).nullable(),
    note: z.string().trim().max(TRIP_NOTE_MAX, keys.TripNoteTooLong).nullable(),
    driverId: z.string().max(64, keys.InvalidDriver).nullable(),
    passengers: z.string().trim().max(TRIP_PASSENGERS_MAX, keys.TripPassengersTooLong).nullable(),
    project: z.string().trim().max(100, keys.ProjectNotAllowed).nullable(),
  })
  .partial();
export type TripUpdate = z.infer<typeof tripUpdateSchema>;

export const tripMergeSchema = z.object({ ids: z.tuple([z.string().min(1), z.string().min(1)], { message: keys.NoTripsFound }) });

/** POST /trips/{id}/split answers the trips the last merge joined. */
export const tripSplitSchema = z.array(tripSchema);

export const tripRoutePointSchema = z.object({
  ts: z.string(),
  lat: z.number(),
  lon: z.number(),
  speed: z.number().nullable(),
});
export const tripRouteSchema = z.array(tripRoutePointSchema);

/** GET /trips/{id}/passages: the congestion tax passages of a trip, priced with the rest of their tax days. */
export const tripPassageSchema = z.object({
  time: z.string(),
  city: z.enum(['stockholm', 'gothenburg']),
  station: z.string(),
  direction: z.enum(['in', 'out']),
  amount: z.number(),
  reason: z.string().nullable(),
  uncertain: z.boolean(),
});
export type TripPassage = z.infer<typeof tripPassageSchema>;
export const tripPassagesSchema = z.array(tripPassageSchema);

/** A unit in a path (odometer entries, the check-in code). */
export const tripUnitParamSchema = z.object({ imei: z.string().regex(IMEI_PATTERN, keys.InvalidImei) });

/**
 * A date-time, ISO 8601: with an offset (`Z`, `+02:00`) it is that instant; without one it is a
 * wall-clock time in the TimeZone header's zone (docs/api.md conventions), which the server resolves.
 * The day, the time of day and the offset must exist (shared/schemas/dates.ts).
 */
export const dateTimeSchema = z.string().refine((text) => isDateTime(text), keys.InvalidDateTime);

/** Spec section 3: an odometer entry is a date and time and a value (km). */
export const ODOMETER_MAX_KM = 10_000_000;
export const odometerEntryRequestSchema = z.object({
  time: dateTimeSchema,
  value: z.number({ message: keys.InvalidOdometer }).min(0, keys.InvalidOdometer).max(ODOMETER_MAX_KM, keys.InvalidOdometer),
});
export type OdometerEntryRequest = z.infer<typeof odometerEntryRequestSchema>;
export const odometerEntrySchema = z.object({
  id: z.string(),
  imei: z.string(),
  /** ISO 8601 with the offset of the TimeZone header's zone. */
  time: z.string(),
  /** km */
  value: z.number(),
  createdBy: z.string().nullable(),
  createdAt: z.string(),
});
export type OdometerEntry = z.infer<typeof odometerEntrySchema>;
export const odometerEntryListSchema = z.array(odometerEntrySchema);
export const odometerEntryParamsSchema = z.object({
  imei: z.string().regex(IMEI_PATTERN, keys.InvalidImei),
  entryId: z.string().regex(/^\d{1,15}$/, keys.NotFound),
});

/** The spec's 'No driver' choice of the check-in list: never a driver (spec section 5). */
export const NO_DRIVER = 'No driver';
const isNoDriver = (driverId: string | null | undefined): boolean => !driverId || driverId.trim().toLowerCase() === NO_DRIVER.toLowerCase();

/**
 * POST /driver-check-in: `{ imei, driverId }` checks a driver in on a unit; `{ qr }` (the code of
 * the unit's QR sticker, or the URL it holds) checks the caller in on the unit it names. `from`
 * defaults to now and may not lie in the future.
 */
export const driverCheckInRequestSchema = z
  .object({
    imei: z.string().regex(IMEI_PATTERN, keys.InvalidImei).optional(),
    driverId: z.string().max(64, keys.InvalidDriver).nullable().optional(),
    qr: z.string().trim().min(1, keys.InvalidQrCode).max(300, keys.InvalidQrCode).optional(),
    from: dateTimeSchema.optional(),
  })
  .superRefine((value, ctx) => {
    if (value.qr !== undefined) return;
    if (value.imei === undefined) ctx.addIssue({ code: 'custom', path: ['imei'], message: keys.InvalidImei });
    if (isNoDriver(value.driverId)) ctx.addIssue({ code: 'custom', path: ['driverId'], message: keys.NoDriverNotAllowed });
  });
export type DriverCheckInRequest = z.infer<typeof driverCheckInRequestSchema>;
export const driverCheckInSchema = z.object({
  imei: z.string(),
  driverId: z.string(),
  driverName: z.string().nullable(),
  /** When the check-in starts, and when the next one takes over (null: it is the current one). */
  from: z.string(),
  until: z.string().nullable(),
  /** Trips whose driver changed (attested trips and trips whose driver a user set are kept). */
  tripsChanged: z.number().int(),
});
export type DriverCheckIn = z.infer<typeof driverCheckInSchema>;

/**
 * GET /units/{imei}/drivers: who can be the unit's driver (spec: the driver list, members with ID
 * and name): every user of the unit's account, as a trip's driver or a check-in may name any of
 * them (InvalidDriver otherwise). Sorted by name.
 */
export const driverSchema = z.object({ id: z.string(), firstName: z.string(), lastName: z.string() });
export type Driver = z.infer<typeof driverSchema>;
export const driverListSchema = z.array(driverSchema);

/** A QR check-in code in a path (GET /check-in/{code}); a code that is none answers 404 InvalidQrCode. */
export const checkInCodeParamSchema = z.object({ code: z.string() });
/** GET /check-in/{code}: the unit the code belongs to, named on the phone's check-in page. */
export const checkInUnitSchema = z.object({ imei: z.string(), name: z.string(), registrationNumber: z.string().nullable() });
export type CheckInUnit = z.infer<typeof checkInUnitSchema>;

/** The unit's QR check-in code: the sticker holds `url`, which opens `path` in the web app. */
export const checkInCodeSchema = z.object({ imei: z.string(), code: z.string(), path: z.string(), url: z.string() });
export type CheckInCode = z.infer<typeof checkInCodeSchema>;

/** Spec section 9: an attest note holds at most 100 characters. */
export const ATTEST_NOTE_MAX = 100;
export const attestRequestSchema = z
  .object({
    imei: z.string().regex(IMEI_PATTERN, keys.InvalidImei),
    from: localDaySchema,
    to: localDaySchema,
    note: z.string().trim().max(ATTEST_NOTE_MAX, keys.AttestNoteTooLong).nullable().optional(),
  })
  .superRefine(checkPeriod);
export type AttestRequest = z.infer<typeof attestRequestSchema>;

/** attested: the trips are locked; approved: an admin approved it (still locked); unlocked: an admin opened the period again. */
export const attestationStatuses = ['attested', 'approved', 'unlocked'] as const;
export const attestationSchema = z.object({
  id: z.string(),
  imei: z.string(),
  /** Who attested. */
  userId: z.string(),
  userName: z.string().nullable(),
  /** The period, local days in `timeZone`. */
  from: z.string(),
  to: z.string(),
  timeZone: z.string(),
  note: z.string().nullable(),
  status: z.enum(attestationStatuses),
  tripCount: z.number().int(),
  attestedAt: z.string(),
  approvedAt: z.string().nullable(),
  approvedBy: z.string().nullable(),
  unlockedAt: z.string().nullable(),
  unlockedBy: z.string().nullable(),
});
export type Attestation = z.infer<typeof attestationSchema>;
export const attestationListSchema = z.array(attestationSchema);

export const monthSchema = z.string().regex(/^\d{4}-(0[1-9]|1[0-2])$/, keys.InvalidMonth);
export const attestationsAdminQuerySchema = z.object({ month: monthSchema, userId: z.string().min(1).max(64).optional() });
export const attestationIdParamSchema = z.object({ id: z.string().min(1, keys.AttestationNotFound).max(80, keys.AttestationNotFound) });

/** Per user of the account over a month: notAttested without an attestation in force, approved when every one is. */
export const attestationMonthStatuses = ['notAttested', 'attested', 'approved'] as const;
export const attestationStatusSchema = z.object({
  month: z.string(),
  users: z.array(
    z.object({
      userId: z.string(),
      name: z.string(),
      status: z.enum(attestationMonthStatuses),
      attestations: attestationListSchema,
      /** The last reminder sent for this month. */
      remindedAt: z.string().nullable(),
    }),
  ),
});
export type AttestationStatus = z.infer<typeof attestationStatusSchema>;

/** An admin reminds a user to attest a month; `requestId` makes a retried request send nothing more. */
export const attestReminderRequestSchema = z.object({
  userId: z.string().min(1).max(64),
  month: monthSchema,
  requestId: z.string().min(8).max(64).optional(),
});
export const attestReminderSchema = z.object({
  /** False when this request (or one within the last minute) already sent it. */
  sent: z.boolean(),
  remindedAt: z.string(),
});
