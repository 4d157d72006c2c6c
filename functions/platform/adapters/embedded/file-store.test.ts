import { mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createLocalFileStore, LOCAL_FILES_PATH, signFileGrant, verifyFileGrant } from './file-store';

const SECRET = 's'.repeat(48);
const NOW = new Date('2026-05-01T10:00:00Z');
const tokenOf = (url: string) => url.slice(LOCAL_FILES_PATH.length);
const dir = mkdtempSync(join(tmpdir(), 'files-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('signed file grants', () => {
  it('verifies its own tokens until they expire, and nothing forged or signed with another secret', () => {
    const token = signFileGrant(SECRET, { op: 'put', key: 'pending/1/abc', contentType: 'image/png', size: 10, expiresAt: NOW.getTime() + 1000 });
    expect(verifyFileGrant(SECRET, token, NOW.getTime())).toEqual({ op: 'put', key: 'pending/1/abc', contentType: 'image/png', size: 10, expiresAt: NOW.getTime() + 1000 });
    expect(verifyFileGrant(SECRET, token, NOW.getTime() + 1000)).toBeNull();
    expect(verifyFileGrant('t'.repeat(48), token, NOW.getTime())).toBeNull();
    const [payload, signature] = token.split('.') as [string, string];
    const widened = Buffer.from(JSON.stringify({ o: 'put', k: 'pending/1/abc', t: 'image/png', s: 10_000_000, e: NOW.getTime() + 1000 })).toString('base64url');
    expect(verifyFileGrant(SECRET, `${widened}.${signature}`, NOW.getTime())).toBeNull();
    expect(verifyFileGrant(SECRET, payload, NOW.getTime())).toBeNull();
    expect(verifyFileGrant(SECRET, `${payload}.${signature}.x`, NOW.getTime())).toBeNull();
    // Another spelling of the same MAC: the last character's two bits that base64url decoding
    // ignores, changed. Every one of the three is refused.
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    const last = alphabet.indexOf(signature.slice(-1));
    for (const low of [1, 2, 3]) {
      const respelled = `${signature.slice(0, -1)}${alphabet[last ^ low]}`;
      expect(Buffer.from(respelled, 'base64url')).toEqual(Buffer.from(signature, 'base64url'));
      expect(verifyFileGrant(SECRET, `${payload}.${respelled}`, NOW.getTime())).toBeNull();
    }
    // A signed grant for a key outside ours is refused too.
    expect(verifyFileGrant(SECRET, signFileGrant(SECRET, { op: 'get', key: '../etc/passwd', contentType: 'image/png', expiresAt: NOW.getTime() + 1000 }), NOW.getTime())).toBeNull();
  });
});

