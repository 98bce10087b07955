/**
 * `pnpm storage:migrate`: a local file store copied into a bucket on a real S3 server (s3rver),
 * each object checked, idempotent, a damaged local file named and the exit non-zero.
 */
import { execFile } from 'node:child_process';
import { createHash, randomUUID } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localStorage } from '../src/lib/storage.ts';
import { migrateToBucket } from '../src/lib/storage/migrate.ts';
import { s3Storage } from '../src/lib/storage/s3.ts';
import { startS3Server, type TestS3Server } from './s3-server.ts';

const apiDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const sha = (b: Buffer | string) => createHash('sha256').update(b).digest('hex');

let s3: TestS3Server;
let dir: string;
beforeAll(async () => {
  s3 = await startS3Server();
  dir = await mkdtemp(path.join(tmpdir(), 'esm-migrate-'));
});
afterAll(async () => {
  await s3.remove();
  await rm(dir, { recursive: true, force: true });
});

describe('storage:migrate', () => {
  it('copies every stored and quarantined file with its marker, checks each, and skips them on a second run', async () => {
    const local = localStorage(dir);
    const a = await local.put(Readable.from([Buffer.from(`图纸 A ${randomUUID()}`)]), 1 << 20);
    const b = await local.put(Readable.from([Buffer.alloc(6 * 1024 * 1024, 7)]), 50 << 20);
    const q = Buffer.from(`quarantined ${randomUUID()}`);
    await mkdir(path.join(dir, 'quarantine'), { recursive: true });
    await writeFile(path.join(dir, 'quarantine', sha(q)), q);
    const marker = { databaseId: randomUUID(), writtenAt: new Date().toISOString(), host: 'old-host' };
    await local.writeMarker(marker);

    const settings = await s3.newBucket(`migrate-${randomUUID().slice(0, 8)}`);
    expect(await migrateToBucket(dir, settings)).toEqual({ copied: 3, skipped: 0, failed: [] });
    const bucket = s3Storage(settings);
    expect(await bucket.read(a.sha256)).toEqual(await local.read(a.sha256));
    expect(sha(await bucket.read(b.sha256))).toBe(b.sha256);
    expect(await bucket.read(sha(q))).toEqual(q);
    expect(await bucket.readMarker()).toEqual(marker);

    expect(await migrateToBucket(dir, settings)).toEqual({ copied: 0, skipped: 3, failed: [] });
  });

  it('as the command: a damaged local file is named, not copied, and the exit is non-zero', async () => {
    const broken = path.join(await mkdtemp(path.join(tmpdir(), 'esm-migrate-bad-')), 'files');
    const good = await localStorage(broken).put(Readable.from([Buffer.from(`good ${randomUUID()}`)]), 1 << 20);
    const name = sha(`what the bytes were ${randomUUID()}`);
    await mkdir(path.join(broken, name.slice(0, 2), name.slice(2, 4)), { recursive: true });
    await writeFile(path.join(broken, name.slice(0, 2), name.slice(2, 4), name), 'bit rot');
    const settings = await s3.newBucket(`migrate-${randomUUID().slice(0, 8)}`);
    const env = {
      ...process.env,
      ...s3.env,
      S3_BUCKET: settings.bucket,
      STORAGE_DIR: broken,
      DATABASE_URL: 'postgres://unused',
      SESSION_SECRET: 'x'.repeat(32),
    };
    const run = promisify(execFile)(process.execPath, ['--import', 'tsx', 'src/lib/storage/cli.ts', 'migrate'], {
      cwd: apiDir,
      env,
    });
    const failed = await run.then(
      () => null,
      (e: { code: number; stdout: string; stderr: string }) => e,
    );
    expect(failed?.code).toBe(1);
    expect(failed?.stdout).toContain('copied 1, already there 0, failed 1');
    expect(failed?.stderr).toContain(
      `not copied: ${path.join(broken, name.slice(0, 2), name.slice(2, 4), name)}: its bytes hash to ${sha('bit rot')}`,
    );
    expect(await s3Storage(settings).exists(good.sha256)).toBe(true);
    expect(await s3Storage(settings).exists(name)).toBe(false);
  });
});
