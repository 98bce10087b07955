/**
 * Backup and restore as an operator runs them (docs/operators.md; db/backup.ts): `pnpm
 * db:backup` of a seeded portal, `pnpm db:restore` into a fresh database and folder, and the
 * portal started on the copy opens every file, each with its sha256 checked, while the sessions
 * of the original are over — on a Postgres server (pg_dump / pg_restore) and on the embedded
 * PGlite (dumpDataDir / loadDataDir). `pnpm db:verify-backup` passes a good backup and names the
 * table or the file of a bad one; BACKUP_KEEP keeps the newest backups in BACKUP_DIR.
 */
import { sessionApi, API_BASE, filesApi } from '@esm/contracts';
import { createHash } from 'node:crypto';
import { cp, mkdir, mkdtemp, readFile, readdir, rm, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { openDatabase } from '../src/db/database.ts';
import { seedDemo } from '../src/db/seed.ts';
import { localStorage } from '../src/lib/storage.ts';
import pg from 'pg';
import { buildTestApp, login, callApi } from './helpers.ts';
import { createDatabase, dropDatabase, withDatabase } from './databases.ts';
import { runCli } from './run-cli.ts';

const serverUrl = inject('serverUrl');
const cleanup: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const c of cleanup.reverse()) await c();
});

