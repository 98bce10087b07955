/**
 * The evidence package (证据包) on a database of its own (the run's shared one gains log rows from
 * other files while this one compares): the package for demo2's supplier × 0064000101 and for a
 * change notice hold exactly the rows the log pages and the notice's pages show for them, the
 * package verifies offline (`pnpm audit:verify --package`), a row altered inside the ZIP is named,
 * only types 3/7/8/9 may export one, and the export itself is logged.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import JSZip from 'jszip';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { auditApi, filesApi, logsApi, noticesApi, LOG_ACTIONS, type EndpointDef } from '@esm/contracts';
import { openDatabase, type Database } from '../src/db/database.ts';
import { seedDemo } from '../src/db/seed.ts';
import { seedAgreement } from '../src/db/seed-agreement.ts';
import { localStorage } from '../src/lib/storage.ts';
import type { ChainFile, EvidenceManifest, RecordFile } from '../src/modules/audit/package-format.ts';
import { verifyPackage } from '../src/modules/audit/package-verify.ts';
import { buildTestApp, callApi, login, pdfPages, type TestApp } from './helpers.ts';
import { acceptCurrentAgreement } from './factories.ts';
import { createDatabase, dropDatabase, withDatabase } from './databases.ts';
import { runCli } from './run-cli.ts';

const serverUrl = inject('serverUrl');
const name = `esm_evidence_${Date.now()}_${process.pid}`;
const databaseUrl = withDatabase(serverUrl, name);
const seedFiles = await mkdtemp(path.join(tmpdir(), 'esm-evidence-seed-'));
const work = await mkdtemp(path.join(tmpdir(), 'esm-evidence-'));
let db: Database;
let t: TestApp;
const sessions: Record<string, string> = {};
const as = async (account: string) => (sessions[account] ??= await login(t.app, account));

beforeAll(async () => {
  await createDatabase(serverUrl, name);
  db = await openDatabase({ databaseUrl, dataDir: '' });
  await db.migrate();
  await seedDemo(db.prisma, localStorage(seedFiles));
  await seedAgreement(db.prisma);
  // the app serves the demo drawings the seed stored
  t = await buildTestApp({ db, storage: localStorage(seedFiles) });
}, 300_000);

afterAll(async () => {
  await t?.close();
  await db?.close();
  await dropDatabase(serverUrl, name);
  await rm(seedFiles, { recursive: true, force: true });
  await rm(work, { recursive: true, force: true });
});

interface Unpacked {
  zip: JSZip;
  manifest: EvidenceManifest;
  chain: (table: string) => Promise<ChainFile>;
  records: (name: string) => Promise<RecordFile>;
}

async function unpack(bytes: Buffer): Promise<Unpacked> {
  const zip = await JSZip.loadAsync(bytes);
  const read = async <T>(n: string) => JSON.parse(await zip.file(n)!.async('string')) as T;
  return {
    zip,
    manifest: await read<EvidenceManifest>('manifest.json'),
    chain: (table) => read(`chain/${table}.json`),
    records: (n) => read(`records/${n}.json`),
  };
}

/** Every row a log page lists for `filters` (all pages). */
async function logPageIds(
  session: string,
  action: (typeof LOG_ACTIONS)[number],
  filters: Record<string, string>,
): Promise<number[]> {
  const ids: number[] = [];
  for (let page = 1; ; page++) {
    const res = await callApi(t.app, logsApi[action], { ...filters, results: 100, page }, session);
    expect(res.status).toBe(200);
    const rows = res.json().data as { id: number }[];
    ids.push(...rows.map((r) => r.id));
    if (rows.length < 100) return ids;
  }
}

async function exportSubject(session: string) {
  const res = await callApi(
    t.app,
    auditApi.subjectEvidence,
    { supplierCode: 'S001', materialCode: '0064000101' },
    session,
  );
  expect(res.status, res.body.slice(0, 200)).toBe(200);
  expect(res.headers['content-type']).toBe('application/zip');
  return res.rawPayload;
}

