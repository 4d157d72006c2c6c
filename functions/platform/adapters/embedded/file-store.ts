/**
 * FileStore of the embedded runtime: files under FILES_DIR (DATA_DIR/files), or in memory without
 * one. Uploads and views go to the embedded HTTP server (`PUT`/`GET /api/v1/files/<token>`,
 * infra/local/http-server.ts `files`), which plays S3's presigned URLs with `acceptUpload` and
 * `serve`: the token names the operation, the key, the type, the exact size of an upload and the
 * expiry, and is signed with an HMAC under the runtime's JWT secret. The URLs are relative, so the
 * browser sends them to the page's own origin (the CSP's 'self').
 *
 * A streamed write (a report export) goes to a temporary name beside its file and is renamed to
 * the key once the stream ended, so a failed or abandoned write never shows under the key.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { createWriteStream, type WriteStream } from 'node:fs';
import { mkdir, open, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { basename, dirname, join, resolve, sep } from 'node:path';
import { Writable } from 'node:stream';
import type { FileStore, FileWrite, StoredFileHead } from '../../ports';
import { contentDisposition } from '../content-disposition';

export const LOCAL_FILES_PATH = '/api/v1/files/';
const SAFE_KEY = /^[A-Za-z0-9/_-]{1,300}$/;

export interface FileGrant {
  /** put: upload these bytes; get: read the file. */
  op: 'put' | 'get';
  key: string;
  contentType: string;
  /** put only: the exact number of bytes. */
  size?: number;
  /** get only: answered as an attachment saved under this name. */
  downloadName?: string;
  /** Epoch ms. */
  expiresAt: number;
}

const b64 = (data: Buffer | string) => Buffer.from(data).toString('base64url');
const mac = (secret: string, payload: string) => createHmac('sha256', secret).update(`files:${payload}`).digest();

export function signFileGrant(secret: string, grant: FileGrant): string {
  const payload = b64(JSON.stringify({ o: grant.op, k: grant.key, t: grant.contentType, s: grant.size, n: grant.downloadName, e: grant.expiresAt }));
  return `${payload}.${b64(mac(secret, payload))}`;
}

/** The grant a token carries, or null when it is forged, malformed or expired. */
export function verifyFileGrant(secret: string, token: string, now: number): FileGrant | null {
  const [payload, signature, ...rest] = token.split('.');
  if (!payload || !signature || rest.length) return null;
  // Compared as text: base64url's last character has bits that decoding ignores, so comparing
  // decoded bytes would take a signature with those bits changed (a second spelling of one MAC).
  const given = Buffer.from(signature);
  const expected = Buffer.from(b64(mac(secret, payload)));
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  try {
    const raw = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { o?: unknown; k?: unknown; t?: unknown; s?: unknown; n?: unknown; e?: unknown };
    if ((raw.o !== 'put' && raw.o !== 'get') || typeof raw.k !== 'string' || !SAFE_KEY.test(raw.k) || typeof raw.t !== 'string' || typeof raw.e !== 'number') return null;
    if (raw.e <= now) return null;
    const size = typeof raw.s === 'number' ? raw.s : undefined;
    if (raw.o === 'put' && size === undefined) return null;
    const downloadName = typeof raw.n === 'string' ? raw.n : undefined;
    return { op: raw.o, key: raw.k, contentType: raw.t, ...(size === undefined ? {} : { size }), ...(downloadName === undefined ? {} : { downloadName }), expiresAt: raw.e };
  } catch {
    return null;
  }
}

/** Where the bytes live: a directory, or one map per process shared by every handler in it. */
interface Storage {
  write(key: string, bytes: Uint8Array): Promise<void>;
  read(key: string): Promise<Uint8Array | null>;
  head(key: string, length: number): Promise<StoredFileHead | null>;
  move(from: string, to: string): Promise<void>;
  remove(key: string): Promise<void>;
  /** A stream whose bytes become the file at `key` only once it ended. */
  writeStream(key: string): FileWrite;
  /** Removes the files under `prefix` written before `beforeMs`. */
  sweep(prefix: string, beforeMs: number): Promise<void>;
}

