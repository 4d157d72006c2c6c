/**
 * Geofences (security zones): the request and answer shapes of /api/v1/user/geofences and the
 * limits of spec sections 5 and 9 (docs/decisions: radius 300 to 9999 m inclusive), and the address
 * search (/api/v1/user/geocode/search) the geofence and place editors centre their map with.
 * Validation messages are message keys (shared/i18n/features/geofences holds each in en, sv, no).
 */
import { z } from 'zod';
import { weeklyWindowsSchema } from './schedule';

export const GEOFENCE_RADIUS_MIN_M = 300;
export const GEOFENCE_RADIUS_MAX_M = 9999;
/** Zones per unit; a sixth is refused (422 errors.imeis). */
export const MAX_GEOFENCES_PER_UNIT = 5;
/** A geofence's name: required, at most this long. */
export const GEOFENCE_NAME_MAX = 50;
/**
 * Units per geofence: one save is one DynamoDB transaction of the geofence and each unit it adds,
 * keeps or removes (at most 100 items), so a geofence has at most 99 units and one save touches at
 * most 99 (GeofenceTooManyUnits).
 */
export const GEOFENCE_MAX_UNITS = 99;
/** Address search: the text's length. */
export const GEOCODE_QUERY_MAX = 100;

export const geofenceMessageKeys = {
  GeofenceNameRequired: 'GeofenceNameRequired',
  GeofenceNameTooLong: 'GeofenceNameTooLong',
  GeofenceInvalidPosition: 'GeofenceInvalidPosition',
  /** Spec section 8: radius missing, too small, too large. */
  RadiusRequired: 'RadiusRequired',
  RadiusLessThan300: 'RadiusLessThan300',
  RadiusTooLarge: 'RadiusTooLarge',
  /** A unit that is not the account's, or not granted to an ordinary user. */
  GeofenceUnitNotFound: 'GeofenceUnitNotFound',
  /** Spec section 8 'geofence limit reached': a unit has MAX_GEOFENCES_PER_UNIT geofences already. */
  GeofenceLimitReached: 'GeofenceLimitReached',
  GeofenceTooManyUnits: 'GeofenceTooManyUnits',
  GeofenceInvalidSwitch: 'GeofenceInvalidSwitch',
  /** Spec section 8 'geofence could not be deleted'; also a save that kept losing to other writes (409). */
  GeofenceNotDeleted: 'GeofenceNotDeleted',
  GeofenceNotSaved: 'GeofenceNotSaved',
  GeofenceInvalidPolygon: 'GeofenceInvalidPolygon',
  GeocodeQueryRequired: 'GeocodeQueryRequired',
  GeocodeQueryTooLong: 'GeocodeQueryTooLong',
  /** Weekly windows (shared/schemas/schedule.ts). */
  SelectAtLeastOneDay: 'SelectAtLeastOneDay',
  InvalidWeekday: 'InvalidWeekday',
  InvalidTime: 'InvalidTime',
  TooManyWindows: 'TooManyWindows',
} as const;
export type GeofenceMessageKey = (typeof geofenceMessageKeys)[keyof typeof geofenceMessageKeys];
const keys = geofenceMessageKeys;

const switchSchema = z.boolean({ message: keys.GeofenceInvalidSwitch });
const latSchema = z.number({ message: keys.GeofenceInvalidPosition }).min(-90, keys.GeofenceInvalidPosition).max(90, keys.GeofenceInvalidPosition);
const lonSchema = z.number({ message: keys.GeofenceInvalidPosition }).min(-180, keys.GeofenceInvalidPosition).max(180, keys.GeofenceInvalidPosition);

export const geofenceRadiusSchema = z
  .number({ message: keys.RadiusRequired })
  .min(GEOFENCE_RADIUS_MIN_M, keys.RadiusLessThan300)
  .max(GEOFENCE_RADIUS_MAX_M, keys.RadiusTooLarge);

/** Deactivation days and times: the weekly windows in which the zone raises nothing; null: always armed. */
export const geofenceScheduleSchema = z.object({ off: weeklyWindowsSchema }).nullable();
export type GeofenceSchedule = z.infer<typeof geofenceScheduleSchema>;

export const geofenceNameSchema = z
  .string({ message: keys.GeofenceNameRequired })
  .trim()
  .min(1, keys.GeofenceNameRequired)
  .max(GEOFENCE_NAME_MAX, keys.GeofenceNameTooLong);

/** POST /geofences and PUT /geofences/{id} (docs/api.md): the whole geofence. */
export const geofenceRequestSchema = z.object({
  name: geofenceNameSchema,
  lat: latSchema,
  lon: lonSchema,
  /** Metres, 300 to 9999 inclusive. */
  radius: geofenceRadiusSchema,
  /** The units it watches (each at most MAX_GEOFENCES_PER_UNIT geofences); duplicates count once. */
  imeis: z
    .array(z.string({ message: keys.GeofenceUnitNotFound }).max(32, keys.GeofenceUnitNotFound), { message: keys.GeofenceUnitNotFound })
    .transform((list) => [...new Set(list)])
    .pipe(z.array(z.string()).max(GEOFENCE_MAX_UNITS, keys.GeofenceTooManyUnits))
    .default([]),
  /** Alarms on enter and exit go to the alarm receivers. */
  alarm: switchSchema,
  active: switchSchema.default(true),
  /** Leaving the zone switches the unit to theft mode. */
  theftMode: switchSchema.default(false),
  schedule: geofenceScheduleSchema.default(null),
});
export type GeofenceRequest = z.input<typeof geofenceRequestSchema>;
export type GeofenceInput = z.output<typeof geofenceRequestSchema>;

export const geofenceIdParamSchema = z.object({ id: z.string().min(1, 'NotFound').max(64, 'NotFound') });

export const geofenceSchema = z.object({
  id: z.string(),
  name: z.string(),
  lat: z.number(),
  lon: z.number(),
  radius: z.number(),
  imeis: z.array(z.string()),
  alarm: z.boolean(),
  active: z.boolean(),
  theftMode: z.boolean(),
  schedule: geofenceScheduleSchema,
  /** The assigned units with their names, for display (the same units as `imeis`). */
  units: z.array(z.object({ imei: z.string(), name: z.string() })),
});
export type Geofence = z.infer<typeof geofenceSchema>;

export const geofenceListSchema = z.object({ geofences: z.array(geofenceSchema) });
export type GeofenceList = z.infer<typeof geofenceListSchema>;

export const geofenceCreatedSchema = z.object({ id: z.string() });

export const geocodeSearchQuerySchema = z.object({
  q: z.string({ message: keys.GeocodeQueryRequired }).trim().min(1, keys.GeocodeQueryRequired).max(GEOCODE_QUERY_MAX, keys.GeocodeQueryTooLong),
  /** Optional: prefer answers near this point (the map's centre). */
  lat: z.coerce.number().min(-90).max(90).optional(),
  lon: z.coerce.number().min(-180).max(180).optional(),
});
export const geocodeResultSchema = z.object({ label: z.string(), lat: z.number(), lon: z.number() });
export type GeocodeResult = z.infer<typeof geocodeResultSchema>;
export const geocodeSearchSchema = z.array(geocodeResultSchema);
