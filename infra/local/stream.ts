/**
 * The embedded stand-in for Kinesis Data Streams and Lambda's event source mapping
 * (shared/ingest-stream.ts): records are put with a partition key (the IMEI); each key belongs to
 * one lane (a shard's share under the parallelization factor), and each lane hands the handler one
 * batch at a time, in arrival order. So, as on AWS, one unit's messages are never handled by two
 * invocations at once, and what arrives while a batch runs goes into the lane's next batch (group
 * commit: the busier the store, the larger the batches).
 *
 * A failed batch is retried as the event source mapping retries it: split in halves when
 * `bisectOnError` is set, up to `retryAttempts` times; then its records go to `onFailure` (the
 * dead letters), as the mapping's on-failure destination gets them on AWS.
 *
 * With a write-ahead log (infra/local/ingest-log.ts) `put` resolves once the record is on disk, as
 * PutRecord answers once Kinesis has stored it, and a record counts as read (the log may trim it)
 * once its batch succeeded or it went to `onFailure`; what the log held at start is put first.
 *
 * A stream of lower priority (the demo history's, infra/local/demo-history.ts) gives way to
 * another in `yieldTo`: none of its lanes starts a batch while that says so (the runtime: while the
 * trackers' stream has records waiting for their lane).
 */
import { createHash, randomUUID } from 'node:crypto';
import type { IngestStreamEvent, IngestStreamRecord, IngestStreamSettings } from '../../shared/ingest-stream';
import type { WriteAheadLog } from './ingest-log';

export interface LocalStreamOptions {
  settings: IngestStreamSettings;
  /** Shards of the stream; lanes = shards x parallelization factor. */
  shards: number;
  handler(event: IngestStreamEvent): Promise<unknown>;
  /** Records given up on after the retries, with the last error. */
  onFailure(records: readonly IngestStreamRecord[], error: unknown): Promise<void>;
  /** Waits between tries; default a quarter second, doubling. */
  retryDelayMs?: number;
  now?: () => number;
  /** Keeps records on disk until they are handled; without it they live in memory only. */
  log?: WriteAheadLog;
  /** True while a stream of higher priority has work: no lane of this one starts a batch then. */
  yieldTo?: () => boolean;
}

export interface LocalStream {
  /** Resolves once the record is stored (on disk with a log): then it may be acknowledged. */
  put(partitionKey: string, data: Buffer | string): Promise<void>;
  /**
   * Puts a record (without a log) and resolves once it is handled: its batch succeeded or it went
   * to `onFailure`; rejects when the stream is closed before that.
   */
  process(partitionKey: string, data: Buffer | string): Promise<void>;
  /** Records queued or in a batch. */
  pending(): number;
  /** Records queued, not yet in a batch. */
  waiting(): number;
  /** Hands over everything queued and waits until every lane is idle. */
  drain(): Promise<void>;
  /** Drops what is queued (its `process` calls reject), and waits for the running batches. */
  close(): Promise<void>;
}

/** How often a yielding lane looks again whether the stream it gives way to is idle. */
const YIELD_POLL_MS = 2;

interface Lane {
  queue: IngestStreamRecord[];
  running: Promise<void> | null;
}

