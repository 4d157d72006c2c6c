/**
 * The work queues of shared/queues.ts in this process: what SQS and its event source mappings do
 * on AWS (infra/constructs/work-queues.ts), with the same numbers from the same manifest.
 *
 * - A queue hands its consumer up to `batchSize` waiting messages at once as an SQS event, with at
 *   most `concurrency` invocations running.
 * - The consumer answers `{ batchItemFailures: [{ itemIdentifier }] }` for the messages that
 *   failed; a consumer that throws fails its whole batch, as does an answer naming a message that
 *   was not in the batch (as Lambda treats it).
 * - A failed message stays invisible for `visibilityTimeoutSeconds`, then is handed out again with
 *   its receive count up by one; once it has been received `maxReceiveCount` times and failed, it
 *   moves to the queue's dead-letter queue, which `deadLetters(name)` lists.
 * One difference: a batch that runs longer than the visibility timeout is not handed out a second
 * time while it runs (SQS would); consumers are idempotent either way.
 */
import { randomUUID } from 'node:crypto';
import type { Context, SQSEvent, SQSRecord } from 'aws-lambda';
import { checkQueues, type QueueDef } from '../../shared/queues';
import { registerLocalQueues, unregisterLocalQueues } from '../../functions/platform/adapters/embedded/work-queues';
import type { SendOptions } from '../../functions/platform/ports';

export type QueueConsumer = (event: SQSEvent, context: Context) => Promise<unknown>;

export type LocalQueueDef = Pick<QueueDef, 'name' | 'batchSize' | 'maxReceiveCount' | 'visibilityTimeoutSeconds' | 'concurrency'>;

export interface QueueMessage {
  readonly messageId: string;
  readonly body: string;
  readonly sentAt: number;
  /** Times it was handed to the consumer. */
  receiveCount: number;
  firstReceivedAt?: number;
  /** Why its last receive failed. */
  lastError?: string;
}

export interface LocalQueues {
  /** Puts a message (any JSON value) on a queue, held back `delaySeconds` (SQS DelaySeconds); throws for a queue that is not wired. */
  send(queue: string, message: unknown, options?: SendOptions): Promise<void>;
  /** The queue's dead-letter queue: messages that failed `maxReceiveCount` times, oldest first. */
  deadLetters(queue: string): readonly QueueMessage[];
  /** Messages waiting, being consumed or invisible after a failure. */
  depth(queue: string): number;
  /** Resolves once no queue has a message waiting, being consumed or invisible (tests, benchmarks). */
  drained(): Promise<void>;
  /** Stops handing out messages and waits for the running batches; what is left is dropped. */
  stop(): Promise<void>;
}

export interface LocalQueueOptions {
  context: (queue: string, requestId: string) => Context;
  /** A failed receive (retried) or a message moved to the dead-letter queue. */
  onFailure?: (queue: string, message: QueueMessage, deadLettered: boolean) => void;
}

const ARN_PREFIX = 'arn:aws:sqs:local:000000000000:';

function batchFailures(result: unknown, batch: readonly QueueMessage[]): Set<string> | 'all' {
  if (result === null || typeof result !== 'object' || !('batchItemFailures' in result)) return new Set();
  const failures = (result as { batchItemFailures: unknown }).batchItemFailures;
  if (!Array.isArray(failures)) return 'all';
  const ids = new Set(batch.map((m) => m.messageId));
  const failed = new Set<string>();
  for (const failure of failures as unknown[]) {
    const id = failure && typeof failure === 'object' ? (failure as { itemIdentifier?: unknown }).itemIdentifier : undefined;
    if (typeof id !== 'string' || !ids.has(id)) return 'all';
    failed.add(id);
  }
  return failed;
}

function record(queue: string, message: QueueMessage): SQSRecord {
  return {
    messageId: message.messageId,
    receiptHandle: `${message.messageId}#${message.receiveCount}`,
    body: message.body,
    attributes: {
      ApproximateReceiveCount: String(message.receiveCount),
      SentTimestamp: String(message.sentAt),
      SenderId: 'local',
      ApproximateFirstReceiveTimestamp: String(message.firstReceivedAt ?? message.sentAt),
    },
    messageAttributes: {},
    md5OfBody: '',
    eventSource: 'aws:sqs',
    eventSourceARN: `${ARN_PREFIX}${queue}`,
    awsRegion: 'local',
  };
}

