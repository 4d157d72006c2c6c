/**
 * Job `unit-day-rederive` (infra/jobs.ts, nightly in Stockholm): queues the recomputation of the
 * last complete local days' day rollups of every unit that has them (functions/trips/unit-day-rederive.ts).
 */
import { getPorts } from '../platform/container';
import { logger } from '../platform/logger';
import { rederiveUnitDays, type RederiveReport } from '../trips/unit-day-rederive';

export const handler = async (_event: { job: string }): Promise<RederiveReport> => {
  const ports = getPorts();
  const report = await rederiveUnitDays(ports.clock.now().getTime(), ports);
  logger.info('day rollups queued for re-derivation', { ...report });
  return report;
};
