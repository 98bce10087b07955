/**
 * The large data set of the archive benchmarks: 2,000 suppliers, 20,000 materials in 20
 * product lines, ~60,000 supply links with grants, 1,000,000 standard files, 5,000,000 log rows,
 * the agreement and its acceptances — in a dedicated Postgres database, `esm_bench_big`, kept
 * between runs because generating it takes minutes. See lib/big-sql.ts for what the rows are.
 *
 *   pnpm --filter @esm/api exec tsx bench/generate.ts               # generate unless already there
 *   pnpm --filter @esm/api exec tsx bench/generate.ts --regenerate  # drop and generate again
 *   pnpm --filter @esm/api exec tsx bench/generate.ts --drop        # drop it (and its files)
 *
 * The archive benchmarks call ensureBigData(), which reuses the database when it holds the
 * expected counts (`pnpm bench -- <name> --regenerate` forces a new one). The schema and indexes
 * are the app's own: the database is migrated by apps/api/src/db/database.ts like a server does;
 * only while the bulk rows go in are the secondary indexes of the two big tables dropped and
 * then re-created from their own definitions (pg_indexes), which is faster than maintaining them
 * row by row and ends in the same indexes.
 *
 * The files the rows point at are five small real drawings (three PDFs, a PNG, a DXF) stored
 * once under bench/.data/esm_bench_big/files (git-ignored), the storage of the benchmark server,
 * so viewing, printing and downloading any row works. They are generated deterministically: a
 * lost storage dir is re-created with the same sha256s.
 *
 * BENCH_BIG_SCALE=0.01 builds a proportionally smaller set in esm_bench_big_0_01 (for trying
 * the generator out); drop it with --drop and the same variable.
 */
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import pg from 'pg';
import { PDFDocument } from 'pdf-lib';
import { UPLOAD_MAX_BYTES } from '@esm/contracts';
import { openDatabase } from '../src/db/database.ts';
import { drawingDxf, drawingPdf, drawingPng } from '../src/db/demo-drawings.ts';
import { DEMO_PASSWORD, DEMO_SUPPLIERS, DEMO_USERS, seedReference } from '../src/db/seed.ts';
import { hashPassword } from '../src/lib/password.ts';
import { localStorage } from '../src/lib/storage.ts';
import { fileCount, generationSteps, scaledShape, type BigShape, type StoredFile } from './lib/big-sql.ts';
import { onCleanup, runCleanup } from './lib/cleanup.ts';
import { serverUrl } from './lib/postgres.ts';
import { apiDir } from './lib/server.ts';
import { progress, type Row } from './lib/types.ts';

export interface BigData {
  name: string;
  url: string;
  /** The benchmark server's DATA_DIR: its files/ is the storage the rows point at. */
  dataDir: string;
  shape: BigShape;
  /** False when this run generated it. */
  reused: boolean;
  /** When it was generated (all times in the data are relative to it). */
  generatedAt: Date;
  /** Seconds the generation took (this run, or as recorded). */
  generationSeconds: number | null;
}

const BIG_TABLES = ['standard_file', 'access_log'];

function target(): { name: string; url: string; dataDir: string; shape: BigShape } {
  const scale = Number(process.env.BENCH_BIG_SCALE ?? 1);
  if (!(scale > 0 && scale <= 1)) throw new Error('BENCH_BIG_SCALE must be in (0, 1]');
  const name = scale === 1 ? 'esm_bench_big' : `esm_bench_big_${String(scale).replace('.', '_')}`;
  const url = new URL(serverUrl());
  url.pathname = `/${name}`;
  return { name, url: url.toString(), dataDir: path.join(apiDir, 'bench/.data', name), shape: scaledShape(scale) };
}

