/**
 * Copies a local file store into the configured bucket (`pnpm storage:migrate`), for an operator
 * moving an installation from the local folder to object storage:
 *  - idempotent: an object already in the bucket with the file's size (and, where the bucket does
 *    not say its sha256, bytes that hash to its key) is skipped, so an interrupted run is simply
 *    run again;
 *  - every copied object is read back from the bucket and its sha256 checked against its key;
 *  - a local file whose bytes do not hash to its name is not copied (a damaged file);
 *  - quarantined files are copied back as stored files: the bucket's sweep quarantines them again
 *    if nothing refers to them;
 *  - the store's marker comes along, so the bucket belongs to the same database; a bucket marked
 *    for another database is refused.
 * The portal may keep running on the local folder meanwhile; run the command once more after
 * stopping it and before starting on the bucket, to copy what was uploaded in between.
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { HeadObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { contentPath, KEY, QUARANTINE } from './common.ts';
import { localStorage } from './local.ts';
import { s3Client, s3Storage, type S3Settings } from './s3.ts';

export interface MigrateReport {
  copied: number;
  skipped: number;
  failed: { file: string; reason: string }[];
}

async function* localFiles(dir: string): AsyncGenerator<{ sha256: string; file: string }> {
  const list = (d: string) => readdir(d).catch(() => [] as string[]);
  for (const a of await list(dir)) {
    if (!/^[0-9a-f]{2}$/.test(a)) continue;
    for (const b of await list(path.join(dir, a))) {
      for (const key of await list(path.join(dir, a, b))) {
        if (KEY.test(key) && key.slice(0, 4) === a + b) yield { sha256: key, file: path.join(dir, a, b, key) };
      }
    }
  }
  for (const key of await list(path.join(dir, QUARANTINE)))
    if (KEY.test(key)) yield { sha256: key, file: path.join(dir, QUARANTINE, key) };
}

const sha256Of = async (source: NodeJS.ReadableStream) => {
  const hash = createHash('sha256');
  await pipeline(source, hash);
  return hash.digest('hex');
};

export async function migrateToBucket(
  dir: string,
  settings: S3Settings,
  log: (line: string) => void = () => {},
  client: S3Client = s3Client(settings),
): Promise<MigrateReport> {
  const local = localStorage(dir);
  const bucket = s3Storage(settings, client);
  const report: MigrateReport = { copied: 0, skipped: 0, failed: [] };

  const ours = await local.readMarker();
  const theirs = await bucket.readMarker();
  if (ours && theirs && ours.databaseId !== theirs.databaseId) {
    throw new Error(
      `${bucket.description} belongs to database ${theirs.databaseId}, the folder ${dir} to database ${ours.databaseId}: copy into an empty bucket or the bucket of the same database`,
    );
  }

  for await (const { sha256, file } of localFiles(dir)) {
    try {
      const size = (await stat(file)).size;
      const there = await client
        .send(new HeadObjectCommand({ Bucket: settings.bucket, Key: contentPath(sha256) }))
        .catch(() => null);
      if (
        there?.ContentLength === size &&
        (there.Metadata?.sha256 === sha256 || (await sha256Of(await bucket.stream(sha256))) === sha256)
      ) {
        report.skipped++;
        continue;
      }
      const put = await bucket.put(createReadStream(file), Number.MAX_SAFE_INTEGER);
      if (put.sha256 !== sha256)
        throw new Error(`its bytes hash to ${put.sha256}: the local file is damaged (not copied under its name)`);
      const back = await sha256Of(await bucket.stream(sha256));
      if (back !== sha256) throw new Error(`read back from the bucket, its bytes hash to ${back}`);
      report.copied++;
      if ((report.copied + report.skipped) % 500 === 0)
        log(`… ${report.copied} copied, ${report.skipped} already there`);
    } catch (e) {
      const reason = e instanceof Error ? e.message : String(e);
      report.failed.push({ file, reason });
      log(`FAILED ${file}: ${reason}`);
    }
  }
  if (ours && !theirs && !report.failed.length) await bucket.writeMarker(ours);
  return report;
}