/** Collects a stream's bytes and hands them over once it ended; nothing when it was destroyed. */
function collectingStream(store: (bytes: Uint8Array) => Promise<void>): FileWrite {
  const chunks: Buffer[] = [];
  return fileWriteOf(
    new Writable({
      write(chunk: Buffer | string, _encoding, callback) {
        chunks.push(Buffer.from(chunk));
        callback();
      },
      final(callback) {
        store(new Uint8Array(Buffer.concat(chunks))).then(() => callback(), callback);
      },
    }),
  );
}

/**
 * The write of a stream: `done` resolves once it finished and rejects, with its error, once it
 * closed without finishing. Its errors go to `done` only (the writer destroyed it, it knows).
 */
function fileWriteOf(stream: Writable): FileWrite {
  const done = new Promise<void>((resolve, reject) => {
    stream.on('finish', () => resolve());
    stream.on('close', () => {
      if (!stream.writableFinished) reject(stream.errored ?? new Error('the file was not completed'));
    });
  });
  stream.on('error', () => undefined);
  return { stream, done };
}

const memory = new Map<string, Uint8Array>();
/** When each file in memory was written (epoch ms of the system clock, as a file's mtime). */
const memoryWritten = new Map<string, number>();
const memoryStorage: Storage = {
  async write(key, bytes) {
    memory.set(key, Uint8Array.from(bytes));
    memoryWritten.set(key, Date.now());
  },
  async read(key) {
    return memory.get(key) ?? null;
  },
  async head(key, length) {
    const bytes = memory.get(key);
    return bytes ? { size: bytes.length, head: bytes.subarray(0, length) } : null;
  },
  async move(from, to) {
    const bytes = memory.get(from);
    if (!bytes) throw new Error(`no file ${from}`);
    memory.set(to, bytes);
    memory.delete(from);
  },
  async remove(key) {
    memory.delete(key);
  },
  writeStream(key) {
    return collectingStream(async (bytes) => memoryStorage.write(key, bytes));
  },
  async sweep(prefix, beforeMs) {
    for (const [key, at] of memoryWritten) {
      if (key.startsWith(prefix) && at < beforeMs) {
        memory.delete(key);
        memoryWritten.delete(key);
      }
    }
  },
};

const missing = (error: unknown) => (error as NodeJS.ErrnoException | null)?.code === 'ENOENT';

function directoryStorage(dir: string): Storage {
  const root = resolve(dir);
  const pathOf = (key: string) => {
    const file = resolve(root, key);
    if (!file.startsWith(root + sep)) throw new Error(`file key ${key} leaves the files directory`);
    return file;
  };
  return {
    async write(key, bytes) {
      const file = pathOf(key);
      await mkdir(dirname(file), { recursive: true });
      await writeFile(file, bytes);
    },
    async read(key) {
      try {
        return new Uint8Array(await readFile(pathOf(key)));
      } catch (error) {
        if (missing(error)) return null;
        throw error;
      }
    },
    async head(key, length) {
      let handle;
      try {
        handle = await open(pathOf(key), 'r');
      } catch (error) {
        if (missing(error)) return null;
        throw error;
      }
      try {
        const { size } = await handle.stat();
        const buffer = Buffer.alloc(Math.min(length, size));
        await handle.read(buffer, 0, buffer.length, 0);
        return { size, head: new Uint8Array(buffer) };
      } finally {
        await handle.close();
      }
    },
    async move(from, to) {
      const target = pathOf(to);
      await mkdir(dirname(target), { recursive: true });
      await stat(pathOf(from));
      await rename(pathOf(from), target);
    },
    async remove(key) {
      await rm(pathOf(key), { force: true });
    },
    writeStream(key) {
      const target = pathOf(key);
      const temporary = join(dirname(target), `.${basename(target)}.${randomBytes(6).toString('hex')}.part`);
      let file: WriteStream | undefined;
      return fileWriteOf(
        new Writable({
          construct(callback) {
            mkdir(dirname(target), { recursive: true }).then(() => {
              file = createWriteStream(temporary, { flags: 'wx' });
              file.once('open', () => callback()).once('error', callback);
            }, callback);
          },
          write(chunk: Buffer | string, _encoding, callback) {
            file!.write(chunk, callback);
          },
          final(callback) {
            file!.end(() => rename(temporary, target).then(() => callback(), callback));
          },
          destroy(error, callback) {
            file?.destroy();
            if (this.writableFinished) return callback(error);
            rm(temporary, { force: true }).then(() => callback(error), () => callback(error));
          },
        }),
      );
    },
    async sweep(prefix, beforeMs) {
      const folder = pathOf(prefix.replace(/\/$/, ''));
      let names: string[];
      try {
        names = await readdir(folder);
      } catch (error) {
        if (missing(error)) return;
        throw error;
      }
      for (const name of names) {
        const file = join(folder, name);
        const info = await stat(file).catch(() => null);
        if (info?.isFile() && info.mtimeMs < beforeMs) await rm(file, { force: true });
      }
    },
  };
}

