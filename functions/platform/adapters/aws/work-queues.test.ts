import { SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { alertQueueOver } from '../alert-queue';
import { createSqsWorkQueues } from './work-queues';

const sqs = mockClient(SQSClient);
const ALERTS = 'https://sqs.eu-north-1.amazonaws.com/123456789012/stack-alert-delivery';
const ADDRESSES = 'https://sqs.eu-north-1.amazonaws.com/123456789012/stack-trip-addresses';
const client = () => new SQSClient({ region: 'eu-north-1' });

beforeEach(() => sqs.reset());

describe('the SQS work queues', () => {
  it('sends one message, its JSON as the body, to the URL bound for that queue', async () => {
    sqs.on(SendMessageCommand).resolves({ MessageId: 'm-1' });
    const queues = createSqsWorkQueues(client(), { 'alert-delivery': ALERTS, 'trip-addresses': ADDRESSES });
    await queues.send('trip-addresses', { imei: '356938035643809', startTs: 1764000000000 });
    expect(sqs.commandCalls(SendMessageCommand).map((c) => c.args[0].input)).toEqual([
      { QueueUrl: ADDRESSES, MessageBody: '{"imei":"356938035643809","startTs":1764000000000}' },
    ]);
    expect(sqs.calls()).toHaveLength(1);
  });

  it('puts an alarm on the alert-delivery queue, the job as its body', async () => {
    sqs.on(SendMessageCommand).resolves({ MessageId: 'm-2' });
    await alertQueueOver(createSqsWorkQueues(client(), { 'alert-delivery': ALERTS })).enqueue({ imei: '356938035643809', sk: '1764000000000#geofenceExit#yard' });
    expect(sqs.commandCalls(SendMessageCommand).map((c) => c.args[0].input)).toEqual([
      { QueueUrl: ALERTS, MessageBody: '{"imei":"356938035643809","sk":"1764000000000#geofenceExit#yard"}' },
    ]);
  });

  it('delays a message by whole seconds, at most the 900 SQS allows', async () => {
    sqs.on(SendMessageCommand).resolves({ MessageId: 'm-3' });
    const queues = createSqsWorkQueues(client(), { 'trip-addresses': ADDRESSES });
    await queues.send('trip-addresses', { n: 1 }, { delaySeconds: 12.2 });
    await queues.send('trip-addresses', { n: 2 }, { delaySeconds: 4 * 3600 });
    expect(sqs.commandCalls(SendMessageCommand).map((c) => c.args[0].input.DelaySeconds)).toEqual([13, 900]);
  });

  it('fails, without calling SQS, for a queue the function was not given', async () => {
    const queues = createSqsWorkQueues(client(), { 'alert-delivery': ALERTS });
    await expect(queues.send('trip-redetect', { imei: '1', fromTs: 1, toTs: 2 })).rejects.toThrow(/trip-redetect is not in QUEUE_URLS/);
    expect(sqs.calls()).toHaveLength(0);
  });

  it('passes an SQS error on, so that the sender fails and is retried', async () => {
    sqs.on(SendMessageCommand).rejects(new Error('throttled'));
    await expect(createSqsWorkQueues(client(), { 'alert-delivery': ALERTS }).send('alert-delivery', { imei: '1', sk: 'x' })).rejects.toThrow('throttled');
    expect(sqs.commandCalls(SendMessageCommand)).toHaveLength(1);
  });
});
