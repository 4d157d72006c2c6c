/**
 * Work queues: slow or retried work handed from one function to another. Each entry names the
 * queue, its consumer (handler file), how many messages the consumer gets at once, how often a
 * message is received before it goes to the queue's dead-letter queue, and how long a received
 * message stays invisible before it is handed out again.
 *
 * On AWS each entry becomes an SQS queue with a dead-letter queue of its own and a Lambda
 * function (named after the queue) reading it through an event source mapping with partial batch
 * failures (infra/constructs/work-queues.ts). The embedded runtime wires the same consumers to
 * in-process queues with the same retries and dead letters (infra/local/queues.ts). Handlers put
 * messages on a queue through the `queues` port (functions/platform/ports.ts), by name.
 *
 * A consumer gets SQS events and answers `{ batchItemFailures }`; a message may come more than
 * once, so what it does must be idempotent (conditional writes, claims).
 */

export interface QueueDef {
  /** kebab-case, unique; also the consumer function's name. */
  readonly name: string;
  /** Consumer handler file relative to the repository root; it exports `handler` (SQS events). */
  readonly file: string;
  /** Messages per consumer invocation (1-10). */
  readonly batchSize: number;
  /** Receives of one message before it moves to the dead-letter queue (SQS maxReceiveCount). */
  readonly maxReceiveCount: number;
  /** Seconds a received message stays invisible before it is handed out again (SQS visibility timeout). */
  readonly visibilityTimeoutSeconds: number;
  /** Seconds a message is kept before it is dropped unread (SQS retention). */
  readonly retentionSeconds: number;
  /** Consumer invocations at once: the mapping's maximum concurrency on AWS (at least 2), the embedded queue's too. */
  readonly concurrency: number;
  readonly description: string;
}

const MINUTE = 60;
const DAY = 86_400;

export const queueList = [
  {
    name: 'alert-delivery',
    file: 'functions/events/alert-delivery.ts',
    batchSize: 10,
    maxReceiveCount: 5,
    // Six times the consumer's timeout (shared/capability-resources.ts), as Lambda advises for a queue it reads.
    visibilityTimeoutSeconds: 6 * 30,
    // An alarm a day late is no alarm (docs/decisions/0017-events-and-alarms.md).
    retentionSeconds: DAY,
    concurrency: 4,
    description: 'Alarms from the alert queue to their receivers by e-mail, SMS and push',
  },
  {
    name: 'trip-addresses',
    file: 'functions/trips/trip-addresses.ts',
    batchSize: 10,
    maxReceiveCount: 5,
    visibilityTimeoutSeconds: 6 * 30,
    retentionSeconds: 4 * DAY,
    concurrency: 2,
    description: "The start and stop addresses of a shown trip that its list or report could not wait for, from the geocoder, written only where the trip has none",
  },
  {
    name: 'trip-redetect',
    file: 'functions/trips/trip-redetect.ts',
    batchSize: 1,
    maxReceiveCount: 5,
    visibilityTimeoutSeconds: 6 * 5 * MINUTE,
    retentionSeconds: 4 * DAY,
    concurrency: 2,
    description: "Re-detects a unit's trips over a window of late positions and reconciles the stored trips with them",
  },
  {
    name: 'unit-day-rollup',
    file: 'functions/trips/unit-day-rollup.ts',
    batchSize: 10,
    maxReceiveCount: 5,
    visibilityTimeoutSeconds: 6 * 30,
    retentionSeconds: 4 * DAY,
    concurrency: 2,
    description: "Recomputes a unit's day rollups (unit-days) from its trips after a trip write, each day under the generation it read",
  },
  {
    name: 'report-export',
    file: 'functions/reports/export-consumer.ts',
    // One export per invocation: a 12-month PDF of a large fleet takes minutes of one function.
    batchSize: 1,
    maxReceiveCount: 3,
    // Six times the consumer's 15 minutes, as for the other queues: a message is handed out again
    // only after its consumer surely stopped (docs/decisions/0037-report-jobs-and-schedules.md).
    visibilityTimeoutSeconds: 6 * 15 * MINUTE,
    retentionSeconds: DAY,
    concurrency: 2,
    description: 'Produces a report export (PDF, Excel or CSV) into the files bucket, then e-mails the recipients of the schedule it was made for',
  },
  {
    name: 'webhook-delivery',
    file: 'functions/webhooks/delivery-consumer.ts',
    // Each message is one attempt of one delivery; a batch's attempts are sent at once.
    batchSize: 5,
    maxReceiveCount: 5,
    // Six times the consumer's timeout, as for the other queues.
    visibilityTimeoutSeconds: 6 * 30,
    // Every attempt is a message of its own (a retry is sent again with a delay), so a day is plenty.
    retentionSeconds: DAY,
    concurrency: 4,
    description: "One attempt of a webhook delivery: the signed POST to the subscription's endpoint; a failed attempt is queued again with backoff, up to a bounded number of attempts",
  },
] as const satisfies readonly QueueDef[];

export type QueueName = (typeof queueList)[number]['name'];

/** The queue the `AlertQueue` port sends to. Other senders name their queue by a literal (`queues.send('trip-addresses', ...)`), which the stack reads from their bundles to check their grants. */
export const ALERT_QUEUE: QueueName = 'alert-delivery';

const NAME = /^[a-z][a-z0-9-]{0,47}$/;

/** Throws on a malformed or duplicate entry, naming it. */
export function checkQueues(list: readonly QueueDef[]): void {
  const seen = new Set<string>();
  for (const q of list) {
    const fail = (what: string) => {
      throw new Error(`queue ${JSON.stringify(q.name)} (shared/queues.ts): ${what}`);
    };
    if (!NAME.test(q.name)) fail('name must be kebab-case');
    if (seen.has(q.name)) fail('listed twice');
    seen.add(q.name);
    if (!/\.ts$/.test(q.file)) fail('file must be a .ts handler file');
    if (!Number.isInteger(q.batchSize) || q.batchSize < 1 || q.batchSize > 10) fail('batchSize must be 1-10');
    if (!Number.isInteger(q.maxReceiveCount) || q.maxReceiveCount < 1 || q.maxReceiveCount > 1000) fail('maxReceiveCount must be 1-1000');
    if (!Number.isInteger(q.visibilityTimeoutSeconds) || q.visibilityTimeoutSeconds < 0 || q.visibilityTimeoutSeconds > 43_200) fail('visibilityTimeoutSeconds must be 0-43200');
    if (!Number.isInteger(q.retentionSeconds) || q.retentionSeconds < 60 || q.retentionSeconds > 14 * DAY) fail('retentionSeconds must be 60-1209600');
    if (!Number.isInteger(q.concurrency) || q.concurrency < 2 || q.concurrency > 1000) fail('concurrency must be 2-1000');
  }
}

/** `{"alert-delivery":"https://sqs...",...}`: the queues a function may send to, as the stack binds them. */
export const QUEUE_URLS_VARIABLE = 'QUEUE_URLS';
