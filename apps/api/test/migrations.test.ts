/**
 * Migrations: prisma/migrations builds exactly what prisma/schema.prisma describes (no drift),
 * on the embedded PGlite and on a Postgres server alike; applyMigrations records
 * `_prisma_migrations` as Prisma does and applies each migration once; the one schema copy
 * `db:diff` starts from is the schema the migrations build.
 */
import { createHash } from 'node:crypto';
import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { PGlite } from '@electric-sql/pglite';
import { paths } from '../src/config.ts';
import { embeddedExtensions, openDatabase, type Database } from '../src/db/database.ts';
import { catalogDiff, readCatalog, type Catalog, type QueryRows } from '../src/db/drift.ts';
import { applyMigrations, readMigrations } from '../src/db/migrations.ts';
import { declaredSchemaSql } from '../src/db/schema-engine.ts';
import { createDatabase, dropDatabase, withDatabase } from './databases.ts';

const pgliteRows =
  (db: PGlite): QueryRows =>
  async (sql) =>
    (await db.query<Record<string, unknown>>(sql)).rows;
const prismaRows =
  (db: Database): QueryRows =>
  (sql) =>
    db.prisma.$queryRawUnsafe<Record<string, unknown>[]>(sql);

let fromSchema: Catalog;

describe('schema drift', () => {
  let fromMigrations: Catalog;

  beforeAll(async () => {
    // as the embedded server opens it: with the contrib extensions the schema declares
    const a = await PGlite.create({ extensions: await embeddedExtensions() });
    const b = await PGlite.create({ extensions: await embeddedExtensions() });
    try {
      for (const m of await readMigrations()) await a.exec(m.sql);
      await b.exec(await declaredSchemaSql());
      fromMigrations = await readCatalog(pgliteRows(a));
      fromSchema = await readCatalog(pgliteRows(b));
    } finally {
      await a.close();
      await b.close();
    }
  }, 180_000);

  it('the catalog is not empty (the check compares something)', () => {
    expect(fromSchema.tables).toEqual(
      expect.arrayContaining([
        'app_user',
        'http_session',
        'login_attempt',
        'menu_entry',
        'menu_grant',
        'supplier',
        'visit_event',
      ]),
    );
    expect(fromSchema.columns.length).toBeGreaterThan(30);
    expect(fromSchema.indexes.length).toBeGreaterThan(5);
    expect(fromSchema.constraints.some((c) => c.includes('FOREIGN KEY'))).toBe(true);
    expect(fromSchema.columns.some((c) => c.startsWith('http_session.expires_at '))).toBe(true);
  });

  it('has pg_trgm and the trigram indexes of the "contains" filters', () => {
    expect(fromSchema.extensions).toContain('pg_trgm');
    for (const [table, column] of [
      ['standard_file', 'name'],
      ['access_log', 'user_account'],
      ['access_log', 'user_name'],
    ]) {
      expect(
        fromSchema.indexes.some((i) => i.startsWith(`${table} `) && i.includes(`USING gin (${column} gin_trgm_ops)`)),
      ).toBe(true);
    }
  });

  it('has the bigram indexes of the short "contains" filters, one per trigram index', () => {
    const columnOf = (index: string, re: RegExp) => `${index.split(' ')[0]}.${re.exec(index)?.[1]}`;
    const trigram = fromSchema.indexes
      .filter((i) => i.includes('gin_trgm_ops'))
      .map((i) => columnOf(i, /USING gin \((\w+) gin_trgm_ops\)/));
    const bigram = fromSchema.indexes
      .filter((i) => i.includes('text_bigrams('))
      .map((i) => columnOf(i, /text_bigrams\(\(?(\w+)/));
    expect(trigram.length).toBeGreaterThanOrEqual(4);
    expect(bigram.sort()).toEqual(trigram.sort());
    expect(fromMigrations.indexes.filter((i) => i.includes('text_bigrams('))).toHaveLength(bigram.length);
  });

  it('prisma/migrations builds exactly what schema.prisma describes', () => {
    expect(catalogDiff(fromMigrations, fromSchema)).toEqual([]);
    expect(fromMigrations).toEqual(fromSchema);
  });

  it('keeps one schema copy for db:diff, equal to schema.prisma, and none per migration folder', async () => {
    // db:diff writes the next migration from this copy: a stale one would repeat or undo a change
    expect(await readFile(paths.migrationsBase, 'utf8')).toBe(await readFile(paths.schema, 'utf8'));
    for (const m of await readMigrations()) {
      expect((await readdir(path.join(paths.migrations, m.name))).sort(), m.name).toEqual(['migration.sql']);
    }
  });

  it('catalogDiff reports a difference', () => {
    const changed = {
      ...fromSchema,
      columns: fromSchema.columns.map((c) =>
        c.startsWith('app_user.mobile ') ? c.replace(' NULL ', ' NOT NULL ') : c,
      ),
    };
    const diff = catalogDiff(fromSchema, changed);
    expect(diff).toHaveLength(2);
    expect(diff[0]).toMatch(/^- columns: app_user\.mobile /);
    expect(diff[1]).toMatch(/^\+ columns: app_user\.mobile .*NOT NULL/);
  });
});

describe('applyMigrations on a Postgres server', () => {
  const serverUrl = inject('serverUrl');
  const names: string[] = [];
  const fresh = async () => {
    const name = `esm_test_mig_${Date.now()}_${process.pid}_${names.length}`;
    await createDatabase(serverUrl, name);
    names.push(name);
    return openDatabase({ databaseUrl: withDatabase(serverUrl, name), dataDir: '' });
  };
  const open: Database[] = [];

  afterAll(async () => {
    for (const db of open) await db.close().catch(() => {});
    for (const name of names) await dropDatabase(serverUrl, name);
  });

  it('records each migration with checksum = sha256(migration.sql) and applies nothing twice', async () => {
    const db = await fresh();
    open.push(db);
    const folders = (await readdir(paths.migrations, { withFileTypes: true }))
      .filter((d) => d.isDirectory())
      .map((d) => d.name)
      .sort();
    expect(folders.length).toBeGreaterThan(0);

    const applied = await db.migrate();
    expect(applied).toEqual(folders);

    const rows = await db.prisma.$queryRawUnsafe<
      {
        migration_name: string;
        checksum: string;
        finished_at: Date | null;
        rolled_back_at: Date | null;
        applied_steps_count: number;
        logs: string | null;
      }[]
    >(
      'SELECT migration_name, checksum, finished_at, rolled_back_at, applied_steps_count, logs FROM "_prisma_migrations" ORDER BY migration_name',
    );
    expect(rows.map((r) => r.migration_name)).toEqual(folders);
    for (const r of rows) {
      const sql = await readFile(path.join(paths.migrations, r.migration_name, 'migration.sql'));
      expect(r.checksum).toBe(createHash('sha256').update(sql).digest('hex'));
      expect(r.finished_at).toBeInstanceOf(Date);
      expect(r.rolled_back_at).toBeNull();
      expect(Number(r.applied_steps_count)).toBe(1);
    }

    expect(await db.migrate()).toEqual([]);
    const again = await db.prisma.$queryRawUnsafe<{ n: bigint }[]>('SELECT count(*) AS n FROM "_prisma_migrations"');
    expect(Number(again[0].n)).toBe(folders.length);
  });

  it('builds on Postgres the same schema as schema.prisma describes', async () => {
    const db = open[0] ?? (await fresh());
    if (!open.includes(db)) {
      open.push(db);
      await db.migrate();
    }
    expect(fromSchema).toBeDefined();
    expect(catalogDiff(await readCatalog(prismaRows(db)), fromSchema)).toEqual([]);
  });

  it('refuses a migration edited after it was applied', async () => {
    const db = open[0]!;
    const edited = (await readMigrations()).map((m, i) => (i === 0 ? { ...m, checksum: 'f'.repeat(64) } : m));
    await expect(applyMigrations(db.prisma as never, edited)).rejects.toThrow(/edited after it was applied/);
  });

  it('a migration that fails through the driver (db.sql) rolls back whole and is not recorded', async () => {
    const db = open[0]!;
    const broken = [
      ...(await readMigrations()),
      {
        name: '99999999999999_broken',
        sql: 'CREATE TABLE "mig_probe" (id int);\nSELECT 1/0;\n',
        checksum: 'b'.repeat(64),
      },
    ];
    await expect(applyMigrations(db.sql, broken)).rejects.toThrow(/division by zero/);
    const left = await db.sql.$queryRawUnsafe<{ probe: string | null; recorded: number }[]>(
      `SELECT to_regclass('mig_probe')::text AS probe, (SELECT count(*)::int FROM "_prisma_migrations" WHERE migration_name = '99999999999999_broken') AS recorded`,
    );
    expect(left).toEqual([{ probe: null, recorded: 0 }]);
    expect(await db.migrate()).toEqual([]); // the connection went back to the pool usable
  });

  it('two processes starting together apply each migration once', async () => {
    const first = await fresh();
    open.push(first);
    const second = await openDatabase({ databaseUrl: withDatabase(serverUrl, names.at(-1)!), dataDir: '' });
    open.push(second);
    const [a, b] = await Promise.all([first.migrate(), second.migrate()]);
    const all = (await readMigrations()).map((m) => m.name);
    expect([...a, ...b].sort()).toEqual(all);
    expect(a.length === 0 || b.length === 0).toBe(true);
  });
});
