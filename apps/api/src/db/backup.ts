/**
 * Backup and restore for operators (README "Operators"): the database and the file store
 * together, in one folder.
 *
 *   <backup>/manifest.json    what, when, from which kind of database, how many files
 *   <backup>/database.dump    Postgres server: pg_dump's custom format (restored by pg_restore)
 *   <backup>/pgdata.tar.gz    embedded PGlite: its data directory (dumpDataDir; loadDataDir)
 *   <backup>/files/aa/bb/<sha256>   the file store, content-addressed as on disk
 *
 * Order matters for a backup taken while the portal runs: the database is dumped first (one
 * consistent snapshot), the files copied after. Stored files are written once and never changed
 * or deleted while a row names them, so every row in the dump finds its bytes in the copy; bytes
 * uploaded after the dump started are extra and harmless. (The embedded database belongs to one
 * process: stop the portal before backing it up or restoring it.)
 *
 * Restore goes into an empty database and folder only, and then checks every file a row names
 * (an archive file version, a question's attachment): present, and its sha256 what the row says.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createReadStream, existsSync } from 'node:fs';
import { cp, mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import type { Config } from '../config.ts';
import { embeddedExtensions } from './database.ts';

export interface Manifest {
  format: 'esm-backup/1';
  createdAt: string;
  database: { kind: 'postgres'; file: 'database.dump' } | { kind: 'embedded'; file: 'pgdata.tar.gz' };
  /** The last migration applied to the database backed up. */
  migration: string | null;
  files: number;
  /** Rows whose bytes were not in the file store when the backup was taken (already missing). */
  missingAtBackup: FileRow[];
}

/** A row that names a stored file: its table (standard_file, document_issue_attachment), id and sha256. */
export interface FileRow {
  /** Absent in a manifest written before attachments were checked: standard_file. */
  table?: string;
  id: number;
  sha256: string;
}

/** `standard_file 12`: a row as the operator's messages name it. */
export const rowName = (r: FileRow) => `${r.table ?? 'standard_file'} ${r.id}`;

export interface VerifyReport {
  rows: number;
  ok: number;
  missing: FileRow[];
  corrupt: FileRow[];
}

type Cfg = Pick<Config, 'databaseUrl' | 'dataDir' | 'storageDir'>;
type Log = (line: string) => void;

const KEY = /^[0-9a-f]{64}$/;
const fileOf = (root: string, sha: string) => path.join(root, sha.slice(0, 2), sha.slice(2, 4), sha);

/** libpq's environment for a connection URL, so no password shows in a process list. */
function libpqEnv(url: string): NodeJS.ProcessEnv {
  const u = new URL(url);
  const env: NodeJS.ProcessEnv = { ...process.env };
  if (u.hostname) env.PGHOST = decodeURIComponent(u.hostname);
  if (u.port) env.PGPORT = u.port;
  if (u.username) env.PGUSER = decodeURIComponent(u.username);
  if (u.password) env.PGPASSWORD = decodeURIComponent(u.password);
  env.PGDATABASE = decodeURIComponent(u.pathname.replace(/^\//, '')) || 'postgres';
  const sslmode = u.searchParams.get('sslmode');
  if (sslmode) env.PGSSLMODE = sslmode;
  return env;
}

function run(cmd: string, args: string[], env: NodeJS.ProcessEnv): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { env, stdio: ['ignore', 'inherit', 'pipe'] });
    let err = '';
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('error', (e) => reject(new Error(`${cmd}: ${e.message} (install the PostgreSQL client tools, or set ${cmd === 'pg_dump' || cmd.endsWith('pg_dump') ? 'PG_DUMP' : 'PG_RESTORE'} to their path)`)));
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`${cmd} exited with ${code}: ${err.trim()}`))));
  });
}

