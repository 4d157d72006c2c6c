/**
 * Service intervals (spec section 2 unit edit; docs/decisions/0018-unit-editor.md): each is due
 * `every` km, engine hours or months after its last service, and is `ok`, `dueSoon` or
 * `overdue` from the unit's current counters. Due soon is the last 10 % of a distance or hours
 * interval and the last 14 days of a date interval: a workshop visit is booked about two weeks
 * ahead, and 10 % of a typical 15,000 km interval is about that much driving.
 *
 * Pure functions: the editor shows them, and ingest's service stage (service-stage.ts) raises a
 * `serviceDue` function alarm when an interval reaches a worse state, once per interval, cycle
 * (the interval as saved: kind, every, last service) and state.
 */
import { addMonthsToDay } from '../../../shared/schemas/trips';
import { SERVICE_DUE_SOON_DAYS, SERVICE_DUE_SOON_SHARE, type ServiceState, type ServiceStatus } from '../../../shared/schemas/unit-editor';
import { localDayOf } from '../../../shared/local-time';
import type { StoredServiceInterval } from '../../domain/unit/schema';

/** Date intervals are read in this zone (the account's alert zone defaults to it too). */
export const SERVICE_TIME_ZONE = 'Europe/Stockholm';
const DAY_MS = 86_400_000;

/** The counters a unit reported last: odometer in metres, engine seconds, and when (epoch ms). */
export interface UnitCounters {
  odometerM: number | undefined;
  engineSeconds: number | undefined;
  ts: number;
}

const round1 = (n: number) => Math.round(n * 10) / 10;
const dayNumber = (day: string) => Date.parse(`${day}T00:00:00Z`) / DAY_MS;

/** The state of one interval at the unit's counters. */
export function serviceStatus(interval: Pick<StoredServiceInterval, 'kind' | 'every' | 'lastService'>, counters: UnitCounters): ServiceStatus {
  if (interval.kind === 'date') {
    const last = String(interval.lastService);
    const dueAt = addMonthsToDay(last, interval.every);
    const today = localDayOf(counters.ts, SERVICE_TIME_ZONE);
    const remaining = Math.round(dayNumber(dueAt) - dayNumber(today));
    return { state: remaining <= 0 ? 'overdue' : remaining <= SERVICE_DUE_SOON_DAYS ? 'dueSoon' : 'ok', dueAt, remaining, current: today };
  }
  const last = Number(interval.lastService);
  const dueAt = round1(last + interval.every);
  const raw = interval.kind === 'distance' ? counters.odometerM : counters.engineSeconds;
  if (raw === undefined) return { state: 'ok', dueAt, remaining: null, current: null };
  const current = round1(interval.kind === 'distance' ? raw / 1000 : raw / 3600);
  const remaining = round1(dueAt - current);
  const state: ServiceState = remaining <= 0 ? 'overdue' : remaining <= interval.every * SERVICE_DUE_SOON_SHARE ? 'dueSoon' : 'ok';
  return { state, dueAt, remaining, current };
}

const RANK: Readonly<Record<ServiceState, number>> = { ok: 0, dueSoon: 1, overdue: 2 };

/** What an interval was saved as: a change (or marking it serviced) starts a new cycle, whose states are alarmed afresh. */
export const serviceCycleOf = (interval: Pick<StoredServiceInterval, 'kind' | 'every' | 'lastService'>): string =>
  `${interval.kind}:${interval.every}:${String(interval.lastService)}`;

/** The worst state already alarmed per interval: `<cycle>|<state>`. */
export type ServiceMarks = Readonly<Record<string, string>>;

export interface ServiceAlarm {
  intervalId: string;
  name: string;
  status: ServiceStatus;
}

/**
 * The alarms to raise now and the marks to keep: an interval alarms when its state is worse than
 * what its current cycle alarmed before (ok -> dueSoon -> overdue; ok straight to overdue alarms
 * once, as overdue). Intervals that are gone lose their marks.
 */
export function serviceAlarms(
  intervals: Readonly<Record<string, StoredServiceInterval>>,
  marks: ServiceMarks,
  counters: UnitCounters,
): { alarms: ServiceAlarm[]; marks: Record<string, string> } {
  const alarms: ServiceAlarm[] = [];
  const next: Record<string, string> = {};
  for (const [id, interval] of Object.entries(intervals)) {
    const cycle = serviceCycleOf(interval);
    const [markCycle, markState] = (marks[id] ?? '').split('|');
    const before: ServiceState = markCycle === cycle && (markState === 'dueSoon' || markState === 'overdue') ? markState : 'ok';
    const status = serviceStatus(interval, counters);
    const worst = RANK[status.state] > RANK[before] ? status.state : before;
    if (worst !== before) alarms.push({ intervalId: id, name: interval.name, status });
    next[id] = `${cycle}|${worst}`;
  }
  return { alarms, marks: next };
}
