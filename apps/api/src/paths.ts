/**
 * The repository's paths and the data directory, without the rest of the configuration (no
 * contracts, no zod): the server's entry needs them before it loads anything else, to start
 * unpacking the embedded database's image in a worker (server.ts). config.ts
 * re-exports them.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';

// src/ and dist/ sit at the same depth, so this means the same in source and in the bundle
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

export const paths = {
  root,
  schema: path.join(root, 'prisma/schema.prisma'),
  migrations: path.join(root, 'prisma/migrations'),
  /** The schema prisma/migrations builds: where `db:diff` starts from, and what it updates. */
  migrationsBase: path.join(root, 'prisma/migrations/schema.base.prisma'),
  webDist: path.join(root, 'apps/web/dist'),
};

/** DATA_DIR (default `.data`), resolved against the repository's root. */
export const dataDirOf = (env: NodeJS.ProcessEnv): string => path.resolve(root, env.DATA_DIR ?? '.data');

/** DATABASE_URL when set (an empty value means none): without it the embedded database is used. */
export const databaseUrlOf = (env: NodeJS.ProcessEnv): string | undefined => env.DATABASE_URL || undefined;

/** STORAGE_DIR (default `<data dir>/files`), resolved against the repository's root: the uploaded files' store. */
export const storageDirOf = (env: NodeJS.ProcessEnv, dataDir: string): string =>
  path.resolve(root, env.STORAGE_DIR ?? path.join(dataDir, 'files'));

/** A yes/no setting: 1/true/yes/on (any case) is yes, any other value no, unset or empty the default. */
export function flag(v: string | undefined, dflt: boolean): boolean {
  if (v === undefined || v === '') return dflt;
  return ['1', 'true', 'yes', 'on'].includes(v.toLowerCase());
}

/** SEED_DEMO: the demo accounts and data on a first start; by default only on the embedded database. */
export const seedDemoOf = (env: NodeJS.ProcessEnv): boolean => flag(env.SEED_DEMO, !databaseUrlOf(env));

/**
 * Whether a first embedded start may take its demo data from the demo image prepared at build
 * time (db/image.ts) instead of seeding: with SEED_DEMO, unless DEMO_IMAGE=off (a benchmark of
 * the seed itself).
 */
export const demoImageOf = (env: NodeJS.ProcessEnv): boolean => seedDemoOf(env) && flag(env.DEMO_IMAGE, true);

/** START_TRACE: print the time of each phase of a start (lib/start-trace.ts). */
export const startTraceOf = (env: NodeJS.ProcessEnv): boolean => flag(env.START_TRACE, false);

/**
 * A path given on a command line, resolved against where the operator ran the command: pnpm runs
 * a package's scripts in the package's folder and names the caller's in INIT_CWD.
 */
export const givenPathOf = (env: NodeJS.ProcessEnv, p: string): string =>
  path.resolve(env.INIT_CWD ?? process.cwd(), p);

/** The embedded database's cluster inside the data directory. */
export const pgdataOf = (dataDir: string): string => path.join(dataDir, 'pgdata');

/**
 * libuv's thread pool size, set by the server entry (server.ts) before anything starts the pool:
 * libuv reads UV_THREADPOOL_SIZE once, when the pool first starts (the first asynchronous file
 * read, scrypt, zlib or DNS call of the process).
 *
 * Node's default of 4 threads is shared by everything asynchronous that is not a socket: a
 * sign-in's scrypt (~40 ms of a core each, memory-hard by design), every file read of a view or a
 * download, the canvas' image encoding. Under load a few sign-ins at once held all four threads,
 * the file reads of everyone's views queued behind them and the next sign-ins behind those:
 * `user/login` took seconds. With more threads nothing waits for a thread; the kernel shares the
 * cores instead. An operator's own UV_THREADPOOL_SIZE is kept (docs/operators.md).
 */
export const DEFAULT_THREADPOOL_SIZE = 16;
export function sizeThreadPool(env: NodeJS.ProcessEnv): void {
  env.UV_THREADPOOL_SIZE ||= String(DEFAULT_THREADPOOL_SIZE);
}
