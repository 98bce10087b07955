/**
 * Schema drift check: a database's catalog (tables, columns, indexes, constraints, enums,
 * extensions) read with plain SQL, as sorted lines that two databases can be compared by. Used
 * to prove that prisma/migrations builds exactly the schema prisma/schema.prisma describes, and
 * that it builds the same on a Postgres server as on the embedded PGlite. Prisma's own
 * bookkeeping table `_prisma_migrations` is left out.
 */

/** Runs one read-only query and returns its rows (PGlite, pg, or Prisma's $queryRawUnsafe). */
export type QueryRows = (sql: string) => Promise<Record<string, unknown>[]>;

export interface Catalog {
  tables: string[];
  columns: string[];
  indexes: string[];
  constraints: string[];
  enums: string[];
  extensions: string[];
}

const IGNORED = `'_prisma_migrations'`;

// Every value is selected as text so every driver returns the same JavaScript strings.
const QUERIES: Record<keyof Catalog, string> = {
  tables: `
    SELECT table_name::text AS line
    FROM information_schema.tables
    WHERE table_schema = 'public' AND table_type = 'BASE TABLE' AND table_name NOT IN (${IGNORED})`,
  columns: `
    SELECT concat_ws(' ',
      table_name || '.' || column_name,
      CASE WHEN data_type = 'USER-DEFINED' THEN udt_name::text ELSE data_type::text END,
      'len=' || coalesce(character_maximum_length::text, '-'),
      'prec=' || coalesce(numeric_precision::text, '-') || ',' || coalesce(numeric_scale::text, '-') || ',' || coalesce(datetime_precision::text, '-'),
      CASE WHEN is_nullable = 'YES' THEN 'NULL' ELSE 'NOT NULL' END,
      'default=' || coalesce(column_default::text, '-')
    ) AS line
    FROM information_schema.columns
    WHERE table_schema = 'public' AND table_name NOT IN (${IGNORED})`,
  indexes: `
    SELECT tablename::text || ' ' || indexname::text || ': ' || indexdef::text AS line
    FROM pg_indexes
    WHERE schemaname = 'public' AND tablename NOT IN (${IGNORED})`,
  constraints: `
    SELECT rel.relname::text || ' ' || con.conname::text || ' ' || con.contype::text || ': ' || pg_get_constraintdef(con.oid) AS line
    FROM pg_constraint con
    JOIN pg_class rel ON rel.oid = con.conrelid
    JOIN pg_namespace ns ON ns.oid = rel.relnamespace
    -- Postgres 18 (PGlite) also lists NOT NULL as constraints (contype 'n'); earlier servers do
    -- not. Nullability is compared with the columns, so those are left out here.
    WHERE ns.nspname = 'public' AND rel.relname NOT IN (${IGNORED}) AND con.contype <> 'n'`,
  enums: `
    SELECT t.typname::text || ': ' || string_agg(e.enumlabel::text, ',' ORDER BY e.enumsortorder) AS line
    FROM pg_type t
    JOIN pg_enum e ON e.enumtypid = t.oid
    JOIN pg_namespace ns ON ns.oid = t.typnamespace
    WHERE ns.nspname = 'public'
    GROUP BY t.typname`,
  // names only: a server's contrib and PGlite's bundle may ship different versions
  extensions: `SELECT extname::text AS line FROM pg_extension`,
};

export async function readCatalog(query: QueryRows): Promise<Catalog> {
  const catalog = {} as Catalog;
  for (const [key, sql] of Object.entries(QUERIES) as [keyof Catalog, string][]) {
    const rows = await query(sql);
    catalog[key] = rows.map((r) => String(r.line)).sort();
  }
  return catalog;
}

/** Lines present in one catalog only, prefixed `-` (only in `a`) or `+` (only in `b`); empty when equal. */
export function catalogDiff(a: Catalog, b: Catalog): string[] {
  const out: string[] = [];
  for (const key of Object.keys(QUERIES) as (keyof Catalog)[]) {
    const inA = new Set(a[key]);
    const inB = new Set(b[key]);
    for (const line of a[key]) if (!inB.has(line)) out.push(`- ${key}: ${line}`);
    for (const line of b[key]) if (!inA.has(line)) out.push(`+ ${key}: ${line}`);
  }
  return out;
}
