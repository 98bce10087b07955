/**
 * Hot read statements straight through the `pg` pool that Prisma's adapter runs on.
 *
 * Every list call and every signed-in request runs a few raw SELECTs (the session with its user,
 * a page with its count). Through Prisma's `$queryRaw` each costs ~0.3–0.5 ms of the api's CPU
 * (its query interpreter and result mapping) against ~0.1 ms through `pg` itself; on the archive
 * and log pages that was ~40 % of the api's CPU per call (docs/benchmarks.md, archive lists). So
 * `readRows` sends such a statement — built with `Prisma.sql` exactly as before — to the same
 * pool Prisma uses, with Prisma's own reading of the column types that matter here, and falls
 * back to `$queryRaw` where there is no pool (the embedded PGlite) or in a transaction client.
 * Writes and everything transactional stay with Prisma.
 */
// only its types: the module itself is loaded by openDatabase for a Postgres server, never by an
// embedded start (issue 16: a start loads only what it uses)
import type pg from 'pg';
import type { Prisma } from '../generated/prisma/client.ts';
import type { Db } from './database.ts';

type Reader = (q: Prisma.Sql, name?: string) => Promise<unknown[]>;
const readers = new WeakMap<object, Reader>();

const TIMESTAMP = 1114; // timestamp without time zone: Prisma stores UTC in it
const DATE = 1082;
const INT8 = 20;

/** Column types read as Prisma's `$queryRaw` reads them (pg's defaults would take them as local time, or strings). */
const typesOver = (pgTypes: typeof pg.types) => ({
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === TIMESTAMP) return (v: string) => new Date(`${v.replace(' ', 'T')}Z`);
    if (oid === DATE) return (v: string) => new Date(`${v}T00:00:00Z`);
    if (oid === INT8) return (v: string) => BigInt(v);
    return pgTypes.getTypeParser(oid, format as 'text');
  },
});

/** A parameter as Prisma sends it: a Date as UTC without a zone (pg would send local time with an offset, which a `timestamp` column ignores). */
const param = (v: unknown) => (v instanceof Date ? v.toISOString().replace('T', ' ').replace('Z', '') : v);

/** Lets `readRows(db, …)` go through `pool` (done by openDatabase for a Postgres server; `pgTypes`: pg's own parsers). */
export function useDirectReads(db: Db, pool: pg.Pool, pgTypes: typeof pg.types): void {
  const types = typesOver(pgTypes);
  readers.set(db, async (q, name) => (await pool.query({ name, text: q.text, values: q.values.map(param), types } as pg.QueryConfig)).rows);
}

/**
 * The rows of a read-only statement: through the pool when `db` has one, else through Prisma.
 * `prepared`: a name for a statement whose text never changes (only its values), prepared once
 * per connection so Postgres skips parsing and, once it settles on a generic plan, planning —
 * for the session read every signed-in call makes. Never for statements whose text varies.
 */
export function readRows<T>(db: Db, q: Prisma.Sql, prepared?: string): Promise<T[]> {
  const reader = readers.get(db);
  return reader ? (reader(q, prepared) as Promise<T[]>) : db.$queryRaw<T[]>(q);
}
