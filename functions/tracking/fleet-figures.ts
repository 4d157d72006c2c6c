/**
 * The fleet overview's figures as pure functions of what was read (docs/decisions/0032-fleet-overview.md):
 * the caller's local day and week, status buckets, trip sums from the quarter-hour rollups, units
 * needing service and months with unattested trips.
 */
import { addDays, localDayOf, startOfLocalDay } from '../../shared/local-time';
import type { RealtimeUnit } from '../../shared/schemas/tracking';
import type { ServiceState } from '../../shared/schemas/unit-editor';
import { unitStatus, unitStatuses, type UnitStatus } from '../../shared/unit-status';
import type { StoredServiceInterval } from '../domain/unit/schema';
import { serviceCycleOf, serviceStatus } from '../units/editor/service-intervals';

export interface FleetWindows {
  today: string;
  /** The Monday of this week. */
  weekStart: string;
  todayFromMs: number;
  weekFromMs: number;
  /** The start of tomorrow: trips of today cannot start later. */
  toMs: number;
}

/** Today and this week (from Monday) in the zone, as local days and as [from, to) instants. */
export function fleetWindows(nowMs: number, zone: string): FleetWindows {
  const today = localDayOf(nowMs, zone);
  const weekday = new Date(`${today}T00:00:00Z`).getUTCDay();
  const weekStart = addDays(today, -((weekday + 6) % 7));
  return {
    today,
    weekStart,
    todayFromMs: startOfLocalDay(today, zone),
    weekFromMs: startOfLocalDay(weekStart, zone),
    toMs: startOfLocalDay(addDays(today, 1), zone),
  };
}

export function statusCounts(units: readonly Pick<RealtimeUnit, 'state' | 'operatingMode'>[], nowMs: number): Record<UnitStatus, number> {
  const counts = Object.fromEntries(unitStatuses.map((s) => [s, 0])) as Record<UnitStatus, number>;
  for (const unit of units) counts[unitStatus(unit, nowMs)] += 1;
  return counts;
}

/** Kilometres with 3 decimals. */
export const km = (metres: number): number => Math.round(metres) / 1000;

/** The trips and distance of the visible units whose quarter hours start in [fromMs, toMs). */
export function sumTrips(
  entries: readonly { bucketMs: number; imei: string; distanceM: number; trips: number }[],
  visible: ReadonlySet<string>,
  fromMs: number,
  toMs: number,
): { distance: number; trips: number } {
  let metres = 0;
  let trips = 0;
  for (const e of entries) {
    if (e.bucketMs < fromMs || e.bucketMs >= toMs || !visible.has(e.imei)) continue;
    metres += e.distanceM;
    trips += e.trips;
  }
  return { distance: km(metres), trips };
}

const RANK: Readonly<Record<ServiceState, number>> = { ok: 0, dueSoon: 1, overdue: 2 };

/**
 * A unit's worst service state now. Date intervals are reckoned at `nowMs`; distance and hours
 * intervals by what ingest's service stage last marked for the interval as saved (its state
 * `stages.service`, `<cycle>|<state>`), which it updates with every report of the counters.
 */
export function unitServiceState(intervals: Readonly<Record<string, StoredServiceInterval>> | undefined, marks: unknown, nowMs: number): ServiceState {
  let worst: ServiceState = 'ok';
  const stored = typeof marks === 'object' && marks !== null ? (marks as Record<string, unknown>) : {};
  for (const [id, interval] of Object.entries(intervals ?? {})) {
    let state: ServiceState = 'ok';
    if (interval.kind === 'date') {
      state = serviceStatus(interval, { odometerM: undefined, engineSeconds: undefined, ts: nowMs }).state;
    } else {
      const mark = stored[id];
      const [cycle, marked] = typeof mark === 'string' ? mark.split('|') : [];
      if (cycle === serviceCycleOf(interval) && (marked === 'dueSoon' || marked === 'overdue')) state = marked;
    }
    if (RANK[state] > RANK[worst]) worst = state;
  }
  return worst;
}

/** Whether the day ranges cover every day from `first` to `last` (yyyy-MM-dd, inclusive). */
export function daysCovered(first: string, last: string, ranges: readonly { fromDay: string; toDay: string }[]): boolean {
  let cursor = first;
  for (const r of [...ranges].sort((a, b) => a.fromDay.localeCompare(b.fromDay))) {
    if (r.fromDay > cursor) break;
    if (r.toDay >= cursor) cursor = addDays(r.toDay, 1);
    if (cursor > last) return true;
  }
  return cursor > last;
}

/** The `count` months before the month of `today` (yyyy-MM), newest first. */
export function pastMonths(today: string, count: number): string[] {
  const [y = 1970, m = 1] = today.split('-').map(Number);
  return Array.from({ length: count }, (_, i) => new Date(Date.UTC(y, m - 2 - i, 1)).toISOString().slice(0, 7));
}

/**
 * Per month, how many visible units have trips (from their first to their last trip day) that the
 * unit's attestations in force do not cover; months without such units are left out, newest first.
 */
export function unattestedMonths(
  months: readonly string[],
  entries: readonly { month: string; imei: string; firstDay: string; lastDay: string }[],
  attestations: readonly { imei: string; fromDay: string; toDay: string; status: string }[],
  visible: ReadonlySet<string>,
): { month: string; units: number }[] {
  const inForce = new Map<string, { fromDay: string; toDay: string }[]>();
  for (const a of attestations) {
    if (a.status === 'unlocked') continue;
    inForce.set(a.imei, [...(inForce.get(a.imei) ?? []), a]);
  }
  const counts = new Map<string, number>();
  for (const e of entries) {
    if (!visible.has(e.imei) || !months.includes(e.month)) continue;
    if (!daysCovered(e.firstDay, e.lastDay, inForce.get(e.imei) ?? [])) counts.set(e.month, (counts.get(e.month) ?? 0) + 1);
  }
  return months.filter((m) => counts.has(m)).map((month) => ({ month, units: counts.get(month) ?? 0 }));
}
