/**
 * The work queues of shared/queues.ts on AWS: per entry an SQS queue (SQS-managed encryption,
 * TLS only) with a dead-letter queue of its own, the redrive policy's maxReceiveCount and the
 * visibility timeout from the entry, and an event source mapping into the queue's consumer
 * function (named after the queue) with the entry's batch size and concurrency, reporting
 * partial batch failures. A message its consumer fails is handed out again after the visibility
 * timeout, and after maxReceiveCount receives it moves to the dead-letter queue, which keeps it
 * 14 days for an operator to read and redrive. The embedded runtime runs the same manifest
 * (infra/local/queues.ts).
 *
 * The queues are built before any function so that every function declaring a queue (or `alerts`)
 * in shared/capability-resources.ts is granted sqs:SendMessage on it and told its URL
 * (QUEUE_URLS); the consumers are attached once their functions exist.
 */
import { Duration, Stack } from 'aws-cdk-lib';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { checkQueues, QUEUE_URLS_VARIABLE, type QueueDef } from '../../shared/queues';
import type { BundleRequest } from '../bundling/bundle';
import { acknowledge } from './nag';
import type { PortalFunction } from './portal-function';

/** The consumer's bundle of a queue: its handler file alone. */
export function queueConsumerBundle(def: QueueDef): BundleRequest {
  return {
    name: def.name,
    entry: `export { handler } from ${JSON.stringify(`./${def.file}`)};\n`,
    handlers: [{ source: def.file, purpose: `consumer of queue ${def.name}` }],
  };
}

export interface WorkQueue {
  readonly def: QueueDef;
  readonly queue: sqs.Queue;
  readonly deadLetterQueue: sqs.Queue;
}

export class WorkQueues extends Construct {
  /** By queue name. */
  readonly queues = new Map<string, WorkQueue>();

  constructor(scope: Construct, id: string, props: { queues: readonly QueueDef[] }) {
    super(scope, id);
    checkQueues(props.queues);
    for (const def of props.queues) {
      const deadLetterQueue = new sqs.Queue(this, `${def.name}-dlq`, {
        encryption: sqs.QueueEncryption.SQS_MANAGED,
        enforceSSL: true,
        retentionPeriod: Duration.days(14),
      });
      acknowledge(deadLetterQueue, [
        ['AwsSolutions-SQS3', `This is the dead-letter queue of the ${def.name} work queue. Operators read and redrive it; a queue behind it would only move the same messages once more.`],
      ]);
      const queue = new sqs.Queue(this, def.name, {
        encryption: sqs.QueueEncryption.SQS_MANAGED,
        enforceSSL: true,
        retentionPeriod: Duration.seconds(def.retentionSeconds),
        visibilityTimeout: Duration.seconds(def.visibilityTimeoutSeconds),
        deadLetterQueue: { queue: deadLetterQueue, maxReceiveCount: def.maxReceiveCount },
      });
      this.queues.set(def.name, { def, queue, deadLetterQueue });
    }
  }

  /** Attaches a queue's consumer: the event source mapping with the manifest's batch size and concurrency. */
  consume(name: string, fn: PortalFunction): void {
    const q = this.get(name);
    // Lambda refuses a mapping whose queue hands a message out again before the function may have finished.
    if (q.def.visibilityTimeoutSeconds < fn.settings.timeoutSeconds) {
      throw new Error(
        `queue ${name} (shared/queues.ts): visibilityTimeoutSeconds ${q.def.visibilityTimeoutSeconds} is shorter than its consumer's timeout of ${fn.settings.timeoutSeconds} s`,
      );
    }
    fn.function.addEventSource(
      new SqsEventSource(q.queue, {
        batchSize: q.def.batchSize,
        maxBatchingWindow: Duration.seconds(0),
        maxConcurrency: q.def.concurrency,
        reportBatchItemFailures: true,
      }),
    );
  }

  /** Lets a function send to these queues, and tells it their URLs. */
  grantSend(fn: PortalFunction, names: readonly string[]): void {
    const urls: Record<string, string> = {};
    for (const name of names) {
      const q = this.get(name);
      q.queue.grantSendMessages(fn.function);
      urls[name] = q.queue.queueUrl;
    }
    fn.function.addEnvironment(QUEUE_URLS_VARIABLE, Stack.of(fn).toJsonString(urls));
  }

  private get(name: string): WorkQueue {
    const q = this.queues.get(name);
    if (!q) throw new Error(`no queue ${name} in shared/queues.ts`);
    return q;
  }
}
