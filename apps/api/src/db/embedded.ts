/**
 * Opening the embedded PGlite database, apart from db/database.ts so that the entry (server.ts)
 * can start it before the server's own modules are loaded: PGlite's open (its WASM compiled on
 * V8's background threads, its files read, Postgres started) then overlaps the main thread
 * loading and evaluating them. Only node's modules and PGlite's, loaded on call.
 */
import type { PGlite } from '@electric-sql/pglite';
import type { ImageManifest } from './image.ts';

/**
 * The contrib extensions the migrations create (`extensions` in prisma/schema.prisma): a Postgres
 * server ships them with its contrib package; PGlite loads each one's bundle only when asked.
 */
export async function embeddedExtensions() {
  const { pg_trgm } = await import('@electric-sql/pglite/contrib/pg_trgm');
  return { pg_trgm };
}

/**
 * The embedded Postgres's shared buffers. Its default, 128 MB, is set up inside PGlite's WASM
 * memory at every open: with 32 MB the open took 455–530 ms instead of 538–729 ms and the process
 * ~120 MB less resident memory (the history of docs/benchmarks.md). The files stay
 * in the operating system's cache besides, so a page that does not fit costs a read from memory,
 * not from the disk; the embedded database is for demos and small installations.
 */
export const EMBEDDED_SHARED_BUFFERS = '32MB';

/** Opens (starts) the embedded cluster in `pgdata`, which must hold one. */
export async function openEmbedded(pgdata: string): Promise<PGlite> {
  const { PGlite } = await import('@electric-sql/pglite');
  return PGlite.create(pgdata, {
    extensions: await embeddedExtensions(),
    startParams: [...PGlite.defaultStartParams, '-c', `shared_buffers=${EMBEDDED_SHARED_BUFFERS}`],
  });
}

/**
 * The embedded database as the entry started it: the image's unpacking into an empty data
 * directory (null: it held a cluster already), then the open.
 */
export interface EarlyEmbedded {
  restored: Promise<ImageManifest | null>;
  pglite: Promise<PGlite>;
}
