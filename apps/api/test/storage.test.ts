/**
 * The file store's one contract, run against both drivers: the local folder and an S3 bucket on a
 * real S3-protocol server (s3rver, started here on 127.0.0.1). What a caller sees — the bytes back,
 * a 413 or a 404 — and what the store holds afterwards (listed the store's own way: the folder's
 * files, the bucket's keys), never more than whole files under their sha256.
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ListObjectsV2Command, PutObjectCommand } from '@aws-sdk/client-s3';
import pg from 'pg';
import { localStorage, MARKER, type Storage } from '../src/lib/storage.ts';
import { s3Client } from '../src/lib/storage/s3.ts';
import { claimStore, databaseIdOf, StoreOfAnotherDatabaseError } from '../src/lib/storage/identity.ts';
import { sweepStorage, STORAGE_LITTER_AGE_MS, STORAGE_SWEEP_LOCK } from '../src/modules/maintenance/plugin.ts';
import { buildTestApp, testDatabaseUrl, type TestApp } from './helpers.ts';
import { createFileVersion, createMaterial, createProductLine } from './factories.ts';
import { startS3Server, type TestS3Server } from './s3-server.ts';

const DAY = 86_400_000;
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');
const at = (key: string) => `${key.slice(0, 2)}/${key.slice(2, 4)}/${key}`;

interface Store {
  storage: Storage;
  /** Every key the store holds (folder paths or object keys), sorted. */
  keys(): Promise<string[]>;
  /** Puts bytes under a raw key, past the contract (what a crash or another program leaves). */
  writeRaw(key: string, bytes: string): Promise<void>;
  /** Makes the store unusable (the folder replaced by a file; the S3 server stopped). */
  breakIt(): Promise<void>;
  remove(): Promise<void>;
}

let s3: TestS3Server;
let buckets = 0;

const drivers: { name: string; make(): Promise<Store> }[] = [
  {
    name: 'local folder',
    async make() {
      const parent = await mkdtemp(path.join(tmpdir(), 'esm-store-'));
      const dir = path.join(parent, 'files');
      await mkdir(dir);
      const walk = async (d: string, prefix = ''): Promise<string[]> => {
        const out: string[] = [];
        for (const e of await readdir(d, { withFileTypes: true }).catch(() => [])) {
          if (e.isDirectory()) out.push(...(await walk(path.join(d, e.name), `${prefix}${e.name}/`)));
          else out.push(prefix + e.name);
        }
        return out;
      };
      return {
        storage: localStorage(dir),
        keys: async () => (await walk(dir)).sort(),
        async writeRaw(key, bytes) {
          await mkdir(path.dirname(path.join(dir, key)), { recursive: true });
          await writeFile(path.join(dir, key), bytes);
        },
        async breakIt() {
          // root may write anywhere, so the folder is not made read-only: it stops being a folder
          await rm(dir, { recursive: true, force: true });
          await writeFile(dir, 'not a folder');
        },
        remove: () => rm(parent, { recursive: true, force: true }),
      };
    },
  },
  {
    name: 'S3 (s3rver)',
    async make() {
      const settings = await s3.newBucket(`store-${++buckets}-${randomUUID().slice(0, 8)}`);
      const client = s3Client(settings);
      const { s3Storage } = await import('../src/lib/storage/s3.ts');
      return {
        storage: s3Storage(settings),
        async keys() {
          const page = await client.send(new ListObjectsV2Command({ Bucket: settings.bucket }));
          return (page.Contents ?? []).map((o) => o.Key!).sort();
        },
        async writeRaw(key, bytes) {
          await client.send(new PutObjectCommand({ Bucket: settings.bucket, Key: key, Body: bytes }));
        },
        async breakIt() {
          await s3.stop();
        },
        async remove() {
          client.destroy();
        },
      };
    },
  },
];

/** A source that sends `size` random bytes in 64 KiB chunks. */
function randomSource(size: number) {
  const bytes = randomBytes(size);
  return {
    bytes,
    source: Readable.from(
      (function* () {
        for (let i = 0; i < size; i += 65_536) yield bytes.subarray(i, i + 65_536);
      })(),
    ),
  };
}

beforeAll(async () => {
  s3 = await startS3Server();
});
afterAll(async () => {
  await s3.remove();
});

