/**
 * The AWS half of "dead letters land in one place, in one shape": the `ingest-failures` function
 * reads the ingest failure queue (infra/constructs/ingest.ts) and writes each message as dead
 * letters in the `dead-letters` table, exactly as the embedded runtime writes its own
 * (dead-letters.ts). Two things arrive on that queue:
 *
 * - an IoT rule's error action (the rule could not put a tracker message on the stream): one
 *   letter `RuleActionFailed` with the tracker's message, its topic, IMEI and rule;
 * - the event source mapping's on-failure record of an ingest batch that spent its retries: only
 *   the batch's shard and sequence numbers, so the records are read back from the stream and each
 *   becomes a `ProcessingFailed` letter, the same letters `recordStreamFailure` writes locally.
 *   Records the stream no longer holds (older than its retention) leave one letter with the
 *   failure record itself, so nothing is dropped without a trace.
 *
 * Letters have deterministic ids, so a message read twice (SQS delivers at least once) writes the
 * same items again. A message that cannot be handled is reported as a batch item failure: SQS
 * retries it and, after the queue's receive count, moves it to the stack's dead-letter queue.
 */
import { GetRecordsCommand, GetShardIteratorCommand, KinesisClient, type _Record as KinesisRecord } from '@aws-sdk/client-kinesis';
import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { z } from 'zod';
import { parseTrackerTopic, ruleTopicOf } from '../../shared/mqtt-topics';
import { logger } from '../platform/logger';
import { recordDeadLetters, streamFailureLetters, type DeadLetter } from './dead-letters';

/** https://docs.aws.amazon.com/iot/latest/developerguide/rule-error-handling.html */
const ruleErrorSchema = z.object({
  ruleName: z.string(),
  topic: z.string(),
  clientId: z.string().optional(),
  base64OriginalPayload: z.string(),
  failures: z.array(z.object({ failedAction: z.string().optional(), failedResource: z.string().optional(), errorMessage: z.string().optional() })).default([]),
});

/** The on-failure invocation record of a Kinesis event source mapping. */
const batchFailureSchema = z.object({
  requestContext: z.object({ condition: z.string().optional(), approximateInvokeCount: z.number().optional() }).optional(),
  responseContext: z.object({ statusCode: z.number().optional(), functionError: z.string().optional() }).optional(),
  KinesisBatchInfo: z.object({
    shardId: z.string(),
    startSequenceNumber: z.string().regex(/^\d+$/),
    endSequenceNumber: z.string().regex(/^\d+$/),
    batchSize: z.number().int().positive(),
    streamArn: z.string(),
    approximateArrivalOfFirstRecord: z.string().optional(),
  }),
});
type BatchFailure = z.infer<typeof batchFailureSchema>;

/** GetRecords calls per failed batch: a batch is at most 500 records, and an empty page ends the reading anyway. */
const MAX_PAGES = 50;

let client: KinesisClient | undefined;
const kinesis = () => (client ??= new KinesisClient({}));

/** The letter of a rule's error action. */
export function ruleErrorLetter(message: z.infer<typeof ruleErrorSchema>, receivedAt: number): DeadLetter {
  const detail = message.failures.map((f) => [f.failedAction, f.errorMessage].filter(Boolean).join(': ')).join('; ');
  return {
    reason: 'RuleActionFailed',
    ...(detail ? { detail } : {}),
    rule: message.ruleName,
    topic: message.topic,
    imei: parseTrackerTopic(ruleTopicOf(message.topic))?.imei ?? message.clientId ?? '',
    payload: Buffer.from(message.base64OriginalPayload, 'base64'),
    receivedAt,
  };
}

const why = (failure: BatchFailure) =>
  [failure.requestContext?.condition, failure.responseContext?.functionError].filter(Boolean).join(', ') || 'the batch failed its retries';

