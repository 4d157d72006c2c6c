/**
 * Alarm delivery on AWS (docs/decisions/0017-events-and-alarms.md): the functions that raise
 * alarms (ingest's event engine, the jobs) put one message per alarm on the alert queue; the
 * `alert-delivery` function reads it in small batches and reports each failed message on its own,
 * which SQS hands out again after the visibility timeout, ALERT_DELIVERY.maxAttempts times in all,
 * before it moves to the stack's dead-letter queue. The embedded runtime's in-process queue keeps
 * the same tries (functions/platform/adapters/embedded/alert-queue.ts).
 */
import { Duration } from 'aws-cdk-lib';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { ALERT_DELIVERY } from '../../shared/alert-delivery';
import { ALERT_DELIVERY_FUNCTION } from '../../shared/capability-resources';
import type { BundleRequest } from '../bundling/bundle';
import type { PortalFunction } from './portal-function';

export const ALERT_DELIVERY_HANDLER = 'functions/events/alert-delivery.ts';
/** The environment variable of the functions that enqueue (functions/platform/env.ts). */
export const ALERT_QUEUE_VARIABLE = 'ALERT_QUEUE_URL';

export function alertDeliveryBundle(): BundleRequest {
  return {
    name: ALERT_DELIVERY_FUNCTION,
    entry: `export { handler } from ${JSON.stringify(`./${ALERT_DELIVERY_HANDLER}`)};\n`,
    handlers: [{ source: ALERT_DELIVERY_HANDLER, purpose: 'alarms from the alert queue to their receivers' }],
  };
}

export interface AlertDeliveryProps {
  readonly function: PortalFunction;
  readonly deadLetterQueue: sqs.IQueue;
}

export class AlertDelivery extends Construct {
  readonly queue: sqs.Queue;

  constructor(scope: Construct, id: string, props: AlertDeliveryProps) {
    super(scope, id);
    this.queue = new sqs.Queue(this, 'Queue', {
      encryption: sqs.QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      // An alarm a day late is no alarm: what could not be sent within a day is dropped.
      retentionPeriod: Duration.days(1),
      // Six times the consumer's timeout, as Lambda advises for a queue it reads.
      visibilityTimeout: Duration.seconds(6 * props.function.settings.timeoutSeconds),
      deadLetterQueue: { queue: props.deadLetterQueue, maxReceiveCount: ALERT_DELIVERY.maxAttempts },
    });
    props.function.function.addEventSource(
      new SqsEventSource(this.queue, { batchSize: 10, maxBatchingWindow: Duration.seconds(0), reportBatchItemFailures: true }),
    );
  }

  /** Lets a function put alarms on the queue, and tells it where the queue is. */
  grantEnqueue(fn: PortalFunction): void {
    this.queue.grantSendMessages(fn.function);
    fn.function.addEnvironment(ALERT_QUEUE_VARIABLE, this.queue.queueUrl);
  }
}
