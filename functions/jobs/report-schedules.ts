/**
 * Job `report-schedules` (infra/jobs.ts, every 15 minutes): starts the exports of the report
 * schedules that are due (functions/reports/schedule-run.ts); their e-mails go out when each export
 * is done. The clock port decides what "now" is, so tests move time instead of waiting.
 */
import { getPorts } from '../platform/container';
import { logger } from '../platform/logger';
import { runDueSchedules, type ScheduleRunReport } from '../reports/schedule-run';

export const handler = async (_event: { job: string }): Promise<ScheduleRunReport> => {
  const report = await runDueSchedules(getPorts());
  if (report.started) logger.info('report schedules', { ...report });
  return report;
};