describe.each(drivers)('the file store contract: $name', (driver) => {
  let store: Store;
  beforeAll(async () => {
    store = await driver.make();
  });
  afterAll(async () => {
    await store.remove();
  });

  it('keeps bytes under their sha256 and gives them back, read whole or streamed', async () => {
    const bytes = Buffer.from('一张图纸的字节 ' + randomUUID());
    const put = await store.storage.put(Readable.from([bytes]), 1 << 20);
    expect(put).toEqual({ sha256: sha(bytes), size: bytes.length });
    expect(await store.storage.read(put.sha256)).toEqual(bytes);
    expect(await text(await store.storage.stream(put.sha256))).toBe(bytes.toString());
    expect(await store.storage.exists(put.sha256)).toBe(true);
    expect(await store.storage.size(put.sha256)).toBe(bytes.length);
    // the same bytes again: the same key, one copy
    expect(await store.storage.put(Readable.from([bytes]), 1 << 20)).toEqual(put);
    expect((await store.keys()).filter((k) => k.endsWith(put.sha256))).toEqual([at(put.sha256)]);
  });

  it('streams a file of several parts through (a multipart upload in S3) with its sha256', async () => {
    const { bytes, source } = randomSource(11 * 1024 * 1024 + 123);
    const put = await store.storage.put(source, 50 << 20);
    expect(put).toEqual({ sha256: sha(bytes), size: bytes.length });
    expect(sha(await store.storage.read(put.sha256))).toBe(put.sha256);
  });

  it('refuses a file past the limit with 413 and keeps nothing of it', async () => {
    const before = await store.keys();
    const { source } = randomSource(6 * 1024 * 1024);
    await expect(store.storage.put(source, 5 * 1024 * 1024)).rejects.toMatchObject({
      statusCode: 413,
      message: '文件过大：上限为 5 MB',
    });
    expect(await store.keys()).toEqual(before);
  });

  it('keeps nothing of an upload whose source fails half-way (a client gone)', async () => {
    const before = await store.keys();
    // past one S3 part: the multipart upload has begun when the source fails
    const chunk = randomBytes(1024 * 1024);
    const source = new Readable({ read() {} });
    for (let i = 0; i < 7; i++) source.push(chunk);
    const put = store.storage.put(source, 50 << 20);
    setImmediate(() => source.destroy(new Error('client went away')));
    await expect(put).rejects.toThrow();
    expect(await store.keys()).toEqual(before);
  });

  it('answers 404 for a malformed or unknown key', async () => {
    for (const key of ['../../etc/passwd', 'ABC', `${'0'.repeat(63)}g`]) {
      await expect(store.storage.read(key)).rejects.toMatchObject({ statusCode: 404, message: '文件标识无效' });
      await expect(store.storage.stream(key)).rejects.toMatchObject({ statusCode: 404 });
    }
    const unknown = sha(Buffer.from(randomUUID()));
    await expect(store.storage.read(unknown)).rejects.toMatchObject({
      statusCode: 404,
      message: '文件不存在或已被移除，请联系管理员',
    });
    await expect(store.storage.stream(unknown)).rejects.toMatchObject({ statusCode: 404 });
    expect(await store.storage.exists(unknown)).toBe(false);
    expect(await store.storage.size(unknown)).toBe(null);
  });

  it('sweeps without deleting: unreferenced old files go to quarantine, come back when referenced, go only after the retention', async () => {
    const referenced = await store.storage.put(Readable.from([Buffer.from(`referenced ${randomUUID()}`)]), 1 << 20);
    const orphan = await store.storage.put(Readable.from([Buffer.from(`orphan ${randomUUID()}`)]), 1 << 20);
    await store.writeRaw(`tmp/${randomUUID()}`, 'half an upload');
    // every other file of this store (the tests above) counts as referenced
    const unreferenced = new Set([orphan.sha256]);
    const sweep = (now: number) =>
      store.storage.sweep({
        olderThanMs: STORAGE_LITTER_AGE_MS,
        quarantineMs: 30 * DAY,
        isReferenced: async (k) => !unreferenced.has(k),
        now,
      });
    const quarantined = (k: string) => store.keys().then((keys) => keys.includes(`quarantine/${k}`));

    // nothing is old enough yet
    expect(await sweep(Date.now())).toEqual({ moved: 0, restored: 0, purged: 0, temporary: 0 });
    // a day later: the orphan moves, the temporary file goes, the referenced one stays
    const dayLater = Date.now() + STORAGE_LITTER_AGE_MS + 60_000;
    expect(await sweep(dayLater)).toEqual({ moved: 1, restored: 0, purged: 0, temporary: 1 });
    expect(await quarantined(orphan.sha256)).toBe(true);
    expect(await store.storage.size(orphan.sha256)).toBe(null);
    expect(await store.storage.read(referenced.sha256)).toBeInstanceOf(Buffer);
    expect((await store.keys()).filter((k) => k.startsWith('tmp/'))).toEqual([]);
    // still readable from quarantine meanwhile (a row committed while the sweep looked)
    expect(sha(await store.storage.read(orphan.sha256))).toBe(orphan.sha256);

    // a row names it again: put back
    unreferenced.delete(orphan.sha256);
    expect(await sweep(dayLater)).toMatchObject({ moved: 0, restored: 1, purged: 0 });
    expect(await quarantined(orphan.sha256)).toBe(false);
    expect(await store.storage.size(orphan.sha256)).toBeGreaterThan(0);

    // unreferenced again: quarantined, kept through the retention period, removed after it
    unreferenced.add(orphan.sha256);
    expect(await sweep(dayLater + 2 * DAY)).toMatchObject({ moved: 1 });
    const movedAt = Date.now();
    expect(await sweep(movedAt + 29 * DAY)).toMatchObject({ purged: 0 });
    expect(await quarantined(orphan.sha256)).toBe(true);
    expect(await sweep(movedAt + 31 * DAY)).toMatchObject({ purged: 1 });
    expect(await quarantined(orphan.sha256)).toBe(false);
    expect(await store.storage.exists(orphan.sha256)).toBe(false);
    expect(await store.storage.exists(referenced.sha256)).toBe(true);
  });

  it('keeps a marker, and probes', async () => {
    const marker = { databaseId: randomUUID(), writtenAt: new Date().toISOString(), host: 'test-host' };
    await store.storage.writeMarker(marker);
    expect(await store.storage.readMarker()).toEqual(marker);
    expect(await store.keys()).toContain(MARKER);
    await store.storage.probe();
    expect((await store.keys()).filter((k) => k.startsWith('tmp/'))).toEqual([]);
  });
});

