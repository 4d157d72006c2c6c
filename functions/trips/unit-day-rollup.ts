/**
 * Consumer of the unit-day-rollup queue (shared/queues.ts): each message names a unit of an
 * account and local days (`{ accountId, imei, days }`) whose trips were written. Each day is
 * recomputed from the trips table and written whole, under the generation it read
 * (functions/trips/unit-days.ts): a redelivered message writes the same item, and a run that
 * a later trip write overtook writes nothing (that write's own message recomputes the day). Then
 * the days' months are summed again from their days, under their own generation.
 */
import { z } from 'zod';
import { logger } from '../platform/logger';
import { queueConsumer } from '../platform/queue-consumer';
import { recomputeUnitDaysAndMonths } from './unit-days';

export const unitDayRollupMessage = z.object({
  accountId: z.string().min(1),
  imei: z.string().min(1),
  days: z.array(z.string().regex(/^\d{4}-\d{2}-\d{2}$/)).min(1),
});
export type UnitDayRollupMessage = z.infer<typeof unitDayRollupMessage>;

export async function recomputeUnitDays(message: UnitDayRollupMessage): Promise<void> {
  const { overtaken } = await recomputeUnitDaysAndMonths(message.accountId, message.imei, message.days);
  if (overtaken.length) logger.debug('rollups overtaken by a later trip write; left to its recomputation', { imei: message.imei, overtaken });
}

export const handler = queueConsumer('unit-day-rollup', unitDayRollupMessage, recomputeUnitDays);
