/**
 * The day rollup of one unit (table `unit-days`: partition `unit` = `<accountId>#<imei>`, sort `day`
 * = yyyy-MM-dd), what the reports sum instead of reading every trip: the figures of the trips that
 * START on that local day in ROLLUP_ZONE (docs/decisions/0036-day-rollups.md). Every read goes
 * through `parseUnitDayItem`, so no code casts an item; the figures are made from trips by one pure
 * function, `unitDayFigures`.
 *
 * The counters are the trips' raw ones (the tracker's odometer or the detector's computed counter,
 * metres): odometer entries are applied when read (functions/trips/unit-day-reads.ts
 * `unitDayOdometers`), as the trip log applies them to trips, so an entry changes no rollup.
 *
 * An item whose `trips` is 0 (its trips all went away) or absent (a trip write announced a
 * recomputation that has not run yet) is no day of the unit's: the reader leaves it out.
 */
import { z } from 'zod';
import { addDays, startOfLocalDay } from '../../shared/local-time';
import { FLEET_MONTH_ZONE } from '../../shared/schemas/fleet-overview';
import { tripTypes, type TripType } from '../../shared/schemas/trips';
import type { TripItem } from './trip-item';
import { ecoCountsIn, type EcoEvent } from '../../shared/eco';

/** The zone of the rollups' local days: the product's market zone (Stockholm), as the fleet overview's months. */
export const ROLLUP_ZONE = FLEET_MONTH_ZONE;

/** The partition key of a unit's days: an IMEI outlives a registration, so the account is part of it. */
export const unitDayKey = (accountId: string, imei: string): string => `${accountId}#${imei}`;

/** [fromMs, toMs) of a local day in ROLLUP_ZONE. */
export function rollupDayRange(day: string): { fromMs: number; toMs: number } {
  return { fromMs: startOfLocalDay(day, ROLLUP_ZONE), toMs: startOfLocalDay(addDays(day, 1), ROLLUP_ZONE) };
}

export interface TripCount {
  trips: number;
  distanceM: number;
}

/** One driver's share of a day ('' in `drivers`: trips without a driver). */
export interface UnitDayDriver {
  trips: number;
  distanceM: number;
  businessM: number;
  privateM: number;
  otherM: number;
  movingS: number;
  idleS: number;
}

/** The figures of a unit's trips starting on one day. */
export interface UnitDayFigures {
  trips: number;
  distanceM: number;
  byType: Record<TripType, TripCount>;
  /** Sums over the trips that have them; `figuresMissing` trips (detected before they were kept, and without positions left to time them) have none. */
  movingS: number;
  idleS: number;
  figuresMissing: number;
  /** The highest of the trips' top speeds; null when no trip has one. */
  maxSpeedKmh: number | null;
  firstStartTs: number;
  /** The start of the day's last trip: the odometer entry in force at its stop is the one at or before it. */
  lastStartTs: number;
  lastStopTs: number;
  /** Raw counters (m): the first trip's start, with its source, and the last trip's stop, with its source. */
  startCounterM: number;
  counterSource: 'tracker' | 'computed';
  stopCounterM: number;
  stopCounterSource: 'tracker' | 'computed';
  /** Per driver id ('' = no driver). */
  drivers: Record<string, UnitDayDriver>;
  /** Metres per project, of the trips with one. */
  projects: Record<string, number>;
  /** Eco counts of the trips (shared/eco.ts `ecoCountsIn` over each trip): harsh events by kind, seconds over the speed limit. */
  harshAccelerations: number;
  harshBrakings: number;
  harshCornerings: number;
  overspeedS: number;
}

