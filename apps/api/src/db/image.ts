/**
 * The prepared cluster image of the embedded database: at build time
 * (scripts/build.mjs → dist/build-db-image.mjs) a PGlite cluster is created in memory, every
 * migration is applied and the reference data (menu, first agreement) written, and the cluster is
 * dumped with PGlite's own `dumpDataDir` to dist/db-image/pgdata.tar.gz beside a manifest. A
 * first start on an empty data directory unpacks that tarball into DATA_DIR/pgdata instead of
 * running initdb and every migration (5.8 → ~2 s, docs/benchmarks.md); the usual migration
 * check then applies whatever the image lacks (an image older than prisma/migrations), and the
 * demo seed, which is dated relative to today, runs as before — unless the demo image
 * (dist/db-image-demo: the same cluster with the demo seed already run, and its stored files)
 * was seeded today, when a first start with the demo data unpacks that instead
 * (`restoreDemoImage`) and has nothing left to seed (~1–2 s less, docs/benchmarks.md).
 *
 * The image is used only when the manifest names the installed PGlite version (a data directory
 * is tied to the Postgres build that wrote it); otherwise — or with no image, e.g. when running
 * from source without a build — the server falls back to initdb and every migration.
 */
import { createHash, randomUUID } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  renameSync,
  rmSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { paths } from '../paths.ts';
import { cstDay } from '../lib/dates.ts';
import type { Migration } from './migrations.ts';

export const IMAGE_DIR = path.join(paths.root, 'apps/api/dist/db-image');
/** The demo image (below): the reference image with the demo data seeded, and the files it stores. */
export const DEMO_IMAGE_DIR = path.join(paths.root, 'apps/api/dist/db-image-demo');
const TARBALL = 'pgdata.tar.gz';
const MANIFEST = 'manifest.json';
/** The demo image's stored files, each named by its sha256 as in the file store (lib/storage.ts). */
const FILES = 'files';
const SHA256 = /^[0-9a-f]{64}$/;
/** Bump when the image's content changes in a way the inputs below do not show. */
export const IMAGE_FORMAT = 2;

export interface ImageManifest {
  format: number;
  pglite: string;
  /** sha256 over the inputs (PGlite version, migrations, reference data): equal key, equal image. */
  key: string;
  migrations: string[];
  builtAt: string;
  /**
   * The demo image only: when its demo data was seeded, that day in UTC+8 (the portal's days,
   * lib/dates.ts), and the sha256 of every stored file its rows name.
   */
  demo?: { seededAt: string; day: string; files: string[] };
}

/** The installed @electric-sql/pglite version (its package.json, found from its entry point). */
export function pgliteVersion(): string {
  const require = createRequire(import.meta.url);
  let dir = path.dirname(require.resolve('@electric-sql/pglite'));
  for (;;) {
    const pkg = path.join(dir, 'package.json');
    if (existsSync(pkg)) {
      const json = JSON.parse(readFileSync(pkg, 'utf8')) as { name?: string; version?: string };
      if (json.name === '@electric-sql/pglite' && json.version) return json.version;
    }
    const up = path.dirname(dir);
    if (up === dir) throw new Error('@electric-sql/pglite: package.json not found');
    dir = up;
  }
}

export function imageKey(migrations: Migration[], reference: unknown): string {
  const h = createHash('sha256');
  h.update(
    JSON.stringify({
      format: IMAGE_FORMAT,
      pglite: pgliteVersion(),
      migrations: migrations.map((m) => [m.name, m.checksum]),
      reference,
    }),
  );
  return h.digest('hex');
}

export function readManifest(dir = IMAGE_DIR): ImageManifest | null {
  try {
    const m = JSON.parse(readFileSync(path.join(dir, MANIFEST), 'utf8')) as ImageManifest;
    return m.format === IMAGE_FORMAT && existsSync(path.join(dir, TARBALL)) ? m : null;
  } catch {
    return null;
  }
}

