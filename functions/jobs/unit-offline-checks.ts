/**
 * Job `unit-offline-checks` (infra/jobs.ts, every 5 minutes): units of the accounts subscribed to
 * unitOffline that went silent too long are sent to their webhooks (functions/webhooks/offline-checks.ts).
 */
import { getPorts } from '../platform/container';
import { logger } from '../platform/logger';
import { checkOfflineUnits } from '../webhooks/offline-checks';

export const handler = async (_event: { job: string }): Promise<{ accounts: number; emitted: number }> => {
  const result = await checkOfflineUnits(getPorts());
  if (result.emitted) logger.info('units gone offline sent to webhooks', result);
  return result;
};