/** A day as the reader answers it. */
export interface UnitDay extends UnitDayFigures {
  accountId: string;
  imei: string;
  day: string;
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const count = z.number().nonnegative().catch(0);
const tripCount = z.object({ trips: count, distanceM: count }).catch({ trips: 0, distanceM: 0 });
const source = z.enum(['tracker', 'computed']);
const driverEntry = z.object({
  driverId: z.string(),
  trips: count,
  distanceM: count,
  businessM: count,
  privateM: count,
  otherM: count,
  movingS: count,
  idleS: count,
});
const projectEntry = z.object({ project: z.string().min(1), distanceM: count });

/**
 * The stored item. Drivers and projects are lists (a map key cannot be the empty "no driver", and
 * a project's name is the user's text); the reader answers them as records.
 */
const unitDayItemSchema = z.object({
  unit: z.string().min(1),
  day: z.string().regex(DAY),
  accountId: z.string().min(1),
  imei: z.string().min(1),
  trips: z.number().int().positive(),
  distanceM: count,
  byType: z.object({ business: tripCount, private: tripCount, other: tripCount }),
  movingS: count,
  idleS: count,
  figuresMissing: count,
  maxSpeedKmh: z.number().nullable().catch(null),
  firstStartTs: z.number(),
  lastStartTs: z.number(),
  lastStopTs: z.number(),
  startCounterM: z.number(),
  counterSource: source,
  stopCounterM: z.number(),
  stopCounterSource: source,
  drivers: z.array(driverEntry).catch([]),
  projects: z.array(projectEntry).catch([]),
  // Items written before eco counts were kept read as none (the nightly re-derivation fills them in).
  harshAccelerations: count,
  harshBrakings: count,
  harshCornerings: count,
  overspeedS: count,
});

/** The day of a stored item, or null for an item that holds no trips (see the module's comment) or does not parse. */
export function parseUnitDayItem(raw: Record<string, unknown>): UnitDay | null {
  if (typeof raw['trips'] !== 'number' || raw['trips'] <= 0) return null;
  const parsed = unitDayItemSchema.safeParse(raw);
  if (!parsed.success) return null;
  const { unit: _unit, drivers, projects, ...rest } = parsed.data;
  return {
    ...rest,
    drivers: Object.fromEntries(drivers.map(({ driverId, ...figures }) => [driverId, figures])),
    projects: Object.fromEntries(projects.map((p) => [p.project, p.distanceM])),
  };
}

type DayTrip = Pick<
  TripItem,
  'startTs' | 'stopTs' | 'distanceM' | 'startCounterM' | 'stopCounterM' | 'counterSource' | 'maxSpeedKmh' | 'movingS' | 'idleS' | 'type' | 'driverId' | 'project'
>;

const ECO_KEYS = ['harshAccelerations', 'harshBrakings', 'harshCornerings', 'overspeedS'] as const;

/** The figures of a day's trips (any order) and the unit's eco events around them; null when there are no trips. */
export function unitDayFigures(trips: readonly DayTrip[], ecoEvents: readonly EcoEvent[] = []): UnitDayFigures | null {
  if (!trips.length) return null;
  const sorted = [...trips].sort((a, b) => a.startTs - b.startTs);
  const first = sorted[0] as DayTrip;
  const last = sorted[sorted.length - 1] as DayTrip;
  const byType = Object.fromEntries(tripTypes.map((t) => [t, { trips: 0, distanceM: 0 }])) as Record<TripType, TripCount>;
  const drivers: Record<string, UnitDayDriver> = {};
  const projects: Record<string, number> = {};
  let distanceM = 0;
  let movingS = 0;
  let idleS = 0;
  let figuresMissing = 0;
  let maxSpeedKmh: number | null = null;
  const eco = { harshAccelerations: 0, harshBrakings: 0, harshCornerings: 0, overspeedS: 0 };
  for (const trip of sorted) {
    const counts = ecoCountsIn(trip.startTs, trip.stopTs, ecoEvents);
    for (const key of ECO_KEYS) eco[key] += counts[key];
    distanceM += trip.distanceM;
    byType[trip.type].trips += 1;
    byType[trip.type].distanceM += trip.distanceM;
    const timed = trip.movingS !== undefined && trip.idleS !== undefined;
    if (timed) {
      movingS += trip.movingS as number;
      idleS += trip.idleS as number;
    } else figuresMissing += 1;
    if (trip.maxSpeedKmh !== undefined) maxSpeedKmh = Math.max(maxSpeedKmh ?? 0, trip.maxSpeedKmh);
    const driver = (drivers[trip.driverId ?? ''] ??= { trips: 0, distanceM: 0, businessM: 0, privateM: 0, otherM: 0, movingS: 0, idleS: 0 });
    driver.trips += 1;
    driver.distanceM += trip.distanceM;
    driver[`${trip.type}M`] += trip.distanceM;
    if (timed) {
      driver.movingS += trip.movingS as number;
      driver.idleS += trip.idleS as number;
    }
    if (trip.project !== undefined) projects[trip.project] = (projects[trip.project] ?? 0) + trip.distanceM;
  }
  return {
    trips: sorted.length,
    distanceM,
    byType,
    movingS,
    idleS,
    figuresMissing,
    maxSpeedKmh,
    firstStartTs: first.startTs,
    lastStartTs: last.startTs,
    lastStopTs: last.stopTs,
    startCounterM: first.startCounterM,
    counterSource: first.counterSource,
    stopCounterM: last.stopCounterM,
    stopCounterSource: last.counterSource,
    drivers,
    projects,
    ...eco,
  };
}

/** The stored attributes of a day's figures (drivers and projects as lists, see the schema). */
export function unitDayAttributes(figures: UnitDayFigures): Record<string, unknown> {
  return {
    ...figures,
    drivers: Object.entries(figures.drivers).map(([driverId, f]) => ({ driverId, ...f })),
    projects: Object.entries(figures.projects).map(([project, distanceM]) => ({ project, distanceM })),
  };
}

/** A month's distance per day with trips, by type (metres), for a chart of the month by day. */
export interface DailyDistance {
  day: string;
  businessM: number;
  privateM: number;
  otherM: number;
}

/**
 * A unit's month (sort key yyyy-MM, beside its days): the sum of its day items' figures without
 * drivers and projects, and each day's distance by type (functions/trips/unit-days.ts keeps it).
 */
export interface UnitMonth extends Omit<UnitDayFigures, 'drivers' | 'projects'> {
  accountId: string;
  imei: string;
  month: string;
  daily: DailyDistance[];
}

const MONTH = /^\d{4}-\d{2}$/;

/** The month item of a unit's day items (oldest first), or `trips: 0` without any. */
export function unitMonthItemOf(accountId: string, imei: string, month: string, days: readonly UnitDay[], emptyExpiresAt: number): Record<string, unknown> {
  const base = { unit: unitDayKey(accountId, imei), day: month, accountId, imei };
  const withTrips = days.filter((d) => d.trips > 0).sort((a, b) => a.day.localeCompare(b.day));
  const first = withTrips[0];
  const last = withTrips[withTrips.length - 1];
  if (!first || !last) return { ...base, trips: 0, expiresAt: emptyExpiresAt };
  const byType = Object.fromEntries(tripTypes.map((t) => [t, { trips: 0, distanceM: 0 }])) as Record<TripType, TripCount>;
  let maxSpeedKmh: number | null = null;
  for (const d of withTrips) {
    for (const t of tripTypes) {
      byType[t].trips += d.byType[t].trips;
      byType[t].distanceM += d.byType[t].distanceM;
    }
    if (d.maxSpeedKmh !== null) maxSpeedKmh = Math.max(maxSpeedKmh ?? 0, d.maxSpeedKmh);
  }
  const sum = (key: 'trips' | 'distanceM' | 'movingS' | 'idleS' | 'figuresMissing' | (typeof ECO_KEYS)[number]) => withTrips.reduce((n, d) => n + d[key], 0);
  return {
    ...base,
    trips: sum('trips'),
    distanceM: sum('distanceM'),
    byType,
    movingS: sum('movingS'),
    idleS: sum('idleS'),
    figuresMissing: sum('figuresMissing'),
    ...Object.fromEntries(ECO_KEYS.map((key) => [key, sum(key)])),
    maxSpeedKmh,
    firstStartTs: first.firstStartTs,
    lastStartTs: last.lastStartTs,
    lastStopTs: last.lastStopTs,
    startCounterM: first.startCounterM,
    counterSource: first.counterSource,
    stopCounterM: last.stopCounterM,
    stopCounterSource: last.stopCounterSource,
    daily: withTrips.map((d) => ({ day: d.day, businessM: d.byType.business.distanceM, privateM: d.byType.private.distanceM, otherM: d.byType.other.distanceM })),
    // The month goes with its last day.
    expiresAt: emptyExpiresAt,
  };
}

const unitMonthItemSchema = unitDayItemSchema.omit({ day: true, drivers: true, projects: true }).extend({
  day: z.string().regex(MONTH),
  daily: z.array(z.object({ day: z.string().regex(DAY), businessM: count, privateM: count, otherM: count })).catch([]),
});

/** The month of a stored month item, or null for one without trips or that does not parse. */
export function parseUnitMonthItem(raw: Record<string, unknown>): UnitMonth | null {
  if (typeof raw['trips'] !== 'number' || raw['trips'] <= 0) return null;
  const parsed = unitMonthItemSchema.safeParse(raw);
  if (!parsed.success) return null;
  const { unit: _unit, day, ...rest } = parsed.data;
  return { ...rest, month: day };
}
