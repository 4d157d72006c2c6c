/**
 * The AWS ingest failure queue into dead letters (record-failures.ts): the exact Kinesis calls that
 * read a failed batch back (aws-sdk-client-mock), and the letters written to DynamoDB Local in the
 * same shape the embedded runtime writes for the same failure.
 */
import { GetRecordsCommand, GetShardIteratorCommand, KinesisClient } from '@aws-sdk/client-kinesis';
import type { SQSEvent, SQSRecord } from 'aws-lambda';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { imeiFrom } from '../../shared/validators/imei';
import { deadLettersOf } from '../../test/support/dead-letters';
import { useLocalTables } from '../../test/support/local-tables';
import { deadLetterItem, streamFailureLetters } from './dead-letters';
import { handler, lettersOf } from './record-failures';

const kinesis = mockClient(KinesisClient);
afterEach(() => kinesis.reset());
beforeAll(async () => {
  await useLocalTables();
});

const STREAM = 'arn:aws:kinesis:eu-north-1:123456789012:stream/Portal-IngestStream';
const SENT = Date.parse('2026-03-04T05:06:07.000Z');
let serial = 0;
const nextImei = () => imeiFrom(`35693809${String(100000 + serial++).padStart(6, '0')}`);

const sqsRecord = (body: unknown, messageId = `m-${serial++}`): SQSRecord =>
  ({ messageId, body: typeof body === 'string' ? body : JSON.stringify(body), attributes: { SentTimestamp: String(SENT) } }) as unknown as SQSRecord;

/** The rule's output as the stream holds it (shared/iot-rules.ts IotRuleEvent). */
const ruleOutput = (imei: string, message: string, receivedAt: number) =>
  new TextEncoder().encode(JSON.stringify({ payload: Buffer.from(message).toString('base64'), topic: `trackers/${imei}/telemetry`, imei, receivedAt }));

const batchFailure = (batchSize: number) => ({
  requestContext: { requestId: 'r-1', functionArn: 'arn:aws:lambda:eu-north-1:123456789012:function:ingest', condition: 'RetryAttemptsExhausted', approximateInvokeCount: 4 },
  responseContext: { statusCode: 200, executedVersion: '$LATEST', functionError: 'Unhandled' },
  version: '1.0',
  timestamp: '2026-03-04T05:06:07.000Z',
  KinesisBatchInfo: {
    shardId: 'shardId-000000000000',
    startSequenceNumber: '49600000000000000000000000000000000000000000000000000010',
    endSequenceNumber: '49600000000000000000000000000000000000000000000000000020',
    approximateArrivalOfFirstRecord: '2026-03-04T05:00:00.000Z',
    approximateArrivalOfLastRecord: '2026-03-04T05:00:01.000Z',
    batchSize,
    streamArn: STREAM,
  },
});

