/**
 * Places (docs/api.md Trips, geofences, places; spec sections 2, 3, 5, 8 and 9): a labelled circle
 * with assigned units and a rule that types the trips detected afterwards (business, private,
 * other) when they start there, end there or drive between it and another place of the account,
 * on the schedule's days and times (none: always). Validation messages are message keys
 * (shared/i18n/features/places).
 *
 * Limits: the label is required and holds at most 50 characters, the address at most 50 (spec
 * section 9 'address 50'); the radius is 50 to 9999 m inclusive: 50 m is the smallest circle a GPS
 * fix of a parked vehicle (some 10-30 m off) reliably lands in, and 9999 m the geofences' maximum
 * (spec section 9). A place has 1 to MAX_PLACE_UNITS units (spec section 5: a unit assignment is
 * needed); every save writes the place and its units' copies in one DynamoDB transaction (at most
 * 100 items: the old and the new units, the place and the places its rule names).
 */
import { z } from 'zod';
import { IMEI_PATTERN } from '../validators/imei';
import { weeklyWindowsSchema } from './schedule';
import { addMonthsToDay, TRIP_PERIOD_MAX_MONTHS, tripTypes } from './trips';
import { isCalendarDay } from './dates';

export const placeMessageKeys = {
  PlaceNotFound: 'PlaceNotFound',
  SpecifyPlaceLabel: 'SpecifyPlaceLabel',
  PlaceLabelTooLong: 'PlaceLabelTooLong',
  PlaceAddressTooLong: 'PlaceAddressTooLong',
  PlaceInvalidCoordinates: 'PlaceInvalidCoordinates',
  PlaceRadiusMissing: 'PlaceRadiusMissing',
  PlaceRadiusTooSmall: 'PlaceRadiusTooSmall',
  PlaceRadiusTooLarge: 'PlaceRadiusTooLarge',
  PlaceSelectUnit: 'PlaceSelectUnit',
  PlaceTooManyUnits: 'PlaceTooManyUnits',
  /** A unit that is not the account's, or not granted to an ordinary user. */
  PlaceUnitNotFound: 'PlaceUnitNotFound',
  InvalidPlaceRule: 'InvalidPlaceRule',
  InvalidPlaceRuleType: 'InvalidPlaceRuleType',
  /** 'between' needs another place of the account ... */
  SelectOtherPlace: 'SelectOtherPlace',
  OtherPlaceNotFound: 'OtherPlaceNotFound',
  OtherPlaceIsThisPlace: 'OtherPlaceIsThisPlace',
  /** ... assigned to every unit of this place (trip detection reads both from the unit). */
  OtherPlaceMissingUnits: 'OtherPlaceMissingUnits',
  /** A place another place's 'between' rule names: it cannot be deleted or lose those units. */
  PlaceUsedByRule: 'PlaceUsedByRule',
  /** Another save of the same places came first (409). */
  CouldNotSavePlace: 'CouldNotSavePlace',
  PlaceApplyInvalidDate: 'PlaceApplyInvalidDate',
  PlaceApplyEndBeforeStart: 'PlaceApplyEndBeforeStart',
  PlaceApplyPeriodTooLong: 'PlaceApplyPeriodTooLong',
  /** Schedule windows (shared/schemas/schedule.ts; their texts live in the geofences module, which the place pages load too). */
  InvalidWeekday: 'InvalidWeekday',
  SelectAtLeastOneDay: 'SelectAtLeastOneDay',
  InvalidTime: 'InvalidTime',
  TooManyWindows: 'TooManyWindows',
} as const;
const keys = placeMessageKeys;

export const PLACE_LABEL_MAX = 50;
export const PLACE_ADDRESS_MAX = 50;
export const PLACE_RADIUS_MIN_M = 50;
export const PLACE_RADIUS_MAX_M = 9999;
export const PLACE_RADIUS_DEFAULT_M = 100;
export const MAX_PLACE_UNITS = 45;

export const placeRuleWhens = ['start', 'end', 'between'] as const;
export type PlaceRuleWhen = (typeof placeRuleWhens)[number];

export const placeRuleSchema = z.object({
  when: z.enum(placeRuleWhens, { message: keys.InvalidPlaceRule }),
  type: z.enum(tripTypes, { message: keys.InvalidPlaceRuleType }),
  /** Only for 'between': the place at the other end. */
  otherPlaceId: z.string().max(64, keys.OtherPlaceNotFound).optional(),
});
export type PlaceRule = z.infer<typeof placeRuleSchema>;

