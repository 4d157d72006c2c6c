/**
 * Safe return home (spec sections 2, 3, 4, 5, 8 and 9; docs/decisions/0024-safe-return-home.md): a
 * home (address, centre, radius) and a weekly alert schedule per unit; at each scheduled local time
 * a unit that is not within its home's radius raises a `notHome` alarm. Field names are the
 * contract's: `RegistrationNumber`, `centerLat`, `centerLng`, `start_date`, `time_zone`; flags 0/1.
 *
 * Schedule days are 0-6 with 0 Sunday (as JavaScript's getDay), times `HH:mm` local in the
 * schedule's zone; the on-weeks are calendar weeks (Monday to Sunday) counted from the week of
 * `start_date`, every `frequency` weeks.
 */
import { z } from 'zod';
import { isValidTimeZone } from './common';

/** Spec section 9: the radius is at least, and by default, 300 m. The geofences' maximum applies too. */
export const SAFE_HOME_RADIUS_MIN_M = 300;
export const SAFE_HOME_RADIUS_DEFAULT_M = 300;
export const SAFE_HOME_RADIUS_MAX_M = 9999;
/** Spec section 9: every 1, 2 or 3 weeks. */
export const SAFE_HOME_FREQUENCIES = [1, 2, 3] as const;
/** Spec section 9: the alert time a weekday gets by default. */
export const SAFE_HOME_DEFAULT_TIME = '18:00';
export const SAFE_HOME_ADDRESS_MAX = 200;

export const safeHomeMessageKeys = {
  /** Turning on without a home and a schedule (spec section 4). */
  SafeHomeEnableMsg: 'SafeHomeEnableMsg',
  RadiusLessThan300: 'RadiusLessThan300',
  RadiusTooLarge: 'RadiusTooLarge',
  /** An empty address, or one the geocoder cannot find. */
  SafeReturnHomeAddrEmpty: 'SafeReturnHomeAddrEmpty',
  SafeHomeInvalidPosition: 'SafeHomeInvalidPosition',
  SafeHomeInvalidStatus: 'SafeHomeInvalidStatus',
  SafeHomeScheduleRequired: 'SafeHomeScheduleRequired',
  SafeHomeInvalidDay: 'SafeHomeInvalidDay',
  SafeHomeDuplicateDay: 'SafeHomeDuplicateDay',
  InvalidTime: 'InvalidTime',
  SafeHomeInvalidFrequency: 'SafeHomeInvalidFrequency',
  SafeHomeInvalidStartDate: 'SafeHomeInvalidStartDate',
  InvalidTimeZone: 'InvalidTimeZone',
  /** Another change of the same unit kept coming first (409). */
  SafeHomeChanged: 'SafeHomeChanged',
  HomeAddressUpdateMsg: 'HomeAddressUpdateMsg',
  AlertScheduleUpdated: 'AlertScheduleUpdated',
  SafeHomeStatusUpdated: 'SafeHomeStatusUpdated',
} as const;
const keys = safeHomeMessageKeys;

export const scheduleEntrySchema = z.object({
  day: z.number({ message: keys.SafeHomeInvalidDay }).int(keys.SafeHomeInvalidDay).min(0, keys.SafeHomeInvalidDay).max(6, keys.SafeHomeInvalidDay),
  time: z.string({ message: keys.InvalidTime }).regex(/^([01]\d|2[0-3]):[0-5]\d$/, keys.InvalidTime),
});
export type ScheduleEntry = z.infer<typeof scheduleEntrySchema>;

const entriesSchema = z
  .array(scheduleEntrySchema, { message: keys.SafeHomeScheduleRequired })
  .min(1, keys.SafeHomeScheduleRequired)
  .max(7, keys.SafeHomeDuplicateDay)
  .refine((list) => new Set(list.map((e) => e.day)).size === list.length, { message: keys.SafeHomeDuplicateDay });

/** The schedule as a list, or that list as JSON text (the spec calls it a JSON list). */
export const scheduleInputSchema = z.preprocess((v) => {
  if (typeof v !== 'string') return v;
  try {
    return JSON.parse(v) as unknown;
  } catch {
    return v;
  }
}, entriesSchema);

