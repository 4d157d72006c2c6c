/**
 * Job `safe-home-checks` (infra/jobs.ts, every minute at second 0): the safe return home checks
 * that are due (functions/safe-home/checks.ts). The clock port decides what "now" is, so tests
 * move time instead of waiting.
 */
import { getPorts } from '../platform/container';
import { logger } from '../platform/logger';
import { runDueChecks, type CheckReport } from '../safe-home/checks';

export const handler = async (_event: { job: string }): Promise<CheckReport> => {
  const report = await runDueChecks(getPorts());
  if (report.checked) logger.info('safe return home checks', { ...report });
  return report;
};
