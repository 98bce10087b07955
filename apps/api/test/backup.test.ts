/**
 * Backup and restore as an operator runs them (README "Operators"; db/backup.ts): `pnpm
 * db:backup` of a seeded portal, `pnpm db:restore` into a fresh database and folder, and the
 * portal started on the copy opens every file, each with its sha256 checked — on a Postgres server
 * (pg_dump / pg_restore) and on the embedded PGlite (dumpDataDir / loadDataDir).
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cp, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { openDatabase } from '../src/db/database.ts';
import { seedDemo } from '../src/db/seed.ts';
import { localStorage } from '../src/lib/storage.ts';
import { buildTestApp, login } from './helpers.ts';
import { createDatabase, dropDatabase, withDatabase } from './global-setup.ts';

const API_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const TSX = path.join(API_DIR, 'node_modules/.bin/tsx');
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
  return new Promise((resolve, reject) => {
    const child = spawn(TSX, ['src/db/cli.ts', ...args], {
      cwd: API_DIR,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', SESSION_SECRET: 'x'.repeat(40), DATABASE_URL: '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, out }));
  });
}

const sha256 = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');
const TABLES = ['app_user', 'supplier', 'material', 'standard_file', 'empower_grant', 'access_log', 'keepsecret_agreement', 'menu_entry', 'document_issue_attachment'] as const;

describe('a Postgres server', () => {
  it('backs up, restores into a fresh database and folder, and the portal opens every file on the copy', async () => {
    // the portal in use: migrated, demo data with its drawings, a log row
    const srcUrl = await freshDatabase('bk_src');
    const srcData = await tempDir('bk-src');
    const srcFiles = path.join(srcData, 'files');
    const src = await openDatabase({ databaseUrl: srcUrl, dataDir: '' });
    const counts: Record<string, number> = {};
    try {
      await src.migrate();
      await seedDemo(src.prisma, localStorage(srcFiles));
      for (const t of TABLES) counts[t] = Number((await src.prisma.$queryRawUnsafe<{ n: bigint }[]>(`SELECT count(*) AS n FROM ${t}`))[0]!.n);
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

    // a new machine: an empty database and an empty folder
    const dstUrl = await freshDatabase('bk_dst');
    const dstData = await tempDir('bk-dst');
    const dstFiles = path.join(dstData, 'files');
    const restored = await cli(['restore', backupDir], { DATABASE_URL: dstUrl, DATA_DIR: dstData, STORAGE_DIR: dstFiles });
    expect(restored.code, restored.out).toBe(0);
    // the archive's files and the questions' attachments
    expect(restored.out).toContain(`verified ${stored} of ${stored} files (sha256)`);

    // restoring over it again is refused: it is not empty any more
    const twice = await cli(['restore', backupDir], { DATABASE_URL: dstUrl, DATA_DIR: dstData, STORAGE_DIR: path.join(dstData, 'other') });
    expect(twice.code).not.toBe(0);
    expect(twice.out).toMatch(/not empty/);

    // the portal starts on the copy
    const dst = await openDatabase({ databaseUrl: dstUrl, dataDir: '' });
    const storage = localStorage(dstFiles);
    const app = await buildTestApp({ db: dst, storage });
    try {
      expect(await dst.migrate()).toEqual([]); // nothing pending: the schema came with the data
      for (const t of TABLES) expect(Number((await dst.prisma.$queryRawUnsafe<{ n: bigint }[]>(`SELECT count(*) AS n FROM ${t}`))[0]!.n), t).toBe(counts[t]);
      const cookie = await login(app.app, 'demo3');
      const rows = await dst.prisma.standardFile.findMany({ select: { id: true, sha256: true, fileType: true } });
      for (const row of rows) {
        expect(sha256(await storage.read(row.sha256)), `file ${row.id}`).toBe(row.sha256);
        const res = await app.app.inject({ method: 'POST', url: '/esm-server/api/file/download', payload: { id: row.id }, headers: { cookie } });
        expect(res.statusCode, `file ${row.id}: ${res.body.slice(0, 200)}`).toBe(200);
        expect(res.rawPayload.length).toBeGreaterThan(0);
      }
    } finally {
      await app.close();
      await dst.close();
    }
  }, 240_000);
});

describe('the embedded database', () => {
  it('backs up its data directory and restores it into a new DATA_DIR', async () => {
    const srcData = await tempDir('bk-emb-src');
    const src = await openDatabase({ dataDir: srcData });
    let files: number;
    let attachment: { id: number; sha256: string };
    try {
      await src.migrate();
      await seedDemo(src.prisma, localStorage(path.join(srcData, 'files')));
      files = (await src.prisma.standardFile.count()) + (await src.prisma.documentIssueAttachment.count());
      attachment = await src.prisma.documentIssueAttachment.findFirstOrThrow({ select: { id: true, sha256: true } });
    } finally {
      await src.close();
    }
    const backupDir = path.join(await tempDir('bk-emb-out'), 'backup');
    const made = await cli(['backup', backupDir], { DATA_DIR: srcData });
    expect(made.code, made.out).toBe(0);

    // a copy of the backup with one attachment's bytes damaged: the restore checks attachments too
    const damaged = path.join(await tempDir('bk-emb-bad'), 'backup');
    await cp(backupDir, damaged, { recursive: true });
    await writeFile(path.join(damaged, 'files', attachment.sha256.slice(0, 2), attachment.sha256.slice(2, 4), attachment.sha256), 'not the attachment');
    const refused = await cli(['restore', damaged], { DATA_DIR: await tempDir('bk-emb-bad-dst') });
    expect(refused.code).not.toBe(0);
    expect(refused.out).toContain(`damaged: document_issue_attachment ${attachment.id}`);
    expect(refused.out).toMatch(/restore incomplete: 1 file\(s\) missing or damaged/);

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
  }, 240_000);
});
