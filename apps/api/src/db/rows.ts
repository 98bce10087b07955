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
 * Everything transactional stays with Prisma; so do writes, except the single-statement inserts
 * of a file call's log rows (`writeRow`), which need no transaction and run on every view,
 * print and download.
 */
// only its types: the module itself is loaded by openDatabase for a Postgres server, never by an
// embedded start (a start loads only what it uses)
import type pg from 'pg';
import type { Prisma, PrismaClient } from '../generated/prisma/client.ts';
// the client itself (database.ts's Db), so this file, which database.ts wires in, imports nothing of it
type Db = PrismaClient;

type Reader = (q: Prisma.Sql, name?: string, json?: boolean) => Promise<unknown[]>;
const readers = new WeakMap<object, Reader>();

const TIMESTAMP = 1114; // timestamp without time zone: Prisma stores UTC in it
const DATE = 1082;
const TIMESTAMPTZ = 1184;
const INT8 = 20;

/** The number written by the digits of `v` from `at`, `n` of them (NaN if one is not a digit). */
function digits(v: string, at: number, n: number): number {
  let x = 0;
  for (let i = at; i < at + n; i++) {
    const d = v.charCodeAt(i) - 48;
    if (d < 0 || d > 9) return NaN;
    x = x * 10 + d;
  }
  return x;
}

/**
 * Whether `v` is a `timestamp` as Postgres writes it (`2026-03-04 05:06:07.89`, up to six fraction
 * digits) with a four-digit year from 1000: what the two readings below take by its digits.
 */
function plainTimestamp(v: string): boolean {
  const n = v.length;
  return (
    (n === 19 || (n >= 21 && n <= 26 && v.charCodeAt(19) === 46)) &&
    v.charCodeAt(4) === 45 &&
    v.charCodeAt(7) === 45 &&
    v.charCodeAt(10) === 32 &&
    v.charCodeAt(13) === 58 &&
    v.charCodeAt(16) === 58 &&
    digits(v, 0, 4) >= 1000 &&
    !Number.isNaN(digits(v, 5, 2) + digits(v, 8, 2) + digits(v, 11, 2) + digits(v, 14, 2) + digits(v, 17, 2)) &&
    (n === 19 || !Number.isNaN(digits(v, 20, n - 20)))
  );
}

/**
 * A `timestamp` read as UTC — what `new Date('2026-03-04T05:06:07.89Z')` answers, milliseconds cut
 * as it cuts them — by its digits instead of parsing a date string (~0.35 against ~0.15 µs a
 * value; a page of rows holds dozens). Anything else (infinity, a BC date, a year before 1000 or
 * past 9999) goes to that parse, as before.
 */
export function timestampUtc(v: string): Date {
  if (!plainTimestamp(v)) return new Date(`${v.replace(' ', 'T')}Z`);
  const n = v.length;
  // the first three fraction digits are the milliseconds (".8" is 800); further ones are cut
  const ms = n === 19 ? 0 : digits(v, 20, Math.min(3, n - 20)) * (n >= 23 ? 1 : n === 22 ? 10 : 100);
  return new Date(
    Date.UTC(
      digits(v, 0, 4),
      digits(v, 5, 2) - 1,
      digits(v, 8, 2),
      digits(v, 11, 2),
      digits(v, 14, 2),
      digits(v, 17, 2),
      ms,
    ),
  );
}

/**
 * A `timestamp` as its JSON, the ISO string `timestampUtc(v).toISOString()` writes
 * (`2026-03-04T05:06:07.890Z`), put together from its text: rows answered as JSON make no Date
 * only to turn it back into text.
 */
export function timestampIso(v: string): string {
  if (!plainTimestamp(v)) return timestampUtc(v).toISOString();
  const n = v.length;
  return `${v.slice(0, 10)}T${v.slice(11, 19)}.${n === 19 ? '000' : v.slice(20, 23).padEnd(3, '0')}Z`;
}

/** Column types read as Prisma's `$queryRaw` reads them (pg's defaults would take them as local time, or strings). */
const typesOver = (pgTypes: typeof pg.types) => ({
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === TIMESTAMP) return timestampUtc;
    if (oid === DATE) return (v: string) => new Date(`${v}T00:00:00Z`);
    if (oid === INT8) return (v: string) => BigInt(v);
    return pgTypes.getTypeParser(oid, format as 'text');
  },
});

