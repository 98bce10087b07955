/**
 * pnpm db:migrate | db:diff <name> | db:seed | db:backup [folder] | db:restore <folder> | db:verify-backup <folder>
 *  migrate: apply pending migrations to DATABASE_URL (or the embedded database).
 *  diff:    write prisma/migrations/<timestamp>_<name>/migration.sql from the changes between
 *           prisma/migrations/schema.base.prisma and prisma/schema.prisma, then update the former.
 *  seed:    insert the demo data if the database has no users.
 *  backup:  database + file store into a new folder (default BACKUP_DIR/<time>, keeping the
 *           BACKUP_KEEP newest there; db/backup.ts).
 *  restore: a backup into an empty database and file store, sessions ended, every file checked.
 *  verify-backup: restore a backup into a throwaway database and compare it with its manifest.
 *
 * In a checkout the scripts run this file with tsx; the image runs its bundle, dist/cli.mjs
 * (scripts/build.mjs), with plain node: no dev dependency is needed at run time.
 */
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { loadConfig, paths } from '../config.ts';
import { givenPathOf } from '../paths.ts';
import { openDatabase } from './database.ts';
import { readMigrations } from './migrations.ts';
import { backup, pruneBackups, restore, rowName, verifyBackup, type FileStore, type Manifest } from './backup.ts';
import { diffSchemas, isEmptyMigration } from './schema-engine.ts';
import { seedDemo } from './seed.ts';
import { localStorage, storageOf } from '../lib/storage.ts';
import { DataDirLockedError, lockDataDir } from '../data-dir-lock.ts';

const [cmd, name = 'change'] = process.argv.slice(2);
const arg = process.argv[3];

/**
 * The file store backups copy and restores fill: the local folder STORAGE_DIR; with a bucket
 * (S3_*), the bucket, which a backup checks (every file a row names is there, its sha256 right)
 * rather than copies — the bucket's own versioning or replication keeps its history.
 */
const fileStore = async (config: ReturnType<typeof loadConfig>): Promise<FileStore> =>
  config.s3
    ? { storage: await storageOf(config) }
    : { storage: localStorage(config.storageDir), dir: config.storageDir };

/** A path given on the command line, relative to where the operator ran the command (pnpm runs scripts elsewhere). */
const given = (p: string) => givenPathOf(process.env, p);

async function main() {
  // the session secret is the server's: these commands neither sign nor read a cookie
  const config = loadConfig(process.env, { sessionSecret: '' });
  // The embedded database is one process's (data-dir-lock.ts): refused while the portal runs on
  // it, and the portal refused while this runs. Held until this command exits.
  if (!config.databaseUrl && ['backup', 'restore', 'migrate', 'seed'].includes(cmd ?? ''))
    await lockDataDir(config.dataDir, `pnpm db:${cmd}`);
  if ((cmd === 'backup' || cmd === 'restore') && config.s3) {
    console.warn(
      `S3_BUCKET is set: db:${cmd} checks that every file the database names is in the bucket ${config.s3.bucket} but does not copy the bucket — keep its history with the object store's own tools (versioning, replication) (docs/operators.md)`,
    );
  }
  if (cmd === 'backup') {
    // to the millisecond: two backups in one second are two folders
    const dir = arg
      ? given(arg)
      : path.join(config.backupDir, new Date().toISOString().replace(/\D/g, '').slice(0, 17));
    const manifest = await backup({ ...config, store: await fileStore(config) }, dir);
    console.log(
      `backup written to ${dir} (${manifest.database.kind} database, ${manifest.files} files ${manifest.store})`,
    );
    // retention applies to BACKUP_DIR only: a folder named on the command line is a one-off
    if (!arg) await pruneBackups(config.backupDir, config.backupKeep);
    return;
  }
  if (cmd === 'verify-backup') {
    if (!arg) throw new Error('usage: pnpm db:verify-backup <backup folder, or a file in it>');
    const check = await verifyBackup({ ...config, store: await fileStore(config) }, given(arg));
    for (const p of check.problems) console.error(`problem: ${p}`);
    if (check.problems.length)
      throw new Error(`backup ${given(arg)} does not restore as recorded: ${check.problems.length} problem(s) above`);
    console.log(
      `backup ${given(arg)} verified: ${check.tables} tables with the rows counted at backup, ${check.files} files (sha256)`,
    );
    return;
  }
  if (cmd === 'restore') {
    if (!arg) throw new Error('usage: pnpm db:restore <backup folder>');
    const dir = given(arg);
    const report = await restore({ ...config, store: await fileStore(config) }, dir);
    const manifest = JSON.parse(await readFile(path.join(dir, 'manifest.json'), 'utf8')) as Manifest;
    const known = new Set(manifest.missingAtBackup.map(rowName));
    const lost = [...report.missing.filter((m) => !known.has(rowName(m))), ...report.corrupt];
    if (lost.length) throw new Error(`restore incomplete: ${lost.length} file(s) missing or damaged`);
    console.log(
      'restore complete: start the portal on this database and file store (sessions of the backup were ended: everyone signs in again)',
    );
    return;
  }
  if (cmd === 'diff') {
    // One copy of the schema the migrations build (prisma/migrations/schema.base.prisma): the
    // diff starts there and the copy moves on with each migration written. One file rather than
    // a copy per folder, so two branches that each add a migration conflict on it when merged
    // instead of the next diff silently starting from one side's schema.
    const from = existsSync(paths.migrationsBase) ? await readFile(paths.migrationsBase, 'utf8') : null;
    const to = await readFile(paths.schema, 'utf8');
    const sql = await diffSchemas(from, to);
    if (isEmptyMigration(sql)) {
      // a change of comments or formatting only: nothing to migrate, the copy still follows
      if (from !== null && from !== to) await writeFile(paths.migrationsBase, to);
      console.log('schema.prisma and prisma/migrations agree: nothing to write.');
      return;
    }
    if (from === null && (await readMigrations()).length) {
      throw new Error(
        `${path.relative(paths.root, paths.migrationsBase)} is missing: restore it (git) before writing a migration`,
      );
    }
    const stamp = new Date().toISOString().replace(/\D/g, '').slice(0, 14);
    const dir = path.join(paths.migrations, `${stamp}_${name.replace(/[^a-z0-9_]/gi, '_')}`);
    await mkdir(dir, { recursive: true });
    await writeFile(path.join(dir, 'migration.sql'), sql);
    await writeFile(paths.migrationsBase, to);
    const lock = path.join(paths.migrations, 'migration_lock.toml');
    await writeFile(
      lock,
      '# Please do not edit this file manually\n# It should be added in your version-control system (e.g., Git)\nprovider = "postgresql"\n',
    );
    console.log(`wrote ${path.relative(paths.root, dir)}/migration.sql`);
    return;
  }
  const db = await openDatabase(config);
  try {
    if (cmd === 'migrate') {
      const applied = await db.migrate();
      console.log(applied.length ? `applied: ${applied.join(', ')}` : 'database is up to date');
    } else if (cmd === 'seed') {
      console.log(
        (await seedDemo(db.prisma, await storageOf(config)))
          ? 'demo data seeded'
          : 'database already has users: seed skipped',
      );
    } else {
      throw new Error(
        `unknown command "${cmd}" (migrate | diff <name> | seed | backup [folder] | restore <folder> | verify-backup <folder>)`,
      );
    }
  } finally {
    await db.close();
  }
}

main().catch((e) => {
  console.error(e instanceof DataDirLockedError ? e.message : e);
  process.exit(1);
});
