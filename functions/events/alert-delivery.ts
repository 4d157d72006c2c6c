/**
 * The alert queue's consumer on AWS (infra/constructs/alert-delivery.ts): each message is one
 * alarm to deliver (deliver-alert.ts). A message that fails is reported on its own, so SQS hands
 * only it out again; after its retries it goes to the dead-letter queue. Delivery claims each
 * message, so a message handed out twice sends nothing twice.
 */
import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { z } from 'zod';
import { logger } from '../platform/logger';
import type { AlertJob } from '../platform/ports';
import { deliverAlert } from './deliver-alert';

const jobSchema = z.object({ imei: z.string().min(1), sk: z.string().min(1) });

/** The consumer around a delivery function (tests deliver with ports of their own). */
export const createAlertConsumer = (deliver: (job: AlertJob) => Promise<unknown>) => async (event: SQSEvent): Promise<SQSBatchResponse> => {
  const batchItemFailures: SQSBatchResponse['batchItemFailures'] = [];
  for (const record of event.Records) {
    let job: z.infer<typeof jobSchema>;
    try {
      job = jobSchema.parse(JSON.parse(record.body));
    } catch {
      // Never deliverable: kept out of the retries (logged with its body for the operator).
      logger.error('alert queue message is not a job; dropped', { messageId: record.messageId, body: record.body.slice(0, 500) });
      continue;
    }
    try {
      await deliver(job);
    } catch (error) {
      logger.warn('alarm delivery failed; SQS retries it', { ...job, error: error instanceof Error ? error.message : String(error) });
      batchItemFailures.push({ itemIdentifier: record.messageId });
    }
  }
  return { batchItemFailures };
};

export const handler = createAlertConsumer((job) => deliverAlert(job));
