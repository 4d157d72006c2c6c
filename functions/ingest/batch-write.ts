/**
 * Unconditional writes of many items with BatchWriteItem: 25 items per request (the API's limit),
 * several requests in flight, and what DynamoDB hands back unprocessed (throttling, a partition
 * at its limit) sent again with exponential backoff and full jitter, as the AWS guidance for
 * BatchWriteItem asks. A request that fails outright with a transient error (throttled, 5xx,
 * the endpoint unreachable) is retried the same way. Only when the attempts are used up does it
 * throw, so that the caller's invocation fails and is retried whole; nothing is dropped silently.
 *
 * BatchWriteItem takes no conditions: callers write only items whose overwrite is harmless.
 */
import { BatchWriteItemCommand, type AttributeValue } from '@aws-sdk/client-dynamodb';
import { BatchWriteCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo, dynamoRaw } from '../platform/db';

/** An item as DynamoDB's attribute values, built by the caller (no document client marshalling). */
export type MarshalledItem = Record<string, AttributeValue>;

/** BatchWriteItem's limit per request. */
export const BATCH_WRITE_MAX = 25;

export interface BatchWriteOptions {
  /** Requests in flight at once. */
  concurrency: number;
  /** Tries per request, the first included. */
  maxAttempts: number;
  /** Backoff before retry n is a random wait up to min(capDelayMs, baseDelayMs * 2^n). */
  baseDelayMs: number;
  capDelayMs: number;
}

export const DEFAULT_BATCH_WRITE: BatchWriteOptions = { concurrency: 8, maxAttempts: 8, baseDelayMs: 25, capDelayMs: 1000 };

export class BatchWriteIncompleteError extends Error {
  constructor(
    readonly table: string,
    readonly unwritten: number,
    readonly attempts: number,
    cause?: unknown,
  ) {
    super(`${unwritten} item(s) of ${table} not written after ${attempts} attempt(s)`, cause === undefined ? undefined : { cause });
    this.name = 'BatchWriteIncompleteError';
  }
}

const TRANSIENT = new Set([
  'ProvisionedThroughputExceededException',
  'ThrottlingException',
  'RequestLimitExceeded',
  'InternalServerError',
  'ServiceUnavailable',
  'TimeoutError',
]);

/** Throttling, server errors and network failures pass; a malformed request would fail again. */
export function isTransient(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const status = (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
  if (TRANSIENT.has(error.name) || (status !== undefined && status >= 500)) return true;
  // No HTTP answer at all: refused, reset, timed out on the way.
  return status === undefined && typeof (error as { code?: unknown }).code === 'string';
}

const sleep = (ms: number) => new Promise<void>((done) => setTimeout(done, ms));

export function backoffMs(retry: number, options: Pick<BatchWriteOptions, 'baseDelayMs' | 'capDelayMs'>): number {
  return Math.random() * Math.min(options.capDelayMs, options.baseDelayMs * 2 ** retry);
}

/** Runs `work` over `items` with at most `limit` at once; waits for all, then throws the first failure. */
export async function forEachLimit<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  let failure: { error: unknown } | undefined;
  const lane = async () => {
    while (next < items.length && !failure) {
      const item = items[next++] as T;
      try {
        await work(item);
      } catch (error) {
        failure ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
  if (failure) throw failure.error;
}

/** One BatchWriteItem request of put requests; answers what DynamoDB left unprocessed, in the form sent. */
type SendChunk<I> = (table: string, requests: Array<{ PutRequest: { Item: I } }>) => Promise<Array<{ PutRequest: { Item: I } }>>;

const sendDocuments: SendChunk<Record<string, unknown>> = async (table, requests) =>
  ((await dynamo().send(new BatchWriteCommand({ RequestItems: { [table]: requests } }))).UnprocessedItems?.[table] ?? []) as typeof requests;

const sendMarshalled: SendChunk<MarshalledItem> = async (table, requests) =>
  ((await dynamoRaw().send(new BatchWriteItemCommand({ RequestItems: { [table]: requests } }))).UnprocessedItems?.[table] ?? []) as typeof requests;

async function writeChunk<I>(send: SendChunk<I>, table: string, items: I[], options: BatchWriteOptions): Promise<void> {
  let requests = items.map((Item) => ({ PutRequest: { Item } }));
  for (let attempt = 1; ; attempt++) {
    let lastError: unknown;
    try {
      const left = await send(table, requests);
      if (!left.length) return;
      requests = left;
    } catch (error) {
      if (!isTransient(error)) throw error;
      lastError = error;
    }
    if (attempt >= options.maxAttempts) throw new BatchWriteIncompleteError(table, requests.length, attempt, lastError);
    await sleep(backoffMs(attempt - 1, options));
  }
}

function chunksOf<I>(items: readonly I[]): I[][] {
  const chunks: I[][] = [];
  for (let i = 0; i < items.length; i += BATCH_WRITE_MAX) chunks.push(items.slice(i, i + BATCH_WRITE_MAX));
  return chunks;
}

/** Puts every item (unconditionally). Items must have distinct keys: one request may not hold a key twice. */
export async function batchPut(table: string, items: readonly Record<string, unknown>[], options: BatchWriteOptions = DEFAULT_BATCH_WRITE): Promise<void> {
  await forEachLimit(chunksOf(items), options.concurrency, (chunk) => writeChunk(sendDocuments, table, chunk, options));
}

/** `batchPut` for items already in DynamoDB's attribute values. */
export async function batchPutMarshalled(table: string, items: readonly MarshalledItem[], options: BatchWriteOptions = DEFAULT_BATCH_WRITE): Promise<void> {
  await forEachLimit(chunksOf(items), options.concurrency, (chunk) => writeChunk(sendMarshalled, table, chunk, options));
}

/** At most `concurrency` of the work handed to it runs at once, across every caller (first come, first served). */
export function createLimiter(concurrency: number): <T>(work: () => Promise<T>) => Promise<T> {
  let running = 0;
  const waiting: Array<() => void> = [];
  const release = () => {
    running--;
    waiting.shift()?.();
  };
  return async (work) => {
    if (running >= concurrency) await new Promise<void>((go) => waiting.push(go));
    running++;
    try {
      return await work();
    } finally {
      release();
    }
  };
}
