/**
 * Job `autoplan-reports` (infra/jobs.ts, hourly on the 1st of a month): reports every vehicle of the
 * accounts that report to Autoplan automatically, and e-mails each account's admins the result once
 * (functions/reports/autoplan-automatic.ts); a run continues the accounts an earlier one left.
 */
import { getPorts } from '../platform/container';
import { logger } from '../platform/logger';
import { runAutoplanReports, type AutoplanRunReport } from '../reports/autoplan-automatic';

/** Of the jobs function's 12 minutes, the walk over the accounts stops starting accounts after this. */
const BUDGET_MS = 10 * 60_000;

export const handler = async (_event: { job: string }): Promise<AutoplanRunReport> => {
  const report = await runAutoplanReports(getPorts(), BUDGET_MS);
  if (report.accounts) logger.info('autoplan reports', { ...report });
  return report;
};