async function tempDir(label: string) {
  const dir = await mkdtemp(path.join(tmpdir(), `esm-${label}-`));
  cleanup.push(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

async function freshDatabase(label: string) {
  const name = `esm_${label}_${Date.now()}_${process.pid}`;
  await createDatabase(serverUrl, name);
  cleanup.push(() => dropDatabase(serverUrl, name));
  return withDatabase(serverUrl, name);
}

/** Runs `pnpm db:<cmd>` as package.json does (tsx src/db/cli.ts <cmd>), with the operator's environment. */
function cli(args: string[], env: Record<string, string>): Promise<{ code: number; out: string }> {
  return runCli('src/db/cli.ts', args, { SESSION_SECRET: 'x'.repeat(40), DATABASE_URL: '', ...env });
}

const sha256 = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');
const TABLES = [
  'app_user',
  'supplier',
  'material',
  'standard_file',
  'empower_grant',
  'access_log',
  'keepsecret_agreement',
  'menu_entry',
  'document_issue_attachment',
] as const;

describe('a Postgres server', () => {
  it('backs up, restores into a fresh database and folder, and the portal opens every file on the copy', async () => {
    // the portal in use: migrated, demo data with its drawings, a log row
    const srcUrl = await freshDatabase('bk_src');
    const srcData = await tempDir('bk-src');
    const srcFiles = path.join(srcData, 'files');
    const src = await openDatabase({ databaseUrl: srcUrl, dataDir: '' });
    const counts: Record<string, number> = {};
    let cookie: string;
    try {
      await src.migrate();
      await seedDemo(src.prisma, localStorage(srcFiles));
      for (const t of TABLES)
        counts[t] = Number((await src.prisma.$queryRawUnsafe<{ n: bigint }[]>(`SELECT count(*) AS n FROM ${t}`))[0]!.n);
      // a user signed in on the original: the backup holds their session
      const app = await buildTestApp({ db: src, storage: localStorage(srcFiles) });
      try {
        cookie = await login(app.app, 'demo3');
        expect((await callApi(app.app, sessionApi.current, undefined, cookie)).json().code).toBe('0');
      } finally {
        await app.close();
      }
    } finally {
      await src.close();
    }
    expect(counts.standard_file).toBeGreaterThan(10);
    const stored = counts.standard_file! + counts.document_issue_attachment!;
    expect(counts.document_issue_attachment).toBeGreaterThan(0);

    const backupDir = path.join(await tempDir('bk-out'), 'backup');
    const made = await cli(['backup', backupDir], { DATABASE_URL: srcUrl, DATA_DIR: srcData, STORAGE_DIR: srcFiles });
    expect(made.code, made.out).toBe(0);
    expect(made.out).toMatch(/backup written to/);
    const manifest = JSON.parse(await readFile(path.join(backupDir, 'manifest.json'), 'utf8')) as {
      tables: Record<string, number>;
    };
    expect(manifest.tables.standard_file).toBe(counts.standard_file);
    expect(manifest.tables.http_session).toBe(1);

    // verify-backup: restored into a throwaway database on the same server, which is gone afterwards
    const throwaways = async () => {
      const c = new pg.Client({ connectionString: serverUrl });
      await c.connect();
      try {
        return (
          await c.query<{ datname: string }>(`SELECT datname FROM pg_database WHERE datname LIKE 'esm_verify_%'`)
        ).rows.map((r) => r.datname);
      } finally {
        await c.end();
      }
    };
    const before = await throwaways();
    const verified = await cli(['verify-backup', backupDir], { DATABASE_URL: serverUrl });
    expect(verified.code, verified.out).toBe(0);
    expect(verified.out).toContain(
      `verified: ${Object.keys(manifest.tables).length} tables with the rows counted at backup, ${stored} files (sha256)`,
    );
    expect(await throwaways()).toEqual(before);

    // a manifest that does not match the dump: the table is named
    const miscounted = path.join(await tempDir('bk-miscount'), 'backup');
    await cp(backupDir, miscounted, { recursive: true });
    manifest.tables.access_log = manifest.tables.access_log! + 1;
    await writeFile(path.join(miscounted, 'manifest.json'), JSON.stringify(manifest));
    const refused = await cli(['verify-backup', path.join(miscounted, 'manifest.json')], { DATABASE_URL: serverUrl });
    expect(refused.code).not.toBe(0);
    expect(refused.out).toContain(
      `problem: table access_log: ${counts.access_log} rows restored, the manifest counted ${counts.access_log! + 1}`,
    );
    expect(refused.out).toMatch(/does not restore as recorded: 1 problem\(s\)/);
    expect(await throwaways()).toEqual(before);

    // a new machine: an empty database and an empty folder
    const dstUrl = await freshDatabase('bk_dst');
    const dstData = await tempDir('bk-dst');
    const dstFiles = path.join(dstData, 'files');
    const restored = await cli(['restore', backupDir], {
      DATABASE_URL: dstUrl,
      DATA_DIR: dstData,
      STORAGE_DIR: dstFiles,
    });
    expect(restored.code, restored.out).toBe(0);
    // the archive's files and the questions' attachments
    expect(restored.out).toContain(`verified ${stored} of ${stored} files (sha256)`);
    expect(restored.out).toContain('1 session(s) of the backup ended');

    // restoring over it again is refused: it is not empty any more
    const twice = await cli(['restore', backupDir], {
      DATABASE_URL: dstUrl,
      DATA_DIR: dstData,
      STORAGE_DIR: path.join(dstData, 'other'),
    });
    expect(twice.code).not.toBe(0);
    expect(twice.out).toMatch(/not empty/);

    // the portal starts on the copy
    const dst = await openDatabase({ databaseUrl: dstUrl, dataDir: '' });
    const storage = localStorage(dstFiles);
    const app = await buildTestApp({ db: dst, storage });
    try {
      expect(await dst.migrate()).toEqual([]); // nothing pending: the schema came with the data
      for (const t of TABLES)
        expect(
          Number((await dst.prisma.$queryRawUnsafe<{ n: bigint }[]>(`SELECT count(*) AS n FROM ${t}`))[0]!.n),
          t,
        ).toBe(counts[t]);
      // the session signed in on the original is over on the copy: a session logged out after
      // the backup cannot come back by a restore
      const stale = await callApi(app.app, sessionApi.current, undefined, cookie!);
      expect(stale.json().code).toBe('201');
      expect(await dst.prisma.session.count()).toBe(0);
      cookie = await login(app.app, 'demo3');
      const rows = await dst.prisma.standardFile.findMany({ select: { id: true, sha256: true, fileType: true } });
      for (const row of rows) {
        expect(sha256(await storage.read(row.sha256)), `file ${row.id}`).toBe(row.sha256);
        const res = await app.app.inject({
          method: 'POST',
          url: `${API_BASE}/${filesApi.download.path}`,
          payload: { id: row.id },
          headers: { cookie },
        });
        expect(res.statusCode, `file ${row.id}: ${res.body.slice(0, 200)}`).toBe(200);
        expect(res.rawPayload.length).toBeGreaterThan(0);
      }
    } finally {
      await app.close();
      await dst.close();
    }
  }, 480_000);
});

describe('retention', () => {
  it('keeps the BACKUP_KEEP newest backups in BACKUP_DIR and removes the older ones', async () => {
    const url = await freshDatabase('bk_keep');
    const db = await openDatabase({ databaseUrl: url, dataDir: '' });
    try {
      await db.migrate();
    } finally {
      await db.close();
    }
    const backups = await tempDir('bk-keep');
    // something of the operator's beside the backups: not a backup, never removed
    await mkdir(path.join(backups, 'notes'));
    const written: string[] = [];
    for (let i = 0; i < 3; i++) {
      const made = await cli(['backup'], {
        DATABASE_URL: url,
        DATA_DIR: await tempDir('bk-keep-data'),
        BACKUP_DIR: backups,
        BACKUP_KEEP: '2',
      });
      expect(made.code, made.out).toBe(0);
      written.push(path.basename(/backup written to (\S+)/.exec(made.out)![1]!));
    }
    expect(new Set(written).size).toBe(3);
    expect((await readdir(backups)).sort()).toEqual([...written.slice(1), 'notes'].sort());
  }, 240_000);
});

describe('the embedded database', () => {
  it('backs up its data directory and restores it into a new DATA_DIR', async () => {
    const srcData = await tempDir('bk-emb-src');
    const src = await openDatabase({ dataDir: srcData });
    let files: number;
    let attachment: { id: number; sha256: string };
    let drawing: { id: number; sha256: string };
    try {
      await src.migrate();
      await seedDemo(src.prisma, localStorage(path.join(srcData, 'files')));
      files = (await src.prisma.standardFile.count()) + (await src.prisma.documentIssueAttachment.count());
      attachment = await src.prisma.documentIssueAttachment.findFirstOrThrow({ select: { id: true, sha256: true } });
      // a drawing whose bytes no other row shares
      const shared = await src.prisma.standardFile.groupBy({ by: ['sha256'], _count: { _all: true } });
      const single = shared.filter((g) => g._count._all === 1).map((g) => g.sha256);
      drawing = await src.prisma.standardFile.findFirstOrThrow({
        where: { sha256: { in: single } },
        select: { id: true, sha256: true },
      });
    } finally {
      await src.close();
    }
    const backupDir = path.join(await tempDir('bk-emb-out'), 'backup');
    const made = await cli(['backup', backupDir], { DATA_DIR: srcData });
    expect(made.code, made.out).toBe(0);
    const inBackup = (dir: string, sha: string) => path.join(dir, 'files', sha.slice(0, 2), sha.slice(2, 4), sha);
    const shown = (sha: string) => path.join('files', sha.slice(0, 2), sha.slice(2, 4), sha);

    // verify-backup: restored into a temporary embedded database, every count and file as recorded
    const verified = await cli(['verify-backup', backupDir], { DATA_DIR: await tempDir('bk-emb-verify') });
    expect(verified.code, verified.out).toBe(0);
    expect(verified.out).toMatch(/verified: \d+ tables with the rows counted at backup, \d+ files \(sha256\)/);

    // a copy of the backup with one attachment's bytes damaged and a drawing's file gone: verify
    // names both files, and the restore refuses it naming both rows (attachments are checked too)
    const bad = path.join(await tempDir('bk-emb-bad'), 'backup');
    await cp(backupDir, bad, { recursive: true });
    await writeFile(inBackup(bad, attachment.sha256), 'not the attachment');
    await unlink(inBackup(bad, drawing.sha256));
    const badVerify = await cli(['verify-backup', bad], { DATA_DIR: await tempDir('bk-emb-verify') });
    expect(badVerify.code).not.toBe(0);
    expect(badVerify.out).toContain(
      `problem: file ${shown(attachment.sha256)} (document_issue_attachment ${attachment.id}): damaged, its bytes do not hash to its name`,
    );
    expect(badVerify.out).toContain(
      `problem: file ${shown(drawing.sha256)} (standard_file ${drawing.id}): missing from the backup`,
    );
    expect(badVerify.out).toMatch(/does not restore as recorded: 2 problem\(s\)/);

    const refused = await cli(['restore', bad], { DATA_DIR: await tempDir('bk-emb-bad-dst') });
    expect(refused.code).not.toBe(0);
    expect(refused.out).toContain(`missing: standard_file ${drawing.id}`);
    expect(refused.out).toContain(`damaged: document_issue_attachment ${attachment.id}`);
    expect(refused.out).toMatch(/restore incomplete: 2 file\(s\) missing or damaged/);

    const dstData = await tempDir('bk-emb-dst');
    const restored = await cli(['restore', backupDir], { DATA_DIR: dstData });
    expect(restored.code, restored.out).toBe(0);
    expect(restored.out).toContain(`verified ${files} of ${files} files (sha256)`);
    const dst = await openDatabase({ dataDir: dstData });
    try {
      expect(await dst.migrate()).toEqual([]);
      expect(await dst.prisma.user.count({ where: { account: { startsWith: 'demo' } } })).toBe(8);
      expect((await dst.prisma.standardFile.count()) + (await dst.prisma.documentIssueAttachment.count())).toBe(files);
    } finally {
      await dst.close();
    }
  }, 480_000);
});