/** A rule as saved: 'between' needs its other place (checked even while other fields are wrong); other rules drop it. */
const placeRuleRequestSchema = placeRuleSchema
  .superRefine((rule, ctx) => {
    if (rule.when === 'between' && !rule.otherPlaceId) ctx.addIssue({ code: 'custom', path: ['otherPlaceId'], message: keys.SelectOtherPlace });
  })
  .transform((rule): PlaceRule => (rule.when === 'between' ? rule : { when: rule.when, type: rule.type }));

export const placeRequestSchema = z
  .object({
    label: z.string({ message: keys.SpecifyPlaceLabel }).trim().min(1, keys.SpecifyPlaceLabel).max(PLACE_LABEL_MAX, keys.PlaceLabelTooLong),
    address: z.string().trim().max(PLACE_ADDRESS_MAX, keys.PlaceAddressTooLong).default(''),
    lat: z.number({ message: keys.PlaceInvalidCoordinates }).min(-90, keys.PlaceInvalidCoordinates).max(90, keys.PlaceInvalidCoordinates),
    lon: z.number({ message: keys.PlaceInvalidCoordinates }).min(-180, keys.PlaceInvalidCoordinates).max(180, keys.PlaceInvalidCoordinates),
    radius: z.number({ message: keys.PlaceRadiusMissing }).min(PLACE_RADIUS_MIN_M, keys.PlaceRadiusTooSmall).max(PLACE_RADIUS_MAX_M, keys.PlaceRadiusTooLarge),
    imeis: z
      .array(z.string().regex(IMEI_PATTERN, keys.PlaceUnitNotFound), { message: keys.PlaceSelectUnit })
      .min(1, keys.PlaceSelectUnit)
      .max(MAX_PLACE_UNITS, keys.PlaceTooManyUnits)
      .transform((imeis) => [...new Set(imeis)].sort()),
    rule: placeRuleRequestSchema,
    schedule: weeklyWindowsSchema.default([]),
  });
export type PlaceRequest = z.input<typeof placeRequestSchema>;
export type PlaceInput = z.output<typeof placeRequestSchema>;

export const placeSchema = z.object({
  id: z.string(),
  label: z.string(),
  address: z.string(),
  lat: z.number(),
  lon: z.number(),
  /** metres */
  radius: z.number(),
  imeis: z.array(z.string()),
  rule: placeRuleSchema,
  /** Weekly windows in which the rule applies; empty: always. */
  schedule: weeklyWindowsSchema,
  /** The zone the schedule is read in (the TimeZone header of the request that saved it). */
  timeZone: z.string(),
});
export type Place = z.infer<typeof placeSchema>;
export const placeListSchema = z.object({ places: z.array(placeSchema) });
export type PlaceList = z.infer<typeof placeListSchema>;
export const placeCreatedSchema = z.object({ id: z.string() });
export const placeIdParamSchema = z.object({ id: z.string().min(1, keys.PlaceNotFound).max(64, keys.PlaceNotFound) });

/** The problem of an apply period of local days, or null (as GET /trips: at most 12 months). */
export function applyPeriodProblem(from: string, to: string): string | null {
  // Not two days: the days' own check (PlaceApplyInvalidDate) answers; zod runs this refinement anyway.
  if (!isCalendarDay(from) || !isCalendarDay(to)) return null;
  if (to < from) return keys.PlaceApplyEndBeforeStart;
  if (to >= addMonthsToDay(from, TRIP_PERIOD_MAX_MONTHS)) return keys.PlaceApplyPeriodTooLong;
  return null;
}

const applyDay = z.iso.date({ message: keys.PlaceApplyInvalidDate }).refine(isCalendarDay, keys.PlaceApplyInvalidDate);
export const placeApplyRequestSchema = z
  .object({ from: applyDay, to: applyDay })
  .superRefine((value, ctx) => {
    const problem = applyPeriodProblem(value.from, value.to);
    if (problem) ctx.addIssue({ code: 'custom', path: ['to'], message: problem });
  });
export type PlaceApplyRequest = z.infer<typeof placeApplyRequestSchema>;
export const placeApplySchema = z.object({
  /** Trips whose type the rule changed. */
  changed: z.number().int(),
  /** Trips that match the rule but are attested, so kept as they are. */
  attested: z.number().int(),
});
export type PlaceApply = z.infer<typeof placeApplySchema>;