describe('the ingest failure queue into dead letters', () => {
  it("reads a failed batch back from its shard, from the first to the last sequence number, and leaves the embedded runtime's letters", async () => {
    const imei = nextImei();
    const at = Date.parse('2026-03-04T05:00:00.000Z');
    const records = [10, 15, 20, 25].map((seq, i) => ({
      SequenceNumber: `496000000000000000000000000000000000000000000000000000${seq}`,
      PartitionKey: imei,
      Data: ruleOutput(imei, `{"n":${i}}`, at + i),
      ApproximateArrivalTimestamp: new Date(at + 500 + i),
    }));
    kinesis.on(GetShardIteratorCommand).resolves({ ShardIterator: 'it-1' });
    kinesis.on(GetRecordsCommand, { ShardIterator: 'it-1' }).resolves({ Records: records.slice(0, 2), NextShardIterator: 'it-2' });
    kinesis.on(GetRecordsCommand, { ShardIterator: 'it-2' }).resolves({ Records: records.slice(2), NextShardIterator: 'it-3' });

    const out = await handler({ Records: [sqsRecord(batchFailure(500))] } as SQSEvent);

    expect(out.batchItemFailures).toEqual([]);
    expect(kinesis.commandCalls(GetShardIteratorCommand)[0]?.args[0].input).toEqual({
      StreamARN: STREAM,
      ShardId: 'shardId-000000000000',
      ShardIteratorType: 'AT_SEQUENCE_NUMBER',
      StartingSequenceNumber: '49600000000000000000000000000000000000000000000000000010',
    });
    expect(kinesis.commandCalls(GetRecordsCommand).map((c) => c.args[0].input)).toEqual([
      { ShardIterator: 'it-1', StreamARN: STREAM, Limit: 500 },
      { ShardIterator: 'it-2', StreamARN: STREAM, Limit: 498 },
    ]);
    // The record after the end sequence number (25) is not part of the batch.
    const stored = await deadLettersOf(imei, at);
    expect(stored.map((l) => Buffer.from(l.payload, 'base64').toString()).sort()).toEqual(['{"n":0}', '{"n":1}', '{"n":2}']);
    // The same items the embedded stream writes for the same records (recordStreamFailure).
    const embedded = streamFailureLetters(
      records.slice(0, 3).map((r) => ({ kinesis: { partitionKey: imei, data: Buffer.from(r.Data).toString('base64'), approximateArrivalTimestamp: r.ApproximateArrivalTimestamp.getTime() / 1000 } })),
      new Error('RetryAttemptsExhausted, Unhandled'),
    ).map((l) => deadLetterItem(l));
    expect(stored.sort((a, b) => a.receivedAtId.localeCompare(b.receivedAtId))).toEqual(embedded.sort((a, b) => a.receivedAtId.localeCompare(b.receivedAtId)));
    expect(stored[0]).toMatchObject({ reason: 'ProcessingFailed', detail: 'RetryAttemptsExhausted, Unhandled', topic: `trackers/${imei}/telemetry`, imei });
  });

  it('stops at the batch size even when the shard holds more before the end sequence number', async () => {
    const imei = nextImei();
    kinesis.on(GetShardIteratorCommand).resolves({ ShardIterator: 'it-1' });
    kinesis.on(GetRecordsCommand).resolves({
      Records: [11, 12, 13].map((n) => ({ SequenceNumber: `4960000000000000000000000000000000000000000000000000001${n % 10}`, PartitionKey: imei, Data: ruleOutput(imei, `{"n":${n}}`, SENT), ApproximateArrivalTimestamp: new Date(SENT) })),
      NextShardIterator: 'it-2',
    });
    const letters = await lettersOf(sqsRecord(batchFailure(2)));
    expect(letters.map((l) => l.payload.toString())).toEqual(['{"n":11}', '{"n":12}']);
  });

  it("keeps a rule's error action as RuleActionFailed with the tracker's message, topic, IMEI and rule", async () => {
    const imei = nextImei();
    const message = {
      ruleName: 'Portal_trackerTelemetry',
      topic: `trackers/${imei}/telemetry`,
      cloudwatchTraceId: 't-1',
      clientId: imei,
      base64OriginalPayload: Buffer.from('{"lat":59.3}').toString('base64'),
      failures: [{ failedAction: 'KinesisAction', failedResource: 'Portal-IngestStream', errorMessage: 'ProvisionedThroughputExceededException' }],
    };
    const out = await handler({ Records: [sqsRecord(message)] } as SQSEvent);
    expect(out.batchItemFailures).toEqual([]);
    const [stored] = await deadLettersOf(imei, SENT);
    expect(stored).toMatchObject({
      reason: 'RuleActionFailed',
      detail: 'KinesisAction: ProvisionedThroughputExceededException',
      rule: 'Portal_trackerTelemetry',
      topic: message.topic,
      imei,
      payload: message.base64OriginalPayload,
      receivedAt: new Date(SENT).toISOString(),
    });
    expect(kinesis.calls()).toHaveLength(0);
  });

  it('keeps the failure record itself when the stream no longer holds the batch, and a message of unknown shape as it came', async () => {
    kinesis.on(GetShardIteratorCommand).rejects(Object.assign(new Error('trimmed'), { name: 'TrimmedDataAccessException' }));
    const [expired] = await lettersOf(sqsRecord(batchFailure(3)));
    expect(expired).toMatchObject({ reason: 'ProcessingFailed', imei: '', receivedAt: Date.parse('2026-03-04T05:00:00.000Z') });
    expect(expired?.detail).toMatch(/3 record\(s\) of shardId-000000000000 .* no longer on the stream \(TrimmedDataAccessException: trimmed\)/);
    expect(JSON.parse(expired!.payload.toString())).toMatchObject({ KinesisBatchInfo: { batchSize: 3 } });

    const [odd] = await lettersOf(sqsRecord('not json at all'));
    expect(odd).toMatchObject({ reason: 'UnknownFailure', payload: Buffer.from('not json at all'), receivedAt: SENT });
  });

  it('reports only the message it could not record, so SQS retries that one and then moves it to the dead-letter queue', async () => {
    kinesis.on(GetShardIteratorCommand).rejects(Object.assign(new Error('throttled'), { name: 'ProvisionedThroughputExceededException' }));
    const imei = nextImei();
    const rule = { ruleName: 'R', topic: `trackers/${imei}/telemetry`, base64OriginalPayload: 'e30=', failures: [] };
    const out = await handler({ Records: [sqsRecord(batchFailure(5), 'bad'), sqsRecord(rule, 'good')] } as SQSEvent);
    expect(out.batchItemFailures).toEqual([{ itemIdentifier: 'bad' }]);
    expect(await deadLettersOf(imei, SENT)).toHaveLength(1);
  });
});
