/**
 * Builds the embedded database's prepared cluster images (db/image.ts): a PGlite cluster in
 * memory, the given migrations applied as a start would apply them, the reference data seeded,
 * dumped with PGlite's `dumpDataDir('gzip')`; and the demo image, that cluster with the demo
 * seed run on it. Used by the build (db/prepare-images.ts) and tests.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { PrismaPGlite } from 'pglite-prisma-adapter';
import type { SqlMigrationAwareDriverAdapterFactory } from '@prisma/driver-adapter-utils';
import { PrismaClient } from '../generated/prisma/client.ts';
import { embeddedExtensions } from './database.ts';
import { IMAGE_FORMAT, imageKey, pgliteVersion, readManifest, writeImage, type ImageManifest } from './image.ts';
import { storedKeys } from './backup.ts';
import { applyMigrations, type Migration } from './migrations.ts';
import { MENU } from './menu-data.ts';
import { AGREEMENT_V1_CONTENT, AGREEMENT_V1_TITLE } from './seed-agreement.ts';
import { seedDemo, seedReference } from './seed.ts';
import { cstDay } from '../lib/dates.ts';
import { localStorage } from '../lib/storage.ts';

/** What the image holds besides the migrations: a change to it means a new image. */
export const REFERENCE_DATA = { MENU, AGREEMENT_V1_TITLE, AGREEMENT_V1_CONTENT };

export const referenceImageKey = (migrations: Migration[]) => imageKey(migrations, REFERENCE_DATA);

/**
 * Everything on disk, and the WAL down to what a start needs: the migrations and the seed leave
 * ~11 MB of records in the first 16 MB segment, which the dump would carry and every first start
 * would write out. A checkpoint after switching to a new segment, with recycling off, removes the
 * old one; the new segment holds only the checkpoint record (the rest zeros, not written when
 * unpacked: db/image.ts `untar`).
 */
async function settle(pglite: PGlite): Promise<void> {
  await pglite.exec('SET wal_recycle = off; SELECT pg_switch_wal(); CHECKPOINT;');
}

export async function buildImage(
  dir: string,
  migrations: Migration[],
): Promise<{ manifest: ImageManifest; bytes: number }> {
  const pglite = await PGlite.create('memory://', { extensions: await embeddedExtensions() });
  try {
    const prisma = new PrismaClient({
      adapter: new PrismaPGlite(pglite) as unknown as SqlMigrationAwareDriverAdapterFactory as never,
    });
    await applyMigrations(prisma as never, migrations);
    await seedReference(prisma);
    await prisma.$disconnect();
    await settle(pglite);
    const tarball = new Uint8Array(await (await pglite.dumpDataDir('gzip')).arrayBuffer());
    const manifest: ImageManifest = {
      format: IMAGE_FORMAT,
      pglite: pgliteVersion(),
      key: referenceImageKey(migrations),
      migrations: migrations.map((m) => m.name),
      builtAt: new Date().toISOString(),
    };
    writeImage(dir, tarball, manifest);
    return { manifest, bytes: tarball.length };
  } finally {
    await pglite.close();
  }
}

/**
 * The demo image: the reference image in `referenceDir` loaded into memory, the demo seed run on
 * it as a first start would run it (its drawings from dist/demo-files when the build drew them),
 * dumped beside the files it stored. `key` names its inputs (db/prepare-images.ts). A seed that
 * crossed midnight (UTC+8) is run again on a fresh copy: every row of the image is dated from
 * one day.
 */
export async function buildDemoImage(
  dir: string,
  referenceDir: string,
  key: string,
): Promise<{ manifest: ImageManifest; bytes: number }> {
  const reference = readManifest(referenceDir);
  if (!reference) throw new Error(`no reference image in ${referenceDir}`);
  const tarball = readFileSync(path.join(referenceDir, 'pgdata.tar.gz'));
  for (;;) {
    const pglite = await PGlite.create('memory://', {
      extensions: await embeddedExtensions(),
      loadDataDir: new Blob([tarball]),
    });
    const storageDir = mkdtempSync(path.join(os.tmpdir(), 'esm-demo-image-'));
    try {
      const prisma = new PrismaClient({
        adapter: new PrismaPGlite(pglite) as unknown as SqlMigrationAwareDriverAdapterFactory as never,
      });
      const started = new Date();
      const storage = localStorage(storageDir);
      await seedDemo(prisma, storage);
      const seededAt = new Date();
      await prisma.$disconnect();
      if (cstDay(started) !== cstDay(seededAt)) continue;
      await settle(pglite);
      const dump = new Uint8Array(await (await pglite.dumpDataDir('gzip')).arrayBuffer());
      const files = new Map(
        await Promise.all((await storedKeys(storageDir)).map(async (sha) => [sha, await storage.read(sha)] as const)),
      );
      const manifest: ImageManifest = {
        ...reference,
        key,
        builtAt: seededAt.toISOString(),
        demo: { seededAt: seededAt.toISOString(), day: cstDay(seededAt), files: [...files.keys()].sort() },
      };
      writeImage(dir, dump, manifest, files);
      return { manifest, bytes: dump.length };
    } finally {
      await pglite.close();
      rmSync(storageDir, { recursive: true, force: true });
    }
  }
}
