/**
 * `node dist/build-image.mjs [--force]`, run by scripts/build.mjs after bundling: writes the
 * embedded database's prepared cluster image to dist/db-image (db/image.ts, db/image-build.ts),
 * skipped when the image there was built from the same inputs (PGlite version, migrations,
 * reference data). Then the demo archive's drawings (db/demo-files.ts) to dist/demo-files, also
 * only when their inputs changed.
 */
import { IMAGE_DIR, readManifest } from './image.ts';
import { buildImage, referenceImageKey } from './image-build.ts';
import { readMigrations } from './migrations.ts';
import { DEMO_DRAWINGS } from './demo-archives.ts';
import { writeDemoFiles } from './demo-files.ts';

const started = performance.now();
const migrations = await readMigrations();
if (readManifest()?.key === referenceImageKey(migrations) && !process.argv.includes('--force')) {
  console.log('db image: up to date');
} else {
  const { bytes } = await buildImage(IMAGE_DIR, migrations);
  console.log(`db image: ${migrations.length} migrations, ${(bytes / 1e6).toFixed(1)} MB, in ${Math.round(performance.now() - started)} ms`);
}

const drawingStarted = performance.now();
const drew = await writeDemoFiles(DEMO_DRAWINGS, undefined, process.argv.includes('--force'));
console.log(drew ? `demo files: ${DEMO_DRAWINGS.length} drawings in ${Math.round(performance.now() - drawingStarted)} ms` : 'demo files: up to date');
