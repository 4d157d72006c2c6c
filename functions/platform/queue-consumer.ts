/**
 * The one shape of a work queue's consumer (shared/queues.ts): each SQS record's body is parsed
 * with the queue's message schema. A body that never parses is logged with its start and dropped,
 * since it would fail every retry; a message whose work throws is reported in
 * `batchItemFailures`, so that only it is handed out again, and after the queue's receive count it
 * goes to the dead-letter queue. The work itself must be idempotent: a message may come twice.
 */
import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import type { z } from 'zod';
import { logger } from './logger';

export function queueConsumer<S extends z.ZodType>(
  queue: string,
  schema: S,
  work: (message: z.infer<S>) => Promise<unknown>,
  options: { parallel?: boolean } = {},
) {
  return async (event: SQSEvent): Promise<SQSBatchResponse> => {
    const batchItemFailures: SQSBatchResponse['batchItemFailures'] = [];
    const one = async (record: SQSEvent['Records'][number]): Promise<void> => {
      let body: unknown;
      try {
        body = JSON.parse(record.body);
      } catch {
        body = undefined;
      }
      const parsed = schema.safeParse(body);
      if (!parsed.success) {
        logger.error('work queue message is not one of the queue; dropped', { queue, messageId: record.messageId, body: record.body.slice(0, 500) });
        return;
      }
      try {
        await work(parsed.data);
      } catch (error) {
        logger.warn('work queue message failed; the queue hands it out again', { queue, messageId: record.messageId, error: error instanceof Error ? error.message : String(error) });
        batchItemFailures.push({ itemIdentifier: record.messageId });
      }
    };
    // In parallel for work that mostly waits on others (webhook endpoints); one after another otherwise.
    if (options.parallel) await Promise.all(event.Records.map(one));
    else for (const record of event.Records) await one(record);
    return { batchItemFailures };
  };
}
