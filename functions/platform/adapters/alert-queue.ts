import { ALERT_QUEUE } from '../../../shared/queues';
import type { AlertQueue, WorkQueues } from '../ports';

/** Alarms go on the `alert-delivery` work queue (shared/queues.ts), on both runtimes. */
export function alertQueueOver(queues: WorkQueues): AlertQueue {
  return { enqueue: (job) => queues.send(ALERT_QUEUE, job) };
}
