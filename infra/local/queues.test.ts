import type { Context, SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createLocalQueues, type LocalQueueDef, type QueueConsumer } from './queues';

const def: LocalQueueDef = { name: 'test-work', batchSize: 3, maxReceiveCount: 3, visibilityTimeoutSeconds: 30, concurrency: 2 };
const context = () => ({}) as Context;

/** A consumer that records every event it gets and answers what `answer` decides. */
function recorder(answer: (event: SQSEvent) => Promise<unknown> | unknown = () => ({ batchItemFailures: [] })) {
  const events: SQSEvent[] = [];
  const consumer: QueueConsumer = async (event) => {
    events.push(event);
    return answer(event);
  };
  const bodies = () => events.map((e) => e.Records.map((r) => JSON.parse(r.body) as unknown));
  return { events, consumer, bodies };
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('the embedded work queues', () => {
  it('hands the consumer SQS events of at most batchSize messages, in the order they were sent', async () => {
    const { consumer, bodies, events } = recorder();
    const queues = createLocalQueues([{ def: { ...def, concurrency: 2 }, consumer }], { context });
    await Promise.all([1, 2, 3, 4, 5, 6, 7].map((n) => queues.send('test-work', { n })));
    await queues.drained();
    expect(bodies().flat()).toEqual([1, 2, 3, 4, 5, 6, 7].map((n) => ({ n })));
    expect(events.map((e) => e.Records.length)).toEqual([3, 3, 1]);
    const [record] = events[0]!.Records;
    expect(record).toMatchObject({ eventSource: 'aws:sqs', eventSourceARN: 'arn:aws:sqs:local:000000000000:test-work', attributes: { ApproximateReceiveCount: '1' } });
    expect(queues.depth('test-work')).toBe(0);
    expect(queues.deadLetters('test-work')).toEqual([]);
  });

  it('holds a message sent with delaySeconds back that long, counted in the depth meanwhile', async () => {
    const { consumer, bodies } = recorder();
    const queues = createLocalQueues([{ def, consumer }], { context });
    await queues.send('test-work', { n: 'later' }, { delaySeconds: 5 });
    await queues.send('test-work', { n: 'now' });
    await vi.advanceTimersByTimeAsync(0);
    expect(bodies().flat()).toEqual([{ n: 'now' }]);
    expect(queues.depth('test-work')).toBe(1);
    await vi.advanceTimersByTimeAsync(4_999);
    expect(bodies().flat()).toEqual([{ n: 'now' }]);
    await vi.advanceTimersByTimeAsync(1);
    await queues.drained();
    expect(bodies().flat()).toEqual([{ n: 'now' }, { n: 'later' }]);
    expect(queues.depth('test-work')).toBe(0);
  });

  it('runs at most `concurrency` batches at once', async () => {
    let running = 0;
    let most = 0;
    const release: (() => void)[] = [];
    const queues = createLocalQueues(
      [
        {
          def: { ...def, batchSize: 1, concurrency: 2 },
          consumer: async () => {
            running++;
            most = Math.max(most, running);
            await new Promise<void>((resolve) => release.push(resolve));
            running--;
          },
        },
      ],
      { context },
    );
    await Promise.all([0, 1, 2, 3, 4].map((i) => queues.send('test-work', i)));
    await vi.advanceTimersByTimeAsync(0);
    expect(running).toBe(2);
    expect(queues.depth('test-work')).toBe(5);
    while (release.length) {
      release.shift()!();
      await vi.advanceTimersByTimeAsync(0);
    }
    await queues.drained();
    expect(most).toBe(2);
  });

  it('hands out only the failed messages of a batch again, once the visibility timeout has passed', async () => {
    let first = true;
    const { consumer, events } = recorder((event): SQSBatchResponse => {
      if (!first) return { batchItemFailures: [] };
      first = false;
      return { batchItemFailures: [{ itemIdentifier: event.Records[1]!.messageId }] };
    });
    const queues = createLocalQueues([{ def, consumer }], { context });
    await Promise.all([1, 2, 3].map((n) => queues.send('test-work', n)));
    await vi.advanceTimersByTimeAsync(0);
    expect(events).toHaveLength(1);
    expect(queues.depth('test-work')).toBe(1);

    await vi.advanceTimersByTimeAsync(29_999);
    expect(events).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    await queues.drained();
    expect(events).toHaveLength(2);
    expect(events[1]!.Records.map((r) => [JSON.parse(r.body), r.attributes.ApproximateReceiveCount, r.messageId])).toEqual([[2, '2', events[0]!.Records[1]!.messageId]]);
    expect(queues.deadLetters('test-work')).toEqual([]);
  });

  it('moves a message that failed maxReceiveCount times to the dead-letter queue, where it can be read', async () => {
    const { consumer, events } = recorder(() => {
      throw new Error('geocoder down');
    });
    const failures: [string, boolean][] = [];
    const queues = createLocalQueues([{ def: { ...def, batchSize: 1 }, consumer }], {
      context,
      onFailure: (queue, message, dead) => failures.push([`${queue}:${message.receiveCount}`, dead]),
    });
    await queues.send('test-work', { trip: 7 });
    const drained = queues.drained();
    await vi.advanceTimersByTimeAsync(2 * 30_000);
    await drained;
    expect(events.map((e) => e.Records[0]!.attributes.ApproximateReceiveCount)).toEqual(['1', '2', '3']);
    expect(failures).toEqual([
      ['test-work:1', false],
      ['test-work:2', false],
      ['test-work:3', true],
    ]);
    const [dead, ...more] = queues.deadLetters('test-work');
    expect(more).toEqual([]);
    expect(dead).toMatchObject({ body: '{"trip":7}', receiveCount: 3, lastError: 'geocoder down' });
    expect(queues.depth('test-work')).toBe(0);
    // Nothing more comes of it.
    await vi.advanceTimersByTimeAsync(10 * 30_000);
    expect(events).toHaveLength(3);
  });

  it('fails the whole batch when the answer names a message that was not in it', async () => {
    let calls = 0;
    const { consumer } = recorder(() => (++calls === 1 ? { batchItemFailures: [{ itemIdentifier: 'not-in-the-batch' }] } : {}));
    const queues = createLocalQueues([{ def, consumer }], { context });
    await Promise.all(['a', 'b'].map((m) => queues.send('test-work', m)));
    await vi.advanceTimersByTimeAsync(0);
    expect(queues.depth('test-work')).toBe(2);
    await vi.advanceTimersByTimeAsync(30_000);
    await queues.drained();
    expect(calls).toBe(2);
  });

  it('refuses a queue it does not have, and messages after stop', async () => {
    const { consumer } = recorder();
    const queues = createLocalQueues([{ def, consumer }], { context });
    await expect(queues.send('no-such-queue', 1)).rejects.toThrow(/no embedded queue "no-such-queue"/);
    await queues.stop();
    await expect(queues.send('test-work', 1)).rejects.toThrow(/stopped/);
  });

  it('stop drops the invisible messages and waits for the running batch', async () => {
    let finished = false;
    let release = () => {};
    const queues = createLocalQueues(
      [
        {
          def: { ...def, batchSize: 1 },
          consumer: async (event) => {
            if (JSON.parse(event.Records[0]!.body) === 'fails') throw new Error('no');
            await new Promise<void>((resolve) => (release = resolve));
            finished = true;
          },
        },
      ],
      { context },
    );
    await queues.send('test-work', 'fails');
    await queues.send('test-work', 'slow');
    await vi.advanceTimersByTimeAsync(0);
    const stopping = queues.stop();
    expect(finished).toBe(false);
    release();
    await stopping;
    expect(finished).toBe(true);
    expect(queues.depth('test-work')).toBe(0);
    expect(vi.getTimerCount()).toBe(0);
  });
});
