/**
 * The write-ahead log of the embedded ingest stream (infra/local/stream.ts): what Kinesis promises
 * once PutRecord succeeds, on one machine. The broker acknowledges a tracker's QoS 1 message only
 * once its record is in this log and the log is on disk (docs/decisions/0028-ingest-write-ahead-log.md).
 *
 * What is durable when:
 * - `append` resolves after the record's bytes are written and `fdatasync`ed (with the segment's
 *   directory entry synced when the segment is new): from then on a kill -9 of the runtime, or a
 *   power loss, keeps it. Appends that arrive while a sync runs go together into the next write and
 *   sync (group commit), so a busy broker pays one sync per batch, not per message.
 * - The ingest handler stores a record in DynamoDB Local, whose SQLite file has it once the write
 *   is answered: a killed runtime (and DynamoDB Local killed with it) keeps it, a power loss need
 *   not, since DynamoDB Local does not promise to sync its files.
 * - So the log is trimmed only at a checkpoint: every record up to the low-water mark (all handled:
 *   stored, or dead-lettered) is in the store's files, those files are `fsync`ed (`syncStore`),
 *   then the mark is written (`checkpoint`, replaced atomically) and the segments wholly below it
 *   are deleted. A restart replays what is above the mark: records handled since the last
 *   checkpoint among them, and ingest is idempotent per position (functions/ingest/repository.ts)
 *   and per effect (functions/ingest/transitions.ts), so one that was stored already changes nothing.
 * - A record torn by a crash during its write was never acknowledged (its sync had not returned);
 *   reading stops at the first record whose length or checksum is wrong, and nothing was ever
 *   appended after it in that segment that had been acknowledged.
 *
 * Format: the mark in `checkpoint` (the sequence, as text), and segments `<first sequence>.log`, each a run of records
 * `[u32 body length][u32 CRC-32 of the body][body: JSON { s: sequence, k: partition key, t: arrival ms, d: data base64 }]`.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { open, rename, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';

export interface LoggedRecord {
  seq: number;
  partitionKey: string;
  data: Buffer;
  /** When the record was first put, epoch ms. */
  arrivedAt: number;
}

export interface WriteAheadLog {
  /** What the segments held at open that no checkpoint had trimmed, oldest first: to be handled again. */
  readonly recovered: readonly LoggedRecord[];
  /** Resolves with the record's sequence once it is on disk. */
  append(partitionKey: string, data: Buffer, arrivedAt: number): Promise<number>;
  /** The record is handled (stored or dead-lettered): a checkpoint may trim it. */
  handled(seq: number): void;
  /** The sequence the latest `append` gave its record (assigned when it is called, before its sync). */
  lastSequence(): number;
  /** Syncs the store and deletes the segments whose records are all handled. */
  checkpoint(): Promise<void>;
  /** Stops checkpointing, checkpoints once more and closes the open segment. */
  close(): Promise<void>;
}

export interface WriteAheadLogOptions {
  dir: string;
  /** Makes what the store has written so far durable; called before a checkpoint trims the log. */
  syncStore(): Promise<void>;
  /** Default one second. */
  checkpointEveryMs?: number;
}

const HEADER = 8;

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