/**
 * Writes the image into `dir` (replacing what is there): built beside it and renamed into place,
 * so a start never reads a half-written image. `files`: the demo image's stored files.
 */
export function writeImage(
  dir: string,
  tarball: Uint8Array,
  manifest: ImageManifest,
  files: ReadonlyMap<string, Uint8Array> = new Map(),
): void {
  const tmp = `${dir}.tmp-${process.pid}`;
  rmSync(tmp, { recursive: true, force: true });
  mkdirSync(path.join(tmp, FILES), { recursive: true });
  for (const [sha, bytes] of files) writeFileSync(path.join(tmp, FILES, sha), bytes);
  writeFileSync(path.join(tmp, TARBALL), tarball);
  writeFileSync(path.join(tmp, MANIFEST), JSON.stringify(manifest, null, 2) + '\n');
  rmSync(dir, { recursive: true, force: true });
  renameSync(tmp, dir);
}

/** True when `pgdata` holds a cluster (PG_VERSION is written last, by initdb and by the unpacking below). */
export const hasCluster = (pgdata: string): boolean => existsSync(path.join(pgdata, 'PG_VERSION'));

/**
 * Unpacks the image into `pgdata` when that directory holds no cluster yet. Returns the
 * manifest of the image used, or null when none was (a cluster exists, no usable image).
 */
export function restoreImage(pgdata: string, dir = IMAGE_DIR): ImageManifest | null {
  if (hasCluster(pgdata)) return null;
  const manifest = readManifest(dir);
  if (!manifest || manifest.pglite !== pgliteVersion()) return null;
  // an interrupted earlier unpack leaves files but no PG_VERSION (written last): start clean
  if (readdirSync(pgdata).length > 0) return null;
  return unpack(manifest, dir, pgdata);
}

function unpack(manifest: ImageManifest, dir: string, pgdata: string): ImageManifest | null {
  try {
    untar(gunzipSync(readFileSync(path.join(dir, TARBALL))), pgdata);
  } catch (err) {
    // a damaged image: leave the directory empty again and let the caller fall back
    console.warn(
      `db image not used (${err instanceof Error ? err.message : String(err)}); creating the cluster instead`,
    );
    for (const f of readdirSync(pgdata)) rmSync(path.join(pgdata, f), { recursive: true, force: true });
    return null;
  }
  return manifest;
}

/**
 * Why a demo image cannot give a first start at `now` its demo data, or null when it can. Its
 * rows are dated relative to the moment of its seed (grants expiring in 20 days, a question due
 * in 3 working days, notice numbers and audit texts with their dates), as a seed at start dates
 * them relative to the start: on the day it was seeded (UTC+8) the two are the same demo, a
 * seed from earlier in the day; on any later day the image's "today" would be in the past, so
 * it is not used and the start seeds instead (db/seed.ts). Nothing is shifted.
 */
export function demoImageUnusable(manifest: ImageManifest | null, now: Date): string | null {
  if (!manifest?.demo) return 'no demo image';
  if (manifest.pglite !== pgliteVersion()) return `built for PGlite ${manifest.pglite}`;
  const seededAt = Date.parse(manifest.demo.seededAt);
  if (!(seededAt <= now.getTime())) return `seeded at ${manifest.demo.seededAt}, after now`;
  if (manifest.demo.day !== cstDay(now)) return `seeded on ${manifest.demo.day}, not today`;
  return null;
}

/**
 * A first start with the demo data: the demo image — the reference image with the demo
 * seed already run at build time (db/image-build.ts) — when it is usable today
 * (demoImageUnusable); its stored files go into `storageDir` (content-addressed, so files
 * already there are left as they are) before the cluster is unpacked. Returns its manifest, or
 * null when it was not used: then nothing was unpacked and the caller restores the reference
 * image and seeds. Each file is checked against its sha256 first; a damaged one means no demo
 * image.
 */
