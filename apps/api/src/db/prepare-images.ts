/**
 * `node dist/prepare-images.mjs [--force]`, run by scripts/build.mjs after bundling: writes the
 * embedded database's prepared cluster image to dist/db-image (db/image.ts, db/image-build.ts),
 * skipped when the image there was built from the same inputs (PGlite version, migrations,
 * reference data). Then the demo archive's drawings (db/demo-files.ts) to dist/demo-files, also
 * only when their inputs changed. Last the demo image (db/image.ts, `restoreDemoImage`): the
 * reference image with the demo data seeded, rebuilt when the bundle (the seed's code), the
 * reference image or the drawings changed, or when it was seeded on an earlier day than today —
 * a start uses it only on the day of its seed — and only when the start this build is for (its
 * environment: DATA_DIR, DATABASE_URL, SEED_DEMO, DEMO_IMAGE) could use it.
 */
import { createHash } from 'node:crypto';
import { readFileSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { cstDay } from '../lib/dates.ts';
import { dataDirOf, demoImageOf, pgdataOf } from '../paths.ts';
import { DEMO_IMAGE_DIR, IMAGE_DIR, demoImageUnusable, hasCluster, readManifest } from './image.ts';
import { buildDemoImage, buildImage, referenceImageKey } from './image-build.ts';
import { readMigrations } from './migrations.ts';
import { DEMO_DRAWINGS } from '../modules/archives/demo.ts';
import { DEMO_FILES_DIR, writeDemoFiles } from './demo-files.ts';

const started = performance.now();
const migrations = await readMigrations();
if (readManifest()?.key === referenceImageKey(migrations) && !process.argv.includes('--force')) {
  console.log('db image: up to date');
} else {
  const { bytes } = await buildImage(IMAGE_DIR, migrations);
  console.log(
    `db image: ${migrations.length} migrations, ${(bytes / 1e6).toFixed(1)} MB, in ${Math.round(performance.now() - started)} ms`,
  );
}

const drawingStarted = performance.now();
const drew = await writeDemoFiles(DEMO_DRAWINGS, undefined, process.argv.includes('--force'));
console.log(
  drew
    ? `demo files: ${DEMO_DRAWINGS.length} drawings in ${Math.round(performance.now() - drawingStarted)} ms`
    : 'demo files: up to date',
);

// The demo image's inputs: the reference image it starts from, the drawings it stores, and the
// bundle it is built by (this file's folder: dist/, whose .mjs files hold the seed's code).
const demoStarted = performance.now();
const dist = path.dirname(fileURLToPath(import.meta.url));
const demoKey = createHash('sha256')
  .update(readManifest()?.key ?? '')
  .update(readFileSync(path.join(DEMO_FILES_DIR, 'manifest.json')))
  .update(
    readdirSync(dist)
      .filter((f) => f.endsWith('.mjs'))
      .sort()
      .map(
        (f) =>
          `${f}:${createHash('sha256')
            .update(readFileSync(path.join(dist, f)))
            .digest('hex')}`,
      )
      .join(','),
  )
  .digest('hex');
const demo = readManifest(DEMO_IMAGE_DIR);
// The build runs with the environment of the start that follows it (`pnpm start`): when that
// start cannot use a demo image — its DATA_DIR holds a cluster already (a usual restart), or it
// seeds no demo data — seeding one (~3-5 s) would only slow every day's first `pnpm start`.
const env = process.env;
const unused = !demoImageOf(env)
  ? 'no demo data on the next start (DATABASE_URL, SEED_DEMO or DEMO_IMAGE)'
  : hasCluster(pgdataOf(dataDirOf(env)))
    ? `DATA_DIR ${dataDirOf(env)} holds a cluster already`
    : null;
if (demo?.key === demoKey && demoImageUnusable(demo, new Date()) === null && !process.argv.includes('--force')) {
  console.log(`db demo image: up to date (seeded ${demo.demo?.seededAt})`);
} else if (unused && !process.argv.includes('--force')) {
  // one from another bundle must not give a later first start another seed's data
  if (demo && demo.key !== demoKey) rmSync(DEMO_IMAGE_DIR, { recursive: true, force: true });
  console.log(`db demo image: not built (${unused})`);
} else {
  const { manifest, bytes } = await buildDemoImage(DEMO_IMAGE_DIR, IMAGE_DIR, demoKey);
  console.log(
    `db demo image: seeded ${cstDay(new Date(manifest.demo!.seededAt))}, ${manifest.demo!.files.length} files, ${(bytes / 1e6).toFixed(1)} MB, in ${Math.round(performance.now() - demoStarted)} ms`,
  );
}
