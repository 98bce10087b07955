/**
 * The list machinery every paged list uses:
 * - the paging window: a caller pages through at most LIST_WINDOW_MAX rows, and the total is
 *   counted only up to that many — an exact count(*) over a million rows on every page request
 *   would cost more than the page itself;
 * - the page and its capped total in one statement (`pageAndCount`, via `listPage`);
 * - sort → ORDER BY from a per-list map of sortable fields, with a tie-break;
 * - keyword search over named columns, "contains" filters, day ranges in UTC+8, WHERE building.
 */
import { LIST_WINDOW_MAX } from '@esm/contracts';
import { Prisma } from '../generated/prisma/client.ts';
import type { Db } from '../db/database.ts';
import { familyName, jsonRow, readJsonRows, readRows } from '../db/rows.ts';
import { badRequest } from '../plugins/errors.ts';
import { paged } from './envelope.ts';
import { dayRange } from './dates.ts';

export const WINDOW_MESSAGE = `最多可查看前 ${LIST_WINDOW_MAX} 条，请缩小查询范围`;

/** Refuses a page that ends beyond the window (page × size > LIST_WINDOW_MAX). */
export function checkWindow(q: { page: number; results: number }, max = LIST_WINDOW_MAX): void {
  if (q.page * q.results > max) throw badRequest(WINDOW_MESSAGE, [{ field: 'page', message: WINDOW_MESSAGE }]);
}

export interface CappedTotal {
  total: number;
  /** More rows match than `total` says: the count stopped at the cap. */
  totalCapped: boolean;
}

/** A count of up to cap + 1 rows turned into the reported total. */
export function capTotal(counted: number, cap = LIST_WINDOW_MAX): CappedTotal {
  return counted > cap ? { total: cap, totalCapped: true } : { total: counted, totalCapped: false };
}

/**
 * Counts the rows of `SELECT 1 <fromWhere>` but stops after cap + 1 of them (a LIMITed
 * subquery), so the cost is bounded by the cap whatever the table size.
 */
export async function cappedCount(db: Db, fromWhere: Prisma.Sql, cap = LIST_WINDOW_MAX): Promise<CappedTotal> {
  const [row] = await readRows<{ n: number }>(
    db,
    Prisma.sql`SELECT count(*)::int AS n FROM (SELECT 1 ${fromWhere} LIMIT ${cap + 1}) AS capped`,
  );
  return capTotal(Number(row?.n ?? 0), cap);
}

/**
 * A page and its capped total in one statement: `page` (a SELECT with its ORDER BY / LIMIT /
 * OFFSET) and the count of `SELECT 1 <fromWhere>` up to cap + 1. One round trip instead of two
 * saves the api a query's worth of CPU per list call (the lists' limit, docs/benchmarks.md).
 * Every row carries the total; a page past the end comes back as one row of NULLs carrying it.
 * The page keeps its order: a sorted subquery is not flattened, row_number() numbers its rows
 * as they come, and the outer ORDER BY follows those numbers.
 */
export async function pageAndCount<T extends object>(
  db: Db,
  page: Prisma.Sql,
  fromWhere: Prisma.Sql,
  cap = LIST_WINDOW_MAX,
  prepare?: string,
  /** Each row as its JSON (db/rows.ts readJsonRows): timestamps as ISO strings. */
  json = false,
): Promise<{ rows: T[] } & CappedTotal> {
  const statement = pageAndCountSql(page, fromWhere, cap);
  const rows = await (json ? readJsonRows : readRows)<T & { __total: number; __ord: number | null }>(
    db,
    statement,
    prepare && familyName(prepare, statement.text),
  );
  const total = capTotal(Number(rows[0]?.__total ?? 0), cap);
  return { rows: rows[0]?.__ord == null ? [] : rows, ...total };
}

/** pageAndCount's statement (the benchmark sends the same). */
export function pageAndCountSql(page: Prisma.Sql, fromWhere: Prisma.Sql, cap = LIST_WINDOW_MAX): Prisma.Sql {
  return Prisma.sql`WITH counted AS (
  SELECT count(*)::int AS __total FROM (SELECT 1 ${fromWhere} LIMIT ${cap + 1}) AS capped
)
SELECT counted.__total, p.* FROM counted
LEFT JOIN (SELECT page_rows.*, (row_number() OVER ())::int AS __ord FROM (${page}) AS page_rows) AS p ON true
ORDER BY p.__ord`;
}

