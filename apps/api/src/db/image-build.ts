/**
 * Builds the embedded database's prepared cluster image (db/image.ts): a PGlite cluster in
 * memory, the given migrations applied as a start would apply them, the reference data seeded,
 * dumped with PGlite's `dumpDataDir('gzip')`. Used by the build (db/build-image.ts) and tests.
 */
import { PGlite } from '@electric-sql/pglite';
import { PrismaPGlite } from 'pglite-prisma-adapter';
import type { SqlMigrationAwareDriverAdapterFactory } from '@prisma/driver-adapter-utils';
import { PrismaClient } from '../generated/prisma/client.ts';
import { embeddedExtensions } from './database.ts';
import { IMAGE_FORMAT, imageKey, pgliteVersion, writeImage, type ImageManifest } from './image.ts';
import { applyMigrations, type Migration } from './migrations.ts';
import { MENU } from './menu-data.ts';
import { AGREEMENT_V1_CONTENT, AGREEMENT_V1_TITLE } from './seed-agreement.ts';
import { seedReference } from './seed.ts';

/** What the image holds besides the migrations: a change to it means a new image. */
export const REFERENCE_DATA = { MENU, AGREEMENT_V1_TITLE, AGREEMENT_V1_CONTENT };

export const referenceImageKey = (migrations: Migration[]) => imageKey(migrations, REFERENCE_DATA);

export async function buildImage(dir: string, migrations: Migration[]): Promise<{ manifest: ImageManifest; bytes: number }> {
  const pglite = await PGlite.create('memory://', { extensions: await embeddedExtensions() });
  try {
    const prisma = new PrismaClient({ adapter: new PrismaPGlite(pglite) as unknown as SqlMigrationAwareDriverAdapterFactory as never });
    await applyMigrations(prisma as never, migrations);
    await seedReference(prisma);
    await prisma.$disconnect();
    await pglite.exec('CHECKPOINT');
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