export function createLocalQueues(
  wired: ReadonlyArray<{ def: LocalQueueDef; consumer: QueueConsumer }>,
  options: LocalQueueOptions,
): LocalQueues {
  interface State {
    def: LocalQueueDef;
    consumer: QueueConsumer;
    ready: QueueMessage[];
    running: number;
    /** Messages in the running batches. */
    inFlight: number;
    /** Timers of failed messages, with how many messages each brings back. */
    invisible: Map<NodeJS.Timeout, number>;
    dead: QueueMessage[];
    batches: Set<Promise<void>>;
    pumpScheduled: boolean;
  }
  const states = new Map<string, State>();
  for (const { def, consumer } of wired) {
    if (states.has(def.name)) throw new Error(`queue ${def.name} is wired twice`);
    states.set(def.name, { def, consumer, ready: [], running: 0, inFlight: 0, invisible: new Map(), dead: [], batches: new Set(), pumpScheduled: false });
  }
  let stopped = false;
  let idle: (() => void)[] = [];

  const stateOf = (queue: string): State => {
    const state = states.get(queue);
    if (!state) throw new Error(`no embedded queue ${JSON.stringify(queue)} (shared/queues.ts)`);
    return state;
  };
  const depthOf = (s: State) => s.ready.length + s.inFlight + [...s.invisible.values()].reduce((a, b) => a + b, 0);
  const busy = (s: State) => depthOf(s) > 0;
  const settle = () => {
    if ([...states.values()].some(busy)) return;
    const done = idle;
    idle = [];
    for (const resolve of done) resolve();
  };

  /** The failed messages of one batch: dead-lettered, or invisible for the timeout and then waiting again. */
  const fail = (s: State, messages: readonly QueueMessage[], error: string) => {
    const again: QueueMessage[] = [];
    for (const message of messages) {
      message.lastError = error;
      const dead = message.receiveCount >= s.def.maxReceiveCount;
      if (dead) s.dead.push(message);
      else again.push(message);
      options.onFailure?.(s.def.name, message, dead);
    }
    if (!again.length) return;
    const timer = setTimeout(() => {
      s.invisible.delete(timer);
      if (stopped) return settle();
      s.ready.push(...again);
      schedulePump(s);
    }, s.def.visibilityTimeoutSeconds * 1000);
    s.invisible.set(timer, again.length);
  };

  const consume = async (s: State, batch: QueueMessage[]): Promise<void> => {
    let failed: Set<string> | 'all';
    let reason = 'reported in batchItemFailures';
    try {
      const event: SQSEvent = { Records: batch.map((m) => record(s.def.name, m)) };
      failed = batchFailures(await s.consumer(event, options.context(s.def.name, randomUUID())), batch);
      if (failed === 'all') reason = 'the answer named a message outside the batch';
    } catch (error) {
      failed = 'all';
      reason = error instanceof Error ? error.message : String(error);
    }
    fail(s, failed === 'all' ? batch : batch.filter((m) => failed.has(m.messageId)), reason);
  };

  /** Messages that arrive in the same turn go out together, as SQS hands out what is waiting in one batch. */
  function schedulePump(s: State): void {
    if (s.pumpScheduled) return;
    s.pumpScheduled = true;
    queueMicrotask(() => {
      s.pumpScheduled = false;
      pump(s);
      settle();
    });
  }

  function pump(s: State): void {
    while (!stopped && s.running < s.def.concurrency && s.ready.length) {
      const batch = s.ready.splice(0, s.def.batchSize);
      const now = Date.now();
      for (const message of batch) {
        message.receiveCount++;
        message.firstReceivedAt ??= now;
      }
      s.running++;
      s.inFlight += batch.length;
      const run: Promise<void> = consume(s, batch).finally(() => {
        s.running--;
        s.inFlight -= batch.length;
        s.batches.delete(run);
        pump(s);
        settle();
      });
      s.batches.add(run);
    }
  }

  return {
    async send(queue, message, options) {
      const s = stateOf(queue);
      if (stopped) throw new Error(`the embedded queues are stopped: ${queue} takes no more messages`);
      const body = JSON.stringify(message);
      if (body === undefined) throw new Error(`queue ${queue}: a message must be a JSON value`);
      const queued: QueueMessage = { messageId: randomUUID(), body, sentAt: Date.now(), receiveCount: 0 };
      const delayMs = Math.max(0, (options?.delaySeconds ?? 0) * 1000);
      if (!delayMs) {
        s.ready.push(queued);
        schedulePump(s);
        return;
      }
      // Delayed: counted as invisible until it is due, as SQS counts a delayed message in flight.
      const timer = setTimeout(() => {
        s.invisible.delete(timer);
        if (stopped) return settle();
        s.ready.push(queued);
        schedulePump(s);
      }, delayMs);
      s.invisible.set(timer, 1);
    },
    deadLetters: (queue) => [...stateOf(queue).dead],
    depth(queue) {
      const s = stateOf(queue);
      return depthOf(s);
    },
    drained() {
      return new Promise((resolve) => {
        idle.push(resolve);
        settle();
      });
    },
    async stop() {
      stopped = true;
      for (const s of states.values()) {
        for (const timer of s.invisible.keys()) clearTimeout(timer);
        s.invisible.clear();
        s.ready.length = 0;
      }
      await Promise.allSettled([...states.values()].flatMap((s) => [...s.batches]));
      settle();
    },
  };
}

/**
 * Wires every queue of a manifest (shared/queues.ts) to its consumer, imported from the entry's
 * file, and registers the queues with the handlers' embedded `queues` port
 * (functions/platform/adapters/embedded/work-queues.ts). A missing consumer file fails the start,
 * as it fails the synth. `stop` unregisters them first: a message sent after it is an error.
 */
export async function startLocalQueues(
  defs: readonly QueueDef[],
  load: (file: string) => Promise<QueueConsumer>,
  options: LocalQueueOptions,
): Promise<LocalQueues> {
  checkQueues(defs);
  const wired = await Promise.all(defs.map(async (def) => ({ def, consumer: await load(def.file) })));
  const queues = createLocalQueues(wired, options);
  registerLocalQueues((queue, message, options) => queues.send(queue, message, options));
  return {
    ...queues,
    async stop() {
      unregisterLocalQueues();
      await queues.stop();
    },
  };
}
