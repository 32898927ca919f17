import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import S3rver from 's3rver';

export interface S3Server {
  /** Folio's variables for S3 storage on this server (MEDIA_STORAGE, S3_BUCKET, S3_ENDPOINT…). */
  env: Record<string, string>;
  /** Every object key in the bucket (complete objects: S3 shows no partial ones). */
  keys(): Promise<string[]>;
  /** Stops the server and removes its files. */
  close(): Promise<void>;
}

const bucket = 'folio-test';

/**
 * A real S3-protocol server (s3rver) on loopback, with one empty bucket, keeping its objects in a fresh
 * temporary directory. Each call starts its own server on a free port, so test files run in parallel.
 */
export async function startS3Server(): Promise<S3Server> {
  // s3rver knows a single key pair, S3RVER / S3RVER. Folio takes credentials from the standard AWS
  // chain, whose first source is these variables; a test that set its own keeps them.
  process.env.AWS_ACCESS_KEY_ID ??= 'S3RVER';
  process.env.AWS_SECRET_ACCESS_KEY ??= 'S3RVER';

  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-s3rver-'));
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory,
    configureBuckets: [{ name: bucket }],
  });
  let port: number;
  try {
    ({ port } = await server.run());
  } catch (error) {
    fs.rmSync(directory, { recursive: true, force: true });
    throw error;
  }
  const endpoint = `http://127.0.0.1:${port}`;
  const client = new S3Client({ endpoint, region: 'us-east-1', forcePathStyle: true });
  return {
    async keys() {
      const keys: string[] = [];
      let token: string | undefined;
      do {
        const page = await client.send(new ListObjectsV2Command({ Bucket: bucket, ContinuationToken: token }));
        keys.push(...(page.Contents ?? []).map((object) => object.Key!));
        token = page.NextContinuationToken;
      } while (token);
      return keys.sort();
    },
    env: {
      MEDIA_STORAGE: 's3',
      S3_BUCKET: bucket,
      S3_ENDPOINT: endpoint,
      S3_FORCE_PATH_STYLE: 'true',
      S3_REGION: 'us-east-1',
    },
    async close() {
      client.destroy();
      await server.close();
      fs.rmSync(directory, { recursive: true, force: true });
    },
  };
}