/** `%text%` for ILIKE, with the caller's own wildcards taken literally. */
export function containsPattern(text: string): string {
  return `%${likeLiteral(text)}%`;
}

/** `text` with LIKE's wildcards escaped: for Prisma's `contains`, which passes them on (a search for "_" matched everything). */
export const likeLiteral = (text: string) => text.replace(/[\\%_]/g, '\\$&');

/** pg_trgm looks a pattern up by its trigrams: it needs a run of 3+ letters or digits. */
const TRIGRAM_RUN = /[\p{L}\p{N}]{3}/u;

/**
 * A text column with a bigram index besides its trigram one: a GIN index on
 * `text_bigrams(column)`, the lowercased character bigrams (prisma/expression-indexes.sql). The
 * columns that have one: standard_file.name, access_log.user_account / user_name,
 * change_notice.title. `column` is the SQL the query names it by (an alias may go with it).
 */
export interface BigramColumn {
  bigrams: string;
}

/** `column` (e.g. 'sf.name') as served by its bigram index as well. */
export const bigramIndexed = (column: string): BigramColumn => ({ bigrams: column });

/** A column a "contains" filter looks in: SQL written by the caller, never user input. */
export type TextColumn = string | BigramColumn;

const columnSql = (column: TextColumn) => (typeof column === 'string' ? column : column.bigrams);

/**
 * `column` contains `text`, case-insensitively: the "contains" filters, served by a trigram GIN
 * index on the column (pg_trgm, see prisma/schema.prisma) when the text has a run of 3 letters or
 * digits. Otherwise pg_trgm cannot help: the index would be read whole (the planner does not
 * foresee that, and chose it over the table for an OR of two such columns: 4× slower than reading
 * the table), so such a text is asked as strpos(lower(…)): the same rows (ILIKE itself compares
 * lower() of both sides in a UTF-8 database), and the caller's wildcards are plain characters.
 * On a column with a bigram index (`bigramIndexed`) a text of 2+ characters also asks that every
 * bigram of the text be among the column's, which that index answers (a two-character Chinese
 * name on the 5M-row log: docs/benchmarks.md); strpos stays as the exact test of the rows it
 * finds. A single character has no bigram: strpos alone, one sequential read.
 */
export function containsText(column: TextColumn, text: string): Prisma.Sql {
  const col = Prisma.raw(columnSql(column));
  if (TRIGRAM_RUN.test(text)) return Prisma.sql`${col} ILIKE ${containsPattern(text)}`;
  const exact = Prisma.sql`strpos(lower(${col}), lower(${text})) > 0`;
  if (typeof column === 'string' || [...text].length < 2) return exact;
  // strpos first: where no index serves the filter, the bigrams are built only for rows that match
  return Prisma.sql`(${exact} AND text_bigrams(${col}) @> text_bigrams(${text}::text))`;
}

/** A capped page in the envelope, plus `totalCapped`. */
export const cappedPage = <T>(p: { rows: T[] } & CappedTotal) => ({
  ...paged(p.rows, p.total),
  totalCapped: p.totalCapped,
});

// ---- WHERE ---------------------------------------------------------------------------------------

/** A condition, or nothing (a filter left empty). */
export type Condition = Prisma.Sql | null | undefined | false | '';

/** `WHERE a AND b …` of the conditions given, or nothing. */
export function whereSql(conditions: readonly Condition[]): Prisma.Sql {
  const c = conditions.filter((x): x is Prisma.Sql => Boolean(x));
  return c.length ? Prisma.sql`WHERE ${Prisma.join(c, ' AND ')}` : Prisma.empty;
}

/** Any of `columns` contains `text` (the keyword box of a list). SQL identifiers only, never input. */
export function keywordSql(columns: readonly TextColumn[], text: string | undefined): Condition {
  if (!text) return null;
  const any = columns.map((c) => containsText(c, text));
  return any.length === 1 ? any[0] : Prisma.sql`(${Prisma.join(any, ' OR ')})`;
}

/** `column` equals `value` when the filter is set. */
export const equalsSql = (column: string, value: string | number | undefined): Condition =>
  value === undefined ? null : Prisma.sql`${Prisma.raw(column)} = ${value}`;

/** A timestamp `column` within the days [from, to] of UTC+8. */
export function dayRangeSql(column: string, from: string | undefined, to: string | undefined): Condition[] {
  const { gte, lt } = dayRange(from, to);
  const col = Prisma.raw(column);
  return [gte && Prisma.sql`${col} >= ${gte}`, lt && Prisma.sql`${col} < ${lt}`];
}