/** The records of the failed batch, read back from the stream between its first and last sequence numbers. */
export async function readFailedBatch(info: BatchFailure['KinesisBatchInfo']): Promise<KinesisRecord[]> {
  const end = BigInt(info.endSequenceNumber);
  const start = await kinesis().send(
    new GetShardIteratorCommand({
      StreamARN: info.streamArn,
      ShardId: info.shardId,
      ShardIteratorType: 'AT_SEQUENCE_NUMBER',
      StartingSequenceNumber: info.startSequenceNumber,
    }),
  );
  const records: KinesisRecord[] = [];
  let iterator = start.ShardIterator;
  for (let page = 0; iterator && page < MAX_PAGES; page++) {
    const out = await kinesis().send(new GetRecordsCommand({ ShardIterator: iterator, StreamARN: info.streamArn, Limit: Math.min(10_000, info.batchSize - records.length) }));
    for (const record of out.Records ?? []) {
      if (BigInt(record.SequenceNumber ?? '0') > end) return records;
      records.push(record);
      if (records.length >= info.batchSize) return records;
    }
    if (!out.Records?.length) break;
    iterator = out.NextShardIterator;
  }
  return records;
}

/** A stream record in the shape of the ingest function's event, which `streamFailureLetters` reads. */
const asEventRecord = (record: KinesisRecord) => ({
  kinesis: {
    partitionKey: record.PartitionKey ?? '',
    data: Buffer.from(record.Data ?? new Uint8Array()).toString('base64'),
    approximateArrivalTimestamp: (record.ApproximateArrivalTimestamp?.getTime() ?? 0) / 1000,
  },
});

/** The letters one queue message stands for; throws when it can be neither read nor kept. */
export async function lettersOf(record: Pick<SQSRecord, 'body' | 'attributes'>): Promise<DeadLetter[]> {
  const sentAt = Number(record.attributes.SentTimestamp) || Date.now();
  let body: unknown;
  try {
    body = JSON.parse(record.body);
  } catch {
    body = undefined;
  }
  const rule = ruleErrorSchema.safeParse(body);
  if (rule.success) return [ruleErrorLetter(rule.data, sentAt)];
  const batch = batchFailureSchema.safeParse(body);
  if (batch.success) {
    const info = batch.data.KinesisBatchInfo;
    let records: KinesisRecord[] = [];
    let unreadable: string | undefined;
    try {
      records = await readFailedBatch(info);
    } catch (error) {
      // Trimmed past the stream's retention, or the stream is gone: keep the failure record.
      const name = (error as { name?: string }).name ?? '';
      if (!['ExpiredIteratorException', 'TrimmedDataAccessException', 'ResourceNotFoundException', 'InvalidArgumentException'].includes(name)) throw error;
      unreadable = `${name}: ${(error as Error).message}`;
    }
    if (records.length) return streamFailureLetters(records.map(asEventRecord), new Error(why(batch.data)));
    const arrived = Date.parse(info.approximateArrivalOfFirstRecord ?? '');
    return [
      {
        reason: 'ProcessingFailed',
        detail: `${why(batch.data)}; ${info.batchSize} record(s) of ${info.shardId} from ${info.startSequenceNumber} to ${info.endSequenceNumber} no longer on the stream${unreadable ? ` (${unreadable})` : ''}`,
        topic: '',
        imei: '',
        payload: Buffer.from(record.body),
        receivedAt: Number.isFinite(arrived) ? arrived : sentAt,
      },
    ];
  }
  // Neither shape: kept as it came, so an operator still sees it in the one place.
  return [{ reason: 'UnknownFailure', detail: 'a message on the ingest failure queue of an unknown shape', topic: '', imei: '', payload: Buffer.from(record.body), receivedAt: sentAt }];
}

export async function handler(event: SQSEvent): Promise<SQSBatchResponse> {
  const batchItemFailures: SQSBatchResponse['batchItemFailures'] = [];
  for (const record of event.Records) {
    try {
      await recordDeadLetters(await lettersOf(record));
    } catch (error) {
      logger.error('ingest failure not recorded; the queue retries it', { messageId: record.messageId, error });
      batchItemFailures.push({ itemIdentifier: record.messageId });
    }
  }
  return { batchItemFailures };
}
