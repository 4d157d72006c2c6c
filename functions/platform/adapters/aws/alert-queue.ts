import { SendMessageCommand, type SQSClient } from '@aws-sdk/client-sqs';
import type { AlertJob, AlertQueue } from '../../ports';

/**
 * Alarms to deliver go on the alert queue (infra/constructs/alert-delivery.ts), whose consumer
 * retries a failed delivery and finally moves it to the dead-letter queue. A function that
 * enqueues without the queue's URL fails loudly.
 */
export function createSqsAlertQueue(client: SQSClient, queueUrl: string | undefined): AlertQueue {
  return {
    async enqueue(job: AlertJob) {
      if (!queueUrl) throw new Error('ALERT_QUEUE_URL is not set: this function may not enqueue alarms');
      await client.send(new SendMessageCommand({ QueueUrl: queueUrl, MessageBody: JSON.stringify(job) }));
    },
  };
}