export function crc32(buf: Buffer): number {
  let c = 0xffffffff;
  for (let i = 0; i < buf.length; i++) c = (CRC_TABLE[(c ^ (buf[i] as number)) & 0xff] as number) ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function frame(record: LoggedRecord): Buffer {
  const body = Buffer.from(JSON.stringify({ s: record.seq, k: record.partitionKey, t: record.arrivedAt, d: record.data.toString('base64') }));
  const header = Buffer.alloc(HEADER);
  header.writeUInt32BE(body.length, 0);
  header.writeUInt32BE(crc32(body), 4);
  return Buffer.concat([header, body]);
}

/** The intact records of a segment, up to the first torn or damaged one. */
export function readSegment(bytes: Buffer): LoggedRecord[] {
  const out: LoggedRecord[] = [];
  let at = 0;
  while (at + HEADER <= bytes.length) {
    const length = bytes.readUInt32BE(at);
    const sum = bytes.readUInt32BE(at + 4);
    if (at + HEADER + length > bytes.length) break;
    const body = bytes.subarray(at + HEADER, at + HEADER + length);
    if (crc32(body) !== sum) break;
    try {
      const r = JSON.parse(body.toString()) as { s: number; k: string; t: number; d: string };
      out.push({ seq: r.s, partitionKey: r.k, arrivedAt: r.t, data: Buffer.from(r.d, 'base64') });
    } catch {
      break;
    }
    at += HEADER + length;
  }
  return out;
}

interface Segment {
  path: string;
  /** Sequence of its last record; 0 when it has none. */
  lastSeq: number;
}

const segmentName = (firstSeq: number) => `${String(firstSeq).padStart(15, '0')}.log`;

async function syncDirectory(dir: string): Promise<void> {
  const handle = await open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

export function openWriteAheadLog(options: WriteAheadLogOptions): WriteAheadLog {
  const { dir } = options;
  mkdirSync(dir, { recursive: true });
  const closed: Segment[] = [];
  const recovered: LoggedRecord[] = [];
  const markFile = join(dir, 'checkpoint');
  let mark = existsSync(markFile) ? Number(readFileSync(markFile, 'utf8')) || 0 : 0;
  let lastSeq = mark;
  for (const name of readdirSync(dir).filter((n) => /^\d+\.log$/.test(n)).sort()) {
    const path = join(dir, name);
    const records = readSegment(readFileSync(path));
    recovered.push(...records.filter((r) => r.seq > mark));
    const segmentLast = records.at(-1)?.seq ?? 0;
    closed.push({ path, lastSeq: segmentLast });
    lastSeq = Math.max(lastSeq, segmentLast, Number(name.slice(0, -4)) - 1);
  }
  /** Appended (or recovered) and not yet handled. */
  const unhandled = new Set<number>(recovered.map((r) => r.seq));

  let active: (Segment & { handle: FileHandle }) | null = null;
  let queue: Array<{ bytes: Buffer; seq: number; resolve: (seq: number) => void; reject: (e: unknown) => void }> = [];
  let writing = false;
  let broken: unknown = null;
  /** Writes and segment changes run one at a time, in this order. */
  let chain: Promise<void> = Promise.resolve();
  const serial = (work: () => Promise<void>) => {
    const next = chain.then(work);
    chain = next.catch(() => undefined);
    return next;
  };

  const openSegment = async (firstSeq: number) => {
    const path = join(dir, segmentName(firstSeq));
    const handle = await open(path, 'a');
    await syncDirectory(dir);
    active = { path, lastSeq: 0, handle };
    return active;
  };

  const writeQueued = async () => {
    writing = false;
    const batch = queue;
    queue = [];
    if (!batch.length) return;
    try {
      if (broken) throw broken;
      const segment = active ?? (await openSegment((batch[0] as (typeof batch)[number]).seq));
      const bytes = Buffer.concat(batch.map((b) => b.bytes));
      for (let at = 0; at < bytes.length; ) at += (await segment.handle.write(bytes, at, bytes.length - at)).bytesWritten;
      await segment.handle.datasync();
      segment.lastSeq = (batch.at(-1) as (typeof batch)[number]).seq;
    } catch (error) {
      // What a failed write or sync left in the file is unknown: nothing more is acknowledged
      // until the runtime is restarted and reads the log again.
      broken ??= error;
      for (const b of batch) b.reject(error);
      return;
    }
    for (const b of batch) b.resolve(b.seq);
  };

  /** The mark is replaced whole: written to a file of its own, synced, renamed over the old one. */
  const writeMark = async (seq: number) => {
    const temp = `${markFile}.new`;
    const handle = await open(temp, 'w');
    try {
      await handle.writeFile(String(seq));
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temp, markFile);
    await syncDirectory(dir);
    mark = seq;
  };

  let checkpointing: Promise<void> | null = null;
  const checkpoint = () => {
    checkpointing ??= (async () => {
      let low = lastSeq;
      for (const seq of unhandled) low = Math.min(low, seq - 1);
      // The open segment is closed once it has records, so that it can go at a later checkpoint.
      await serial(async () => {
        const segment = active;
        if (!segment?.lastSeq) return;
        active = null;
        await segment.handle.close();
        closed.push({ path: segment.path, lastSeq: segment.lastSeq });
      });
      if (low > mark) {
        await options.syncStore();
        await writeMark(low);
      }
      const done = closed.filter((s) => s.lastSeq <= mark);
      if (!done.length) return;
      for (const s of done) {
        rmSync(s.path, { force: true });
        closed.splice(closed.indexOf(s), 1);
      }
      await syncDirectory(dir);
    })().finally(() => {
      checkpointing = null;
    });
    return checkpointing;
  };

  const timer = setInterval(() => {
    checkpoint().catch((e: unknown) => console.error('ingest log: checkpoint failed', e));
  }, options.checkpointEveryMs ?? 1000);
  timer.unref();

  return {
    recovered,
    append(partitionKey, data, arrivedAt) {
      const seq = ++lastSeq;
      unhandled.add(seq);
      return new Promise<number>((resolve, reject) => {
        queue.push({ bytes: frame({ seq, partitionKey, data, arrivedAt }), seq, resolve, reject });
        if (!writing) {
          writing = true;
          void serial(writeQueued);
        }
      });
    },
    handled(seq) {
      unhandled.delete(seq);
    },
    lastSequence: () => lastSeq,
    checkpoint,
    async close() {
      clearInterval(timer);
      await checkpointing?.catch(() => undefined);
      await checkpoint();
      await serial(async () => {
        await active?.handle.close();
        active = null;
      });
    },
  };
}

/** `fsync`s every file of a directory, and the directory: what a process (DynamoDB Local) wrote there is then on disk. */
export async function syncFiles(dir: string): Promise<void> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const handle = await open(join(dir, entry.name), 'r').catch(() => null);
    if (!handle) continue;
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  }
  await syncDirectory(dir);
}
