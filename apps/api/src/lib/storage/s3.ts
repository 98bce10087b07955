/**
 * The S3 driver: any S3-compatible object store (AWS S3, MinIO, Ceph, OSS/COS in S3 mode), with
 * the AWS SDK for JavaScript v3. Keys are the local folder's paths (`aa/bb/<sha256>`,
 * `quarantine/<sha256>`, `tmp/<uuid>`, `.esm-store.json`), so a local store copies into a bucket
 * as it is (storage:migrate).
 *
 * An upload streams through the sha256 meter into tmp/<uuid> (lib-storage's Upload: multipart
 * past one part, so at most a few parts are ever held in memory), and only once complete and
 * within the size limit is it copied to its sha256 key (a server-side copy) and the temporary
 * object removed. A failed, refused or aborted upload leaves nothing: Upload aborts its multipart
 * upload, and the temporary key is removed. Quarantined objects are server-side copies, so their
 * LastModified is when they were quarantined.
 */
import { randomUUID } from 'node:crypto';
import os from 'node:os';
import type { Readable } from 'node:stream';
import {
  CopyObjectCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  type _Object,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import {
  contentPath,
  FileTooLargeError,
  invalidKey,
  KEY,
  MARKER,
  meter,
  missing,
  QUARANTINE,
  TMP,
  truncated,
  type Storage,
  type StoreMarker,
} from './common.ts';

export interface S3Settings {
  endpoint?: string;
  bucket: string;
  region: string;
  /** Both, or neither: the SDK's own credential chain then (an instance role, AWS_PROFILE …). */
  accessKeyId?: string;
  secretAccessKey?: string;
  forcePathStyle: boolean;
}

/** Lib-storage's part size: the least S3 accepts; an upload holds at most QUEUE parts in memory. */
const PART_SIZE = 5 * 1024 * 1024;
const QUEUE = 2;

const notFound = (e: unknown) => {
  const err = e as { name?: string; $metadata?: { httpStatusCode?: number } };
  return err.name === 'NoSuchKey' || err.name === 'NotFound' || err.$metadata?.httpStatusCode === 404;
};

export function s3Client(s: S3Settings): S3Client {
  return new S3Client({
    ...(s.endpoint ? { endpoint: s.endpoint } : {}),
    region: s.region,
    forcePathStyle: s.forcePathStyle,
    ...(s.accessKeyId && s.secretAccessKey
      ? { credentials: { accessKeyId: s.accessKeyId, secretAccessKey: s.secretAccessKey } }
      : {}),
    // The SDK's default since 3.729 sends CRC32 checksums in aws-chunked bodies, which many
    // S3-compatible servers (older MinIO, Ceph, s3rver) refuse; the sha256 is checked here instead.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
}

export function s3Storage(s: S3Settings, client: S3Client = s3Client(s)): Storage {
  const Bucket = s.bucket;
  const keyOf = (sha256: string) => {
    if (!KEY.test(sha256)) throw invalidKey();
    return contentPath(sha256);
  };
  const quarantineKey = (sha256: string) => `${QUARANTINE}/${sha256}`;
  const head = async (Key: string) => {
    try {
      return await client.send(new HeadObjectCommand({ Bucket, Key }));
    } catch (e) {
      if (notFound(e)) return null;
      throw e;
    }
  };
  const remove = (Key: string) => client.send(new DeleteObjectCommand({ Bucket, Key }));
  const copy = (from: string, Key: string, Metadata?: Record<string, string>) =>
    client.send(
      new CopyObjectCommand({
        Bucket,
        Key,
        CopySource: `${Bucket}/${from}`,
        ...(Metadata ? { Metadata, MetadataDirective: 'REPLACE' } : {}),
      }),
    );
  const get = async (Key: string) => {
    try {
      return (await client.send(new GetObjectCommand({ Bucket, Key }))).Body as Readable & {
        transformToByteArray(): Promise<Uint8Array>;
      };
    } catch (e) {
      if (notFound(e)) return null;
      throw e;
    }
  };
  /** A stored object, else its quarantined copy (a sweep racing a new reference puts it back later). */
  const located = async (sha256: string) => {
    const body = (await get(keyOf(sha256))) ?? (await get(quarantineKey(sha256)));
    if (!body) throw missing();
    return body;
  };
  async function* list(Prefix: string): AsyncGenerator<_Object> {
    let ContinuationToken: string | undefined;
    do {
      const page = await client.send(new ListObjectsV2Command({ Bucket, Prefix, ContinuationToken }));
      yield* page.Contents ?? [];
      ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (ContinuationToken);
  }

  return {
    description: `S3 bucket ${Bucket}${s.endpoint ? ` at ${s.endpoint}` : ''}`,
    async put(source, maxBytes) {
      const tmp = `${TMP}/${randomUUID()}`;
      const m = meter(maxBytes);
      // the source's failure (a client gone mid-upload) fails the upload's body, and so the upload
      source.on('error', (err) => m.stream.destroy(err));
      const upload = new Upload({
        client,
        params: { Bucket, Key: tmp, Body: source.pipe(m.stream) },
        partSize: PART_SIZE,
        queueSize: QUEUE,
        leavePartsOnError: false,
      });
      try {
        await upload.done();
        if (truncated(source)) throw new FileTooLargeError(maxBytes);
        const sha256 = m.digest();
        const size = m.size();
        const placed = await head(tmp);
        if (placed?.ContentLength !== size)
          throw new Error(`${tmp}: the store holds ${placed?.ContentLength ?? 'nothing'} bytes, ${size} were sent`);
        const key = keyOf(sha256);
        // content-addressed: an object under the key holds these bytes already
        if ((await head(key))?.ContentLength !== size) await copy(tmp, key, { sha256 });
        await remove(tmp);
        return { sha256, size };
      } catch (e) {
        source.unpipe(m.stream);
        m.stream.destroy();
        await upload.abort().catch(() => {});
        await remove(tmp).catch(() => {});
        throw e;
      }
    },
    async read(sha256) {
      return Buffer.from(await (await located(sha256)).transformToByteArray());
    },
    async stream(sha256) {
      return located(sha256);
    },
    async exists(sha256) {
      return (await head(keyOf(sha256))) !== null || (await head(quarantineKey(sha256))) !== null;
    },
    async size(sha256) {
      return (await head(keyOf(sha256)))?.ContentLength ?? null;
    },
    async sweep({ olderThanMs, quarantineMs, isReferenced, now = Date.now() }) {
      const counts = { moved: 0, restored: 0, purged: 0, temporary: 0 };
      const older = (o: { LastModified?: Date }, ms: number) => (o.LastModified?.getTime() ?? now) < now - ms;
      for await (const o of list(`${TMP}/`)) {
        if (o.Key && older(o, olderThanMs)) {
          await remove(o.Key);
          counts.temporary++;
        }
      }
      for await (const o of list(`${QUARANTINE}/`)) {
        const sha256 = o.Key!.slice(QUARANTINE.length + 1);
        if (!KEY.test(sha256)) continue;
        if (await isReferenced(sha256)) {
          if (!(await head(keyOf(sha256)))) await copy(o.Key!, keyOf(sha256));
          await remove(o.Key!);
          counts.restored++;
        } else if (older(o, quarantineMs)) {
          await remove(o.Key!);
          counts.purged++;
        }
      }
      const candidates: string[] = [];
      for await (const o of list('')) {
        const key = o.Key ?? '';
        const sha256 = key.slice(6);
        if (!KEY.test(sha256) || key !== contentPath(sha256) || !older(o, olderThanMs)) continue;
        candidates.push(sha256);
      }
      for (const sha256 of candidates) {
        if (await isReferenced(sha256)) continue;
        // Copy first, then look again before removing: a row committed meanwhile, or a fresh copy
        // just uploaded, keeps it. The quarantined copy holds the same bytes, so even an upload
        // slipping in between the look and the removal is put back by the next sweep.
        await copy(keyOf(sha256), quarantineKey(sha256), { 'quarantined-at': new Date().toISOString() });
        const again = await head(keyOf(sha256));
        if (again && older(again, olderThanMs) && !(await isReferenced(sha256))) {
          await remove(keyOf(sha256));
          counts.moved++;
        } else {
          await remove(quarantineKey(sha256));
        }
      }
      return counts;
    },
    async readMarker() {
      const body = await get(MARKER);
      return body ? (JSON.parse(Buffer.from(await body.transformToByteArray()).toString('utf8')) as StoreMarker) : null;
    },
    async writeMarker(marker) {
      await client.send(
        new PutObjectCommand({
          Bucket,
          Key: MARKER,
          Body: JSON.stringify(marker, null, 2) + '\n',
          ContentType: 'application/json',
        }),
      );
    },
    async probe() {
      const Key = `${TMP}/probe-${os.hostname()}-${randomUUID()}`;
      const text = `probe ${Date.now()}`;
      try {
        await client.send(new PutObjectCommand({ Bucket, Key, Body: text }));
        const body = await get(Key);
        const back = body ? Buffer.from(await body.transformToByteArray()).toString('utf8') : null;
        if (back !== text)
          throw new Error(`${Key}: read back ${back === null ? 'nothing' : 'other bytes'} than written`);
      } finally {
        await remove(Key).catch(() => {});
      }
    },
  };
}
