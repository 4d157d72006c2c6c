/**
 * The trip log as pure functions: local days in the browser's zone (the zone the API reads from the
 * TimeZone header), trips grouped by the day they start, totals per type, the default period, the
 * route limits of spec sections 5 and 9 (checked before any route is fetched, with the server's own
 * keys), purposes used before, the driver choices, and the shape of a QR check-in code.
 */
import {
  ROUTE_MAX_DAYS,
  ROUTE_MAX_TRIPS,
  tripPeriodProblem,
  tripTypes,
  type Driver,
  type Trip,
  type TripType,
} from '../../../../shared/schemas/trips';
import { tripMessageKeys, type TripMessageKey } from '../../../../shared/schemas/trips-messages';
import { addDays, localDayOf } from '../../../../shared/local-time';

const DAY_MS = 86_400_000;

const DAY_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;

/** A yyyy-MM-dd that names a real calendar day. */
export function isLocalDay(value: string): boolean {
  const m = DAY_PATTERN.exec(value);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(y, mo - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === mo - 1 && date.getUTCDate() === d;
}

/** Days from one yyyy-MM-dd to another (calendar days, no zone involved). */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS);
}

/** The first and the last day of the month of `day` (yyyy-MM-dd). */
export function monthOf(day: string): { from: string; to: string } {
  const [y, m] = day.split('-').map(Number) as [number, number];
  const last = new Date(Date.UTC(y, m, 0)).getUTCDate();
  const mm = String(m).padStart(2, '0');
  return { from: `${y}-${mm}-01`, to: `${y}-${mm}-${String(last).padStart(2, '0')}` };
}

/** The month before that of `day`. */
export function previousMonthOf(day: string): { from: string; to: string } {
  return monthOf(addDays(monthOf(day).from, -1));
}

/** Spec: the trip log opens on this month, in the browser's zone. */
export function defaultPeriod(now: Date, timeZone: string): { from: string; to: string } {
  return monthOf(localDayOf(now.getTime(), timeZone));
}

/**
 * The browser's check of a period before it is asked for, with the server's own rule
 * (tripPeriodProblem): real days, the end not before the start, at most 12 months.
 */
export function periodErrors(from: string, to: string): { from?: TripMessageKey; to?: TripMessageKey } {
  const errors: { from?: TripMessageKey; to?: TripMessageKey } = {};
  if (!isLocalDay(from)) errors.from = tripMessageKeys.InvalidDate;
  if (!isLocalDay(to)) errors.to = tripMessageKeys.InvalidDate;
  if (!errors.from && !errors.to) {
    const problem = tripPeriodProblem(from, to);
    if (problem) errors.to = problem;
  }
  return errors;
}

export interface TripDay {
  /** yyyy-MM-dd in the browser's zone. */
  day: string;
  trips: Trip[];
  /** km of the day's trips, 3 decimals. */
  distance: number;
}

const round3 = (km: number) => Math.round(km * 1000) / 1000;

/** Trips in time order, grouped by the local day they start on; days in order. */
export function groupByDay(trips: readonly Trip[], timeZone: string): TripDay[] {
  const sorted = [...trips].sort((a, b) => Date.parse(a.startTime) - Date.parse(b.startTime));
  const days: TripDay[] = [];
  for (const trip of sorted) {
    const day = localDayOf(Date.parse(trip.startTime), timeZone);
    let group = days[days.length - 1];
    if (!group || group.day !== day) {
      group = { day, trips: [], distance: 0 };
      days.push(group);
    }
    group.trips.push(trip);
    group.distance = round3(group.distance + trip.distance);
  }
  return days;
}

export type TripTotals = Record<TripType, { count: number; distance: number }>;

/** Count and km per type (the server answers the same for the whole period). */
export function tripTotals(trips: readonly Trip[]): TripTotals {
  const totals = Object.fromEntries(tripTypes.map((type) => [type, { count: 0, distance: 0 }])) as TripTotals;
  for (const trip of trips) {
    const total = totals[trip.type];
    total.count += 1;
    total.distance = round3(total.distance + trip.distance);
  }
  return totals;
}

/**
 * Why these trips' routes may not be shown together (spec sections 5 and 9), or null: at most 10
 * trips, within 7 days, all of one local day, and no private trip. The first rule broken is named,
 * in that order; the server refuses with the same keys.
 */
export function routeLimitError(trips: readonly Trip[], timeZone: string): TripMessageKey | null {
  if (trips.length === 0) return tripMessageKeys.NoTripsFound;
  if (trips.length > ROUTE_MAX_TRIPS) return tripMessageKeys.RouteTooManyTrips;
  if (trips.some((t) => t.type === 'private')) return tripMessageKeys.RoutePrivateTrip;
  const starts = trips.map((t) => Date.parse(t.startTime));
  const stops = trips.map((t) => Date.parse(t.stopTime));
  if (Math.max(...stops) - Math.min(...starts) > ROUTE_MAX_DAYS * DAY_MS) return tripMessageKeys.RouteSpanTooLong;
  const days = new Set(trips.map((t) => localDayOf(Date.parse(t.startTime), timeZone)));
  if (days.size > 1) return tripMessageKeys.RouteDifferentDays;
  return null;
}

