/**
 * Job `command-timeouts` (infra/jobs.ts, every minute): device commands without an answer after
 * 120 seconds become unanswered, and the browsers show the poor-coverage message. The clock port
 * decides what "now" is, so tests move time instead of waiting.
 */
import { getPorts } from '../platform/container';
import { logger } from '../platform/logger';
import { expireCommands } from '../units/command-service';

export const handler = async (_event: { job: string }): Promise<{ unanswered: number }> => {
  const ports = getPorts();
  const changed = await expireCommands(ports.clock.now(), ports.live);
  if (changed.length) logger.info('commands unanswered after the wait', { count: changed.length });
  return { unanswered: changed.length };
};