/** Column types for rows answered as JSON (`readJsonRows`): a timestamp or a date as `jsonRow` writes it. */
const jsonTypesOver = (types: ReturnType<typeof typesOver>) => ({
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === TIMESTAMP) return timestampIso;
    const parse = types.getTypeParser(oid, format);
    if (oid === DATE || oid === TIMESTAMPTZ) return (v: string) => (parse(v) as Date).toISOString();
    return parse;
  },
});

/**
 * A row read with camelCase aliases (`user_type AS "userType"`) as its JSON: timestamps become
 * ISO strings, as every row schema of contracts writes them.
 */
export function jsonRow<T>(row: object): T {
  const out: Record<string, unknown> = {};
  // for…in over a driver's plain row (own fields only): no [key, value] pair allocated per column
  for (const k in row) {
    const v = (row as Record<string, unknown>)[k];
    out[k] = v instanceof Date ? v.toISOString() : v;
  }
  return out as T;
}

/** A parameter as Prisma sends it: a Date as UTC without a zone (pg would send local time with an offset, which a `timestamp` column ignores). */
const param = (v: unknown) => (v instanceof Date ? v.toISOString().replace('T', ' ').replace('Z', '') : v);

/** Lets `readRows(db, …)` go through `pool` (done by openDatabase for a Postgres server; `pgTypes`: pg's own parsers). */
export function useDirectReads(db: Db, pool: pg.Pool, pgTypes: typeof pg.types): void {
  const types = typesOver(pgTypes);
  const jsonTypes = jsonTypesOver(types);
  readers.set(
    db,
    async (q, name, json) =>
      (
        await pool.query({
          name,
          text: q.text,
          values: q.values.map(param),
          types: json ? jsonTypes : types,
        } as pg.QueryConfig)
      ).rows,
  );
}

/** How many texts one family of prepared statements may have (beyond: sent unprepared). */
const FAMILY_TEXTS_MAX = 64;
const families = new Map<string, Map<string, string>>();

/**
 * The prepared statement's name of `text`, one of a family: a list whose filters and sort change
 * its text but never the shape of its best plan, whatever the values (every variant served by
 * the same index, e.g. one supplier's applications by (supplier_code, id)). Each text has a name
 * of its own, the first FAMILY_TEXTS_MAX of them; later texts go unprepared (`undefined`), which
 * bounds what a connection keeps. Deterministic within a process, so the benchmark's raw query
 * is sent exactly as the api sends it.
 */
export function familyName(family: string, text: string): string | undefined {
  let texts = families.get(family);
  if (!texts) families.set(family, (texts = new Map()));
  let name = texts.get(text);
  if (name === undefined && texts.size < FAMILY_TEXTS_MAX) texts.set(text, (name = `${family}_${texts.size}`));
  return name;
}

/**
 * The rows of a read-only statement: through the pool when `db` has one, else through Prisma.
 * `prepared`: a name for a statement whose text never changes (only its values), or one given
 * by `familyName`, prepared once per connection so Postgres skips parsing and, once it settles on
 * a generic plan, planning — for the session read every signed-in call makes, ~0.1 ms, and for a
 * list page with its count and rows, ~1 ms of the database's CPU (the history of docs/benchmarks.md). Only for statements whose plan does not depend on the values: a generic plan is
 * chosen once for all of them.
 */
export function readRows<T>(db: Db, q: Prisma.Sql, prepared?: string): Promise<T[]> {
  const reader = readers.get(db);
  return reader ? (reader(q, prepared) as Promise<T[]>) : db.$queryRaw<T[]>(q);
}

/**
 * `readRows` with each row as its JSON (`jsonRow`: timestamps as ISO strings), for a list whose
 * rows go out as they were read. Through the pool the strings are made as the rows are parsed —
 * no Date per timestamp turned back into text, no copy of each row (a page of the answerers'
 * questions spent ~40 µs of its api CPU in `jsonRow`); through Prisma, `jsonRow` on its rows.
 */
export async function readJsonRows<T>(db: Db, q: Prisma.Sql, prepared?: string): Promise<T[]> {
  const reader = readers.get(db);
  if (reader) return (await reader(q, prepared, true)) as T[];
  return (await db.$queryRaw<object[]>(q)).map((r) => jsonRow<T>(r));
}

/**
 * One statement that writes and answers a row (`INSERT … RETURNING`), committed on its own:
 * through the pool when `db` has one, else through Prisma (the embedded PGlite, a transaction
 * client). For a write that is a whole act by itself; anything that must commit together with
 * another write belongs in a Prisma transaction.
 */
export async function writeRow<T>(db: Db, q: Prisma.Sql, prepared?: string): Promise<T> {
  const [row] = await readRows<T>(db, q, prepared);
  return row!;
}