/** yyyy-MM-dd of a real day. */
export const dayTextSchema = z
  .string({ message: keys.SafeHomeInvalidStartDate })
  .regex(/^\d{4}-\d{2}-\d{2}$/, keys.SafeHomeInvalidStartDate)
  .refine((d) => !Number.isNaN(Date.parse(`${d}T00:00:00Z`)) && new Date(`${d}T00:00:00Z`).toISOString().slice(0, 10) === d, keys.SafeHomeInvalidStartDate);

const frequencySchema = z.coerce
  .number({ message: keys.SafeHomeInvalidFrequency })
  .refine((n): n is 1 | 2 | 3 => (SAFE_HOME_FREQUENCIES as readonly number[]).includes(n), keys.SafeHomeInvalidFrequency);

export const safeHomeScheduleRequestSchema = z.object({
  schedule: scheduleInputSchema,
  frequency: frequencySchema,
  start_date: dayTextSchema,
  time_zone: z.string({ message: keys.InvalidTimeZone }).trim().min(1, keys.InvalidTimeZone).max(64, keys.InvalidTimeZone).refine(isValidTimeZone, keys.InvalidTimeZone),
});
export type SafeHomeScheduleRequest = z.input<typeof safeHomeScheduleRequestSchema>;

/** Coordinates are kept to 6 decimals (about 0.1 m). */
const sixDecimals = (v: number) => Math.round(v * 1e6) / 1e6 + 0;
/** A number, or its text ("59.329300"). */
const coordinate = (max: number) =>
  z
    .union([z.number(), z.string().trim().regex(/^-?\d{1,3}(\.\d+)?$/).transform(Number)], { message: keys.SafeHomeInvalidPosition })
    .pipe(z.number().min(-max, keys.SafeHomeInvalidPosition).max(max, keys.SafeHomeInvalidPosition))
    .transform(sixDecimals);

export const safeHomeGeofenceRequestSchema = z.object({
  radius: z.coerce
    .number({ message: keys.RadiusLessThan300 })
    .min(SAFE_HOME_RADIUS_MIN_M, keys.RadiusLessThan300)
    .max(SAFE_HOME_RADIUS_MAX_M, keys.RadiusTooLarge)
    .transform((r) => Math.round(r))
    .default(SAFE_HOME_RADIUS_DEFAULT_M),
  centerLat: coordinate(90),
  centerLng: coordinate(180),
  address: z.string({ message: keys.SafeReturnHomeAddrEmpty }).trim().min(1, keys.SafeReturnHomeAddrEmpty).max(SAFE_HOME_ADDRESS_MAX, 'TooLong'),
});
export type SafeHomeGeofenceRequest = z.input<typeof safeHomeGeofenceRequestSchema>;

export const safeHomeStatusRequestSchema = z.object({
  status: z.union([z.literal(0), z.literal(1), z.literal('0'), z.literal('1'), z.boolean()], { message: keys.SafeHomeInvalidStatus }).transform((v) => v === 1 || v === '1' || v === true),
});
export type SafeHomeStatusRequest = z.input<typeof safeHomeStatusRequestSchema>;

/** One unit's safe return home as the list answers it (spec section 3). */
export const safeHomeItemSchema = z.object({
  imei: z.string(),
  name: z.string(),
  RegistrationNumber: z.string().nullable(),
  status: z.union([z.literal(0), z.literal(1)]),
  address: z.string().nullable(),
  radius: z.number(),
  centerLat: z.number().nullable(),
  centerLng: z.number().nullable(),
  schedule: z.array(scheduleEntrySchema),
  frequency: z.union([z.literal(1), z.literal(2), z.literal(3)]).nullable(),
  start_date: z.string().nullable(),
  time_zone: z.string().nullable(),
  /** The next check while it is on (ISO 8601, UTC), else null. */
  nextCheck: z.string().nullable(),
});
export type SafeHomeItem = z.infer<typeof safeHomeItemSchema>;

export const safeHomeListSchema = z.array(safeHomeItemSchema);
export const safeHomeConfigSchema = z.object({ EnableSafeReturnHome: z.boolean() });
