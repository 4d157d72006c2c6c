import { SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { createSqsAlertQueue } from './alert-queue';

const sqs = mockClient(SQSClient);
const URL = 'https://sqs.eu-north-1.amazonaws.com/123456789012/stack-alerts';

beforeEach(() => sqs.reset());

describe('the SQS alert queue', () => {
  it('sends one message per alarm, the job as its JSON body, to the queue it was given', async () => {
    sqs.on(SendMessageCommand).resolves({ MessageId: 'm-1' });
    await createSqsAlertQueue(new SQSClient({ region: 'eu-north-1' }), URL).enqueue({ imei: '356938035643809', sk: '1764000000000#geofenceExit#yard' });
    const calls = sqs.commandCalls(SendMessageCommand);
    expect(calls.map((c) => c.args[0].input)).toEqual([{ QueueUrl: URL, MessageBody: '{"imei":"356938035643809","sk":"1764000000000#geofenceExit#yard"}' }]);
  });

  it('fails, without calling SQS, when the function was not given the queue', async () => {
    await expect(createSqsAlertQueue(new SQSClient({ region: 'eu-north-1' }), undefined).enqueue({ imei: '356938035643809', sk: 'x' })).rejects.toThrow(/ALERT_QUEUE_URL/);
    expect(sqs.calls()).toHaveLength(0);
  });
});
