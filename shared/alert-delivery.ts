/**
 * How alarms are delivered from their queue, the same on both runtimes: SQS and its event source
 * mapping on AWS (infra/constructs/alert-delivery.ts), the in-process queue embedded
 * (functions/platform/adapters/embedded/alert-queue.ts).
 */
export const ALERT_DELIVERY = {
  /** Tries of one job before it is given up (SQS maxReceiveCount, then the dead-letter queue). */
  maxAttempts: 5,
  /** Jobs delivered at once (the mapping's maximum concurrency is at least 2). */
  concurrency: 4,
  /** Seconds a job may take before SQS hands it out again (the function's timeout times 6). */
  functionTimeoutSeconds: 30,
} as const;
