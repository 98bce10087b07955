/**
 * One Prisma client over either a Postgres server (adapter-pg) or the embedded PGlite
 * (pglite-prisma-adapter). Everything above this file is the same for both (design §3, §4).
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { PrismaPg } from '@prisma/adapter-pg';
import type { SqlMigrationAwareDriverAdapterFactory } from '@prisma/driver-adapter-utils';
import { PrismaClient } from '../generated/prisma/client.ts';
import type { Config } from '../config.ts';
import { applyMigrations } from './migrations.ts';
import { restoreImage, type ImageManifest } from './image.ts';
import { useDirectReads } from './rows.ts';

export type Db = PrismaClient;

export interface Database {
  prisma: PrismaClient;
  kind: 'postgres' | 'embedded';
  /** Applies pending migrations; returns the names applied. */
  migrate(): Promise<string[]>;
  /** Embedded only: the data directory was empty and started from the prepared image (db/image.ts). */
  restoredFromImage?: ImageManifest;
  close(): Promise<void>;
}

/**
 * The contrib extensions the migrations create (`extensions` in prisma/schema.prisma): a Postgres
 * server ships them with its contrib package; PGlite loads each one's bundle only when asked.
 */
export async function embeddedExtensions() {
  const { pg_trgm } = await import('@electric-sql/pglite/contrib/pg_trgm');
  return { pg_trgm };
}

export async function openDatabase(config: Pick<Config, 'databaseUrl' | 'dataDir'>): Promise<Database> {
  if (config.databaseUrl) {
    const url = config.databaseUrl;
    // one pool for Prisma and for the hot reads that skip its runtime (db/rows.ts)
    // A connect that hangs (a server gone without a reset) fails after 10 s instead of holding
    // the request; the error handler answers it as 503 (db/unavailable.ts).
    const pool = new pg.Pool({ connectionString: url, max: 10, connectionTimeoutMillis: 10_000 });
    // An idle connection dropped by the server (a restart, pg_terminate_backend) makes the pool
    // emit 'error'; unheard, Node would end the process. The pool replaces the connection itself.
    pool.on('error', (err) => console.warn(`database connection lost (the pool reconnects): ${err.message}`));
    const prisma = new PrismaClient({ adapter: new PrismaPg(pool) });
    useDirectReads(prisma, pool);
    return {
      prisma,
      kind: 'postgres',
      migrate: () => applyMigrations(prisma as never),
      async close() {
        await prisma.$disconnect();
        await pool.end(); // the adapter leaves a pool it was given open
      },
    };
  }
  const { PGlite } = await import('@electric-sql/pglite');
  const { PrismaPGlite } = await import('pglite-prisma-adapter');
  const dir = path.join(config.dataDir, 'pgdata');
  mkdirSync(dir, { recursive: true });
  // an empty data directory: the prepared cluster instead of initdb and every migration
  const restored = restoreImage(dir);
  const pglite = await PGlite.create(dir, { extensions: await embeddedExtensions() });
  const factory = new PrismaPGlite(pglite) as unknown as SqlMigrationAwareDriverAdapterFactory;
  const prisma = new PrismaClient({ adapter: factory as never });
  return {
    prisma,
    kind: 'embedded',
    ...(restored ? { restoredFromImage: restored } : {}),
    migrate: () => applyMigrations(prisma as never),
    async close() {
      await prisma.$disconnect();
      await pglite.close();
    },
  };
}

