/**
 * The embedded database's prepared cluster image (src/db/image.ts): an empty data
 * directory starts from it; a migration newer than the image is applied on top, and the result
 * has exactly the schema that schema.prisma describes (the drift check, as in migrations.test.ts).
 * The demo image (the same cluster with the demo data seeded at build time, and its stored files)
 * gives a first start its demo data only on the day it was seeded, and only when intact.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PGlite } from '@electric-sql/pglite';
import { EMBEDDED_SHARED_BUFFERS, embeddedExtensions, lazyClient, openDatabase } from '../src/db/database.ts';
import { catalogDiff, readCatalog, type QueryRows } from '../src/db/drift.ts';
import { demoImageUnusable, readManifest, restoreDemoImage, restoreImage, untar } from '../src/db/image.ts';
import { buildDemoImage, buildImage } from '../src/db/image-build.ts';
import { cstDay } from '../src/lib/dates.ts';
import { localStorage } from '../src/lib/storage.ts';
import { MENU } from '../src/db/menu-data.ts';
import { readMigrations } from '../src/db/migrations.ts';
import { DEMO_USERS, seedDemo, seedReference } from '../src/db/seed.ts';
import { declaredSchemaSql } from '../src/db/schema-engine.ts';

const tmp = mkdtempSync(path.join(os.tmpdir(), 'esm-db-image-test-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('prepared cluster image', () => {
  const imageDir = path.join(tmp, 'image');
  let names: string[];

  beforeAll(async () => {
    const all = await readMigrations();
    names = all.map((m) => m.name);
    // an image one migration behind prisma/migrations, as after adding a migration without a build
    await buildImage(imageDir, all.slice(0, -1));
  }, 180_000);

  it('writes a tarball and a manifest naming its migrations', () => {
    const m = readManifest(imageDir);
    expect(m?.migrations).toEqual(names.slice(0, -1));
  });

  it('a first start unpacks it, applies the newer migration and has the schema schema.prisma describes', async () => {
    const dataDir = path.join(tmp, 'data');
    const pgdata = path.join(dataDir, 'pgdata');
    mkdirSync(pgdata, { recursive: true });
    expect(restoreImage(pgdata, imageDir)?.migrations).toEqual(names.slice(0, -1));
    expect(existsSync(path.join(pgdata, 'PG_VERSION'))).toBe(true);
    expect(restoreImage(pgdata, imageDir)).toBeNull(); // a cluster is there: never overwritten

    const db = await openDatabase({ dataDir, databaseUrl: undefined });
    try {
      expect(await db.migrate()).toEqual(names.slice(-1));
      expect(await db.migrate()).toEqual([]);
      expect(await db.sql.$queryRawUnsafe('SHOW shared_buffers')).toEqual([
        { shared_buffers: EMBEDDED_SHARED_BUFFERS },
      ]);
      expect(await db.prisma.menuEntry.count()).toBe(MENU.length); // the reference data came with it
      const rows: QueryRows = (sql) => db.prisma.$queryRawUnsafe<Record<string, unknown>[]>(sql);
      const restored = await readCatalog(rows);
      const b = await PGlite.create({ extensions: await embeddedExtensions() });
      try {
        await b.exec(await declaredSchemaSql());
        expect(
          catalogDiff(restored, await readCatalog(async (sql) => (await b.query<Record<string, unknown>>(sql)).rows)),
        ).toEqual([]);
      } finally {
        await b.close();
      }
    } finally {
      await db.close();
    }
  }, 180_000);

  it('a later start finds changed or missing reference data and writes it again (the one-statement check)', async () => {
    const db = await openDatabase({ dataDir: path.join(tmp, 'data'), databaseUrl: undefined });
    try {
      const menu = async () => ({
        entries: await db.prisma.menuEntry.findMany({ orderBy: { id: 'asc' } }),
        grants: await db.prisma.menuGrant.findMany({ orderBy: [{ userType: 'asc' }, { menuId: 'asc' }] }),
      });
      const before = await menu();
      await seedReference(db.prisma); // nothing to do: nothing changes
      expect(await menu()).toEqual(before);
      // an entry renamed, a grant gone and no agreement: as a newer build's reference data would find it
      const [first] = before.entries;
      await db.prisma.menuEntry.update({ where: { id: first!.id }, data: { cn: 'old name' } });
      await db.prisma.menuGrant.delete({
        where: { userType_menuId: { userType: before.grants[0]!.userType, menuId: before.grants[0]!.menuId } },
      });
      await db.prisma.keepsecretAgreement.deleteMany({});
      await seedReference(db.prisma);
      expect(await menu()).toEqual(before);
      expect(await db.prisma.keepsecretAgreement.count()).toBe(1);
    } finally {
      await db.close();
    }
  }, 180_000);

  it('is not used over a non-empty directory without a cluster, nor when the PGlite version differs', () => {
    const partial = path.join(tmp, 'partial');
    mkdirSync(partial, { recursive: true });
    writeFileSync(path.join(partial, 'leftover'), 'x');
    expect(restoreImage(partial, imageDir)).toBeNull();

    const other = path.join(tmp, 'other-image');
    mkdirSync(other);
    const m = readManifest(imageDir)!;
    writeFileSync(path.join(other, 'manifest.json'), JSON.stringify({ ...m, pglite: '0.0.0' }));
    writeFileSync(path.join(other, 'pgdata.tar.gz'), '');
    const empty = path.join(tmp, 'empty');
    mkdirSync(empty);
    expect(restoreImage(empty, other)).toBeNull();
  });

  it('a damaged image is not used and leaves the directory empty', () => {
    const bad = path.join(tmp, 'bad-image');
    mkdirSync(bad);
    writeFileSync(path.join(bad, 'manifest.json'), JSON.stringify(readManifest(imageDir)));
    writeFileSync(path.join(bad, 'pgdata.tar.gz'), 'not gzip');
    const empty = path.join(tmp, 'empty2');
    mkdirSync(empty);
    expect(restoreImage(empty, bad)).toBeNull();
    expect(readdirSync(empty)).toEqual([]);
  });

  it('untar refuses names that leave the target directory', () => {
    const header = Buffer.alloc(1024);
    header.write('../evil', 0);
    header.write('00000000000', 124);
    header.write('0', 156);
    expect(() => untar(header, path.join(tmp, 'x'))).toThrow(/bad entry name/);
  });
});

describe('demo image', () => {
  const referenceDir = path.join(tmp, 'reference');
  const demoDir = path.join(tmp, 'demo');
  let seededAt: Date;
  let n = 0;
  /** A fresh data dir: its cluster folder (empty) and its file store. */
  const fresh = () => {
    const dataDir = path.join(tmp, `demo-data-${++n}`);
    mkdirSync(path.join(dataDir, 'pgdata'), { recursive: true });
    return { dataDir, pgdata: path.join(dataDir, 'pgdata'), files: path.join(dataDir, 'files') };
  };
  const stored = (dir: string) =>
    existsSync(dir) ? readdirSync(dir, { recursive: true }).filter((f) => /[0-9a-f]{64}$/.test(String(f))) : [];

  beforeAll(async () => {
    const all = await readMigrations();
    await buildImage(referenceDir, all);
    const { manifest } = await buildDemoImage(demoDir, referenceDir, 'test-key');
    seededAt = new Date(manifest.demo!.seededAt);
  }, 300_000);

  it('holds the demo seed, dated today (UTC+8), and every file its rows store, named by sha256', () => {
    const m = readManifest(demoDir)!;
    expect(m.key).toBe('test-key');
    expect(m.demo!.day).toBe(cstDay(seededAt));
    expect(m.demo!.files.length).toBeGreaterThan(10);
    for (const sha of m.demo!.files)
      expect(
        createHash('sha256')
          .update(readFileSync(path.join(demoDir, 'files', sha)))
          .digest('hex'),
      ).toBe(sha);
    expect(demoImageUnusable(m, new Date(seededAt.getTime() + 1000))).toBeNull();
  });

  it('a first start on the day of its seed has the demo data and its files, with nothing left to seed', async () => {
    const d = fresh();
    expect(restoreDemoImage(d.pgdata, d.files, new Date(seededAt.getTime() + 60_000), demoDir)?.demo?.seededAt).toBe(
      seededAt.toISOString(),
    );
    const db = await openDatabase({ dataDir: d.dataDir, databaseUrl: undefined });
    try {
      expect(await db.migrate()).toEqual([]);
      expect(await seedDemo(db.prisma, localStorage(d.files), db.sql)).toBe(false); // the users are there: no seed
      const accounts = (
        await db.prisma.user.findMany({
          where: { account: { in: DEMO_USERS.map((u) => u.account) } },
          select: { account: true },
        })
      ).map((u) => u.account);
      expect(accounts.sort()).toEqual(DEMO_USERS.map((u) => u.account).sort());
      // every stored file a row names is in the data dir's file store, with those bytes
      const rows = await db.prisma.$queryRawUnsafe<{ sha256: string }[]>(
        'SELECT sha256 FROM standard_file UNION SELECT sha256 FROM document_issue_attachment',
      );
      expect(rows.length).toBeGreaterThan(10);
      const storage = localStorage(d.files);
      for (const { sha256 } of rows)
        expect(
          createHash('sha256')
            .update(await storage.read(sha256))
            .digest('hex'),
        ).toBe(sha256);
      expect(stored(d.files).length).toBe(readManifest(demoDir)!.demo!.files.length);
      // the demo's relative dates are today's: grants run
      const [running] = await db.prisma.$queryRawUnsafe<{ n: number }[]>(
        'SELECT count(*)::int AS n FROM empower_grant WHERE valid_from <= now() AND valid_until > now()',
      );
      expect(running!.n).toBeGreaterThan(0);
    } finally {
      await db.close();
    }
  }, 120_000);

  it('is not used on a later day, before its seed, with another PGlite, nor over a cluster: nothing is written then', () => {
    const m = readManifest(demoDir)!;
    const nextDay = new Date(Date.parse(`${m.demo!.day}T00:00:00+08:00`) + 86_400_000);
    expect(demoImageUnusable(m, nextDay)).toMatch(/not today/);
    expect(demoImageUnusable(m, new Date(seededAt.getTime() - 60_000))).toMatch(/after now/);
    expect(demoImageUnusable({ ...m, pglite: '0.0.0' }, seededAt)).toMatch(/PGlite 0.0.0/);
    expect(demoImageUnusable(readManifest(referenceDir), seededAt)).toBe('no demo image');
    const d = fresh();
    expect(restoreDemoImage(d.pgdata, d.files, nextDay, demoDir)).toBeNull();
    expect(readdirSync(d.pgdata)).toEqual([]);
    expect(stored(d.files)).toEqual([]);
    // then the start takes the reference image and seeds (server.ts)
    expect(restoreImage(d.pgdata, referenceDir)).not.toBeNull();
    expect(restoreDemoImage(d.pgdata, d.files, seededAt, demoDir)).toBeNull(); // a cluster is there
  });

  it('a damaged stored file means no demo image: nothing unpacked, no file written', () => {
    const bad = path.join(tmp, 'demo-bad');
    mkdirSync(path.join(bad, 'files'), { recursive: true });
    const m = readManifest(demoDir)!;
    writeFileSync(path.join(bad, 'manifest.json'), JSON.stringify(m));
    writeFileSync(path.join(bad, 'pgdata.tar.gz'), readFileSync(path.join(demoDir, 'pgdata.tar.gz')));
    for (const [i, sha] of m.demo!.files.entries())
      writeFileSync(
        path.join(bad, 'files', sha),
        i === 3 ? 'tampered' : readFileSync(path.join(demoDir, 'files', sha)),
      );
    const d = fresh();
    expect(restoreDemoImage(d.pgdata, d.files, seededAt, bad)).toBeNull();
    expect(readdirSync(d.pgdata)).toEqual([]);
    expect(stored(d.files)).toEqual([]);
  });
});

describe('the Prisma client of a start (lazyClient)', () => {
  it('is made on its first use, not before, and once; methods and getters run on the real client', () => {
    class Client {
      #rows = [1, 2];
      made = Date.now();
      get count() {
        return this.#rows.length;
      }
      rows() {
        return this.#rows; // a private field: throws unless `this` is the real client
      }
    }
    let makes = 0;
    const lazy = lazyClient(() => (makes++, new Client()) as never) as unknown as Client;
    expect(makes).toBe(0);
    const { rows } = lazy; // detached, as `const { $queryRaw } = db` would be
    expect(makes).toBe(1);
    expect(rows()).toEqual([1, 2]);
    expect(lazy.count).toBe(2);
    expect(lazy.rows).toBe(rows); // the same bound method every time
    expect('rows' in lazy).toBe(true);
    lazy.made = 7;
    expect(lazy.made).toBe(7);
    expect(makes).toBe(1);
  });
});
