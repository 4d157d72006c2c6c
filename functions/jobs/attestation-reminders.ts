/**
 * Job `attestation-reminders` (infra/jobs.ts, every 10 minutes on the 1st of a month): reminds each
 * driver with unattested trips in the previous month once (functions/reports/schedule-attestation-reminders.ts),
 * continuing from the month's checkpoint until every account is done.
 */
import { getPorts } from '../platform/container';
import { logger } from '../platform/logger';
import { runAttestationReminders, type ReminderReport } from '../reports/schedule-attestation-reminders';

/** Of the jobs function's 15 minutes, the walk over the accounts stops starting pages after this. */
const BUDGET_MS = 10 * 60_000;

export const handler = async (_event: { job: string }): Promise<ReminderReport> => {
  const report = await runAttestationReminders(getPorts(), BUDGET_MS);
  if (report.accounts) logger.info('attestation reminders', { ...report });
  return report;
};
