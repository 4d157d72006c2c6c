/**
 * Job `trip-rollup-backfill` (infra/jobs.ts, every minute until done): fills the trip rollups from
 * trips stored before the table existed (functions/trips/rollup-backfill.ts), a bounded piece per
 * run, going on from its checkpoint; once done, a run reads the marker and stops.
 */
import type { Context } from 'aws-lambda';
import { getPorts } from '../platform/container';
import { logger } from '../platform/logger';
import { backfillTripRollups, type BackfillReport } from '../trips/rollup-backfill';

/** Time left for the last page's refreshes and the checkpoint after the run stops starting pages. */
const MARGIN_MS = 4_000;
/** At most this long per run, however long the function may run. */
const RUN_MAX_MS = 50_000;

export const handler = async (_event: { job: string }, context?: Pick<Context, 'getRemainingTimeInMillis'>): Promise<BackfillReport> => {
  const budget = Math.min(RUN_MAX_MS, (context?.getRemainingTimeInMillis() ?? RUN_MAX_MS) - MARGIN_MS);
  const report = await backfillTripRollups(getPorts().clock.now().getTime(), Date.now() + Math.max(0, budget));
  if (!report.alreadyDone) logger.info('trip rollup backfill', { ...report });
  return report;
};
