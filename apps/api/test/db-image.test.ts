/**
 * The embedded database's prepared cluster image (src/db/image.ts, issue 16): an empty data
 * directory starts from it; a migration newer than the image is applied on top, and the result
 * has exactly the schema that schema.prisma describes (the drift check, as in migrations.test.ts).
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PGlite } from '@electric-sql/pglite';
import { embeddedExtensions, openDatabase } from '../src/db/database.ts';
import { catalogDiff, readCatalog, type QueryRows } from '../src/db/drift.ts';
import { readManifest, restoreImage, untar } from '../src/db/image.ts';
import { buildImage } from '../src/db/image-build.ts';
import { MENU } from '../src/db/menu-data.ts';
import { readMigrations } from '../src/db/migrations.ts';
import { seedReference } from '../src/db/seed.ts';
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
      expect(await db.prisma.menuEntry.count()).toBe(MENU.length); // the reference data came with it
      const rows: QueryRows = (sql) => db.prisma.$queryRawUnsafe<Record<string, unknown>[]>(sql);
      const restored = await readCatalog(rows);
      const b = await PGlite.create({ extensions: await embeddedExtensions() });
      try {
        await b.exec(await declaredSchemaSql());
        expect(catalogDiff(restored, await readCatalog(async (sql) => (await b.query<Record<string, unknown>>(sql)).rows))).toEqual([]);
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
      await db.prisma.menuGrant.delete({ where: { userType_menuId: { userType: before.grants[0]!.userType, menuId: before.grants[0]!.menuId } } });
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