// ---- ORDER BY ------------------------------------------------------------------------------------

/** A list's sortable fields → their SQL column (identifiers written here, never user input). */
export type SortColumns<F extends string> = Record<F, string>;

export interface SortRequest<F extends string> {
  sortField?: F;
  sortOrder?: 'ascend' | 'descend';
}

/**
 * `ORDER BY <column> <dir>, <tieBreak> <dir>` for the requested sort, so that pages never
 * overlap or skip rows with equal keys; `fallback` (e.g. 'id DESC') when none is requested.
 */
export function orderBySql<F extends string>(
  columns: SortColumns<F>,
  s: SortRequest<F>,
  tieBreak: string,
  fallback: string,
): Prisma.Sql {
  if (!s.sortField || !s.sortOrder) return Prisma.raw(`ORDER BY ${fallback}`);
  const dir = s.sortOrder === 'descend' ? 'DESC' : 'ASC';
  const column = columns[s.sortField];
  return Prisma.raw(
    column === tieBreak ? `ORDER BY ${column} ${dir}` : `ORDER BY ${column} ${dir}, ${tieBreak} ${dir}`,
  );
}

// ---- one page ------------------------------------------------------------------------------------

export interface PageRequest {
  page: number;
  results: number;
}

/**
 * One page of a list and its capped total: `SELECT <select> FROM <from> <where> <order>` with
 * the request's window. Checks the window first.
 */
export async function listPage<R extends object>(
  db: Db,
  q: PageRequest,
  parts: ListParts,
  json = false,
): Promise<{ rows: R[] } & CappedTotal> {
  checkWindow(q);
  const { page, fromWhere, prepare } = listPageStatement(q, parts);
  return pageAndCount<R>(db, page, fromWhere, undefined, prepare, json);
}

/** `listPage` with each row as its JSON (`jsonRow`: timestamps as ISO strings), for rows that go out as read. */
export const listJsonPage = <R extends object>(db: Db, q: PageRequest, parts: ListParts) =>
  listPage<R>(db, q, parts, true);

/** The pieces of a list's one statement (see listPage). */
export interface ListParts {
  select: Prisma.Sql;
  from: Prisma.Sql;
  where: Prisma.Sql;
  orderBy: Prisma.Sql;
  /**
   * Lookups joined to the page's rows only after the page is chosen: LEFT JOINs to one row each
   * (a foreign key of a NOT NULL column) that neither `where` nor `orderBy` uses, with `alias`
   * the name `from` gives its one table. The page then sorts and cuts the table's own rows and
   * looks up its 10–100 rows, instead of joining every matching row before the sort; the count
   * never sees them.
   */
  lookups?: { alias: string; joins: Prisma.Sql };
  /** The statement sent prepared, as one of this family (PageStatement.prepare). */
  prepare?: string;
}

/** A page statement and the FROM … WHERE its capped count walks: what pageAndCount sends (the benchmarks send the same). */
export interface PageStatement {
  page: Prisma.Sql;
  fromWhere: Prisma.Sql;
  /** Sent prepared, as one of this family of statements (db/rows.ts familyName: only where no value changes the best plan). */
  prepare?: string;
}

/** listPage's statement for these parts and window. */
export function listPageStatement(q: PageRequest, parts: ListParts): PageStatement {
  const window = Prisma.sql`LIMIT ${q.results} OFFSET ${(q.page - 1) * q.results}`;
  const fromWhere = Prisma.sql`FROM ${parts.from} ${parts.where}`;
  const prepare = parts.prepare;
  if (!parts.lookups)
    return { page: Prisma.sql`SELECT ${parts.select} ${fromWhere} ${parts.orderBy} ${window}`, fromWhere, prepare };
  const alias = Prisma.raw(parts.lookups.alias);
  return {
    page: Prisma.sql`SELECT ${parts.select} FROM (SELECT ${alias}.* ${fromWhere} ${parts.orderBy} ${window}) ${alias} ${parts.lookups.joins} ${parts.orderBy}`,
    fromWhere,
    prepare,
  };
}

/** Maps a page's rows, keeping its total. */
export const mapPage = <A, B>(p: { rows: A[] } & CappedTotal, f: (row: A) => B): { rows: B[] } & CappedTotal => ({
  ...p,
  rows: p.rows.map(f),
});

/** A row as its JSON (db/rows.ts), for the modules that map their rows with it. */
export { jsonRow };