export function restoreDemoImage(
  pgdata: string,
  storageDir: string,
  now = new Date(),
  dir = DEMO_IMAGE_DIR,
): ImageManifest | null {
  if (hasCluster(pgdata) || readdirSync(pgdata).length > 0) return null;
  const manifest = readManifest(dir);
  if (demoImageUnusable(manifest, now) !== null) return null;
  let files: [string, Buffer][];
  try {
    files = manifest!.demo!.files.map((sha) => {
      const bytes = SHA256.test(sha) ? readFileSync(path.join(dir, FILES, sha)) : null;
      if (!bytes || createHash('sha256').update(bytes).digest('hex') !== sha)
        throw new Error(`stored file ${sha} damaged`);
      return [sha, bytes];
    });
  } catch (err) {
    console.warn(`demo image not used (${err instanceof Error ? err.message : String(err)}); seeding instead`);
    return null;
  }
  // as the file store writes them: into its tmp/ folder, renamed into place once complete
  mkdirSync(path.join(storageDir, 'tmp'), { recursive: true });
  for (const [sha, bytes] of files) {
    const dest = path.join(storageDir, sha.slice(0, 2), sha.slice(2, 4), sha);
    if (existsSync(dest)) continue;
    const tmp = path.join(storageDir, 'tmp', randomUUID());
    writeFileSync(tmp, bytes);
    mkdirSync(path.dirname(dest), { recursive: true });
    renameSync(tmp, dest);
  }
  return unpack(manifest!, dir, pgdata);
}

/**
 * Writes `data` up to its last non-zero byte and extends the file to its full length without
 * writing the zeros (a sparse tail, read back as zeros): the image's WAL segment is 16 MB of which
 * a few hundred bytes are records (db/image-build.ts `settle`).
 */
function writeSparse(file: string, data: Uint8Array): void {
  let end = data.length;
  while (end > 0 && data[end - 1] === 0) end--;
  writeFileSync(file, data.subarray(0, end), { mode: 0o600 });
  if (end < data.length) truncateSync(file, data.length);
}

/**
 * Extracts a ustar archive (what PGlite's dumpDataDir writes: regular files and directories,
 * names relative to the data directory) into `target`, PG_VERSION last so that a cluster is
 * only recognised once complete. Anything else in the archive is refused.
 */
export function untar(buf: Uint8Array, target: string): void {
  const text = (from: number, len: number) => {
    const end = buf.indexOf(0, from);
    return Buffer.from(buf.subarray(from, end >= 0 && end < from + len ? end : from + len)).toString('utf8');
  };
  let last: { file: string; data: Uint8Array } | null = null;
  let off = 0;
  while (off + 512 <= buf.length) {
    if (buf[off] === 0) break; // two zero blocks end the archive
    const name = text(off, 100);
    const prefix = text(off + 345, 155);
    const size = parseInt(text(off + 124, 12).trim() || '0', 8);
    const type = String.fromCharCode(buf[off + 156] || 48); // '\0' means a regular file
    const rel = (prefix ? `${prefix}/${name}` : name).replace(/^\/+/, '');
    const dest = path.resolve(target, rel);
    if (rel === '' || rel.split('/').includes('..') || !dest.startsWith(path.resolve(target)))
      throw new Error(`db image: bad entry name ${JSON.stringify(rel)}`);
    const data = buf.subarray(off + 512, off + 512 + size);
    if (type === '5') mkdirSync(dest, { recursive: true, mode: 0o700 });
    else if (type === '0') {
      mkdirSync(path.dirname(dest), { recursive: true, mode: 0o700 });
      if (rel === 'PG_VERSION') last = { file: dest, data };
      else writeSparse(dest, data);
    } else throw new Error(`db image: unsupported entry type ${type} (${rel})`);
    off += 512 + Math.ceil(size / 512) * 512;
  }
  if (!last) throw new Error('db image: no PG_VERSION in the archive');
  writeFileSync(last.file, last.data, { mode: 0o600 });
}
