/**
 * Backup, restore and verification for operators (docs/operators.md): the database and the
 * file store together, in one folder.
 *
 *   <backup>/manifest.json    what, when, from which kind of database, rows per table, files
 *   <backup>/database.dump    Postgres server: pg_dump's custom format (restored by pg_restore)
 *   <backup>/pgdata.tar.gz    embedded PGlite: its data directory (dumpDataDir; loadDataDir)
 *   <backup>/files/aa/bb/<sha256>   every stored file a row of the snapshot names (local store)
 *
 * Order matters for a backup taken while the portal runs: the database is read in one snapshot
 * (pg_dump, the row counts and the list of files all in the same transaction), the files copied
 * after. Stored files are written once and never changed or removed while a row names them, so
 * every row in the dump finds its bytes; files uploaded after the snapshot belong to rows the dump
 * does not have. (The embedded database belongs to one process: stop the portal first.)
 *
 * An object store (S3) is not copied: a bucket is protected by its own versioning, which keeps
 * every object's bytes whatever the portal does. A backup then checks that every file its rows
 * name exists in the store, and a restore that they still do.
 *
 * Restore goes into an empty database (and an empty local folder) only, ends every session the
 * copy holds (a session logged out after the backup must not come back), and checks every file a
 * row names: present, and its sha256 what the row says. `verifyBackup` restores into a throwaway
 * database and compares it with the manifest.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream, existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import pg from 'pg';
import type { Config } from '../config.ts';
import { localStorage, type Storage } from '../lib/storage.ts';
import { embeddedExtensions } from './database.ts';

export interface Manifest {
  format: 'esm-backup/1';
  createdAt: string;
  database: { kind: 'postgres'; file: 'database.dump' } | { kind: 'embedded'; file: 'pgdata.tar.gz' };
  /** The last migration applied to the database backed up. */
  migration: string | null;
  files: number;
  /**
   * How the stored files are covered: copied into files/ (a local folder), or checked present in
   * an object store whose versioning keeps them. Absent in older backups: copied.
   */
  store?: 'copied' | 'checked';
  /** Rows per table of the public schema in the snapshot (absent in older backups). */
  tables?: Record<string, number>;
  /** Rows whose bytes were missing (or damaged) in the file store when the backup was taken. */
  missingAtBackup: FileRow[];
}

/**
 * The file store a backup reads and a restore fills, through the storage interface the portal
 * itself uses. `dir`: the local folder behind it — its files are copied into the backup and a
 * restore needs it empty. Without `dir` (an object store) files are checked, never copied.
 */
export interface FileStore {
  storage: Storage;
  dir?: string;
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

type Cfg = Pick<Config, 'databaseUrl' | 'dataDir' | 'storageDir'> &
  Partial<Pick<Config, 'pgDump' | 'pgRestore'>> & {
    /** The file store; default the local folder storageDir. */
    store?: FileStore;
  };
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
    child.on('error', (e) =>
      reject(
        new Error(
          `${cmd}: ${e.message} (install the PostgreSQL client tools, or set ${cmd === 'pg_dump' || cmd.endsWith('pg_dump') ? 'PG_DUMP' : 'PG_RESTORE'} to their path)`,
        ),
      ),
    );
    child.on('close', (code) =>
      code === 0 ? resolve() : reject(new Error(`${cmd} exited with ${code}: ${err.trim()}`)),
    );
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
    for (const b of await list(path.join(root, a)))
      for (const k of await list(path.join(root, a, b))) if (KEY.test(k)) keys.push(k);
  }
  return keys;
}

type Embedded = { query<T>(sql: string): Promise<{ rows: T[] }>; close(): Promise<void> };
/** A connection that answers SQL: a pg client (inside the backup's snapshot) or an open embedded database. */
type Queryable = Pick<Embedded, 'query'>;

const asQueryable = (client: pg.Client): Queryable => ({
  query: async <T>(sql: string) => ({ rows: (await client.query(sql)).rows as T[] }),
});

const storeOf = (cfg: Cfg): FileStore => cfg.store ?? { storage: localStorage(cfg.storageDir), dir: cfg.storageDir };

