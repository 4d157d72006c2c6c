/**
 * How tracker messages travel from the IoT rules to the ingest function, in both runtimes
 * (docs/decisions/0003-ingest-path.md): each rule puts its output (`IotRuleEvent`) on one stream,
 * keyed by the IMEI, and the function reads it in batches. One unit's messages stay in order and
 * are handled by one batch at a time, so the unit's previous state is what the store holds: no
 * two invocations ever work on the same unit at once. On AWS the stream is Kinesis Data Streams
 * with a Lambda event source mapping configured from INGEST_STREAM; embedded it is
 * infra/local/stream.ts with EMBEDDED_INGEST_STREAM, which differs only in its throughput tuning.
 */
export interface IngestStreamSettings {
  /** Records handed to one invocation at most. */
  readonly batchSize: number;
  /** How long the first record of a batch waits for others (AWS: MaximumBatchingWindowInSeconds, 0 here). */
  readonly batchingWindowMs: number;
  /** Concurrent batches per shard, each owning a share of the IMEIs (AWS: ParallelizationFactor, 1 to 10). */
  readonly parallelizationFactor: number;
  /** Tries after the first failed one before the records are dead-lettered. */
  readonly retryAttempts: number;
  /** A failed batch is split in halves and each retried, so one bad record cannot hold up the others. */
  readonly bisectOnError: boolean;
  /** Records older than this are dead-lettered instead of retried. */
  readonly maxRecordAgeSeconds: number;
}

/**
 * The AWS event source mapping. A batch lane waits up to a second for more records after the
 * first (MaximumBatchingWindowInSeconds takes whole seconds), and each shard has 2 lanes: a
 * working day's traffic at 10,000 units (some 70 messages a second over the on-demand stream's
 * first 4 shards) then comes about 10 messages to an invocation instead of one, which is what
 * Lambda bills by (`npm run cost`, docs/decisions/0003-ingest-path.md). A position reaches the
 * map and the alarms up to a second later; trackers report every 30 s or more while moving.
 * A lane still keeps up with a whole shard (1,000 records/s) in batches of 500.
 */
export const INGEST_STREAM: IngestStreamSettings = {
  batchSize: 500,
  batchingWindowMs: 1000,
  parallelizationFactor: 2,
  retryAttempts: 3,
  bisectOnError: true,
  maxRecordAgeSeconds: 3600,
};

/**
 * The embedded stream (infra/local/stream.ts): the same batches, retries and order, without the
 * batching window, which would only add latency where an invocation costs nothing, and with 10
 * lanes, enough to keep one machine's cores busy.
 */
export const EMBEDDED_INGEST_STREAM: IngestStreamSettings = { ...INGEST_STREAM, batchingWindowMs: 0, parallelizationFactor: 10 };

/**
 * Shards the embedded stream models (its lanes are shards x parallelization factor). The AWS
 * stream is on demand (infra/constructs/ingest.ts): Kinesis adds shards as the traffic grows, and
 * the event source mapping reads each with INGEST_STREAM's parallelization factor.
 */
export const INGEST_STREAM_SHARDS = 1;

/** A stream record as the function receives it: the rule's output, JSON, base64 (Kinesis `data`). */
export interface IngestStreamRecord {
  kinesis: { partitionKey: string; sequenceNumber: string; data: string; approximateArrivalTimestamp: number };
  eventSource: 'aws:kinesis';
  eventID: string;
}

export interface IngestStreamEvent {
  Records: IngestStreamRecord[];
}
