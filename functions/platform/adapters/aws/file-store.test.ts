import { CopyObjectCommand, DeleteObjectCommand, GetObjectCommand, NoSuchKey, S3Client, S3ServiceException } from '@aws-sdk/client-s3';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, describe, expect, it } from 'vitest';
import { createS3FileStore } from './file-store';

const s3 = mockClient(S3Client);
const client = new S3Client({ region: 'eu-north-1', credentials: { accessKeyId: 'AKIAEXAMPLE', secretAccessKey: 'secret' }, requestChecksumCalculation: 'WHEN_REQUIRED' });
const store = createS3FileStore(client, 'pictures-bucket');
/** The part of a streaming body the store reads. */
const body = (bytes: number[]) => ({ transformToByteArray: async () => new Uint8Array(bytes) }) as never;

afterEach(() => s3.reset());

describe('the S3 file store', () => {
  it('presigns a PUT whose signature covers the exact Content-Type and Content-Length, without a checksum', async () => {
    const upload = await store.createUpload('pending/123/abc', 'image/png', 1234, 600);
    const url = new URL(upload.url);
    expect(url.host).toBe('pictures-bucket.s3.eu-north-1.amazonaws.com');
    expect(url.pathname).toBe('/pending/123/abc');
    expect(url.searchParams.get('X-Amz-SignedHeaders')).toBe('content-length;content-type;host');
    expect(url.searchParams.get('X-Amz-Expires')).toBe('600');
    expect([...url.searchParams.keys()].some((k) => /checksum/i.test(k))).toBe(false);
    expect(upload).toMatchObject({ method: 'PUT', headers: { 'content-type': 'image/png' } });
  });

  it('reads the first bytes with a range and the size from Content-Range', async () => {
    s3.on(GetObjectCommand, { Bucket: 'pictures-bucket', Key: 'pending/1/a', Range: 'bytes=0-7' }).resolves({
      Body: body([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
      ContentRange: 'bytes 0-7/5000',
      ContentLength: 8,
    });
    expect(await store.readHead('pending/1/a', 8)).toEqual({ size: 5000, head: new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]) });
    expect(s3.commandCalls(GetObjectCommand)).toHaveLength(1);
  });

  it('answers null for a missing object and an empty head for an empty one', async () => {
    s3.on(GetObjectCommand, { Key: 'pending/1/none' }).rejects(new NoSuchKey({ message: 'gone', $metadata: {} }));
    s3.on(GetObjectCommand, { Key: 'pending/1/empty' }).rejects(new S3ServiceException({ name: 'InvalidRange', $fault: 'client', $metadata: {} }));
    expect(await store.readHead('pending/1/none', 8)).toBeNull();
    expect(await store.readHead('pending/1/empty', 8)).toEqual({ size: 0, head: new Uint8Array() });
  });

  it('moves by copying with the checked type and deleting the upload, and deletes', async () => {
    s3.on(CopyObjectCommand).resolves({});
    s3.on(DeleteObjectCommand).resolves({});
    await store.move('pending/1/a', 'units/1/a', 'image/jpeg');
    expect(s3.commandCalls(CopyObjectCommand).map((c) => c.args[0].input)).toEqual([
      { Bucket: 'pictures-bucket', Key: 'units/1/a', CopySource: 'pictures-bucket/pending/1/a', ContentType: 'image/jpeg', MetadataDirective: 'REPLACE' },
    ]);
    await store.delete('units/1/a');
    expect(s3.commandCalls(DeleteObjectCommand).map((c) => c.args[0].input)).toEqual([
      { Bucket: 'pictures-bucket', Key: 'pending/1/a' },
      { Bucket: 'pictures-bucket', Key: 'units/1/a' },
    ]);
  });

  it('presigns a GET that answers with the checked type, inline', async () => {
    const url = new URL(await store.viewUrl('units/1/a', 'image/jpeg', 900));
    expect(url.pathname).toBe('/units/1/a');
    expect(url.searchParams.get('response-content-type')).toBe('image/jpeg');
    expect(url.searchParams.get('response-content-disposition')).toBe('inline');
    expect(url.searchParams.get('X-Amz-Expires')).toBe('900');
  });

  it('refuses keys that are not ours and names a missing bucket', async () => {
    await expect(store.delete('../x')).rejects.toThrow(/not one of ours/);
    await expect(createS3FileStore(client, undefined).delete('units/1/a')).rejects.toThrow(/FILES_BUCKET is not set/);
  });
});