function checkedKey(key: string): string {
  if (!SAFE_KEY.test(key) || key.includes('//') || key.split('/').includes('..')) throw new Error(`file key ${JSON.stringify(key)} is not one of ours`);
  return key;
}

export interface LocalFileStore extends FileStore {
  /** Stores an upload the token allows at `now` (the Clock port's): its type and exact size, before it expires. */
  acceptUpload(token: string, contentType: string | undefined, bytes: Uint8Array, now: Date): Promise<'stored' | 'refused'>;
  /** The file, its type and its Content-Disposition a view token allows at `now`, or null. */
  serve(token: string, now: Date): Promise<{ bytes: Uint8Array; contentType: string; disposition: string } | null>;
}

/** As an S3 lifecycle rule: files under `prefix` are deleted `days` after they were written. */
export interface FileLifecycleRule {
  prefix: string;
  days: number;
}

/**
 * `lifecycle` plays the bucket's expiration rules: after each streamed write under a rule's prefix,
 * the files there older than its days are deleted (by their write time on the system clock).
 */
export function createLocalFileStore(options: { secret: string; dir: string | null; now: () => Date; lifecycle?: readonly FileLifecycleRule[] }): LocalFileStore {
  const storage = options.dir ? directoryStorage(join(options.dir)) : memoryStorage;
  const expire = (key: string) => {
    for (const rule of options.lifecycle ?? []) {
      if (!key.startsWith(rule.prefix)) continue;
      storage.sweep(rule.prefix, Date.now() - rule.days * 86_400_000).catch(() => undefined);
    }
  };
  const sign = (grant: FileGrant) => `${LOCAL_FILES_PATH}${signFileGrant(options.secret, grant)}`;
  const now = () => options.now().getTime();
  return {
    async createUpload(key, contentType, size, expiresInSeconds) {
      const url = sign({ op: 'put', key: checkedKey(key), contentType, size, expiresAt: now() + expiresInSeconds * 1000 });
      return { url, method: 'PUT', headers: { 'content-type': contentType } };
    },
    readHead: async (key, length) => storage.head(checkedKey(key), length),
    move: async (from, to) => storage.move(checkedKey(from), checkedKey(to)),
    async viewUrl(key, contentType, expiresInSeconds, viewOptions = {}) {
      // Checked as S3's adapter checks it, so a name the store refuses fails here too.
      contentDisposition(viewOptions.downloadName);
      const name = viewOptions.downloadName === undefined ? {} : { downloadName: viewOptions.downloadName };
      return sign({ op: 'get', key: checkedKey(key), contentType, ...name, expiresAt: now() + expiresInSeconds * 1000 });
    },
    writeStream(key) {
      const write = storage.writeStream(checkedKey(key));
      write.done.then(() => expire(key), () => undefined);
      return write;
    },
    delete: async (key) => storage.remove(checkedKey(key)),

    async acceptUpload(token, contentType, bytes, at) {
      const grant = verifyFileGrant(options.secret, token, at.getTime());
      // As S3 checks a presigned PUT's signed Content-Type and Content-Length.
      if (!grant || grant.op !== 'put' || grant.size !== bytes.length || (contentType ?? '').split(';')[0]?.trim().toLowerCase() !== grant.contentType) {
        return 'refused';
      }
      await storage.write(grant.key, bytes);
      return 'stored';
    },
    async serve(token, at) {
      const grant = verifyFileGrant(options.secret, token, at.getTime());
      if (!grant || grant.op !== 'get') return null;
      const bytes = await storage.read(grant.key);
      return bytes ? { bytes, contentType: grant.contentType, disposition: contentDisposition(grant.downloadName) } : null;
    },
  };
}

/** The embedded runtime's file store behind the FileStore port (the HTTP server reaches it through this check). */
export function asLocalFileStore(store: FileStore): LocalFileStore | null {
  return 'acceptUpload' in store && 'serve' in store ? (store as LocalFileStore) : null;
}
