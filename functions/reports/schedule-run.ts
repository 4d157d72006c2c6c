/**
 * The scheduled job `report-schedules` (infra/jobs.ts): each bucket of the sparse `due` index is
 * queried for schedules whose run is at or before now (no Scan), each is read again, and for each
 * still due the export of its last complete period is started (functions/reports/export-service.ts
 * `startScheduledExport`: one job per schedule and due time, however many runs race) before the
 * schedule moves on to its next run with a write conditional on the run it was due for. The
 * e-mails go out when the export is done (functions/reports/schedule-mail.ts).
 */
import { logger } from '../platform/logger';
import type { Ports } from '../platform/ports';
import { startScheduledExport } from './export-service';
import { lastCompletePeriod, nextRunAfter, periodText } from './schedule-periods';
import { advanceSchedule, DUE_BUCKETS, queryDue, readScheduleByKey } from './schedule-repository';

/** Schedules per bucket and run; what is left waits for the next run. */
const PER_BUCKET = 100;

export interface ScheduleRunReport {
  started: number;
}

export async function runDueSchedules(ports: Pick<Ports, 'queues' | 'clock'>): Promise<ScheduleRunReport> {
  const now = ports.clock.now().getTime();
  let started = 0;
  for (let b = 0; b < DUE_BUCKETS; b++) {
    for (const key of await queryDue(`due#${b}`, now, PER_BUCKET)) {
      const schedule = await readScheduleByKey(key);
      if (!schedule || schedule.nextDueAt > now) continue;
      const dueAt = schedule.nextDueAt;
      const period = lastCompletePeriod(schedule.every, schedule.timeZone, dueAt);
      const text = periodText(period);
      await startScheduledExport(
        {
          userId: schedule.userId,
          accountId: schedule.accountId,
          kind: schedule.kind,
          params: { ...schedule.filters, ...period },
          format: schedule.format,
          lang: schedule.lang,
          timeZone: schedule.timeZone,
          brand: schedule.brand,
        },
        { id: schedule.id, period: text, dueAt },
        ports,
        now,
      );
      if (await advanceSchedule(schedule, dueAt, nextRunAfter(schedule.every, schedule.timeZone, Math.max(now, dueAt)), text)) {
        started++;
        logger.info('scheduled report started', { scheduleId: schedule.id, userId: schedule.userId, period: text });
      }
    }
  }
  return { started };
}