describe.each(drivers)('a store belongs to one database: $name', (driver) => {
  let store: Store;
  let client: pg.Client;
  beforeAll(async () => {
    store = await driver.make();
    client = new pg.Client({ connectionString: testDatabaseUrl() });
    await client.connect();
  });
  afterAll(async () => {
    await client.end();
    await store.remove();
  });
  const sql = {
    $queryRawUnsafe: async <T>(q: string, ...v: unknown[]) => (await client.query(q, v)).rows as T,
    $executeRawUnsafe: async (q: string, ...v: unknown[]) => (await client.query(q, v)).rowCount ?? 0,
  };

  it('the first start marks the store; a start on another database refuses, naming both, unless STORAGE_ADOPT', async () => {
    const ours = await databaseIdOf(sql);
    expect(await databaseIdOf(sql)).toBe(ours); // made once
    expect(await store.storage.readMarker()).toBe(null); // a store of an earlier version: no marker yet

    expect(await claimStore(sql, store.storage, { adopt: false, host: 'api-1' })).toMatchObject({
      databaseId: ours,
      marker: 'written',
    });
    expect(await store.storage.readMarker()).toMatchObject({ databaseId: ours, host: 'api-1' });
    expect(await claimStore(sql, store.storage, { adopt: false, host: 'api-2' })).toMatchObject({ marker: 'kept' });

    // the store now names another database (what a restored copy pointed at production's store sees)
    const theirs = randomUUID();
    await store.storage.writeMarker({ databaseId: theirs, writtenAt: '2026-01-02T03:04:05.000Z', host: 'prod-1' });
    const refused = claimStore(sql, store.storage, { adopt: false });
    await expect(refused).rejects.toBeInstanceOf(StoreOfAnotherDatabaseError);
    await expect(refused).rejects.toThrow(
      new RegExp(`belongs to database ${theirs}.*prod-1.*this database is ${ours}.*STORAGE_ADOPT=true`),
    );
    expect((await store.storage.readMarker())?.databaseId).toBe(theirs); // untouched

    expect(await claimStore(sql, store.storage, { adopt: true, host: 'api-1' })).toMatchObject({
      marker: 'adopted',
      previous: { databaseId: theirs },
    });
    expect(await store.storage.readMarker()).toMatchObject({ databaseId: ours, adoptedFrom: theirs, host: 'api-1' });
  });
});

