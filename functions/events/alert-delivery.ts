/**
 * The alert-delivery queue's consumer (shared/queues.ts): each message is one
 * alarm to deliver (deliver-alert.ts). A message that fails is reported on its own, so SQS hands
 * only it out again; after its retries it goes to the dead-letter queue. Delivery claims each
 * message, so a message handed out twice sends nothing twice. Each failed delivery counts in the
 * `AlertDeliveryFailed` metric (functions/platform/metrics.ts), which an alarm watches.
 */
import { z } from 'zod';
import { ALERT_QUEUE } from '../../shared/queues';
import { emitCount } from '../platform/metrics';
import { queueConsumer } from '../platform/queue-consumer';
import type { AlertJob } from '../platform/ports';
import { deliverAlert } from './deliver-alert';

const jobSchema = z.object({ imei: z.string().min(1), sk: z.string().min(1) });

/** The consumer around a delivery function (tests deliver with ports of their own). */
export const createAlertConsumer = (deliver: (job: AlertJob) => Promise<unknown>) =>
  queueConsumer(ALERT_QUEUE, jobSchema, async (job: AlertJob) => {
    try {
      return await deliver(job);
    } catch (error) {
      emitCount('AlertDeliveryFailed');
      throw error;
    }
  });

export const handler = createAlertConsumer((job) => deliverAlert(job));