async function withClient<T>(url: string, fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

const admin = <T>(fn: (c: pg.Client) => Promise<T>) => withClient(serverUrl(), fn);

async function databaseExists(name: string): Promise<boolean> {
  return admin(async (c) => (await c.query('SELECT 1 FROM pg_database WHERE datname = $1', [name])).rowCount === 1);
}

async function dropDatabase(name: string, dataDir: string): Promise<void> {
  await admin((c) => c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
  await rm(dataDir, { recursive: true, force: true });
}

function expectedCounts(shape: BigShape): Record<string, number> {
  return {
    product_line: 20,
    supplier: shape.suppliers,
    material: shape.materials,
    app_user: DEMO_USERS.length + shape.suppliers - DEMO_SUPPLIERS.length,
    keepsecret_acceptance: shape.suppliers,
    standard_file: fileCount(shape.codes),
    access_log: shape.logs,
  };
}

async function actualCounts(url: string, tables: string[]): Promise<Record<string, number>> {
  return withClient(url, async (c) => {
    const out: Record<string, number> = {};
    for (const t of tables) out[t] = Number((await c.query(`SELECT count(*)::bigint AS n FROM "${t}"`)).rows[0].n);
    return out;
  });
}

/** Three PDFs (1–3 A3 sheets), a PNG and a DXF; the PDFs' dates are pinned so the bytes (and sha256) never change. */
async function benchFileBytes(): Promise<{ type: StoredFile['type']; bytes: Uint8Array }[]> {
  const pinned = new Date('2026-01-01T00:00:00Z');
  const pdf = async (n: number) => {
    const raw = await drawingPdf({
      standardCode: `HR-BENCH-D00${n}`,
      version: 'A',
      materialCode: '0001000001',
      caption: 'BENCHMARK DRAWING',
      secretLevel: 'SECRET',
      pages: n,
    });
    const doc = await PDFDocument.load(raw, { updateMetadata: false });
    doc.setCreationDate(pinned);
    doc.setModificationDate(pinned);
    return doc.save();
  };
  return [
    { type: 'pdf', bytes: await pdf(1) },
    { type: 'pdf', bytes: await pdf(2) },
    { type: 'pdf', bytes: await pdf(3) },
    { type: 'png', bytes: await drawingPng({ standardCode: 'HR-BENCH-D004', version: 'A' }) },
    { type: 'dxf', bytes: drawingDxf({ standardCode: 'HR-BENCH-D005', version: 'A' }) },
  ];
}

/** Puts the bench files into the storage (idempotent: content-addressed). */
async function storeBenchFiles(dataDir: string): Promise<StoredFile[]> {
  const storage = localStorage(path.join(dataDir, 'files'));
  const out: StoredFile[] = [];
  for (const f of await benchFileBytes()) {
    const { sha256, size } = await storage.put(Readable.from([Buffer.from(f.bytes)]), UPLOAD_MAX_BYTES);
    out.push({ type: f.type, sha256, size });
  }
  return out;
}

/** The app's schema (its own migrations), menu, agreement, demo suppliers and accounts. */
async function prepareSchema(url: string, dataDir: string) {
  const db = await openDatabase({ databaseUrl: url, dataDir });
  try {
    await db.migrate();
    await seedReference(db.prisma);
    const passwordHash = await hashPassword(DEMO_PASSWORD);
    await db.prisma.supplier.createMany({ data: DEMO_SUPPLIERS });
    await db.prisma.user.createMany({ data: DEMO_USERS.map((u) => ({ ...u, passwordHash })) });
    const staff = await db.prisma.user.findMany({
      where: { account: { in: ['demo3', 'demo7', 'demo8', 'demo9'] } },
      orderBy: { account: 'asc' },
    });
    const agreement = await db.prisma.keepsecretAgreement.findFirstOrThrow({ orderBy: { version: 'desc' } });
    return {
      passwordHash,
      staff: staff.map((u) => ({ id: u.id, account: u.account, name: u.name, type: u.type })),
      agreement: { id: agreement.id, title: agreement.title, version: agreement.version },
    };
  } finally {
    await db.close();
  }
}

async function generate(t: ReturnType<typeof target>): Promise<number> {
  const t0 = performance.now();
  await dropDatabase(t.name, t.dataDir);
  await admin((c) => c.query(`CREATE DATABASE "${t.name}"`));
  // a run cut short leaves no half-filled database behind to be mistaken for a full one
  let complete = false;
  onCleanup(`drop unfinished ${t.name}`, () => (complete ? undefined : dropDatabase(t.name, t.dataDir)));

  progress(`${t.name}: migrating (the app's migrations) and seeding the menu, agreement and demo accounts`);
  const prepared = await prepareSchema(t.url, t.dataDir);
  const files = await storeBenchFiles(t.dataDir);
  const now = new Date();
  const steps = generationSteps({
    shape: t.shape,
    now,
    files,
    demoSupplierNames: [DEMO_SUPPLIERS[0]!.name, DEMO_SUPPLIERS[1]!.name],
    ...prepared,
  });

  await withClient(t.url, async (c) => {
    await c.query(`SET synchronous_commit = off`);
    await c.query(`SET work_mem = '512MB'`);
    await c.query(`SET maintenance_work_mem = '1GB'`);
    const { rows: indexes } = await c.query<{ indexname: string; indexdef: string }>(
      // the audit chain's index stays: its trigger reads the chain's head for every row inserted,
      // which without the index is a scan of the table per row (quadratic: hours for access_log)
      `SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = 'public' AND tablename = ANY($1) AND indexname NOT LIKE '%\\_pkey' AND indexdef NOT LIKE '%(chain_seq%'`,
      [BIG_TABLES],
    );
    for (const i of indexes) await c.query(`DROP INDEX "${i.indexname}"`);
    for (const step of steps) {
      const s = performance.now();
      const res = await c.query(step.sql, step.params);
      if (step.label !== 'helper function')
        progress(
          `${t.name}: ${step.label}: ${res.rowCount ?? 0} rows, ${((performance.now() - s) / 1000).toFixed(1)} s`,
        );
    }
    for (const i of indexes) {
      const s = performance.now();
      await c.query(i.indexdef);
      progress(`${t.name}: index ${i.indexname}: ${((performance.now() - s) / 1000).toFixed(1)} s`);
    }
    const s = performance.now();
    await c.query('VACUUM (ANALYZE)');
    progress(`${t.name}: VACUUM (ANALYZE): ${((performance.now() - s) / 1000).toFixed(1)} s`);
    const seconds = (performance.now() - t0) / 1000;
    // recorded in the database itself, for the report of later runs that reuse it
    await c.query(
      `COMMENT ON DATABASE "${t.name}" IS '${JSON.stringify({ generatedAt: now.toISOString(), generationSeconds: Math.round(seconds) })}'`,
    );
  });
  const expected = expectedCounts(t.shape);
  const actual = await actualCounts(t.url, Object.keys(expected));
  for (const [table, n] of Object.entries(expected))
    if (actual[table] !== n) throw new Error(`${t.name}: ${table} has ${actual[table]} rows, expected ${n}`);
  complete = true;
  return (performance.now() - t0) / 1000;
}

/** When the database was generated and how long it took, as recorded in its comment. */
async function recordedGeneration(t: ReturnType<typeof target>): Promise<{ at: Date; seconds: number | null }> {
  return withClient(t.url, async (c) => {
    const comment = (
      await c.query(`SELECT shobj_description(oid, 'pg_database') AS d FROM pg_database WHERE datname = $1`, [t.name])
    ).rows[0]?.d as string | null;
    const recorded = comment ? (JSON.parse(comment) as { generatedAt?: string; generationSeconds?: number }) : {};
    return { at: new Date(recorded.generatedAt ?? NaN), seconds: recorded.generationSeconds ?? null };
  });
}

/** Whether the existing database can be reused: at least the expected row counts, migrations applied, files stored. */
async function reusable(t: ReturnType<typeof target>): Promise<boolean> {
  if (!(await databaseExists(t.name))) return false;
  const expected = expectedCounts(t.shape);
  const actual = await actualCounts(t.url, Object.keys(expected)).catch(() => ({}) as Record<string, number>);
  // rows added by using it (a view writes a log row, a test upload a file) do not spoil it; missing rows do
  const wrong = Object.entries(expected).filter(([table, n]) => !(actual[table]! >= n));
  if (wrong.length) {
    progress(
      `${t.name}: ${wrong.map(([table, n]) => `${table} ${actual[table] ?? '?'} < ${n}`).join(', ')}: generating again`,
    );
    return false;
  }
  // migrations added since (tables added after the data set was made) are applied as a server would at start
  const db = await openDatabase({ databaseUrl: t.url, dataDir: t.dataDir });
  try {
    const applied = await db.migrate();
    if (applied.length) progress(`${t.name}: applied new migrations ${applied.join(', ')}`);
  } finally {
    await db.close();
  }
  const shas = (await storeBenchFiles(t.dataDir)).map((f) => f.sha256);
  const stray = await withClient(t.url, (c) =>
    c.query(`SELECT sha256 FROM standard_file WHERE sha256 <> ALL($1::text[]) LIMIT 1`, [shas]),
  );
  if (stray.rowCount) {
    progress(`${t.name}: rows point at files the bench storage does not hold: generating again`);
    return false;
  }
  return true;
}

let ensured: Promise<BigData> | undefined;

/** The big database, generated unless a complete one is there (or --regenerate / BENCH_REGENERATE=1 asks for a new one). */
export function ensureBigData(): Promise<BigData> {
  ensured ??= (async () => {
    const t = target();
    const force = process.argv.includes('--regenerate') || process.env.BENCH_REGENERATE === '1';
    if (!force && (await reusable(t))) {
      const { at, seconds } = await recordedGeneration(t);
      progress(
        `${t.name}: reusing (generated ${Number.isNaN(at.getTime()) ? 'at an unknown time' : `${at.toISOString().slice(0, 16)} UTC`})`,
      );
      return { ...t, reused: true, generatedAt: at, generationSeconds: seconds };
    }
    progress(`${t.name}: generating (takes minutes on 2 cores)`);
    const seconds = await generate(t);
    progress(`${t.name}: generated in ${seconds.toFixed(0)} s`);
    return { ...t, reused: false, generatedAt: new Date(), generationSeconds: seconds };
  })();
  return ensured;
}

/** Sizes of the data set, for the report. */
export async function describeBigData(big: BigData): Promise<Row[]> {
  return withClient(big.url, async (c) => {
    const q = async (sql: string) => (await c.query(sql)).rows;
    const rows: Row[] = [];
    const add = (what: string, n: number | string, detail = '') =>
      rows.push({ what, rows: typeof n === 'number' ? n.toLocaleString('en-US') : n, detail });
    const count = async (t: string) => Number((await q(`SELECT count(*)::bigint AS n FROM ${t}`))[0].n);
    add('product lines', await count('product_line'));
    add('materials', await count('material'));
    const [u] = await q(
      `SELECT count(*) FILTER (WHERE supplier_code IS NOT NULL) AS s, count(*) FILTER (WHERE supplier_code IS NULL) AS i FROM app_user`,
    );
    add('suppliers', await count('supplier'), `${u.s} supplier users, ${u.i} staff (demo accounts)`);
    const [sm] = await q(
      `SELECT max(c) AS max, round(avg(c), 1) AS avg FROM (SELECT supplier_code, count(*) AS c FROM supplier_material GROUP BY 1) x`,
    );
    add(
      'supplier_material',
      await count('supplier_material'),
      `avg ${sm.avg} materials per supplier, max ${sm.max} (S001, demo2's supplier)`,
    );
    const [g] = await q(
      `SELECT count(*) FILTER (WHERE valid_until > now() AT TIME ZONE 'UTC') AS valid, count(*) AS n FROM empower_grant`,
    );
    add('empower_grant', Number(g.n), `${g.valid} valid now, ${g.n - g.valid} expired`);
    const st = await q(`SELECT status, count(*) AS n FROM standard_file GROUP BY 1 ORDER BY 1`);
    const codes = Number((await q(`SELECT count(DISTINCT standard_code) AS n FROM standard_file`))[0].n);
    add(
      'standard_file',
      await count('standard_file'),
      `${codes.toLocaleString('en-US')} standard codes; ${st.map((r) => `${r.status} ${Number(r.n).toLocaleString('en-US')}`).join(', ')}`,
    );
    const ac = await q(`SELECT action, count(*) AS n FROM access_log GROUP BY 1 ORDER BY 2 DESC`);
    const span = (
      await q(
        `SELECT to_char(min(created_at), 'YYYY-MM-DD') AS a, to_char(max(created_at), 'YYYY-MM-DD') AS b FROM access_log`,
      )
    )[0];
    add(
      'access_log',
      await count('access_log'),
      `${ac.map((r) => `${r.action} ${Number(r.n).toLocaleString('en-US')}`).join(', ')}; ${span.a} … ${span.b}`,
    );
    add('keepsecret_acceptance', await count('keepsecret_acceptance'), 'one per supplier user (agreement V1)');
    const [size] = await q(`SELECT pg_size_pretty(pg_database_size(current_database())) AS db,
      pg_size_pretty(pg_total_relation_size('standard_file')) AS sf, pg_size_pretty(pg_total_relation_size('access_log')) AS al`);
    add('database size', size.db, `standard_file ${size.sf}, access_log ${size.al} (with indexes)`);
    add(
      'generation',
      big.reused ? 'reused' : 'this run',
      `${big.generationSeconds === null ? '?' : Math.round(big.generationSeconds)} s to generate, on ${Number.isNaN(big.generatedAt.getTime()) ? '?' : big.generatedAt.toISOString().slice(0, 10)}`,
    );
    return rows;
  });
}

/** As a benchmark module (`pnpm bench -- archive-data`): ensure the data set and report its sizes. */
export async function run(): Promise<Row[]> {
  return describeBigData(await ensureBigData());
}

if (import.meta.url === `file://${process.argv[1]}`) {
  try {
    if (process.argv.includes('--drop')) {
      const t = target();
      await dropDatabase(t.name, t.dataDir);
      progress(`${t.name}: dropped, ${t.dataDir} removed`);
    } else {
      const big = await ensureBigData();
      console.table(await describeBigData(big));
    }
  } catch (err) {
    console.error(err);
    process.exitCode = 1;
  } finally {
    await runCleanup();
  }
}
