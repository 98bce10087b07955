/**
 * A Postgres session-level advisory lock around work that spans many statements and transactions
 * (the demo seed): several api processes starting at once on one database do it one after the
 * other, and each that follows sees what the first wrote. The lock is held on a connection of its
 * own taken from the pool, so the work itself runs through Prisma as usual; if that connection
 * dies, Postgres releases the lock with it. The embedded PGlite has a single connection and one
 * process (DATA_DIR's lock, data-dir-lock.ts): there the work just runs.
 */
import type pg from 'pg';
import type { PrismaClient } from '../generated/prisma/client.ts';

// the client itself (database.ts's Db), so this file, which database.ts wires in, imports nothing of it
type Db = PrismaClient;

const pools = new WeakMap<object, pg.Pool>();

/** Lets `withAdvisoryLock(db, …)` lock through `pool` (done by openDatabase for a Postgres server). */
export function useAdvisoryLocks(db: Db, pool: pg.Pool): void {
  pools.set(db, pool);
}

/** Runs `fn` holding advisory lock `key` (waiting for it while another session holds it). */
export async function withAdvisoryLock<T>(db: Db, key: number, fn: () => Promise<T>): Promise<T> {
  const pool = pools.get(db);
  if (!pool) return fn();
  const client = await pool.connect();
  let broken: Error | undefined;
  try {
    await client.query('SELECT pg_advisory_lock($1)', [key]);
    try {
      return await fn();
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [key]).catch((e: Error) => (broken = e));
    }
  } catch (e) {
    broken ??= e as Error;
    throw e;
  } finally {
    // a connection whose unlock failed may still hold the lock: closed, not reused
    client.release(broken);
  }
}
