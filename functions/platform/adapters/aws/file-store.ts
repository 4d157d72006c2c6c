/**
 * FileStore on S3: the browser uploads with a presigned PUT whose signature covers the
 * Content-Type and the Content-Length (S3 refuses any other type or size), and views through
 * presigned GETs that name the type to answer with. The bucket is private; only the function's
 * role signs (infra/constructs/unit-images-bucket.ts, docs/decisions/0019-unit-pictures.md).
 */
import {
  CopyObjectCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  PutObjectCommand,
  S3ServiceException,
  type S3Client,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { PassThrough } from 'node:stream';
import type { FileStore, FileWrite, StoredFileHead } from '../../ports';
import { contentDisposition } from '../content-disposition';

const SAFE_KEY = /^[A-Za-z0-9/_-]{1,300}$/;

function checkedKey(key: string): string {
  if (!SAFE_KEY.test(key) || key.includes('//')) throw new Error(`file key ${JSON.stringify(key)} is not one of ours`);
  return key;
}

function errorName(error: unknown): string | undefined {
  return error instanceof S3ServiceException ? error.name : (error as { name?: string } | null)?.name;
}

/** `bytes 0-7/1234` to 1234. */
function totalOf(contentRange: string | undefined, fallback: number | undefined): number {
  const match = /\/(\d+)$/.exec(contentRange ?? '');
  return match ? Number(match[1]) : (fallback ?? 0);
}

/** Parts of a streamed upload: S3's minimum is 5 MB; a report of a year is a few parts. */
export const UPLOAD_PART_BYTES = 8 * 1024 * 1024;

/**
 * The client must not add flexible checksums to presigned requests: a checksum of the empty body
 * would be signed into the URL and the browser's upload refused (requestChecksumCalculation
 * WHEN_REQUIRED, set where the client is made: adapters/aws/index.ts).
 */
export function createS3FileStore(client: S3Client, bucket: string | undefined): FileStore {
  const bucketName = (): string => {
    if (!bucket) throw new Error('FILES_BUCKET is not set: a function that declares files needs the files bucket (infra/constructs/unit-images-bucket.ts)');
    return bucket;
  };
  return {
    async createUpload(key, contentType, size, expiresInSeconds) {
      const command = new PutObjectCommand({ Bucket: bucketName(), Key: checkedKey(key), ContentType: contentType, ContentLength: size });
      const url = await getSignedUrl(client, command, { expiresIn: expiresInSeconds, signableHeaders: new Set(['content-type', 'content-length']) });
      // The browser sets Content-Length from the body itself; Content-Type must be sent as signed.
      return { url, method: 'PUT', headers: { 'content-type': contentType } };
    },

    async readHead(key, length): Promise<StoredFileHead | null> {
      try {
        const out = await client.send(new GetObjectCommand({ Bucket: bucketName(), Key: checkedKey(key), Range: `bytes=0-${Math.max(length, 1) - 1}` }));
        const head = out.Body ? await out.Body.transformToByteArray() : new Uint8Array();
        return { size: totalOf(out.ContentRange, out.ContentLength), head: head.subarray(0, length) };
      } catch (error) {
        const name = errorName(error);
        if (name === 'NoSuchKey' || name === 'NotFound') return null;
        // A range of an empty object cannot be satisfied.
        if (name === 'InvalidRange') return { size: 0, head: new Uint8Array() };
        throw error;
      }
    },

    async move(from, to, contentType) {
      const Bucket = bucketName();
      await client.send(
        new CopyObjectCommand({
          Bucket,
          Key: checkedKey(to),
          CopySource: `${Bucket}/${checkedKey(from)}`,
          ContentType: contentType,
          MetadataDirective: 'REPLACE',
        }),
      );
      await client.send(new DeleteObjectCommand({ Bucket, Key: from }));
    },

    async viewUrl(key, contentType, expiresInSeconds, options = {}) {
      const command = new GetObjectCommand({
        Bucket: bucketName(),
        Key: checkedKey(key),
        ResponseContentType: contentType,
        ResponseContentDisposition: contentDisposition(options.downloadName),
        ResponseCacheControl: 'private, max-age=600',
      });
      return getSignedUrl(client, command, { expiresIn: expiresInSeconds });
    },

    writeStream(key, contentType): FileWrite {
      const stream = new PassThrough();
      const upload = new Upload({
        client,
        params: { Bucket: bucketName(), Key: checkedKey(key), Body: stream, ContentType: contentType },
        partSize: UPLOAD_PART_BYTES,
        queueSize: 2,
        leavePartsOnError: false,
      });
      const done = upload.done().then(() => undefined);
      // A writer's failure: the upload stops reading and fails (aborting the multipart upload).
      stream.on('error', () => void upload.abort().catch(() => undefined));
      return { stream, done };
    },

    async delete(key) {
      await client.send(new DeleteObjectCommand({ Bucket: bucketName(), Key: checkedKey(key) }));
    },
  };
}
