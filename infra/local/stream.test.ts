/**
 * The embedded ingest stream: a key's records reach the handler in order and never in two batches
 * at once; different keys run side by side; what arrives during a batch goes into the next one;
 * a failing batch is bisected and retried, and then its records go to the on-failure destination.
 */
import { describe, expect, it, vi } from 'vitest';
import { EMBEDDED_INGEST_STREAM, type IngestStreamEvent, type IngestStreamRecord } from '../../shared/ingest-stream';
import type { WriteAheadLog } from './ingest-log';
import { createLocalStream } from './stream';

const valueOf = (r: IngestStreamRecord) => Buffer.from(r.kinesis.data, 'base64').toString();
const settings = { ...EMBEDDED_INGEST_STREAM, batchSize: 100 };

describe('local ingest stream', () => {
  it("keeps a key's records in order, one batch at a time per key, batches growing while one runs", async () => {
    const seen = new Map<string, string[]>();
    const running = new Set<string>();
    let overlap = false;
    let batches = 0;
    const stream = createLocalStream({
      settings,
      shards: 1,
      onFailure: async () => undefined,
      handler: async (event: IngestStreamEvent) => {
        batches++;
        const keys = new Set(event.Records.map((r) => r.kinesis.partitionKey));
        for (const k of keys) {
          if (running.has(k)) overlap = true;
          running.add(k);
        }
        await new Promise((r) => setTimeout(r, 5));
        for (const r of event.Records) seen.set(r.kinesis.partitionKey, [...(seen.get(r.kinesis.partitionKey) ?? []), valueOf(r)]);
        for (const k of keys) running.delete(k);
      },
    });
    for (let i = 0; i < 400; i++) stream.put(`k${i % 40}`, String(i));
    await stream.drain();
    expect(overlap).toBe(false);
    expect(stream.pending()).toBe(0);
    for (let k = 0; k < 40; k++) expect(seen.get(`k${k}`)).toEqual(Array.from({ length: 10 }, (_, j) => String(k + 40 * j)));
    expect(batches).toBeLessThan(400);
  });

  it('bisects and retries a failing batch, then hands the records that still fail to the on-failure destination', async () => {
    const failed: string[] = [];
    const handled: string[] = [];
    const handler = vi.fn(async (event: IngestStreamEvent) => {
      if (event.Records.some((r) => valueOf(r) === 'bad')) throw new Error('DynamoDB unreachable');
      handled.push(...event.Records.map(valueOf));
    });
    const stream = createLocalStream({
      settings: { ...settings, retryAttempts: 3, bisectOnError: true, batchingWindowMs: 20 },
      shards: 1,
      retryDelayMs: 1,
      handler,
      onFailure: async (records, error) => {
        failed.push(...records.map(valueOf));
        expect((error as Error).message).toBe('DynamoDB unreachable');
      },
    });
    for (const v of ['a', 'b', 'bad', 'c']) stream.put('same-key', v);
    await stream.drain();
    expect(failed).toEqual(['bad']);
    expect(handled.sort()).toEqual(['a', 'b', 'c']);
  });

  it('hands a logged record to its lane at once and resolves the put only once the log has synced it', async () => {
    const appends: Array<{ seq: number; synced: () => void }> = [];
    const handledSeqs: number[] = [];
    let lastSeq = 0;
    const log: WriteAheadLog = {
      recovered: [],
      append: () => {
        const seq = ++lastSeq;
        return new Promise<number>((resolve) => appends.push({ seq, synced: () => resolve(seq) }));
      },
      handled: (seq) => handledSeqs.push(seq),
      lastSequence: () => lastSeq,
      checkpoint: async () => undefined,
      close: async () => undefined,
    };
    const handled: string[] = [];
    const stream = createLocalStream({
      settings,
      shards: 1,
      log,
      onFailure: async () => undefined,
      handler: async (event: IngestStreamEvent) => {
        for (const r of event.Records) handled.push(valueOf(r));
      },
    });
    let acknowledged = false;
    const put = stream.put('k', 'a').then(() => (acknowledged = true));
    await stream.drain();
    // Handled (and marked handled in the log under the sequence the append gave it) before its sync.
    expect(handled).toEqual(['a']);
    expect(handledSeqs).toEqual([1]);
    expect(acknowledged).toBe(false);
    appends[0]?.synced();
    await put;
    expect(acknowledged).toBe(true);
  });
});

