/**
 * A real S3-protocol server for the tests (s3rver: offline, plain JavaScript, objects kept in a
 * folder), on 127.0.0.1 and a free port, with one empty bucket. Used by the storage contract suite,
 * by `TEST_STORAGE=s3` runs of the upload suites (factories.ts tempStorage) and by journeys that
 * run several api processes on one bucket:
 *
 *   const s3 = await startS3Server();
 *   // s3.env: S3_ENDPOINT, S3_BUCKET, S3_REGION, S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY, S3_FORCE_PATH_STYLE
 *   // s3.settings: the same as Config['s3']; s3.storage(): an s3Storage over the bucket
 *   await s3.stop();
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';
import type { Storage } from '../src/lib/storage.ts';
import { s3Storage, type S3Settings } from '../src/lib/storage/s3.ts';

export interface TestS3Server {
  endpoint: string;
  bucket: string;
  settings: S3Settings;
  /** The S3_* variables a server process needs to use this bucket. */
  env: Record<string, string>;
  /** A store over the bucket (a new client each call). */
  storage(): Storage;
  /** Another empty bucket on the same server (a second store). */
  newBucket(name: string): Promise<S3Settings>;
  /** Stops the server (its objects stay in the folder until `remove`). */
  stop(): Promise<void>;
  /** Stops the server if running and deletes its folder. */
  remove(): Promise<void>;
}

export async function startS3Server(opts: { bucket?: string } = {}): Promise<TestS3Server> {
  const bucket = opts.bucket ?? 'esm-test';
  const directory = await mkdtemp(path.join(tmpdir(), 'esm-s3-'));
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory,
    configureBuckets: [{ name: bucket }],
  });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  // s3rver checks signatures against its fixed development credentials
  const settings: S3Settings = {
    endpoint,
    bucket,
    region: 'us-east-1',
    accessKeyId: 'S3RVER',
    secretAccessKey: 'S3RVER',
    forcePathStyle: true,
  };
  let running = true;
  const stop = async () => {
    if (!running) return;
    running = false;
    server.httpServer?.closeAllConnections();
    await server.close();
  };
  return {
    endpoint,
    bucket,
    settings,
    env: {
      S3_ENDPOINT: endpoint,
      S3_BUCKET: bucket,
      S3_REGION: settings.region,
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
      S3_FORCE_PATH_STYLE: 'true',
    },
    storage: () => s3Storage(settings),
    async newBucket(name) {
      const { CreateBucketCommand } = await import('@aws-sdk/client-s3');
      const { s3Client } = await import('../src/lib/storage/s3.ts');
      const client = s3Client(settings);
      await client.send(new CreateBucketCommand({ Bucket: name }));
      client.destroy();
      return { ...settings, bucket: name };
    },
    stop,
    async remove() {
      await stop();
      await rm(directory, { recursive: true, force: true });
    },
  };
}
