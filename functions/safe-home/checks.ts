/**
 * The safe return home checks (job `safe-home-checks`, every minute; docs/decisions/0024): each
 * bucket of the sparse `due` index is queried for items whose next check is at or before now, each
 * is read again consistently, and its unit's latest position is compared with the home (the
 * haversine of shared/geo.ts). A unit outside its radius, or with no position at all, raises a
 * `notHome` alarm through the events' recording (record-event.ts), which the alert delivery sends
 * to the unit's alarm receivers. Then the item moves on to its next check, conditionally.
 *
 * Exactly once per unit and scheduled check: the event's key is the unit and the check's time, so
 * a second job (or a retry after a crash) finds it stored; it then hands the same event to the
 * alert queue again, and the delivery's claims per event, receiver and channel send nothing twice.
 * A check found more than an hour late (the job was not running) is skipped, not alarmed.
 */
import { distanceM } from '../../shared/geo';
import { logger } from '../platform/logger';
import type { Ports } from '../platform/ports';
import { getUnitItem } from '../domain/unit/reads';
import { recordEvent } from '../events/record-event';
import { eventSortKey } from '../events/event-item';
import { advanceSafeHome, DUE_BUCKETS, queryDue, readSafeHome, type SafeHomeRecord } from './repository';
import { isComplete, nextDueOf } from './service';

/** A check more than this late is skipped. */
export const LATE_LIMIT_MS = 60 * 60_000;
/** Items per bucket and run; what is left waits for the next minute. */
const BATCH = 200;
export const NOT_HOME_KEY = 'safeHome';

export interface CheckReport {
  checked: number;
  notHome: number;
  skippedLate: number;
}

type JobPorts = Pick<Ports, 'clock' | 'live' | 'alerts' | 'queues'>;

/** What a check decides: null when the unit is home. */
export function notHomeDetails(record: Pick<SafeHomeRecord, 'address' | 'radius' | 'centerLat' | 'centerLng'>, position: { lat: number; lon: number } | null) {
  if (record.centerLat === null || record.centerLng === null) return null;
  if (!position) return { home: record.address, radius: record.radius, distance: null, noPosition: true };
  const distance = distanceM(record.centerLat, record.centerLng, position.lat, position.lon);
  if (distance <= record.radius) return null;
  return { home: record.address, radius: record.radius, distance: Math.round(distance), noPosition: false };
}

async function checkOne(imei: string, nowMs: number, ports: JobPorts, report: CheckReport): Promise<void> {
  const record = await readSafeHome(imei);
  if (!record || !record.status || record.nextDueAt === null || record.nextDueAt > nowMs) return;
  const occurrence = record.nextDueAt;
  const at = new Date(nowMs).toISOString();
  const unit = await getUnitItem(imei, { consistent: true });
  if (!unit || unit.accountId !== record.accountId || !isComplete(record)) {
    // The unit left the account (or the item is incomplete): out of the due index.
    await advanceSafeHome(record, null, at);
    return;
  }
  report.checked++;
  if (nowMs - occurrence > LATE_LIMIT_MS) {
    report.skippedLate++;
    logger.warn('safe return home check skipped: found too late', { imei, occurrence: new Date(occurrence).toISOString() });
  } else {
    const position = unit.state ? { lat: unit.state.lat, lon: unit.state.lon } : null;
    const details = notHomeDetails(record, position);
    if (details) {
      report.notHome++;
      const event = { type: 'notHome' as const, ts: occurrence, key: NOT_HOME_KEY, lat: position?.lat ?? null, lon: position?.lon ?? null, alarm: true, details };
      const fresh = await recordEvent(unit, event, ports);
      // Stored before by another run that may have died before queueing it: queued again; delivery sends each message once.
      if (!fresh) await ports.alerts.enqueue({ imei, sk: eventSortKey(event.ts, event.type, event.key) });
    }
  }
  await advanceSafeHome(record, nextDueOf(record, Math.max(occurrence, nowMs)), at);
}

export async function runDueChecks(ports: JobPorts): Promise<CheckReport> {
  const nowMs = ports.clock.now().getTime();
  const report: CheckReport = { checked: 0, notHome: 0, skippedLate: 0 };
  const failures: unknown[] = [];
  for (let b = 0; b < DUE_BUCKETS; b++) {
    const due = await queryDue(`due#${b}`, nowMs, BATCH);
    for (const { imei } of due) {
      try {
        await checkOne(imei, nowMs, ports, report);
      } catch (error) {
        // One unit's failure does not hold up the others; its check stays due and is tried next run.
        failures.push(error);
        logger.error('safe return home check failed', { imei, error: error instanceof Error ? error.message : String(error) });
      }
    }
  }
  if (failures.length) throw new AggregateError(failures, `${failures.length} safe return home check(s) failed; tried again next run`);
  return report;
}
