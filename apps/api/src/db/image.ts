/**
 * The prepared cluster image of the embedded database (issue 16): at build time
 * (scripts/build.mjs → dist/build-db-image.mjs) a PGlite cluster is created in memory, every
 * migration is applied and the reference data (menu, first agreement) written, and the cluster is
 * dumped with PGlite's own `dumpDataDir` to dist/db-image/pgdata.tar.gz beside a manifest. A
 * first start on an empty data directory unpacks that tarball into DATA_DIR/pgdata instead of
 * running initdb and every migration (5.8 → ~2 s, docs/benchmarks.md); the usual migration
 * check then applies whatever the image lacks (an image older than prisma/migrations), and the
 * demo seed, which is dated relative to today, runs as before.
 *
 * The image is used only when the manifest names the installed PGlite version (a data directory
 * is tied to the Postgres build that wrote it); otherwise — or with no image, e.g. when running
 * from source without a build — the server falls back to initdb and every migration.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { paths } from '../paths.ts';
import type { Migration } from './migrations.ts';

export const IMAGE_DIR = path.join(paths.root, 'apps/api/dist/db-image');
const TARBALL = 'pgdata.tar.gz';
const MANIFEST = 'manifest.json';
/** Bump when the image's content changes in a way the inputs below do not show. */
export const IMAGE_FORMAT = 1;

export interface ImageManifest {
  format: number;
  pglite: string;
  /** sha256 over the inputs (PGlite version, migrations, reference data): equal key, equal image. */
  key: string;
  migrations: string[];
  builtAt: string;
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
  h.update(JSON.stringify({ format: IMAGE_FORMAT, pglite: pgliteVersion(), migrations: migrations.map((m) => [m.name, m.checksum]), reference }));
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

/** Writes both files under temporary names first: a start never reads a half-written image. */
export function writeImage(dir: string, tarball: Uint8Array, manifest: ImageManifest): void {
  mkdirSync(dir, { recursive: true });
  const tmp = `.tmp-${process.pid}`;
  writeFileSync(path.join(dir, TARBALL + tmp), tarball);
  writeFileSync(path.join(dir, MANIFEST + tmp), JSON.stringify(manifest, null, 2) + '\n');
  renameSync(path.join(dir, TARBALL + tmp), path.join(dir, TARBALL));
  renameSync(path.join(dir, MANIFEST + tmp), path.join(dir, MANIFEST));
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
  try {
    untar(gunzipSync(readFileSync(path.join(dir, TARBALL))), pgdata);
  } catch (err) {
    // a damaged image: leave the directory empty again and let PGlite run initdb
    console.warn(`db image not used (${err instanceof Error ? err.message : String(err)}); creating the cluster instead`);
    for (const f of readdirSync(pgdata)) rmSync(path.join(pgdata, f), { recursive: true, force: true });
    return null;
  }
  return manifest;
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
    if (rel === '' || rel.split('/').includes('..') || !dest.startsWith(path.resolve(target))) throw new Error(`db image: bad entry name ${JSON.stringify(rel)}`);
    const data = buf.subarray(off + 512, off + 512 + size);
    if (type === '5') mkdirSync(dest, { recursive: true, mode: 0o700 });
    else if (type === '0') {
      mkdirSync(path.dirname(dest), { recursive: true, mode: 0o700 });
      if (rel === 'PG_VERSION') last = { file: dest, data };
      else writeFileSync(dest, data, { mode: 0o600 });
    } else throw new Error(`db image: unsupported entry type ${type} (${rel})`);
    off += 512 + Math.ceil(size / 512) * 512;
  }
  if (!last) throw new Error('db image: no PG_VERSION in the archive');
  writeFileSync(last.file, last.data, { mode: 0o600 });
}
