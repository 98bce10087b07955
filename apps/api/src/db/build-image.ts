/**
 * Writes the embedded database's prepared cluster image (db/image.ts) to dist/db-image: a PGlite
 * cluster in memory, every migration applied, the reference data seeded, dumped with
 * `dumpDataDir('gzip')`. Run by scripts/build.mjs after bundling; skipped when the image on disk
 * was built from the same inputs (PGlite version, migrations, menu, agreement).
 */
import { PGlite } from '@electric-sql/pglite';
import { PrismaPGlite } from 'pglite-prisma-adapter';
import type { SqlMigrationAwareDriverAdapterFactory } from '@prisma/driver-adapter-utils';
import { PrismaClient } from '../generated/prisma/client.ts';
import { embeddedExtensions } from './database.ts';
import { IMAGE_DIR, IMAGE_FORMAT, imageKey, pgliteVersion, readManifest, writeImage } from './image.ts';
import { applyMigrations, readMigrations } from './migrations.ts';
import { MENU } from './menu-data.ts';
import { AGREEMENT_V1_CONTENT, AGREEMENT_V1_TITLE } from './seed-agreement.ts';
import { seedReference } from './seed.ts';

const started = performance.now();
const migrations = await readMigrations();
const key = imageKey(migrations, { MENU, AGREEMENT_V1_TITLE, AGREEMENT_V1_CONTENT });
if (readManifest()?.key === key && !process.argv.includes('--force')) {
  console.log('db image: up to date');
} else {
  const pglite = await PGlite.create('memory://', { extensions: await embeddedExtensions() });
  const prisma = new PrismaClient({ adapter: new PrismaPGlite(pglite) as unknown as SqlMigrationAwareDriverAdapterFactory as never });
  await applyMigrations(prisma as never, migrations);
  await seedReference(prisma);
  await prisma.$disconnect();
  await pglite.exec('CHECKPOINT');
  const tarball = new Uint8Array(await (await pglite.dumpDataDir('gzip')).arrayBuffer());
  await pglite.close();
  writeImage(IMAGE_DIR, tarball, { format: IMAGE_FORMAT, pglite: pgliteVersion(), key, migrations: migrations.map((m) => m.name), builtAt: new Date().toISOString() });
  console.log(`db image: ${migrations.length} migrations, ${(tarball.length / 1e6).toFixed(1)} MB, in ${Math.round(performance.now() - started)} ms`);
}