describe.each(drivers)('the maintenance sweep over the database: $name', (driver) => {
  let store: Store;
  let t: TestApp;
  let materialCode: string;
  beforeAll(async () => {
    store = await driver.make();
    t = await buildTestApp({ storage: store.storage });
    materialCode = (await createMaterial(t.db.prisma, (await createProductLine(t.db.prisma)).code)).code;
  });
  afterAll(async () => {
    await t.close();
    await store.remove();
  });

  it('a file only another database references is quarantined, not deleted, and restored once a row here names it', async () => {
    const bytes = Buffer.from(`drawing of another database ${randomUUID()}`);
    const put = await store.storage.put(Readable.from([bytes]), 1 << 20);
    const mine = await createFileVersion(t.db.prisma, store.storage, {
      materialCode,
      type: 'pdf',
      bytes: Buffer.from(`mine ${randomUUID()}`),
    });
    const later = Date.now() + STORAGE_LITTER_AGE_MS + 60_000;
    const opts = { quarantineDays: 30, lock: true, now: later };

    expect(await sweepStorage(t.db.prisma, store.storage, opts)).toMatchObject({ moved: 1, restored: 0, purged: 0 });
    expect(await store.keys()).toContain(`quarantine/${put.sha256}`);
    expect(await store.storage.size(mine.sha256)).toBeGreaterThan(0);

    // the row arrives here (the operator restores it, or the same drawing is uploaded again)
    await createFileVersion(t.db.prisma, store.storage, { materialCode, type: 'pdf', bytes, skipStorage: true });
    expect(await sweepStorage(t.db.prisma, store.storage, opts)).toMatchObject({ moved: 0, restored: 1, purged: 0 });
    expect(await store.storage.read(put.sha256)).toEqual(bytes);
    expect(await store.keys()).not.toContain(`quarantine/${put.sha256}`);
  });

  it('one replica sweeps at a time: with the advisory lock held elsewhere the sweep stands aside', async () => {
    const other = new pg.Client({ connectionString: testDatabaseUrl() });
    await other.connect();
    try {
      await other.query(`SELECT pg_advisory_lock(${STORAGE_SWEEP_LOCK})`);
      expect(await sweepStorage(t.db.prisma, store.storage, { quarantineDays: 30, lock: true })).toBe(null);
      await other.query(`SELECT pg_advisory_unlock(${STORAGE_SWEEP_LOCK})`);
      expect(await sweepStorage(t.db.prisma, store.storage, { quarantineDays: 30, lock: true })).toEqual({
        moved: 0,
        restored: 0,
        purged: 0,
        temporary: 0,
      });
    } finally {
      await other.end();
    }
  });
});

describe.each(drivers)('health: $name', (driver) => {
  it('ready is 503 naming the storage when the store cannot take a write; live still 200', async () => {
    const store = await driver.make();
    const t = await buildTestApp({ storage: store.storage });
    try {
      const ok = await t.app.inject({ method: 'GET', url: '/esm-server/health/ready' });
      expect(ok.statusCode, ok.body).toBe(200);
      expect(ok.json()).toEqual({ status: 'ok', database: 'postgres', storage: 'ok' });
      await store.breakIt();
      // a new app: the probe's few seconds of cache do not hide the breakage
      const t2 = await buildTestApp({ storage: store.storage, db: t.db });
      try {
        for (const url of ['/esm-server/health/ready', '/esm-server/health']) {
          const res = await t2.app.inject({ method: 'GET', url });
          expect(res.statusCode).toBe(503);
          expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
          expect(res.json()).toEqual({
            status: 'unavailable',
            database: 'postgres',
            storage: 'unavailable',
            failed: ['storage'],
          });
        }
        const live = await t2.app.inject({ method: 'GET', url: '/esm-server/health/live' });
        expect(live.statusCode).toBe(200);
        expect(live.json()).toEqual({ status: 'ok' });
      } finally {
        await t2.close();
      }
    } finally {
      await t.close();
      await store.remove();
    }
  });
});
