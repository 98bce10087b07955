/**
 * Plain SQL on the database's own driver — PGlite or the pg pool that Prisma's adapter also uses —
 * with the shape of Prisma's raw calls (`SqlRunner`), for what a start runs before it listens:
 * the migration check (migrations.ts), the start state (seed.ts) and the health check. Prisma's
 * client sets itself up on its first query (its query compiler and schema graph: ~150–250 ms of
 * CPU on this machine, docs/benchmarks.md); through this, that set-up is not on a warm start's
 * path, and server.ts has it done right after the server listens, before the first sign-in needs it.
 *
 * Values are the driver's: a timestamp is a Date, a count cast to int a number (as Prisma's).
 */
import type { PGlite, Transaction } from '@electric-sql/pglite';
import type { Pool, PoolClient } from 'pg';
import type { SqlRunner } from './migrations.ts';

/** One statement through a driver: its rows, and how many rows it wrote. */
type Run = (sql: string, values: unknown[]) => Promise<{ rows: unknown[]; count: number }>;

function calls(run: Run): Omit<SqlRunner, '$transaction'> {
  return {
    $executeRawUnsafe: async (sql, ...values) => (await run(sql, values)).count,
    $queryRawUnsafe: async <T>(sql: string, ...values: unknown[]) => (await run(sql, values)).rows as T,
  };
}

const noNesting = () => Promise.reject(new Error('sql runner: nested transaction'));

const onPglite = (q: Pick<Transaction, 'query'>) =>
  calls(async (sql, values) => {
    const r = await q.query(sql, values);
    return { rows: r.rows, count: r.affectedRows ?? 0 };
  });

const onPool = (q: Pool | PoolClient) =>
  calls(async (sql, values) => {
    const r = await q.query(sql, values);
    return { rows: r.rows, count: r.rowCount ?? 0 };
  });

/** PGlite: one connection; its `transaction` holds it for the callback, as Prisma's does. */
export function pgliteRunner(db: PGlite): SqlRunner {
  return {
    ...onPglite(db),
    $transaction: (fn) => db.transaction((tx) => fn({ ...onPglite(tx), $transaction: noNesting })),
  };
}

/**
 * A Postgres server: a transaction takes one client of the pool for the callback. `timeout`
 * becomes the transaction's statement_timeout (Prisma's ends the whole transaction instead): a
 * migration stuck on a lock still fails instead of holding the start for ever.
 */
export function poolRunner(pool: Pool): SqlRunner {
  return {
    ...onPool(pool),
    async $transaction(fn, options) {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        if (options?.timeout) await client.query(`SET LOCAL statement_timeout = ${Math.trunc(options.timeout)}`);
        const result = await fn({ ...onPool(client), $transaction: noNesting });
        await client.query('COMMIT');
        return result;
      } catch (err) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw err;
      } finally {
        client.release();
      }
    },
  };
}
