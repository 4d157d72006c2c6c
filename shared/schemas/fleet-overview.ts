/**
 * The fleet overview (GET /api/v1/user/fleet-overview, docs/decisions/0032-fleet-overview.md): how
 * the units the caller may see are doing now, today and this week, in the caller's time zone.
 */
import { z } from 'zod';

/** Past complete months the overview checks for trips nobody attested, unless the query asks for others. */
export const FLEET_ATTEST_MONTHS_DEFAULT = 3;
export const FLEET_ATTEST_MONTHS_MAX = 12;
/** How far back the overview counts alarms: the alerts page's shortest period, so the link shows them all. */
export const FLEET_ALARM_HOURS = 24;

export const fleetOverviewQuerySchema = z.object({
  /** How many past complete months to check for unattested trips (1..12, default 3). */
  attestMonths: z.coerce
    .number({ message: 'InvalidAttestMonths' })
    .int('InvalidAttestMonths')
    .min(1, 'InvalidAttestMonths')
    .max(FLEET_ATTEST_MONTHS_MAX, 'InvalidAttestMonths')
    .default(FLEET_ATTEST_MONTHS_DEFAULT),
});

const tripFiguresSchema = z.object({
  /** The first local day of the period (yyyy-MM-dd) and the current one. */
  from: z.string(),
  to: z.string(),
  /** Kilometres with up to 3 decimals, of the trips that started in the period. */
  distance: z.number(),
  trips: z.number().int(),
});

/**
 * A section is null when the caller may not use what it summarises: `status` without the real-time
 * map (the account's or the feature profile's), `today`, `week` and `attestation` without the trip
 * log, `alarms` without alarms in the feature profile.
 */
export const fleetOverviewSchema = z.object({
  /** When the figures were computed, ISO 8601 with the caller's offset. */
  generatedAt: z.string(),
  /** The units counted. */
  units: z.number().int(),
  /** Units by their status now (shared/unit-status.ts); the four add up to `units`. */
  status: z.object({ moving: z.number().int(), idling: z.number().int(), parked: z.number().int(), offline: z.number().int() }).nullable(),
  today: tripFiguresSchema.nullable(),
  /** The week so far, from Monday. */
  week: tripFiguresSchema.nullable(),
  /** Alarms (events sent to alarm receivers) raised in the last FLEET_ALARM_HOURS hours. */
  alarms: z.object({ count: z.number().int(), since: z.string(), truncated: z.boolean() }).nullable(),
  /** Units with a service interval due soon or overdue; `overdue` counts those with one overdue. */
  service: z.object({ units: z.number().int(), overdue: z.number().int() }),
  /**
   * The past complete months (newest first) in which a unit has trips that no attestation in force
   * covers, with how many units; `checked` is how many months were looked at.
   */
  attestation: z.object({ checked: z.number().int(), months: z.array(z.object({ month: z.string(), units: z.number().int() })) }).nullable(),
});
export type FleetOverview = z.infer<typeof fleetOverviewSchema>;

/** The landing page a user may choose (profile `landingPage`): the portal's default or the fleet overview (admins). */
export const landingPages = ['default', 'fleetOverview'] as const;
export const landingPageSchema = z.enum(landingPages, { message: 'InvalidLandingPage' });
export type LandingPage = z.infer<typeof landingPageSchema>;

/**
 * The zone in which the overview reckons months for attestation: the portal's default zone, as
 * service dates are. A trip in the hour around midnight of a month's first day may count in the
 * neighbouring month for a user in another zone.
 */
export const FLEET_MONTH_ZONE = 'Europe/Stockholm';
