/**
 * One Prisma client over either a Postgres server (adapter-pg) or the embedded PGlite
 * (pglite-prisma-adapter). Everything above this file is the same for both.
 */
import { mkdirSync } from 'node:fs';
import { pgdataOf } from '../paths.ts';
import type { SqlMigrationAwareDriverAdapterFactory } from '@prisma/driver-adapter-utils';
import { PrismaClient } from '../generated/prisma/client.ts';
import type { Config } from '../config.ts';
import { applyMigrations, type SqlRunner } from './migrations.ts';
import { restoreImage, type ImageManifest } from './image.ts';
import { openEmbedded, type EarlyEmbedded } from './embedded.ts';
import { pgliteRunner, poolRunner } from './sql-runner.ts';
import { useDirectReads } from './rows.ts';
import { watchPool } from '../lib/metrics.ts';
import { useAdvisoryLocks } from './advisory-lock.ts';

export { EMBEDDED_SHARED_BUFFERS, embeddedExtensions } from './embedded.ts';

/**
 * Interactive transactions: how long one may wait for a connection (maxWait) and run (timeout).
 * Prisma's defaults (2 s, 5 s) are tuned for a quiet server; on a busy 2-core machine the demo
 * seed's larger steps and the embedded start passed them (seen at load 15–26) and failed a start
 * that would have finished. The limits stay finite so a runaway transaction still ends and frees
 * its locks; every request's transaction is short, so only a stalled one ever reaches them.
 */
export const TRANSACTION_LIMITS = { maxWait: 10_000, timeout: 30_000 } as const;

export type Db = PrismaClient;

export interface Database {
  prisma: PrismaClient;
  kind: 'postgres' | 'embedded';
  /**
   * Plain SQL on the same database without Prisma's client (db/sql-runner.ts): what a start runs
   * before it listens (the migration check, the start state, the health check), so that Prisma's
   * first-query set-up (~150–250 ms of CPU) is not on the start's path.
   */
  sql: SqlRunner;
  /** Applies pending migrations; returns the names applied. */
  migrate(): Promise<string[]>;
  /** Embedded only: the data directory was empty and started from the prepared image (db/image.ts). */
  restoredFromImage?: ImageManifest;
  close(): Promise<void>;
}

/**
 * Settings of every connection to a Postgres server. `jit=off`: Postgres JIT-compiles a statement
 * whose estimated cost passes 100,000 — ~150 ms of compiling for a list page that then runs in
 * 30–100 ms (the two-character name filters on the 5M-row log, docs/benchmarks.md). The portal's
 * statements are short; none gains from JIT.
 */
export const CONNECTION_OPTIONS = '-c jit=off';

/**
 * The Postgres pool's recovery after the database restarts or fails over. When the server is
 * away without refusing (a host or container restarting, an address moving to a standby), a
 * connect gets no answer at all: it holds one of the pool's `max` slots until
 * `connectionTimeoutMillis`, and requests queue behind such attempts. With 10 s, the api kept
 * answering 503 for up to one such period after the database was back — more when an attempt
 * begun just before the return waited out the kernel's SYN retransmission (1 s, 3 s, 7 s…) and a
 * queued request then started another: 5.9 s in one run, 32.8 s in another. At 3 s an attempt
 * begun during the outage gives its slot back soon after the database returns and the next one
 * reaches it: 200 again within ~3 s of the database accepting connections. A healthy connect
 * takes milliseconds (a TLS one to a managed server ~100 ms), so 3 s is still far from a false
 * failure. Connections the server closed (a restart terminates them) leave the pool at once
 * (pg-pool drops a client that errored); TCP keep-alive makes the kernel notice idle ones whose
 * server vanished without closing them, instead of a request finding out.
 */
export const POOL_SETTINGS = {
  max: 10,
  connectionTimeoutMillis: 3_000,
  idleTimeoutMillis: 10_000,
  keepAlive: true,
  keepAliveInitialDelayMillis: 10_000,
} as const;