/** What a backup records about the database besides the dump: the rows that name files, the last migration, rows per table. */
interface Catalogue {
  rows: FileRow[];
  migration: string | null;
  tables: Record<string, number>;
}

const CATALOGUE = {
  // every table whose rows own stored bytes (the same two the file store's sweep asks: modules/maintenance)
  rows: `SELECT 'standard_file' AS "table", id, sha256 FROM standard_file
UNION ALL SELECT 'document_issue_attachment', id, sha256 FROM document_issue_attachment ORDER BY 1, 2`,
  migration: `SELECT migration_name FROM _prisma_migrations WHERE finished_at IS NOT NULL ORDER BY migration_name DESC LIMIT 1`,
  tables: `SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY 1`,
};

async function countTables(db: Queryable): Promise<Record<string, number>> {
  const names = (await db.query<{ tablename: string }>(CATALOGUE.tables)).rows.map((r) => r.tablename);
  if (!names.length) return {};
  const literal = (n: string) => `'${n.replace(/'/g, "''")}'`;
  const ident = (n: string) => `"${n.replace(/"/g, '""')}"`;
  const { rows } = await db.query<{ t: string; n: string }>(
    names.map((n) => `SELECT ${literal(n)} AS t, count(*)::text AS n FROM public.${ident(n)}`).join('\nUNION ALL '),
  );
  return Object.fromEntries(rows.map((r) => [r.t, Number(r.n)]));
}

async function readCatalogue(db: Queryable): Promise<Catalogue> {
  const rows = (await db.query<FileRow>(CATALOGUE.rows)).rows.map((r) => ({
    table: r.table,
    id: Number(r.id),
    sha256: r.sha256,
  }));
  const m = (await db.query<{ migration_name: string }>(CATALOGUE.migration)).rows[0];
  return { rows, migration: m?.migration_name ?? null, tables: await countTables(db) };
}

/**
 * Runs `work` inside one read-only snapshot of the database and hands it the snapshot's id, which
 * pg_dump imports (--snapshot): the dump, the counts and the list of files describe the same moment.
 */
async function inSnapshot<T>(url: string, work: (db: Queryable, snapshot: string) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    const { rows } = await client.query<{ id: string }>('SELECT pg_export_snapshot() AS id');
    const result = await work(asQueryable(client), rows[0]!.id);
    await client.query('COMMIT');
    return result;
  } finally {
    await client.end();
  }
}

async function withClient<T>(url: string, work: (db: Queryable) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(asQueryable(client));
  } finally {
    await client.end();
  }
}

async function openEmbedded(cfg: Pick<Cfg, 'dataDir'>, loadDataDir?: Blob): Promise<Embedded> {
  const { PGlite } = await import('@electric-sql/pglite');
  const dataDir = path.join(cfg.dataDir, 'pgdata');
  return PGlite.create({ dataDir, extensions: await embeddedExtensions(), ...(loadDataDir ? { loadDataDir } : {}) });
}

async function emptyOrAbsent(dir: string): Promise<boolean> {
  return !existsSync(dir) || (await readdir(dir)).length === 0;
}

const hashing = (hash: ReturnType<typeof createHash>) =>
  new Transform({
    transform(chunk: Buffer, _enc, cb) {
      hash.update(chunk);
      cb(null, chunk);
    },
  });

/** Copies a stored file out of the store into `target`, checking its sha256 on the way. */
async function copyOut(storage: Storage, sha: string, target: string): Promise<'ok' | 'missing' | 'damaged'> {
  let source: Readable;
  try {
    if (!(await storage.exists(sha))) return 'missing';
    source = await storage.stream(sha);
  } catch {
    return 'missing';
  }
  await mkdir(path.dirname(target), { recursive: true });
  const partial = `${target}.partial`;
  const hash = createHash('sha256');
  try {
    await pipeline(source, hashing(hash), createWriteStream(partial));
  } catch (e) {
    await rm(partial, { force: true });
    throw e;
  }
  if (hash.digest('hex') !== sha) {
    await rm(partial, { force: true });
    return 'damaged';
  }
  await rename(partial, target);
  return 'ok';
}

