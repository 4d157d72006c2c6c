/**
 * The embedded alert queue: jobs are delivered in this process, in the order they came, a few at
 * a time, with the retries the SQS queue and its consumer give on AWS (ALERT_DELIVERY in
 * shared/alert-delivery.ts): a failed delivery is tried again after a growing wait, and after the
 * last try it is logged as an error (the AWS queue moves it to the dead-letter queue).
 */
import { ALERT_DELIVERY } from '../../../../shared/alert-delivery';
import { logger } from '../../logger';
import type { AlertJob, AlertQueue } from '../../ports';

type Deliver = (job: AlertJob) => Promise<unknown>;

export interface LocalAlertQueue extends AlertQueue {
  /** Resolves when nothing is queued, running or waiting for a retry (tests, benchmarks). */
  drained(): Promise<void>;
}

export function createLocalAlertQueue(deliver?: Deliver, options: { retryBaseMs?: number } = {}): LocalAlertQueue {
  const retryBaseMs = options.retryBaseMs ?? 1000;
  const run: Deliver = deliver ?? (async (job) => (await import('../../../events/deliver-alert')).deliverAlert(job));
  const waiting: { job: AlertJob; attempt: number }[] = [];
  let running = 0;
  let pendingRetries = 0;
  let idle: (() => void)[] = [];

  const settle = () => {
    if (running === 0 && pendingRetries === 0 && waiting.length === 0) {
      const done = idle;
      idle = [];
      for (const resolve of done) resolve();
    }
  };
  const pump = () => {
    while (running < ALERT_DELIVERY.concurrency && waiting.length) {
      const next = waiting.shift()!;
      running++;
      void run(next.job)
        .catch((error: unknown) => {
          const message = error instanceof Error ? error.message : String(error);
          if (next.attempt + 1 >= ALERT_DELIVERY.maxAttempts) {
            logger.error('alert delivery failed after its retries; dropped', { ...next.job, attempts: next.attempt + 1, error: message });
            return;
          }
          logger.warn('alert delivery failed; retried', { ...next.job, attempt: next.attempt + 1, error: message });
          pendingRetries++;
          setTimeout(() => {
            pendingRetries--;
            waiting.push({ job: next.job, attempt: next.attempt + 1 });
            pump();
          }, retryBaseMs * 2 ** next.attempt).unref();
        })
        .finally(() => {
          running--;
          pump();
          settle();
        });
    }
  };
  return {
    async enqueue(job) {
      waiting.push({ job, attempt: 0 });
      pump();
    },
    drained() {
      return new Promise((resolve) => {
        idle.push(resolve);
        settle();
      });
    },
  };
}
