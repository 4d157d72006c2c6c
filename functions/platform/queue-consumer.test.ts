import type { SQSEvent, SQSRecord } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { queueConsumer } from './queue-consumer';

const record = (messageId: string, body: string) => ({ messageId, body }) as SQSRecord;
const event = (...records: SQSRecord[]): SQSEvent => ({ Records: records });

describe('queueConsumer', () => {
  it('works each message of the batch, reports only the failed ones, and drops what is not a message of the queue', async () => {
    const done: number[] = [];
    const consume = queueConsumer('test', z.object({ n: z.number() }), async ({ n }) => {
      if (n === 2) throw new Error('geocoder down');
      done.push(n);
    });
    const answer = await consume(
      event(record('a', '{"n":1}'), record('b', '{"n":2}'), record('c', 'not json'), record('d', '{"n":"x"}'), record('e', '{"n":3}')),
    );
    expect(answer).toEqual({ batchItemFailures: [{ itemIdentifier: 'b' }] });
    expect(done).toEqual([1, 3]);
  });
});
