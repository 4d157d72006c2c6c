/**
 * The ingest stream's write-ahead log: an appended record is read back at the next open until a
 * checkpoint after it was handled trims it, and only after the store was synced; a record torn by
 * a crash is where reading stops; with the stream, a record counts as handled once its batch was.
 */
import { appendFileSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { EMBEDDED_INGEST_STREAM, type IngestStreamEvent } from '../../shared/ingest-stream';
import { openWriteAheadLog, type WriteAheadLog } from './ingest-log';
import { createLocalStream } from './stream';

const dirs: string[] = [];
const logs: WriteAheadLog[] = [];
afterEach(async () => {
  for (const log of logs.splice(0)) await log.close().catch(() => undefined);
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function open(dir: string, syncStore: () => Promise<void> = async () => undefined) {
  // No timer in these tests: checkpoints are called.
  const log = openWriteAheadLog({ dir, syncStore, checkpointEveryMs: 3_600_000 });
  logs.push(log);
  return log;
}

const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'ingest-log-'));
  dirs.push(dir);
  return dir;
};

const contents = (log: WriteAheadLog) => log.recovered.map((r) => `${r.partitionKey}:${r.data.toString()}`);

describe('ingest write-ahead log', () => {
  it('gives back at the next open what was appended and not trimmed, in order, without a torn last record', async () => {
    const dir = tempDir();
    const first = open(dir);
    const seqs = await Promise.all(['a', 'b', 'c'].map((v, i) => first.append(`k${i % 2}`, Buffer.from(v), 1000 + i)));
    expect(seqs).toEqual([1, 2, 3]);
    // As a crash in the middle of a write leaves it: a header promising more than is there.
    const [segment] = readdirSync(dir);
    appendFileSync(join(dir, segment as string), Buffer.from([0, 0, 0, 80, 1, 2, 3, 4, 123]));
    // Not closed: the process is gone.
    logs.splice(logs.indexOf(first), 1);

    const second = open(dir);
    expect(contents(second)).toEqual(['k0:a', 'k1:b', 'k0:c']);
    expect(second.recovered.map((r) => r.arrivedAt)).toEqual([1000, 1001, 1002]);
    // New records go on after the recovered ones, into a segment of their own.
    expect(await second.append('k1', Buffer.from('d'), 2000)).toBe(4);
    expect(readdirSync(dir)).toHaveLength(2);
  });

  it('trims a segment only once all its records are handled, and only after syncing the store', async () => {
    const dir = tempDir();
    const events: string[] = [];
    const log = open(dir, async () => void events.push('sync'));
    const [a, b] = await Promise.all([log.append('k', Buffer.from('a'), 1), log.append('k', Buffer.from('b'), 1)]);
    log.handled(b as number);
    await log.checkpoint();
    // Nothing handled below b: nothing to sync, nothing trimmed.
    expect(events).toEqual([]);
    expect(contents(open(dir))).toEqual(['k:a', 'k:b']);

    log.handled(a as number);
    await log.checkpoint();
    expect(events).toEqual(['sync']);
    expect(readdirSync(dir)).toEqual(['checkpoint']);
    // Nothing new: no sync.
    await log.checkpoint();
    expect(events).toEqual(['sync']);
  });

  it('with the stream: put resolves once logged, and a record is handled once its batch succeeded', async () => {
    const dir = tempDir();
    const log = open(dir);
    let release: () => void = () => undefined;
    const held = new Promise<void>((r) => (release = r));
    const handled: string[] = [];
    const stream = createLocalStream({
      settings: EMBEDDED_INGEST_STREAM,
      shards: 1,
      log,
      onFailure: async () => undefined,
      handler: async (event: IngestStreamEvent) => {
        await held;
        handled.push(...event.Records.map((r) => Buffer.from(r.kinesis.data, 'base64').toString()));
      },
    });
    await Promise.all([stream.put('k', 'x'), stream.put('k', 'y')]);
    expect(readdirSync(dir)).toHaveLength(1);
    await log.checkpoint();
    expect(readdirSync(dir)).toHaveLength(1);
    release();
    await stream.drain();
    expect(handled).toEqual(['x', 'y']);
    await log.checkpoint();
    expect(readdirSync(dir)).toEqual(['checkpoint']);
  });

  it('replays only what is above the checkpoint mark, and goes on numbering above it', async () => {
    const dir = tempDir();
    const log = open(dir);
    const [a, b] = await Promise.all([log.append('k', Buffer.from('a'), 1), log.append('k', Buffer.from('b'), 1)]);
    log.handled(a as number);
    // The mark moves past a, but its segment (with b) stays: a restart must not replay a.
    await log.checkpoint();
    expect(readdirSync(dir).filter((n) => n.endsWith('.log'))).toHaveLength(1);
    logs.splice(logs.indexOf(log), 1);
    const next = open(dir);
    expect(contents(next)).toEqual(['k:b']);
    expect(await next.append('k', Buffer.from('c'), 2)).toBe((b as number) + 1);
  });

  it('puts what the log recovered on the stream first', async () => {
    const dir = tempDir();
    const before = open(dir);
    await before.append('k', Buffer.from('old'), Date.now());
    logs.splice(logs.indexOf(before), 1);
    const log = open(dir);
    const handled: string[] = [];
    const stream = createLocalStream({
      settings: EMBEDDED_INGEST_STREAM,
      shards: 1,
      log,
      onFailure: async () => undefined,
      handler: async (event: IngestStreamEvent) => void handled.push(...event.Records.map((r) => Buffer.from(r.kinesis.data, 'base64').toString())),
    });
    await stream.put('k', 'new');
    await stream.drain();
    expect(handled).toEqual(['old', 'new']);
    await log.checkpoint();
    expect(readdirSync(dir)).toEqual(['checkpoint']);
  });
});