describe.each([
  ['in memory', null],
  ['in a directory', dir],
])('the local file store %s', (_name, where) => {
  const store = createLocalFileStore({ secret: SECRET, dir: where, now: () => NOW });
  const key = `pending/${where ? 'd' : 'm'}/one`;

  it('stores exactly the declared bytes and type, reads the head, moves, serves and deletes', async () => {
    const upload = await store.createUpload(key, 'image/png', 4, 60);
    expect(upload).toMatchObject({ method: 'PUT', headers: { 'content-type': 'image/png' } });
    expect(upload.url.startsWith(LOCAL_FILES_PATH)).toBe(true);
    const token = tokenOf(upload.url);
    expect(await store.acceptUpload(token, 'image/png', new Uint8Array([1, 2, 3]), NOW)).toBe('refused');
    expect(await store.acceptUpload(token, 'image/jpeg', new Uint8Array([1, 2, 3, 4]), NOW)).toBe('refused');
    expect(await store.acceptUpload(token, 'image/png', new Uint8Array([1, 2, 3, 4]), new Date(NOW.getTime() + 61_000))).toBe('refused');
    expect(await store.readHead(key, 8)).toBeNull();
    expect(await store.acceptUpload(token, 'image/png; charset=binary', new Uint8Array([1, 2, 3, 4]), NOW)).toBe('stored');
    expect(await store.readHead(key, 2)).toEqual({ size: 4, head: new Uint8Array([1, 2]) });

    await store.move(key, `units/x/one`, 'image/png');
    expect(await store.readHead(key, 2)).toBeNull();
    if (where) expect([...readFileSync(join(where, 'units/x/one'))]).toEqual([1, 2, 3, 4]);
    const view = tokenOf(await store.viewUrl('units/x/one', 'image/png', 60));
    expect(await store.serve(view, NOW)).toEqual({ bytes: new Uint8Array([1, 2, 3, 4]), contentType: 'image/png', disposition: 'inline' });
    expect(await store.serve(token, NOW)).toBeNull();
    expect(await store.acceptUpload(view, 'image/png', new Uint8Array([1, 2, 3, 4]), NOW)).toBe('refused');
    await store.delete('units/x/one');
    await store.delete('units/x/one');
    expect(await store.serve(view, NOW)).toBeNull();
  });

  it('writes a stream under the key only once it ended, and serves it as an attachment when asked', async () => {
    const key = `reports/${where ? 'd' : 'm'}-1`;
    const write = store.writeStream(key, 'text/csv');
    write.stream.write('a,b\n');
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(await store.readHead(key, 8)).toBeNull();
    write.stream.end('1,2\n');
    await write.done;
    expect(await store.readHead(key, 100)).toEqual({ size: 8, head: new Uint8Array(Buffer.from('a,b\n1,2\n')) });
    const view = tokenOf(await store.viewUrl(key, 'text/csv', 60, { downloadName: 'tripLog.csv' }));
    expect(await store.serve(view, NOW)).toEqual({ bytes: new Uint8Array(Buffer.from('a,b\n1,2\n')), contentType: 'text/csv', disposition: 'attachment; filename="tripLog.csv"' });
    if (where) expect(readdirSync(join(where, 'reports'))).toEqual([key.slice('reports/'.length)]);
  });

  it('leaves nothing when the writer fails, not even the earlier file or a temporary one', async () => {
    const key = `reports/${where ? 'd' : 'm'}-2`;
    const first = store.writeStream(key, 'text/csv');
    first.stream.end('old');
    await first.done;
    const write = store.writeStream(key, 'text/csv');
    write.stream.write('half of a report');
    write.stream.destroy(new Error('the report could not be rendered'));
    await expect(write.done).rejects.toThrow('the report could not be rendered');
    expect(await store.readHead(key, 10)).toEqual({ size: 3, head: new Uint8Array(Buffer.from('old')) });
    if (where) expect(readdirSync(join(where, 'reports')).filter((name) => name.startsWith('.'))).toEqual([]);
  });

  it('refuses keys that are not ours', async () => {
    expect(() => store.writeStream('../outside', 'text/csv')).toThrow(/not one of ours/);
    await expect(store.viewUrl('reports/x', 'text/csv', 60, { downloadName: '../x"' })).rejects.toThrow(/not one of ours/);
    await expect(store.createUpload('../outside', 'image/png', 1, 60)).rejects.toThrow(/not one of ours/);
    await expect(store.readHead('units/../../x', 1)).rejects.toThrow(/not one of ours/);
  });
});

describe('the local file store lifecycle', () => {
  it('deletes the files under a rule prefix older than its days once a new one is written there, as the bucket rule does', async () => {
    const root = mkdtempSync(join(tmpdir(), 'files-life-'));
    try {
      const store = createLocalFileStore({ secret: SECRET, dir: root, now: () => NOW, lifecycle: [{ prefix: 'reports/', days: 30 }] });
      const write = async (key: string) => {
        const w = store.writeStream(key, 'text/csv');
        w.stream.end('x');
        await w.done;
      };
      await write('reports/old');
      await write('units/u/old');
      const monthAgo = new Date(Date.now() - 31 * 86_400_000);
      utimesSync(join(root, 'reports/old'), monthAgo, monthAgo);
      utimesSync(join(root, 'units/u/old'), monthAgo, monthAgo);
      await write('reports/new');
      for (let i = 0; i < 50 && readdirSync(join(root, 'reports')).includes('old'); i++) await new Promise((resolve) => setTimeout(resolve, 20));
      expect(readdirSync(join(root, 'reports'))).toEqual(['new']);
      expect(readdirSync(join(root, 'units/u'))).toEqual(['old']);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
