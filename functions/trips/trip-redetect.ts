/**
 * Consumer of the trip-redetect queue (shared/queues.ts): each message is a window of late
 * positions of one unit (`{ imei, accountId, fromTs, toTs, settledTs? }`, from the trip stage,
 * stage.ts). The unit is read as it is now, with its place copies (a new trip takes its place
 * rule's type, as at ingest), and its trips over the window are re-detected and reconciled
 * (store-detected.ts redetectTrips), which writes only what differs, each write conditional on the
 * version it read: a redelivered message, or two at once, end in the same trips. A unit that has
 * since left the account the window was raised for is skipped.
 */
import { queueConsumer } from '../platform/queue-consumer';
import { z } from 'zod';
import { getPorts } from '../platform/container';
import { logger } from '../platform/logger';
import type { Ports } from '../platform/ports';
import { getUnitItems } from '../domain/unit/reads';
import { redetectTrips } from './store-detected';

export const tripRedetectMessage = z.object({ imei: z.string().min(1), accountId: z.string().min(1), fromTs: z.number(), toTs: z.number(), settledTs: z.number().optional() });
export type TripRedetectMessage = z.infer<typeof tripRedetectMessage>;

export async function redetectWindow(message: TripRedetectMessage, ports: Pick<Ports, 'queues' | 'clock'> = getPorts()): Promise<void> {
  const unit = (await getUnitItems([message.imei])).get(message.imei);
  if (unit instanceof Error) throw unit;
  if (!unit || unit.accountId !== message.accountId) {
    logger.info('re-detection for a unit no longer of its account; skipped', { imei: message.imei });
    return;
  }
  await redetectTrips(unit, message.fromTs, message.toTs, ports, message.settledTs);
}

export const handler = queueConsumer('trip-redetect', tripRedetectMessage, (message) => redetectWindow(message));