describe('the evidence package of a supplier and a material', { timeout: 180_000 }, () => {
  let bytes: Buffer;
  let copyCode: string;

  beforeAll(async () => {
    // demo2 (S001) accepts the agreement, as a supplier must first, and downloads a drawing of
    // 0064000101: a stamped copy with its copy code
    const demo2 = await db.prisma.user.findUniqueOrThrow({ where: { account: 'demo2' } });
    if (!(await db.prisma.keepsecretAcceptance.findFirst({ where: { userId: demo2.id } })))
      await acceptCurrentAgreement(db.prisma, demo2.id, 'S001');
    const file = await db.prisma.standardFile.findFirstOrThrow({
      where: { materialCode: '0064000101', status: 'EFFECTIVE' },
      orderBy: { versionNo: 'desc' },
    });
    const got = await callApi(t.app, filesApi.download, { id: file.id }, await as('demo2'));
    expect(got.status, got.body.slice(0, 200)).toBe(200);
    const row = await db.prisma.accessLog.findFirstOrThrow({
      where: { action: 'DOWNLOAD', userAccount: 'demo2', fileId: file.id },
      orderBy: { id: 'desc' },
    });
    copyCode = row.copyCode!;
    bytes = await exportSubject(await as('demo3'));
  }, 180_000);

  it(
    'holds exactly the access-log rows the five log pages show for the supplier and the material',
    { timeout: 180_000 },
    async () => {
      const p = await unpack(bytes);
      const session = await as('demo3');
      const shown: number[] = [];
      for (const action of LOG_ACTIONS) {
        const filters: Record<string, string> =
          action === 'KEEPSECRET' ? { supplierCode: 'S001' } : { supplierCode: 'S001', materialCode: '0064000101' };
        shown.push(...(await logPageIds(session, action, filters)));
      }
      const packaged = (await p.chain('access_log')).rows;
      expect(packaged.map((r) => r.id).sort((a, b) => a - b)).toEqual(shown.sort((a, b) => a - b));
      expect(shown.length).toBeGreaterThan(1);
      // demo2's download is there with its copy code
      expect(packaged.some((r) => (JSON.parse(r.content) as { copy_code?: string }).copy_code === copyCode)).toBe(true);
    },
  );

  it('holds the grants, the versions with sha256, the agreement acceptances and the application trail', async () => {
    const p = await unpack(bytes);
    const grants = (await p.records('grants')).rows as { id: number }[];
    const dbGrants = await db.prisma.empowerGrant.findMany({
      where: { supplierCode: 'S001', materialCode: '0064000101' },
      select: { id: true },
      orderBy: { id: 'asc' },
    });
    expect(grants.map((g) => g.id)).toEqual(dbGrants.map((g) => g.id));
    const versions = (await p.records('files')).rows as { id: number; sha256: string }[];
    expect(versions.length).toBeGreaterThan(0);
    for (const v of versions)
      expect(v.sha256).toBe((await db.prisma.standardFile.findUniqueOrThrow({ where: { id: v.id } })).sha256);
    const acceptances = await db.prisma.keepsecretAcceptance.findMany({
      where: { supplierCode: 'S001' },
      select: { id: true },
      orderBy: { chainSeq: 'asc' },
    });
    expect((await p.chain('keepsecret_acceptance')).rows.map((r) => r.id)).toEqual(acceptances.map((a) => a.id));
    const apps = (await p.records('applications')).rows as { id: number }[];
    const audit = (await p.chain('empower_audit')).rows;
    for (const r of audit)
      expect(apps.map((a) => a.id)).toContain((JSON.parse(r.content) as { application_id: number }).application_id);
  });

  it(
    'verifies offline, names the heads it was made against, and its report is a PDF in Chinese',
    { timeout: 180_000 },
    async () => {
      const report = await verifyPackage(bytes);
      expect(report.problems).toEqual([]);
      const file = path.join(work, 'package.zip');
      await writeFile(file, bytes);
      const cli = await runCli('src/modules/audit/cli.ts', ['verify', '--package', file], {});
      expect(cli.out).toContain('evidence package verified');
      expect(cli.out).toContain(
        `access_log: ${report.manifest!.heads.find((h) => h.table === 'access_log')!.seq} rows, head`,
      );
      expect(cli.code).toBe(0);
      const pdf = await pdfPages(
        Buffer.from(await (await JSZip.loadAsync(bytes)).file('report.pdf')!.async('uint8array')),
      );
      const text = pdf.join('\n');
      expect(text).toContain('证据包报告');
      expect(text).toContain('S001');
      expect(text).toContain(report.manifest!.headsDigest);
      // acts in the words the portal's pages use, not their stored codes
      expect(text).toMatch(/下载·成功/);
      expect(text).toMatch(/\s(提交|批准)\s/);
      expect(text).not.toMatch(/\s(SUBMIT|APPROVE|CREATE|DOWNLOAD)[\s·]/);
    },
  );

  it('a row altered inside the package is named by the verify command', { timeout: 180_000 }, async () => {
    const p = await unpack(bytes);
    const log = await p.chain('access_log');
    const victim = log.rows[Math.floor(log.rows.length / 2)]!;
    victim.content = victim.content.replace(/"user_account": "[^"]*"/, '"user_account": "someone-else"');
    p.zip.file('chain/access_log.json', `${JSON.stringify(log, null, 2)}\n`);
    const tampered = await p.zip.generateAsync({ type: 'nodebuffer' });
    const report = await verifyPackage(tampered);
    expect(report.ok).toBe(false);
    expect(report.problems[0]).toContain(`access_log id ${victim.id}（链位置 ${victim.seq}）`);
    const file = path.join(work, 'tampered.zip');
    await writeFile(file, tampered);
    const cli = await runCli('src/modules/audit/cli.ts', ['verify', '--package', file], {});
    expect(cli.code).toBe(1);
    expect(cli.out).toContain(`the first: access_log id ${victim.id}（链位置 ${victim.seq}）：内容与其哈希不符`);
  });

  it('a row whose hash was recomputed to match breaks the manifest instead', async () => {
    const p = await unpack(bytes);
    const log = await p.chain('access_log');
    log.rows.pop();
    p.zip.file('chain/access_log.json', `${JSON.stringify(log, null, 2)}\n`);
    const report = await verifyPackage(await p.zip.generateAsync({ type: 'nodebuffer' }));
    expect(report.problems).toContain('chain/access_log.json：SHA-256 与清单不符（文件被修改）');
  });

  it('the export is logged in the chained access log', async () => {
    const p = await unpack(bytes);
    const row = await db.prisma.accessLog.findFirstOrThrow({
      where: { userAccount: 'demo3', action: 'DOWNLOAD', version: p.manifest.manifestSha256.slice(0, 16) },
    });
    expect(row.fileName).toMatch(/^证据包_S001_0064000101_\d{14}\.zip$/);
    expect(row.chainSeq).not.toBeNull();
  });
});