export function createLocalStream(options: LocalStreamOptions): LocalStream {
  const { settings } = options;
  const now = options.now ?? Date.now;
  const laneCount = Math.max(1, options.shards * settings.parallelizationFactor);
  const lanes: Lane[] = Array.from({ length: laneCount }, () => ({ queue: [], running: null }));
  let sequence = 0n;
  let inBatches = 0;
  const { log } = options;
  const logged = new WeakMap<IngestStreamRecord, number>();
  const waiting = new WeakMap<IngestStreamRecord, { resolve: () => void; reject: (e: Error) => void }>();
  let closed = false;

  const laneOf = (key: string) => createHash('md5').update(key).digest().readUInt32BE(0) % laneCount;

  /** True when the records are handled: stored by the handler, or taken by `onFailure`. */
  const attempt = async (records: IngestStreamRecord[], triesLeft: number, delay: number): Promise<boolean> => {
    try {
      await options.handler({ Records: records });
      return true;
    } catch (error) {
      const oldest = Math.min(...records.map((r) => r.kinesis.approximateArrivalTimestamp));
      const expired = now() / 1000 - oldest > settings.maxRecordAgeSeconds;
      if (triesLeft <= 0 || expired) {
        return options.onFailure(records, error).then(
          () => true,
          (e: unknown) => {
            console.error('ingest stream: on-failure destination failed', e);
            return false;
          },
        );
      }
      await new Promise((r) => setTimeout(r, delay));
      if (settings.bisectOnError && records.length > 1) {
        const half = Math.ceil(records.length / 2);
        const first = await attempt(records.slice(0, half), triesLeft - 1, delay * 2);
        const second = await attempt(records.slice(half), triesLeft - 1, delay * 2);
        return first && second;
      }
      return attempt(records, triesLeft - 1, delay * 2);
    }
  };

  const pump = (lane: Lane) => {
    if (lane.running || !lane.queue.length) return;
    lane.running = (async () => {
      if (settings.batchingWindowMs > 0) await new Promise((r) => setTimeout(r, settings.batchingWindowMs));
      else await new Promise((r) => setImmediate(r));
      while (lane.queue.length) {
        while (options.yieldTo?.() && !closed) await new Promise((r) => setTimeout(r, YIELD_POLL_MS));
        if (closed) break;
        const batch = lane.queue.splice(0, settings.batchSize);
        inBatches += batch.length;
        try {
          // Records of a batch whose dead-lettering failed stay in the log: the next start replays them.
          const handled = await attempt(batch, settings.retryAttempts, options.retryDelayMs ?? 250);
          if (handled && log) {
            for (const r of batch) log.handled(logged.get(r) ?? 0);
          }
          for (const r of batch) {
            const waiter = waiting.get(r);
            if (handled) waiter?.resolve();
            else waiter?.reject(new Error('ingest stream: records neither handled nor dead-lettered'));
          }
        } finally {
          inBatches -= batch.length;
        }
      }
    })().finally(() => {
      lane.running = null;
      pump(lane);
    });
  };

  const enqueue = (partitionKey: string, data: Buffer, arrivedAt: number, seq?: number) => {
    const record: IngestStreamRecord = {
      kinesis: {
        partitionKey,
        sequenceNumber: String(++sequence),
        data: data.toString('base64'),
        approximateArrivalTimestamp: arrivedAt / 1000,
      },
      eventSource: 'aws:kinesis',
      eventID: `local:${randomUUID()}`,
    };
    if (seq !== undefined) logged.set(record, seq);
    const lane = lanes[laneOf(partitionKey)] as Lane;
    lane.queue.push(record);
    pump(lane);
    return record;
  };

  for (const r of log?.recovered ?? []) enqueue(r.partitionKey, r.data, r.arrivedAt, r.seq);

  return {
    async put(partitionKey, data) {
      const bytes = typeof data === 'string' ? Buffer.from(data) : data;
      const arrivedAt = now();
      if (!log) {
        enqueue(partitionKey, bytes, arrivedAt);
        return;
      }
      // The record is on its lane at once, in the order of the puts, while the log writes and
      // syncs it: the put (the broker's acknowledgement) still waits for the sync, but handling
      // does not. A record handled before its sync is stored, and a checkpoint that trims it syncs
      // the store first; one handled but never acknowledged (the sync failed, the runtime died) is
      // sent again by its tracker, and ingest is idempotent per position and per effect.
      const appended = log.append(partitionKey, bytes, arrivedAt);
      enqueue(partitionKey, bytes, arrivedAt, log.lastSequence());
      await appended;
    },
    process(partitionKey, data) {
      if (log) return Promise.reject(new Error('ingest stream: process() is for a stream without a log'));
      if (closed) return Promise.reject(new Error('ingest stream: closed'));
      return new Promise<void>((resolve, reject) => {
        waiting.set(enqueue(partitionKey, typeof data === 'string' ? Buffer.from(data) : data, now()), { resolve, reject });
      });
    },
    pending: () => inBatches + lanes.reduce((sum, l) => sum + l.queue.length, 0),
    waiting: () => lanes.reduce((sum, l) => sum + l.queue.length, 0),
    async drain() {
      while (lanes.some((l) => l.running || l.queue.length)) {
        for (const l of lanes) pump(l);
        await Promise.all(lanes.map((l) => l.running));
      }
    },
    async close() {
      closed = true;
      for (const lane of lanes) {
        for (const r of lane.queue.splice(0)) waiting.get(r)?.reject(new Error('ingest stream: closed'));
      }
      await Promise.all(lanes.map((l) => l.running));
    },
  };
}
