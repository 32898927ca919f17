import {
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadObjectCommand,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { Transform, finished, type Readable } from 'node:stream';
import type { StorageConfig } from '../../config.ts';
import { notFound } from '../../core/errors.ts';
import type { MediaStorage } from './types.ts';

type S3Config = Extract<StorageConfig, { kind: 's3' }>;

// A write holds at most one part being filled and `queueSize` parts being sent: about 24 MiB.
const partSize = 8 * 1024 * 1024;
const queueSize = 2;
// The most keys one DeleteObjects request may name.
const deleteBatchSize = 1000;

/**
 * Media in an S3 bucket (AWS, or an S3-compatible service at `endpoint`). Credentials come from the
 * standard AWS chain (AWS_ACCESS_KEY_ID…, shared config, instance roles), never from Folio's config.
 */
export function s3Storage(config: S3Config): MediaStorage {
  const client = new S3Client({
    region: config.region,
    endpoint: config.endpoint,
    forcePathStyle: config.forcePathStyle,
    // Since 3.729 the SDK adds CRC32 checksums to every request it can and asks for them on reads.
    // S3-compatible services that predate this (older MinIO, s3rver, some gateways) reject such
    // requests or store the aws-chunked framing of a streamed body as the object's bytes; and a
    // presigned PUT URL would carry the checksum of an empty body, which a client's real bytes fail.
    // So checksums are sent and checked only where the S3 API requires them.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  const bucket = config.bucket;

  return {
    kind: 's3',
    async write(key, body, { contentType }) {
      checkKey(key);
      return writeObject(client, { bucket, key, body, contentType });
    },
    async stat(key) {
      checkKey(key);
      try {
        const head = await client.send(new HeadObjectCommand({ Bucket: bucket, Key: key }));
        return { size: head.ContentLength ?? 0 };
      } catch (error) {
        if (isMissing(error)) return undefined;
        throw error;
      }
    },
    async read(key, range) {
      checkKey(key);
      try {
        const object = await client.send(
          new GetObjectCommand({ Bucket: bucket, Key: key, Range: range ? `bytes=${range.start}-${range.end}` : undefined }),
        );
        // In Node the SDK's body is the HTTP response itself, a Readable.
        return object.Body as Readable;
      } catch (error) {
        if (isMissing(error)) throw notFound('File');
        throw error;
      }
    },
    async delete(keys) {
      keys.forEach(checkKey);
      for (let start = 0; start < keys.length; start += deleteBatchSize) {
        const batch = keys.slice(start, start + deleteBatchSize);
        // S3 reports a key with no object as deleted, so every error here is a real one.
        const result = await client.send(
          new DeleteObjectsCommand({ Bucket: bucket, Delete: { Objects: batch.map((key) => ({ Key: key })), Quiet: true } }),
        );
        if (result.Errors?.length) {
          const problems = result.Errors.map((error) => `${error.Key}: ${error.Code} ${error.Message}`).join('; ');
          throw new Error(`S3 could not delete ${result.Errors.length} object(s): ${problems}`);
        }
      }
    },
    async presignUpload(key, { contentType, size, expiresInSeconds }) {
      checkKey(key);
      // Content-Type and Content-Length are signed headers, so the URL takes only these bytes; and
      // If-None-Match: * makes S3 refuse a second PUT, so bytes checked at registration cannot be
      // replaced afterwards while the URL is still valid.
      const command = new PutObjectCommand({ Bucket: bucket, Key: key, ContentType: contentType, ContentLength: size, IfNoneMatch: '*' });
      // The presigner leaves these headers unsigned unless told to sign them.
      const url = await getSignedUrl(client, command, { expiresIn: expiresInSeconds, signableHeaders: new Set(['content-type', 'if-none-match']) });
      return { url, method: 'PUT', headers: { 'content-type': contentType, 'if-none-match': '*' } };
    },
    async presignDownload(key, { expiresInSeconds, contentType, disposition }) {
      checkKey(key);
      if (config.serve !== 'redirect') return undefined;
      const command = new GetObjectCommand({ Bucket: bucket, Key: key, ResponseContentType: contentType, ResponseContentDisposition: disposition });
      return getSignedUrl(client, command, { expiresIn: expiresInSeconds });
    },
    publicUrl(key) {
      checkKey(key);
      if (!config.publicUrl) return undefined;
      return `${config.publicUrl}/${key.split('/').map(encodeURIComponent).join('/')}`;
    },
    async close() {
      client.destroy();
    },
  };
}

/**
 * Streams `body` to the bucket in parts and resolves with its size. When `body` fails, the upload is
 * aborted at once and the promise rejects with the body's own error (an AppError keeps its code).
 * Nothing is ever left at `key`: S3 creates the object only on the last request (PutObject or
 * CompleteMultipartUpload), which is sent only once the body has ended.
 */
async function writeObject(
  client: S3Client,
  { bucket, key, body, contentType }: { bucket: string; key: string; body: Readable; contentType: string },
): Promise<{ size: number }> {
  let size = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      size += chunk.length;
      done(null, chunk);
    },
  });
  const upload = new Upload({ client, params: { Bucket: bucket, Key: key, Body: counter, ContentType: contentType }, partSize, queueSize });
  const uploaded = upload.done();

  let bodyError: unknown;
  let settled = false;
  // Left alone, lib-storage notices a failed source only when it next asks for data, then waits for
  // the parts in flight and for AbortMultipartUpload, and rejects with that request's error if it
  // fails (s3rver has no AbortMultipartUpload). abort() makes done() reject at once; the parts in
  // flight finish and the multipart upload is aborted in the background.
  finished(body, (error) => {
    if (!error || settled) return;
    settled = true;
    bodyError = error;
    counter.destroy(error);
    void upload.abort();
  });
  body.pipe(counter);

  try {
    await uploaded;
  } catch (error) {
    settled = true;
    // Stops a body that is still arriving, as a failed write to disk would.
    body.destroy();
    throw bodyError ?? error;
  }
  return { size };
}

/** Keys are checked by the caller; this refuses any that could name something outside Folio's keys. */
function checkKey(key: string): void {
  if (key === '' || key.startsWith('/') || key.split('/').includes('..')) throw notFound('File');
}

/** NoSuchKey from GET; NotFound from HEAD, whose 404 carries no body to say more. */
function isMissing(error: unknown): boolean {
  return error instanceof S3ServiceException && (error.name === 'NoSuchKey' || error.name === 'NotFound');
}