/**
 * The Prisma client, made when it is first used. Making one deserializes its query plan cache's
 * parameterization schema: 130–175 ms of the main thread, which a start paid between opening the
 * database and listening although nothing before listening uses Prisma (the start's
 * statements go through db.sql). Made on first use, it is made by the warm-up shortly after
 * listening (start.ts) or by the first request that needs it. Every property read goes to the
 * real client, methods bound to it; nothing in the app asks for `instanceof PrismaClient`.
 */
export function lazyClient(make: () => PrismaClient): PrismaClient {
  let client: PrismaClient | undefined;
  const bound = new Map<PropertyKey, { fn: unknown; bound: unknown }>();
  const real = () => (client ??= make());
  return new Proxy({} as PrismaClient, {
    get(_, key) {
      const c = real();
      const v: unknown = Reflect.get(c, key, c);
      if (typeof v !== 'function') return v;
      const hit = bound.get(key);
      if (hit?.fn === v) return hit.bound;
      const b = (v as (...a: unknown[]) => unknown).bind(c);
      bound.set(key, { fn: v, bound: b });
      return b;
    },
    set: (_, key, value) => Reflect.set(real(), key, value),
    has: (_, key) => Reflect.has(real(), key),
  });
}

/**
 * `early`: the embedded database as the entry started it already (server.ts: the image's
 * unpacking in a worker, then the open, while the server's modules load); otherwise an empty
 * embedded data directory is restored and the database opened here.
 */
export async function openDatabase(
  config: Pick<Config, 'databaseUrl' | 'dataDir'>,
  early?: EarlyEmbedded,
): Promise<Database> {
  if (config.databaseUrl) {
    const url = config.databaseUrl;
    // loaded only for a Postgres server: an embedded start never needs pg or its adapter
    const { default: pg } = await import('pg');
    const { PrismaPg } = await import('@prisma/adapter-pg');
    // one pool for Prisma and for the hot reads that skip its runtime (db/rows.ts)
    const pool = new pg.Pool({ connectionString: url, ...POOL_SETTINGS, options: CONNECTION_OPTIONS });
    // An idle connection dropped by the server (a restart, pg_terminate_backend) makes the pool
    // emit 'error'; unheard, Node would end the process. The pool replaces the connection itself.
    pool.on('error', (err) => console.warn(`database connection lost (the pool reconnects): ${err.message}`));
    const prisma = lazyClient(
      () => new PrismaClient({ adapter: new PrismaPg(pool), transactionOptions: TRANSACTION_LIMITS }),
    );
    useDirectReads(prisma, pool, pg.types);
    useAdvisoryLocks(prisma, pool);
    const sql = poolRunner(pool);
    const unwatch = watchPool('main', pool); // its connections on every metrics scrape
    return {
      prisma,
      kind: 'postgres',
      sql,
      migrate: () => applyMigrations(sql),
      async close() {
        await prisma.$disconnect();
        unwatch();
        await pool.end(); // the adapter leaves a pool it was given open
      },
    };
  }
  const { PrismaPGlite } = await import('pglite-prisma-adapter');
  let restored: ImageManifest | null;
  let pglite;
  if (early) {
    [restored, pglite] = await Promise.all([early.restored, early.pglite]);
  } else {
    const dir = pgdataOf(config.dataDir);
    mkdirSync(dir, { recursive: true });
    // an empty data directory: the prepared cluster instead of initdb and every migration
    restored = restoreImage(dir);
    pglite = await openEmbedded(dir);
  }
  const factory = new PrismaPGlite(pglite) as unknown as SqlMigrationAwareDriverAdapterFactory;
  const prisma = lazyClient(
    () => new PrismaClient({ adapter: factory as never, transactionOptions: TRANSACTION_LIMITS }),
  );
  const sql = pgliteRunner(pglite);
  return {
    prisma,
    kind: 'embedded',
    sql,
    ...(restored ? { restoredFromImage: restored } : {}),
    migrate: () => applyMigrations(sql),
    async close() {
      await prisma.$disconnect();
      await pglite.close();
    },
  };
}
