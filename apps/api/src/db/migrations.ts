/**
 * Applies prisma/migrations in order and records each in `_prisma_migrations` exactly as
 * `prisma migrate deploy` does (same table, checksum = sha256 of migration.sql), so either tool
 * can take over a database the other started. Each migration runs in its own transaction, and a
 * Postgres advisory lock keeps two api processes starting together from applying it twice.
 */
import { createHash, randomUUID } from 'node:crypto';
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { paths } from '../config.ts';

/** The subset of a SQL connection this needs: Prisma's `$executeRawUnsafe`/`$queryRawUnsafe`. */
export interface SqlRunner {
  $executeRawUnsafe(sql: string, ...values: unknown[]): Promise<number>;
  $queryRawUnsafe<T = unknown>(sql: string, ...values: unknown[]): Promise<T>;
  $transaction<R>(fn: (tx: SqlRunner) => Promise<R>, options?: { timeout?: number; maxWait?: number }): Promise<R>;
}

export interface Migration {
  name: string;
  sql: string;
  checksum: string;
}

/**
 * The migrations in prisma/migrations, in order. Read synchronously (~15 small files, a few ms):
 * at a warm embedded start the libuv threadpool's threads share the two cores with V8's
 * background compiles of PGlite's WASM, and the same reads through fs/promises waited
 * 110–120 ms for them (docs/benchmarks.md).
 */
export async function readMigrations(dir = paths.migrations): Promise<Migration[]> {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
  const names = entries
    .filter((d) => d.isDirectory())
    .map((d) => d.name)
    .sort();
  return names.map((name) => {
    const sql = readFileSync(path.join(dir, name, 'migration.sql'), 'utf8');
    return { name, sql, checksum: createHash('sha256').update(sql).digest('hex') };
  });
}

// Prisma's own definition of its bookkeeping table.
const CREATE_TABLE = `CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
    "id" VARCHAR(36) PRIMARY KEY NOT NULL,
    "checksum" VARCHAR(64) NOT NULL,
    "finished_at" TIMESTAMPTZ,
    "migration_name" VARCHAR(255) NOT NULL,
    "logs" TEXT,
    "rolled_back_at" TIMESTAMPTZ,
    "started_at" TIMESTAMPTZ NOT NULL DEFAULT now(),
    "applied_steps_count" INTEGER NOT NULL DEFAULT 0
)`;

/** Splits a migration into statements: the engine writes one statement per `;` line end. */
export function splitStatements(sql: string): string[] {
  const out: string[] = [];
  let current = '';
  let dollar = false;
  for (const line of sql.split('\n')) {
    if ((line.match(/\$\$/g)?.length ?? 0) % 2 === 1) dollar = !dollar;
    current += line + '\n';
    if (!dollar && /;\s*$/.test(line)) {
      if (current.replace(/--.*$/gm, '').trim()) out.push(current.trim());
      current = '';
    }
  }
  if (current.replace(/--.*$/gm, '').trim()) out.push(current.trim());
  return out;
}

/**
 * True when every migration is recorded as applied, finished and unedited: the usual start, which
 * then needs neither the transaction nor the lock (one read instead of five statements). Any
 * other state takes the locked path below, which applies or reports it.
 */
async function allApplied(db: SqlRunner, list: Migration[]): Promise<boolean> {
  // One statement (each one through Prisma costs a round and its own setup). On a
  // database without the table it fails (relation does not exist) — then, as for any other
  // failure here, the locked path below creates the table, applies or reports.
  let done: { migration_name: string; checksum: string }[];
  try {
    done = await db.$queryRawUnsafe(
      'SELECT migration_name, checksum FROM "_prisma_migrations" WHERE rolled_back_at IS NULL AND finished_at IS NOT NULL',
    );
  } catch {
    return false;
  }
  const byName = new Map(done.map((r) => [r.migration_name, r.checksum]));
  return list.every((m) => byName.get(m.name) === m.checksum);
}

export async function applyMigrations(db: SqlRunner, migrations?: Migration[]): Promise<string[]> {
  const list = migrations ?? (await readMigrations());
  if (await allApplied(db, list)) return [];
  return db.$transaction(
    async (tx) => {
      await tx.$executeRawUnsafe('SELECT pg_advisory_xact_lock(72616401)');
      await tx.$executeRawUnsafe(CREATE_TABLE);
      const done = await tx.$queryRawUnsafe<{ migration_name: string; checksum: string; finished_at: Date | null }[]>(
        'SELECT migration_name, checksum, finished_at FROM "_prisma_migrations" WHERE rolled_back_at IS NULL',
      );
      const byName = new Map(done.map((r) => [r.migration_name, r]));
      const applied: string[] = [];
      for (const m of list) {
        const prior = byName.get(m.name);
        if (prior) {
          if (!prior.finished_at) throw new Error(`migration ${m.name} failed earlier; resolve it before starting`);
          if (prior.checksum !== m.checksum) throw new Error(`migration ${m.name} was edited after it was applied`);
          continue;
        }
        const id = randomUUID();
        for (const stmt of splitStatements(m.sql)) await tx.$executeRawUnsafe(stmt);
        await tx.$executeRawUnsafe(
          `INSERT INTO "_prisma_migrations" (id, checksum, migration_name, started_at, finished_at, applied_steps_count)
           VALUES ($1, $2, $3, now(), now(), 1)`,
          id,
          m.checksum,
          m.name,
        );
        applied.push(m.name);
      }
      return applied;
    },
    // building an index over millions of rows takes minutes (docs/benchmarks.md: the bigram
    // indexes on the 5M-row log); a migration that fails still rolls back whole
    { timeout: 30 * 60_000, maxWait: 30_000 },
  );
}
