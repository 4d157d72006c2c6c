/**
 * Consumer of the trip-redetect queue (shared/queues.ts): each message is a window of late
 * positions of one unit (`{ imei, accountId, fromTs, toTs, settledTs? }`, from the trip stage, stage.ts). The
 * unit is read as it is now and its trips over the window are re-detected and reconciled
 * (store-detected.ts redetectTrips), which writes only what differs, each write conditional on the
 * version it read: a redelivered message, or two at once, end in the same trips. A unit that has
 * since left the account the window was raised for is skipped.
 */
import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { z } from 'zod';
import { getPorts } from '../platform/container';
import { logger } from '../platform/logger';
import type { Ports } from '../platform/ports';
import { getUnitItem } from '../platform/unit-item';
import { redetectTrips } from './store-detected';

export const tripRedetectMessage = z.object({ imei: z.string().min(1), accountId: z.string().min(1), fromTs: z.number(), toTs: z.number(), settledTs: z.number().optional() });
export type TripRedetectMessage = z.infer<typeof tripRedetectMessage>;

export async function redetectWindow(message: TripRedetectMessage, ports: Pick<Ports, 'queues' | 'clock'> = getPorts()): Promise<void> {
  const unit = await getUnitItem(message.imei, { consistent: true });
  if (!unit || unit.accountId !== message.accountId) {
    logger.info('re-detection for a unit no longer of its account; skipped', { imei: message.imei });
    return;
  }
  await redetectTrips(unit, message.fromTs, message.toTs, ports, message.settledTs);
}

export async function handler(event: SQSEvent): Promise<SQSBatchResponse> {
  const batchItemFailures: SQSBatchResponse['batchItemFailures'] = [];
  for (const record of event.Records) {
    const parsed = tripRedetectMessage.safeParse(JSON.parse(record.body));
    if (!parsed.success) {
      logger.error('trip-redetect message is not a window; dropped', { messageId: record.messageId, body: record.body.slice(0, 500) });
      continue;
    }
    try {
      await redetectWindow(parsed.data);
    } catch (error) {
      logger.warn('re-detection failed; the queue retries', { ...parsed.data, error: error instanceof Error ? error.message : String(error) });
      batchItemFailures.push({ itemIdentifier: record.messageId });
    }
  }
  return { batchItemFailures };
}