/** A stored file's bytes hashed, or null when the store does not have it. */
async function storedSha256(storage: Storage, sha: string): Promise<string | null> {
  let source: Readable;
  try {
    if (!(await storage.exists(sha))) return null;
    source = await storage.stream(sha);
  } catch {
    return null;
  }
  const hash = createHash('sha256');
  for await (const chunk of source) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** Writes a backup of the database and the file store into `dir` (created; must be empty). */
export async function backup(cfg: Cfg, dir: string, log: Log = console.log): Promise<Manifest> {
  if (!(await emptyOrAbsent(dir))) throw new Error(`backup folder ${dir} is not empty`);
  await mkdir(dir, { recursive: true });
  try {
    return await writeBackup(cfg, dir, log);
  } catch (e) {
    // nothing half-written stays behind for a restore (or the retention) to take for a backup
    for (const entry of await readdir(dir)) await rm(path.join(dir, entry), { recursive: true, force: true });
    throw e;
  }
}

async function writeBackup(cfg: Cfg, dir: string, log: Log): Promise<Manifest> {
  const createdAt = new Date().toISOString();
  const store = storeOf(cfg);
  let database: Manifest['database'];
  let catalogue: Catalogue;
  // 1. the database: one consistent snapshot, counted and listed in the same transaction
  if (cfg.databaseUrl) {
    database = { kind: 'postgres', file: 'database.dump' };
    // database_identity's row stays behind: a restored database is another database, which must
    // not take over a file store unnoticed (lib/storage/identity.ts; STORAGE_ADOPT says it may)
    const url = cfg.databaseUrl;
    const dumpArgs = (snapshot: string) => [
      '--format=custom',
      '--no-owner',
      '--no-privileges',
      '--exclude-table-data=database_identity',
      `--snapshot=${snapshot}`,
      `--file=${path.join(dir, database.file)}`,
    ];
    catalogue = await inSnapshot(
      url,
      async (db, snapshot) =>
        (await Promise.all([readCatalogue(db), run(cfg.pgDump ?? 'pg_dump', dumpArgs(snapshot), libpqEnv(url))]))[0],
    );
  } else {
    database = { kind: 'embedded', file: 'pgdata.tar.gz' };
    const db = (await openEmbedded(cfg)) as Embedded & { dumpDataDir(c: 'gzip'): Promise<Blob> };
    try {
      const tarball = await db.dumpDataDir('gzip');
      await writeFile(path.join(dir, database.file), Buffer.from(await tarball.arrayBuffer()));
      catalogue = await readCatalogue(db);
    } finally {
      await db.close();
    }
  }
  log(`database → ${path.join(dir, database.file)} (${Object.keys(catalogue.tables).length} tables)`);

  // 2. the files, after the snapshot: every row in it finds its bytes
  const shas = [...new Set(catalogue.rows.map((r) => r.sha256))];
  const unusable = new Map<string, 'missing' | 'damaged'>();
  if (store.dir !== undefined) {
    const files = path.join(dir, 'files');
    await mkdir(files, { recursive: true });
    for (const sha of shas) {
      const state = await copyOut(store.storage, sha, fileOf(files, sha));
      if (state !== 'ok') unusable.set(sha, state);
    }
    log(`${shas.length - unusable.size} files → ${files}`);
  } else {
    for (const sha of shas) if (!(await store.storage.exists(sha))) unusable.set(sha, 'missing');
    log(`${shas.length - unusable.size} files present in the object store (not copied: its versioning keeps them)`);
  }
  const missingAtBackup = catalogue.rows.filter((r) => unusable.has(r.sha256));
  for (const m of missingAtBackup)
    log(`warning: file of ${rowName(m)} (${m.sha256}) was already ${unusable.get(m.sha256)} in the file store`);

  const manifest: Manifest = {
    format: 'esm-backup/1',
    createdAt,
    database,
    migration: catalogue.migration,
    files: shas.length - unusable.size,
    store: store.dir !== undefined ? 'copied' : 'checked',
    tables: catalogue.tables,
    missingAtBackup,
  };
  // written last: a folder with a manifest is a complete backup
  await writeFile(path.join(dir, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  return manifest;
}

/** Checks every file a row names: present in the store and (`hash`) its sha256 what the row says. */
async function checkFiles(rows: FileRow[], storage: Storage, hash: boolean): Promise<VerifyReport> {
  const report: VerifyReport = { rows: rows.length, ok: 0, missing: [], corrupt: [] };
  const seen = new Map<string, 'ok' | 'missing' | 'corrupt'>();
  for (const r of rows) {
    let state = seen.get(r.sha256);
    if (!state) {
      if (hash) {
        const actual = await storedSha256(storage, r.sha256);
        state = actual === null ? 'missing' : actual === r.sha256 ? 'ok' : 'corrupt';
      } else state = (await storage.exists(r.sha256)) ? 'ok' : 'missing';
      seen.set(r.sha256, state);
    }
    if (state === 'ok') report.ok++;
    else report[state].push(r);
  }
  return report;
}

/** Removes every session of a restored database: a session logged out after the backup must not come back. */
async function endSessions(db: Queryable): Promise<number> {
  const exists = (await db.query<{ t: string | null }>(`SELECT to_regclass('public.http_session')::text AS t`)).rows[0]
    ?.t;
  if (!exists) return 0;
  return Number(
    (
      await db.query<{ n: string }>(
        'WITH gone AS (DELETE FROM http_session RETURNING 1) SELECT count(*)::text AS n FROM gone',
      )
    ).rows[0]!.n,
  );
}

async function readManifest(dir: string): Promise<Manifest> {
  let manifest: Manifest;
  try {
    manifest = JSON.parse(await readFile(path.join(dir, 'manifest.json'), 'utf8')) as Manifest;
  } catch {
    throw new Error(`${dir}: no readable manifest.json, not a complete backup of this portal`);
  }
  if (manifest.format !== 'esm-backup/1')
    throw new Error(`${dir}: not a backup of this portal (manifest format ${manifest.format})`);
  return manifest;
}

/**
 * Restores a backup into the configured database and file store — the database empty (a fresh
 * one created beforehand; DATA_DIR/pgdata absent for the embedded one), a local store's folder
 * empty — ends every session in it, then checks every file its rows name.
 */
export async function restore(cfg: Cfg, dir: string, log: Log = console.log): Promise<VerifyReport> {
  const manifest = JSON.parse(await readFile(path.join(dir, 'manifest.json'), 'utf8')) as Manifest;
  if (manifest.format !== 'esm-backup/1')
    throw new Error(`${dir}: not a backup of this portal (manifest format ${manifest.format})`);
  const store = storeOf(cfg);
  const copied = manifest.store !== 'checked';
  if (copied && store.dir !== undefined && !(await emptyOrAbsent(store.dir)))
    throw new Error(`the file store ${store.dir} is not empty: restore into an empty folder`);
  let embedded: Embedded | undefined;

  if (manifest.database.kind === 'postgres') {
    if (!cfg.databaseUrl)
      throw new Error('this backup is of a Postgres database: set DATABASE_URL to a new, empty database');
    const client = new pg.Client({ connectionString: cfg.databaseUrl });
    await client.connect();
    try {
      const { rows } = await client.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM pg_tables WHERE schemaname = 'public'`,
      );
      if (rows[0]!.n > 0)
        throw new Error('the database named by DATABASE_URL is not empty: create a new one and restore into it');
    } finally {
      await client.end();
    }
    await run(
      cfg.pgRestore ?? 'pg_restore',
      [
        '--no-owner',
        '--no-privileges',
        '--exit-on-error',
        `--dbname=${libpqEnv(cfg.databaseUrl).PGDATABASE}`,
        path.join(dir, manifest.database.file),
      ],
      libpqEnv(cfg.databaseUrl),
    );
  } else {
    if (cfg.databaseUrl)
      throw new Error('this backup is of the embedded database: unset DATABASE_URL (it restores into DATA_DIR/pgdata)');
    const pgdata = path.join(cfg.dataDir, 'pgdata');
    if (!(await emptyOrAbsent(pgdata))) throw new Error(`${pgdata} is not empty: restore into a new DATA_DIR`);
    await mkdir(pgdata, { recursive: true });
    embedded = await openEmbedded(cfg, new Blob([await readFile(path.join(dir, manifest.database.file))]));
  }
  log(`database ← ${path.join(dir, manifest.database.file)}`);

  try {
    const inRestored = <T>(work: (db: Queryable) => Promise<T>) =>
      embedded ? work(embedded) : withClient(cfg.databaseUrl!, work);
    const ended = await inRestored(endSessions);
    log(`${ended} session(s) of the backup ended: everyone signs in again`);

    // the backup's files into the store, each one's bytes checked against its name first
    const damagedInBackup = new Set<string>();
    if (copied) {
      const files = path.join(dir, 'files');
      let stored = 0;
      for (const key of await storedKeys(files)) {
        const file = fileOf(files, key);
        if ((await sha256Of(file)) !== key) {
          damagedInBackup.add(key);
          continue;
        }
        await store.storage.put(createReadStream(file), (await stat(file)).size);
        stored++;
      }
      log(`${stored} files ← ${files}`);
    }

    const { rows } = await inRestored(readCatalogue);
    const report = await checkFiles(rows, store.storage, copied);
    // a row whose bytes were damaged in the backup is damaged, not merely missing
    report.corrupt.push(...report.missing.filter((r) => damagedInBackup.has(r.sha256)));
    report.missing = report.missing.filter((r) => !damagedInBackup.has(r.sha256));
    const what = copied
      ? `verified ${report.ok} of ${report.rows} files (sha256)`
      : `found ${report.ok} of ${report.rows} files in the object store`;
    log(
      `${what}${report.missing.length ? `; missing: ${report.missing.map(rowName).join(', ')}` : ''}${report.corrupt.length ? `; damaged: ${report.corrupt.map(rowName).join(', ')}` : ''}`,
    );
    return report;
  } finally {
    await embedded?.close();
  }
}

/** The outcome of `verifyBackup`: what is wrong (empty: the backup restores as recorded), and what was compared. */
export interface BackupCheck {
  problems: string[];
  tables: number;
  files: number;
}

/** The backup folder of a path given on the command line: the folder itself, or any file in it. */
export async function backupFolderOf(target: string): Promise<string> {
  let isDir: boolean;
  try {
    isDir = (await stat(target)).isDirectory();
  } catch {
    throw new Error(`${target}: no such backup folder or file`);
  }
  return isDir ? target : path.dirname(target);
}

/** Runs `work` on the backup's database restored into a throwaway one, removed afterwards whatever happens. */
async function inThrowaway<T>(
  cfg: Cfg,
  dir: string,
  manifest: Manifest,
  work: (db: Queryable) => Promise<T>,
): Promise<T> {
  const source = path.join(dir, manifest.database.file);
  if (!existsSync(source)) throw new Error(`${source}: the database file of this backup is missing`);
  if (manifest.database.kind === 'embedded') {
    const tmp = await mkdtemp(path.join(tmpdir(), 'esm-verify-'));
    try {
      const db = await openEmbedded({ dataDir: tmp }, new Blob([await readFile(source)]));
      try {
        return await work(db);
      } finally {
        await db.close();
      }
    } finally {
      await rm(tmp, { recursive: true, force: true });
    }
  }
  if (!cfg.databaseUrl)
    throw new Error(
      'this backup is of a Postgres database: set DATABASE_URL to a database on a server where a throwaway database may be created (it is dropped afterwards)',
    );
  const name = `esm_verify_${Date.now()}_${process.pid}`;
  const url = new URL(cfg.databaseUrl);
  url.pathname = `/${name}`;
  await withClient(cfg.databaseUrl, (db) => db.query(`CREATE DATABASE "${name}"`));
  try {
    await run(
      cfg.pgRestore ?? 'pg_restore',
      ['--no-owner', '--no-privileges', '--exit-on-error', `--dbname=${name}`, source],
      libpqEnv(url.toString()),
    );
    return await withClient(url.toString(), work);
  } finally {
    await withClient(cfg.databaseUrl, (db) => db.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
  }
}

/**
 * Checks that a backup restores as it was recorded: every file in it hashes to its name, its
 * database restores (into a throwaway database on DATABASE_URL's server, or a temporary embedded
 * one), each table has the rows the manifest counted, the last migration is the recorded one, and
 * every file a row names is in the backup (or, for an object store, in the store).
 */
export async function verifyBackup(cfg: Cfg, target: string, log: Log = console.log): Promise<BackupCheck> {
  const dir = await backupFolderOf(target);
  const manifest = await readManifest(dir);
  const copied = manifest.store !== 'checked';
  const problems: string[] = [];
  const relative = (sha: string) => path.join('files', sha.slice(0, 2), sha.slice(2, 4), sha);

  // 1. the files the backup holds: each one's bytes hash to its name
  const present = new Set<string>();
  const damaged = new Set<string>();
  if (copied)
    for (const key of await storedKeys(path.join(dir, 'files')))
      ((await sha256Of(fileOf(path.join(dir, 'files'), key))) === key ? present : damaged).add(key);

  // 2. the database, restored into a throwaway one
  const restored = await inThrowaway(cfg, dir, manifest, readCatalogue);
  log(
    `database restores: ${Object.keys(restored.tables).length} tables, last migration ${restored.migration ?? '(none)'}`,
  );
  if (manifest.tables) {
    for (const [table, n] of Object.entries(manifest.tables)) {
      const actual = restored.tables[table];
      if (actual === undefined)
        problems.push(`table ${table}: not in the restored database (the manifest counted ${n} rows)`);
      else if (actual !== n) problems.push(`table ${table}: ${actual} rows restored, the manifest counted ${n}`);
    }
  } else log('note: this backup records no row counts (made by an older version): counts not checked');
  if (restored.migration !== manifest.migration)
    problems.push(
      `migration: the restored database's last is ${restored.migration ?? '(none)'}, the manifest says ${manifest.migration ?? '(none)'}`,
    );

  // 3. every file a row names
  const known = new Set(manifest.missingAtBackup.map((r) => r.sha256));
  const byFile = new Map<string, FileRow[]>();
  for (const r of restored.rows) byFile.set(r.sha256, [...(byFile.get(r.sha256) ?? []), r]);
  const store = storeOf(cfg);
  for (const [sha, rows] of byFile) {
    const named = rows.map(rowName).join(', ');
    let missing: string | undefined;
    if (copied) {
      if (damaged.has(sha))
        problems.push(`file ${relative(sha)} (${named}): damaged, its bytes do not hash to its name`);
      else if (!present.has(sha)) missing = `file ${relative(sha)} (${named}): missing from the backup`;
    } else if (!(await store.storage.exists(sha))) missing = `file ${sha} (${named}): missing from the object store`;
    // a file already missing when the backup was taken is no fault of the backup: said, not failed
    if (missing && known.has(sha)) log(`note: ${missing} (already missing when the backup was taken)`);
    else if (missing) problems.push(missing);
  }
  for (const sha of damaged)
    if (!byFile.has(sha)) problems.push(`file ${relative(sha)}: damaged, its bytes do not hash to its name`);
  return { problems, tables: Object.keys(restored.tables).length, files: byFile.size };
}

/**
 * Keeps the `keep` newest backups in `root` (folders with a manifest of this portal, by the time
 * they were taken) and removes the others; anything else in the folder is left alone.
 */
export async function pruneBackups(root: string, keep: number, log: Log = console.log): Promise<string[]> {
  const found: { dir: string; createdAt: string }[] = [];
  for (const name of existsSync(root) ? await readdir(root) : []) {
    const dir = path.join(root, name);
    try {
      const m = JSON.parse(await readFile(path.join(dir, 'manifest.json'), 'utf8')) as Manifest;
      if (m.format === 'esm-backup/1' && typeof m.createdAt === 'string') found.push({ dir, createdAt: m.createdAt });
    } catch {
      // not a backup (or not a complete one): not ours to remove
    }
  }
  found.sort((a, b) => b.createdAt.localeCompare(a.createdAt));
  const removed = found.slice(keep).map((f) => f.dir);
  for (const dir of removed) {
    await rm(dir, { recursive: true, force: true });
    log(`removed old backup ${dir} (BACKUP_KEEP=${keep})`);
  }
  return removed;
}
