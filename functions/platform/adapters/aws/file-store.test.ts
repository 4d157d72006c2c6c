import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CopyObjectCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  NoSuchKey,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, describe, expect, it } from 'vitest';
import { createS3FileStore, UPLOAD_PART_BYTES } from './file-store';

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

  it('presigns a GET that has the file saved under a name of ours', async () => {
    const url = new URL(await store.viewUrl('reports/abc', 'text/csv', 300, { downloadName: 'tripLog-2026-01.csv' }));
    expect(url.searchParams.get('response-content-disposition')).toBe('attachment; filename="tripLog-2026-01.csv"');
    expect(url.searchParams.get('X-Amz-Expires')).toBe('300');
    await expect(store.viewUrl('reports/abc', 'text/csv', 300, { downloadName: 'a"b.csv' })).rejects.toThrow(/not one of ours/);
  });

  it('writes a small stream with one PutObject of its bytes and type, sent when the stream ends', async () => {
    s3.on(PutObjectCommand).resolves({});
    const write = store.writeStream('reports/job-1', 'text/csv');
    write.stream.write('a,b\n');
    write.stream.end('1,2\n');
    await write.done;
    const calls = s3.commandCalls(PutObjectCommand).map((c) => c.args[0].input);
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({ Bucket: 'pictures-bucket', Key: 'reports/job-1', ContentType: 'text/csv' });
    expect(Buffer.from(calls[0]!.Body as Uint8Array).toString()).toBe('a,b\n1,2\n');
    expect(s3.commandCalls(CreateMultipartUploadCommand)).toHaveLength(0);
  });

  it('writes a large stream as a multipart upload in parts and completes it', async () => {
    s3.on(CreateMultipartUploadCommand).resolves({ UploadId: 'up-1' });
    s3.on(UploadPartCommand).callsFake((input: { PartNumber: number }) => ({ ETag: `"e${input.PartNumber}"` }));
    s3.on(CompleteMultipartUploadCommand).resolves({});
    const write = store.writeStream('reports/job-2', 'application/pdf');
    write.stream.write(Buffer.alloc(UPLOAD_PART_BYTES, 1));
    write.stream.end(Buffer.alloc(1000, 2));
    await write.done;
    expect(s3.commandCalls(CreateMultipartUploadCommand).map((c) => c.args[0].input)).toEqual([
      { Bucket: 'pictures-bucket', Key: 'reports/job-2', ContentType: 'application/pdf' },
    ]);
    const parts = s3.commandCalls(UploadPartCommand).map((c) => c.args[0].input);
    expect(parts.map((p) => [p.UploadId, p.PartNumber, p.ContentLength ?? (p.Body as Uint8Array).length])).toEqual([
      ['up-1', 1, UPLOAD_PART_BYTES],
      ['up-1', 2, 1000],
    ]);
    expect(s3.commandCalls(CompleteMultipartUploadCommand).map((c) => c.args[0].input)).toEqual([
      expect.objectContaining({
        Bucket: 'pictures-bucket',
        Key: 'reports/job-2',
        UploadId: 'up-1',
        MultipartUpload: { Parts: [{ ETag: '"e1"', PartNumber: 1 }, { ETag: '"e2"', PartNumber: 2 }] },
      }),
    ]);
    expect(s3.commandCalls(PutObjectCommand)).toHaveLength(0);
    expect(s3.commandCalls(AbortMultipartUploadCommand)).toHaveLength(0);
  });

  it('aborts a multipart upload when the writer fails, and stores nothing when it fails early', async () => {
    s3.on(CreateMultipartUploadCommand).resolves({ UploadId: 'up-2' });
    s3.on(UploadPartCommand).resolves({ ETag: '"e"' });
    s3.on(AbortMultipartUploadCommand).resolves({});
    const write = store.writeStream('reports/job-3', 'application/pdf');
    write.stream.write(Buffer.alloc(UPLOAD_PART_BYTES + 10, 1));
    await new Promise((resolve) => setTimeout(resolve, 50));
    write.stream.destroy(new Error('the report could not be rendered'));
    await expect(write.done).rejects.toThrow();
    expect(s3.commandCalls(CompleteMultipartUploadCommand)).toHaveLength(0);
    expect(s3.commandCalls(AbortMultipartUploadCommand).map((c) => c.args[0].input)).toEqual([{ Bucket: 'pictures-bucket', Key: 'reports/job-3', UploadId: 'up-2' }]);

    const early = store.writeStream('reports/job-4', 'text/csv');
    early.stream.write('a,b\n');
    early.stream.destroy(new Error('no'));
    await expect(early.done).rejects.toThrow();
    expect(s3.commandCalls(PutObjectCommand)).toHaveLength(0);
  });

  it('refuses keys that are not ours and names a missing bucket', async () => {
    await expect(store.delete('../x')).rejects.toThrow(/not one of ours/);
    await expect(createS3FileStore(client, undefined).delete('units/1/a')).rejects.toThrow(/FILES_BUCKET is not set/);
  });
});
