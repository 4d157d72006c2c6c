/**
 * Autoplan mileage reporting (spec sections 1, 5, 8 and 9; docs/decisions/0039-autoplan.md): a
 * vehicle's previous month, reported once, on days 1 to 4 of the month in the account's zone. The
 * window rule is here so that the server and the browser apply the same one.
 */
import { z } from 'zod';
import { addDays, localDayOf } from '../local-time';
import { IMEI_PATTERN } from '../validators/imei';
import { trackingMessageKeys } from './tracking-messages';
import { monthSchema } from './trips';

/** Spec sections 5 and 9: reporting is open on these days of the month (both included). */
export const AUTOPLAN_FIRST_DAY = 1;
export const AUTOPLAN_LAST_DAY = 4;
/** The zone of an account that names none (spec section 9's default alert zone). */
export const AUTOPLAN_DEFAULT_ZONE = 'Europe/Stockholm';
/** The units the monthly job reports: the road vehicles Autoplan leases (cars and light trucks), and the heavier ones beside them. */
export const AUTOPLAN_VEHICLE_TYPES: readonly string[] = ['car', 'van', 'lorry', 'bus'];

export const autoplanMessageKeys = {
  /** Spec section 8: outside days 1 to 4 of the month. */
  AutoplanWrongDay: 'AutoplanWrongDay',
  /** Only the month before the current one can be reported. */
  AutoplanWrongMonth: 'AutoplanWrongMonth',
  /** Spec section 8: the vehicle's month was reported before (or is being reported right now). */
  AutoplanMonthAlreadyReported: 'AutoplanMonthAlreadyReported',
  /** Spec section 8: Autoplan did not answer. */
  AutoplanNoResponse: 'AutoplanNoResponse',
  /** Spec section 8: Autoplan has no vehicle with the unit's registration number. */
  AutoplanNoLicencePlateMatch: 'AutoplanNoLicencePlateMatch',
  /** Spec section 8: Autoplan answered that the vehicle is a service car, which needs no report. */
  AutoplanServiceCarNoReport: 'AutoplanServiceCarNoReport',
  /** The unit has no registration number, which is how Autoplan knows the vehicle. */
  AutoplanRegistrationNumberMissing: 'AutoplanRegistrationNumberMissing',
  /** The account has no Autoplan connection set up. */
  AutoplanNotConfigured: 'AutoplanNotConfigured',
  /** Autoplan answered, but did not take the report. */
  AutoplanRejected: 'AutoplanRejected',
  InvalidAutoplanAutomatic: 'InvalidAutoplanAutomatic',
  AutoplanReported: 'AutoplanReported',
  AutoplanSettingsSaved: 'AutoplanSettingsSaved',
} as const;
const keys = autoplanMessageKeys;

export const autoplanRequestSchema = z.object({
  imei: z.string().regex(IMEI_PATTERN, trackingMessageKeys.InvalidImei),
  month: monthSchema,
});
export type AutoplanRequest = z.infer<typeof autoplanRequestSchema>;

/** The figures Autoplan asks for (docs/decisions/0039-autoplan.md), km with 3 decimals. */
export const autoplanFiguresSchema = z.object({
  registrationNumber: z.string(),
  /** The odometer at the month's first trip's start and last trip's stop; null where the trip log shows none. */
  odometerStart: z.number().nullable(),
  odometerEnd: z.number().nullable(),
  trips: z.number().int().nonnegative(),
  distanceKm: z.number(),
  businessKm: z.number(),
  privateKm: z.number(),
  otherKm: z.number(),
});
export type AutoplanFigures = z.infer<typeof autoplanFiguresSchema>;

export const autoplanReportSchema = autoplanFiguresSchema.extend({
  imei: z.string(),
  month: z.string(),
  /** ISO 8601. */
  reportedAt: z.string(),
  /** Autoplan's receipt, when it gives one. */
  reference: z.string().nullable(),
});
export type AutoplanReport = z.infer<typeof autoplanReportSchema>;

export const autoplanSettingsSchema = z.object({
  /** Every vehicle of the account is reported on the 1st, and the admins get the result by e-mail. */
  automatic: z.boolean(),
});
export type AutoplanSettings = z.infer<typeof autoplanSettingsSchema>;
export const autoplanSettingsUpdateSchema = z.object({
  automatic: z.boolean({ error: keys.InvalidAutoplanAutomatic }),
});

export interface AutoplanWindow {
  /** The local day in the zone (yyyy-MM-dd). */
  today: string;
  /** Whether reporting is open today. */
  open: boolean;
  /** The month that can be reported (yyyy-MM): the one before today's. */
  month: string;
}

/** The window at `nowMs` in `zone`: open on days 1 to 4, for the previous month. */
export function autoplanWindow(nowMs: number, zone: string): AutoplanWindow {
  const today = localDayOf(nowMs, zone);
  const day = Number(today.slice(8, 10));
  // The day before the 1st of this month is in the previous month.
  const month = addDays(`${today.slice(0, 7)}-01`, -1).slice(0, 7);
  return { today, open: day >= AUTOPLAN_FIRST_DAY && day <= AUTOPLAN_LAST_DAY, month };
}

/** The key refusing `month` at `nowMs` in `zone`, or null when it can be reported now. */
export function autoplanRefusal(month: string, nowMs: number, zone: string): typeof keys.AutoplanWrongDay | typeof keys.AutoplanWrongMonth | null {
  const window = autoplanWindow(nowMs, zone);
  if (!window.open) return keys.AutoplanWrongDay;
  if (month !== window.month) return keys.AutoplanWrongMonth;
  return null;
}
