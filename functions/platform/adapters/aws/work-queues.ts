import { SendMessageCommand, type SQSClient } from '@aws-sdk/client-sqs';
import type { QueueName } from '../../../../shared/queues';
import type { SendOptions, WorkQueues } from '../../ports';

/** SQS's longest message delay. */
export const MAX_DELAY_SECONDS = 900;

/**
 * Messages for the work queues of shared/queues.ts go to SQS (infra/constructs/work-queues.ts),
 * one SendMessage each, the message as its JSON body. `urls` are the queues the stack bound to
 * this function (QUEUE_URLS); sending to another one fails loudly, without calling SQS.
 */
export function createSqsWorkQueues(client: SQSClient, urls: Readonly<Partial<Record<string, string>>>): WorkQueues {
  return {
    async send(queue: QueueName, message: unknown, options?: SendOptions) {
      const url = urls[queue];
      if (!url) throw new Error(`queue ${queue} is not in QUEUE_URLS: this function may not send to it (shared/capability-resources.ts)`);
      const delay = options?.delaySeconds ? Math.min(MAX_DELAY_SECONDS, Math.max(0, Math.ceil(options.delaySeconds))) : 0;
      await client.send(new SendMessageCommand({ QueueUrl: url, MessageBody: JSON.stringify(message), ...(delay ? { DelaySeconds: delay } : {}) }));
    },
  };
}