/**
 * The two selected trips in time order when they may be offered a merge: exactly two, neither
 * attested. The rules of spec section 5 (same day, driver and type, adjacent, not merged before)
 * are the server's; its refusal key is shown as it answers.
 */
export function mergePair(selected: readonly Trip[]): [Trip, Trip] | null {
  if (selected.length !== 2 || selected.some((t) => t.attested)) return null;
  const [a, b] = [...selected].sort((x, y) => Date.parse(x.startTime) - Date.parse(y.startTime)) as [Trip, Trip];
  return [a, b];
}

/** Purposes used before in these trips, the most used first (then alphabetically). */
export function usedPurposes(trips: readonly Trip[], locale?: string): string[] {
  const counts = new Map<string, { text: string; count: number }>();
  for (const trip of trips) {
    const text = trip.purpose?.trim();
    if (!text) continue;
    const key = text.toLocaleLowerCase(locale);
    const entry = counts.get(key);
    if (entry) entry.count += 1;
    else counts.set(key, { text, count: 1 });
  }
  const collator = new Intl.Collator(locale, { sensitivity: 'base' });
  return [...counts.values()].sort((a, b) => b.count - a.count || collator.compare(a.text, b.text)).map((e) => e.text);
}

/** The account's default purposes first, then those used before, without spelling duplicates. */
export function purposeChoices(defaults: readonly string[], used: readonly string[]): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const text of [...defaults, ...used]) {
    const key = text.trim().toLocaleLowerCase();
    if (!key || seen.has(key)) continue;
    seen.add(key);
    out.push(text.trim());
  }
  return out;
}

/** The fields a trip's edit form holds (tripUpdateSchema's input): text fields as typed, '' for none. */
export interface TripFormValues {
  type: TripType;
  purpose: string | null;
  note: string | null;
  driverId: string | null;
  passengers: string | null;
  project: string | null;
}

export function formValuesOf(trip: Trip): TripFormValues {
  return {
    type: trip.type,
    purpose: trip.purpose ?? '',
    note: trip.note ?? '',
    driverId: trip.driverId ?? '',
    passengers: trip.passengers ?? '',
    project: trip.project ?? '',
  };
}

export type TripUpdateBody = Partial<TripFormValues>;

const textOf = (value: string | null | undefined) => (value ?? '').trim();

/** Only what changed, with empty text as null (the PUT is partial; null clears a field). */
export function changedFields(trip: Trip, values: TripFormValues): TripUpdateBody {
  const body: TripUpdateBody = {};
  if (values.type !== trip.type) body.type = values.type;
  for (const field of ['purpose', 'note', 'driverId', 'passengers', 'project'] as const) {
    const after = textOf(values[field]);
    if (after !== textOf(trip[field])) body[field] = after === '' ? null : after;
  }
  return body;
}

export interface DriverChoice {
  value: string;
  label: string;
}

/**
 * What a driver picker offers: who can be the unit's driver (GET /units/{imei}/drivers, already by
 * name), as "First Last", and the driver a trip names now when they are not among them (a user
 * removed since), last, so that the trip's own value stays shown.
 */
export function driverChoices(drivers: readonly Driver[], current: Pick<Trip, 'driverId' | 'driverName'> | null = null): DriverChoice[] {
  const choices = drivers.map((d) => ({ value: d.id, label: `${d.firstName} ${d.lastName}`.trim() || d.id }));
  if (current?.driverId && !choices.some((c) => c.value === current.driverId)) choices.push({ value: current.driverId, label: current.driverName ?? current.driverId });
  return choices;
}

const pad2 = (n: number) => String(n).padStart(2, '0');

/** A `datetime-local` value (local wall time, minutes): the server reads it in the TimeZone header's zone. */
export function toDateTimeInput(date: Date): string {
  return `${date.getFullYear()}-${pad2(date.getMonth() + 1)}-${pad2(date.getDate())}T${pad2(date.getHours())}:${pad2(date.getMinutes())}`;
}

/**
 * The IMEI a QR check-in code names (`{imei}-{mac}`, functions/trips/check-in-code.ts), or null for
 * what is not shaped like one. Only the server can tell whether the code is genuine.
 */
export function imeiOfCheckInCode(code: string): string | null {
  const match = /^(\d{15})-[A-Za-z0-9_-]{16,64}$/.exec(code.trim());
  return match ? (match[1] as string) : null;
}

/**
 * The unit the trip log opens on without one in the address: the one this user chose last, while
 * they may still see it; else the unit heard from most recently (a unit that never reported has no
 * trips to show); else the first.
 */
export function landingUnit<U extends { imei: string; lastSeen: string | null }>(units: readonly U[], remembered: string | null): U | null {
  const kept = remembered ? units.find((u) => u.imei === remembered) : undefined;
  if (kept) return kept;
  let latest: U | null = null;
  for (const unit of units) if (unit.lastSeen && (!latest?.lastSeen || unit.lastSeen > latest.lastSeen)) latest = unit;
  return latest ?? units[0] ?? null;
}

/** Where the trip log remembers a user's last unit (localStorage, per user on a shared browser). */
export const lastTripUnitKey = (userId: string) => `triplog.unit.${userId}`;
