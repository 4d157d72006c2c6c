/**
 * How tracker messages travel from the IoT rules to the ingest function, in both runtimes
 * (docs/decisions/0003-ingest-path.md): each rule puts its output (`IotRuleEvent`) on one stream,
 * keyed by the IMEI, and the function reads it in batches. One unit's messages stay in order and
 * are handled by one batch at a time, so the unit's previous state is what the store holds: no
 * two invocations ever work on the same unit at once. On AWS the stream is Kinesis Data Streams
 * with a Lambda event source mapping configured from these settings; embedded it is
 * infra/local/stream.ts with the same settings.
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

export const INGEST_STREAM: IngestStreamSettings = {
  batchSize: 500,
  batchingWindowMs: 0,
  parallelizationFactor: 10,
  retryAttempts: 3,
  bisectOnError: true,
  maxRecordAgeSeconds: 3600,
};

/**
 * Shards the embedded stream models (its lanes are shards x parallelization factor). The AWS
 * stream is on demand (infra/constructs/ingest.ts): Kinesis adds shards as the traffic grows, and
 * the event source mapping reads each with the parallelization factor above.
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