describe('the evidence package of a change notice', () => {
  it(
    'holds exactly the events of the notice detail and the recipients of its matrix, with the confirmed versions’ sha256',
    { timeout: 180_000 },
    async () => {
      const recipient = await db.prisma.noticeRecipient.findFirstOrThrow({
        where: { status: 'CONFIRMED' },
        orderBy: { id: 'asc' },
      });
      const session = await as('demo3');
      const res = await callApi(t.app, auditApi.noticeEvidence, { id: recipient.noticeId }, session);
      expect(res.status, res.body.slice(0, 200)).toBe(200);
      const p = await unpack(res.rawPayload);
      const detail = await callApi(t.app, noticesApi.detail, { id: recipient.noticeId }, session);
      expect((await p.chain('notice_event')).rows.map((r) => r.id).sort((a, b) => a - b)).toEqual(
        detail
          .json()
          .data.events.map((e) => e.id)
          .sort((a, b) => a - b),
      );
      const matrix = await callApi(t.app, noticesApi.recipients, { id: recipient.noticeId, results: 100 }, session);
      const packaged = (await p.records('notice_recipients')).rows as { supplierCode: string; status: string }[];
      expect(packaged.map((r) => r.supplierCode).sort()).toEqual(
        matrix
          .json()
          .data.map((r) => r.supplierCode)
          .sort(),
      );
      const confirmed = (await p.records('notice_confirmed_files')).rows as {
        fileId: number;
        sha256: string;
        viewLogId: number;
      }[];
      expect(confirmed.length).toBeGreaterThan(0);
      for (const c of confirmed)
        expect(c.sha256).toBe((await db.prisma.standardFile.findUniqueOrThrow({ where: { id: c.fileId } })).sha256);
      // the views each confirmation rests on are in the package, chained
      expect((await p.chain('access_log')).rows.map((r) => r.id).sort((a, b) => a - b)).toEqual(
        confirmed.map((c) => c.viewLogId).sort((a, b) => a - b),
      );
      expect((await verifyPackage(res.rawPayload)).problems).toEqual([]);
      const pdf = (
        await pdfPages(
          Buffer.from(await (await JSZip.loadAsync(res.rawPayload)).file('report.pdf')!.async('uint8array')),
        )
      ).join('\n');
      expect(pdf).toMatch(/\s发布\s/);
      expect(pdf).not.toMatch(/\s(PUBLISH|CONFIRM|CREATE)\s/);
    },
  );

  it('answers a notice that does not exist with a clear refusal', async () => {
    const res = await callApi(t.app, auditApi.noticeEvidence, { id: 999999 }, await as('demo3'));
    expect(res.status).toBe(404);
    expect(res.json().message).toBe('变更通知不存在或无权查看');
  });
});

describe('who may export a package', () => {
  const calls: [string, EndpointDef, unknown][] = [
    ['subject', auditApi.subjectEvidence, { supplierCode: 'S001', materialCode: '0064000101' }],
    ['notice', auditApi.noticeEvidence, { id: 1 }],
  ];
  it.each(calls)('%s: internal types 3/7/8/9 only', { timeout: 180_000 }, async (_, endpoint, body) => {
    for (const type of [2, 4, 5, 6]) {
      const res = await callApi(t.app, endpoint, body, await as(`demo${type}`));
      expect(res.status, `type ${type}`).toBe(403);
    }
    for (const type of [7, 8, 9]) {
      const res = await callApi(t.app, endpoint, body, await as(`demo${type}`));
      expect([200, 404], `type ${type}`).toContain(res.status);
    }
  });

  it('a subject without a material or a drawing gets a field message', { timeout: 180_000 }, async () => {
    const res = await callApi(t.app, auditApi.subjectEvidence, { supplierCode: 'S001' }, await as('demo3'));
    expect(res.status).toBe(400);
    expect(res.json().message).toContain('请输入物料编码或标准编号');
    const none = await callApi(
      t.app,
      auditApi.subjectEvidence,
      { supplierCode: 'NOPE', materialCode: '0064000101' },
      await as('demo3'),
    );
    expect(none.status).toBe(400);
    expect(none.json().message).toBe('供应商 NOPE 不存在');
  });
});
