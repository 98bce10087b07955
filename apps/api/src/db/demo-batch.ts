/**
 * Helpers for writing the demo data a table at a time: one INSERT per table instead of
 * one statement per row took most of the demo seed's time off a cold start — every statement
 * through Prisma costs its query compilation and a round through PGlite.
 */

/**
 * The rows `createManyAndReturn` gave back, in the order of the data it was given: one INSERT
 * takes its ids from the sequence in the order of its VALUES, so ordering by id restores it (the
 * order RETURNING lists rows in is not promised). Checked against the count asked for.
 */
export function inInsertOrder<T extends { id: number }>(rows: T[], expected: number): T[] {
  if (rows.length !== expected) throw new Error(`demo seed: ${expected} rows written, ${rows.length} returned`);
  return [...rows].sort((a, b) => a.id - b.id);
}

/**
 * One INSERT of many rows through a single parameter, the rows as JSON (`json_populate_recordset`),
 * for the demo seed's larger tables: Prisma's `createMany` spends ~0.6–0.9 ms of CPU per row of
 * ~17 columns before the rows reach the database (the history seed's 344 access-log rows: ~250 ms
 * warm against ~50 ms this way — not pg_trgm, whose first use costs ~16 ms, nor text_bigrams,
 * ~50 ms; the history of docs/benchmarks.md). The fields are the columns' names in camelCase (the
 * schema's `@map` convention, checked by the database: an unknown column fails the statement); a
 * Date is written as its UTC time, as Prisma writes it into a `timestamp` column. A field a row
 * lacks is NULL, not the column's default: every row must give every column that has a default.
 * Ids come from the sequence in the order of `rows`.
 */
export async function insertRows(
  db: { $executeRawUnsafe: (sql: string, ...values: unknown[]) => Promise<number> },
  table: string,
  rows: readonly object[],
): Promise<number> {
  if (rows.length === 0) return 0;
  const written = await db.$executeRawUnsafe(...insertStatement(table, rows));
  if (written !== rows.length) throw new Error(`demo seed: ${rows.length} rows for ${table}, ${written} written`);
  return written;
}

/**
 * `insertRows` for a table whose new ids the seed needs next (what `createManyAndReturn` with
 * `select: { id: true }` gave): the ids in the order of `rows`.
 */
export async function insertRowsReturningIds(
  db: { $queryRawUnsafe: <T = unknown>(sql: string, ...values: unknown[]) => Promise<T> },
  table: string,
  rows: readonly object[],
): Promise<number[]> {
  if (rows.length === 0) return [];
  const [sql, json] = insertStatement(table, rows);
  const returned = await db.$queryRawUnsafe<{ id: number }[]>(`${sql} RETURNING id`, json);
  return inInsertOrder(returned, rows.length).map((r) => r.id);
}

function insertStatement(table: string, rows: readonly object[]): [string, string] {
  const fields = [...new Set(rows.flatMap((r) => Object.keys(r)))];
  const column = (f: string) => `"${f.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)}"`;
  const json = rows.map((r) =>
    Object.fromEntries(fields.map((f) => [column(f).slice(1, -1), (r as Record<string, unknown>)[f] ?? null])),
  );
  const list = fields.map(column).join(', ');
  return [
    `INSERT INTO "${table}" (${list}) SELECT ${list} FROM json_populate_recordset(NULL::"${table}", $1::json) WITH ORDINALITY AS r ORDER BY r.ordinality`,
    JSON.stringify(json),
  ];
}
