/**
 * FileStore of the embedded runtime: files under FILES_DIR (DATA_DIR/files), or in memory without
 * one. Uploads and views go to the embedded HTTP server (`PUT`/`GET /api/v1/files/<token>`,
 * infra/local/http-server.ts `files`), which plays S3's presigned URLs with `acceptUpload` and
 * `serve`: the token names the operation, the key, the type, the exact size of an upload and the
 * expiry, and is signed with an HMAC under the runtime's JWT secret. The URLs are relative, so the
 * browser sends them to the page's own origin (the CSP's 'self').
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { mkdir, open, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';
import type { FileStore, StoredFileHead } from '../../ports';

export const LOCAL_FILES_PATH = '/api/v1/files/';
const SAFE_KEY = /^[A-Za-z0-9/_-]{1,300}$/;

export interface FileGrant {
  /** put: upload these bytes; get: read the file. */
  op: 'put' | 'get';
  key: string;
  contentType: string;
  /** put only: the exact number of bytes. */
  size?: number;
  /** Epoch ms. */
  expiresAt: number;
}

const b64 = (data: Buffer | string) => Buffer.from(data).toString('base64url');
const mac = (secret: string, payload: string) => createHmac('sha256', secret).update(`files:${payload}`).digest();

export function signFileGrant(secret: string, grant: FileGrant): string {
  const payload = b64(JSON.stringify({ o: grant.op, k: grant.key, t: grant.contentType, s: grant.size, e: grant.expiresAt }));
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
    const raw = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { o?: unknown; k?: unknown; t?: unknown; s?: unknown; e?: unknown };
    if ((raw.o !== 'put' && raw.o !== 'get') || typeof raw.k !== 'string' || !SAFE_KEY.test(raw.k) || typeof raw.t !== 'string' || typeof raw.e !== 'number') return null;
    if (raw.e <= now) return null;
    const size = typeof raw.s === 'number' ? raw.s : undefined;
    if (raw.o === 'put' && size === undefined) return null;
    return { op: raw.o, key: raw.k, contentType: raw.t, ...(size === undefined ? {} : { size }), expiresAt: raw.e };
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
}

const memory = new Map<string, Uint8Array>();
const memoryStorage: Storage = {
  async write(key, bytes) {
    memory.set(key, Uint8Array.from(bytes));
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
  };
}

function checkedKey(key: string): string {
  if (!SAFE_KEY.test(key) || key.includes('//') || key.split('/').includes('..')) throw new Error(`file key ${JSON.stringify(key)} is not one of ours`);
  return key;
}

export interface LocalFileStore extends FileStore {
  /** Stores an upload the token allows at `now` (the Clock port's): its type and exact size, before it expires. */
  acceptUpload(token: string, contentType: string | undefined, bytes: Uint8Array, now: Date): Promise<'stored' | 'refused'>;
  /** The file and its type a view token allows at `now`, or null. */
  serve(token: string, now: Date): Promise<{ bytes: Uint8Array; contentType: string } | null>;
}

export function createLocalFileStore(options: { secret: string; dir: string | null; now: () => Date }): LocalFileStore {
  const storage = options.dir ? directoryStorage(join(options.dir)) : memoryStorage;
  const sign = (grant: FileGrant) => `${LOCAL_FILES_PATH}${signFileGrant(options.secret, grant)}`;
  const now = () => options.now().getTime();
  return {
    async createUpload(key, contentType, size, expiresInSeconds) {
      const url = sign({ op: 'put', key: checkedKey(key), contentType, size, expiresAt: now() + expiresInSeconds * 1000 });
      return { url, method: 'PUT', headers: { 'content-type': contentType } };
    },
    readHead: async (key, length) => storage.head(checkedKey(key), length),
    move: async (from, to) => storage.move(checkedKey(from), checkedKey(to)),
    async viewUrl(key, contentType, expiresInSeconds) {
      return sign({ op: 'get', key: checkedKey(key), contentType, expiresAt: now() + expiresInSeconds * 1000 });
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
      return bytes ? { bytes, contentType: grant.contentType } : null;
    },
  };
}

/** The embedded runtime's file store behind the FileStore port (the HTTP server reaches it through this check). */
export function asLocalFileStore(store: FileStore): LocalFileStore | null {
  return 'acceptUpload' in store && 'serve' in store ? (store as LocalFileStore) : null;
}