async function sha256Of(file: string): Promise<string | null> {
  if (!existsSync(file)) return null;
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** Every file under a content-addressed store (tmp/ and anything else left out). */
export async function storedKeys(root: string): Promise<string[]> {
  const keys: string[] = [];
  const list = async (d: string) => (existsSync(d) ? readdir(d) : []);
  for (const a of await list(root)) {
    if (!/^[0-9a-f]{2}$/.test(a)) continue;
    for (const b of await list(path.join(root, a))) for (const k of await list(path.join(root, a, b))) if (KEY.test(k)) keys.push(k);
  }
  return keys;
}

type Embedded = { query<T>(sql: string): Promise<{ rows: T[] }>; close(): Promise<void> };

/** The rows that name a file, and the last migration, from either kind of database (or an open embedded one). */
async function readCatalogue(cfg: Cfg, open?: Embedded): Promise<{ rows: FileRow[]; migration: string | null }> {
  const q = {
    // every table whose rows own stored bytes (the same two the file store's sweep asks: modules/maintenance)
    rows: `SELECT 'standard_file' AS "table", id, sha256 FROM standard_file
UNION ALL SELECT 'document_issue_attachment', id, sha256 FROM document_issue_attachment ORDER BY 1, 2`,
    migration: `SELECT migration_name FROM _prisma_migrations WHERE finished_at IS NOT NULL ORDER BY migration_name DESC LIMIT 1`,
  };
  if (cfg.databaseUrl) {
    const client = new pg.Client({ connectionString: cfg.databaseUrl });
    await client.connect();
    try {
      const rows = (await client.query<FileRow>(q.rows)).rows;
      const m = (await client.query<{ migration_name: string }>(q.migration)).rows[0];
      return { rows, migration: m?.migration_name ?? null };
    } finally {
      await client.end();
    }
  }
  const db = open ?? (await openEmbedded(cfg));
  try {
    const rows = (await db.query<FileRow>(q.rows)).rows;
    const m = (await db.query<{ migration_name: string }>(q.migration)).rows[0];
    return { rows, migration: m?.migration_name ?? null };
  } finally {
    if (!open) await db.close();
  }
}

async function openEmbedded(cfg: Cfg, loadDataDir?: Blob): Promise<Embedded> {
  const { PGlite } = await import('@electric-sql/pglite');
  const dataDir = path.join(cfg.dataDir, 'pgdata');
  return PGlite.create({ dataDir, extensions: await embeddedExtensions(), ...(loadDataDir ? { loadDataDir } : {}) });
}

async function emptyOrAbsent(dir: string): Promise<boolean> {
  return !existsSync(dir) || (await readdir(dir)).length === 0;
}

/** Writes a backup of the database and the file store into `dir` (created; must be empty). */
export async function backup(cfg: Cfg, dir: string, log: Log = console.log): Promise<Manifest> {
  if (!(await emptyOrAbsent(dir))) throw new Error(`backup folder ${dir} is not empty`);
  await mkdir(dir, { recursive: true });
  let database: Manifest['database'];
  let catalogue: Awaited<ReturnType<typeof readCatalogue>>;
  // 1. the database: one consistent snapshot
  if (cfg.databaseUrl) {
    database = { kind: 'postgres', file: 'database.dump' };
    // database_identity's row stays behind: a restored database is another database, which must
    // not take over a file store unnoticed (lib/storage/identity.ts; STORAGE_ADOPT says it may)
    await run(process.env.PG_DUMP || 'pg_dump', ['--format=custom', '--no-owner', '--no-privileges', '--exclude-table-data=database_identity', `--file=${path.join(dir, database.file)}`], libpqEnv(cfg.databaseUrl));
    catalogue = await readCatalogue(cfg);
  } else {
    database = { kind: 'embedded', file: 'pgdata.tar.gz' };
    const db = (await openEmbedded(cfg)) as Embedded & { dumpDataDir(c: 'gzip'): Promise<Blob> };
    try {
      const tarball = await db.dumpDataDir('gzip');
      await writeFile(path.join(dir, database.file), Buffer.from(await tarball.arrayBuffer()));
      catalogue = await readCatalogue(cfg, db);
    } finally {
      await db.close();
    }
  }
  log(`database → ${path.join(dir, database.file)}`);

  // 2. the files, after the snapshot: every row in it finds its bytes
  const files = path.join(dir, 'files');
  await mkdir(files, { recursive: true });
  const keys = await storedKeys(cfg.storageDir);
  for (const key of keys) {
    const target = fileOf(files, key);
    await mkdir(path.dirname(target), { recursive: true });
    await cp(fileOf(cfg.storageDir, key), target, { preserveTimestamps: true });
  }
  log(`${keys.length} files → ${files}`);
  const copied = new Set(keys);
  const missingAtBackup = catalogue.rows.filter((r) => !copied.has(r.sha256));
  for (const m of missingAtBackup) log(`warning: file of ${rowName(m)} (${m.sha256}) was already missing from the file store`);

  const manifest: Manifest = { format: 'esm-backup/1', createdAt: new Date().toISOString(), database, migration: catalogue.migration, files: keys.length, missingAtBackup };
  await writeFile(path.join(dir, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  return manifest;
}

/** Checks every file a row names: present in the store and its sha256 what the row says. */
export async function verifyFiles(cfg: Cfg, open?: Embedded): Promise<VerifyReport> {
  const { rows } = await readCatalogue(cfg, open);
  const report: VerifyReport = { rows: rows.length, ok: 0, missing: [], corrupt: [] };
  for (const r of rows) {
    const actual = await sha256Of(fileOf(cfg.storageDir, r.sha256));
    if (actual === null) report.missing.push(r);
    else if (actual !== r.sha256) report.corrupt.push(r);
    else report.ok++;
  }
  return report;
}

/**
 * Restores a backup into the configured database and file store, both empty (a fresh database
 * created beforehand; DATA_DIR/pgdata absent for the embedded one), then verifies every file.
 */
export async function restore(cfg: Cfg, dir: string, log: Log = console.log): Promise<VerifyReport> {
  const manifest = JSON.parse(await readFile(path.join(dir, 'manifest.json'), 'utf8')) as Manifest;
  if (manifest.format !== 'esm-backup/1') throw new Error(`${dir}: not a backup of this portal (manifest format ${manifest.format})`);
  if (!(await emptyOrAbsent(cfg.storageDir))) throw new Error(`the file store ${cfg.storageDir} is not empty: restore into an empty folder`);
  let embedded: Embedded | undefined;

  if (manifest.database.kind === 'postgres') {
    if (!cfg.databaseUrl) throw new Error('this backup is of a Postgres database: set DATABASE_URL to a new, empty database');
    const client = new pg.Client({ connectionString: cfg.databaseUrl });
    await client.connect();
    try {
      const { rows } = await client.query<{ n: number }>(`SELECT count(*)::int AS n FROM pg_tables WHERE schemaname = 'public'`);
      if (rows[0]!.n > 0) throw new Error('the database named by DATABASE_URL is not empty: create a new one and restore into it');
    } finally {
      await client.end();
    }
    await run(process.env.PG_RESTORE || 'pg_restore', ['--no-owner', '--no-privileges', '--exit-on-error', `--dbname=${libpqEnv(cfg.databaseUrl).PGDATABASE}`, path.join(dir, manifest.database.file)], libpqEnv(cfg.databaseUrl));
  } else {
    if (cfg.databaseUrl) throw new Error('this backup is of the embedded database: unset DATABASE_URL (it restores into DATA_DIR/pgdata)');
    const pgdata = path.join(cfg.dataDir, 'pgdata');
    if (!(await emptyOrAbsent(pgdata))) throw new Error(`${pgdata} is not empty: restore into a new DATA_DIR`);
    await mkdir(pgdata, { recursive: true });
    embedded = await openEmbedded(cfg, new Blob([await readFile(path.join(dir, manifest.database.file))]));
  }
  log(`database ← ${path.join(dir, manifest.database.file)}`);

  await mkdir(cfg.storageDir, { recursive: true });
  await cp(path.join(dir, 'files'), cfg.storageDir, { recursive: true, preserveTimestamps: true });
  log(`${manifest.files} files ← ${path.join(dir, 'files')}`);

  let report: VerifyReport;
  try {
    report = await verifyFiles(cfg, embedded);
  } finally {
    await embedded?.close();
  }
  log(`verified ${report.ok} of ${report.rows} files (sha256)${report.missing.length ? `; missing: ${report.missing.map(rowName).join(', ')}` : ''}${report.corrupt.length ? `; damaged: ${report.corrupt.map(rowName).join(', ')}` : ''}`);
  return report;
}
