/**
 * Button and column permissions through the real calls on a real Postgres: the
 * declared defaults (today's access), a button removed for a type refused by its route (403
 * naming the action) and reported as not allowed to the page, a hidden column absent and a masked
 * one masked in the list, a detail response and the Excel export alike, every change in the
 * append-only change log, stale and concurrent edits answered 409, administration for type 7 only.
 * A rule changed here stays changed for the file's later tests: the file's database is its own.
 */
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ARCHIVE_PAGE,
  PHONE_LOG_PAGE,
  buttonRefusedText,
  type PermissionItem,
  archivesApi,
  exportApi,
  permissionsApi,
  phoneLogApi,
  type EndpointDef,
  PAGES,
} from '@esm/contracts';
import { buildTestApp, hasChinese, login, callApi, type CallBody } from './helpers.ts';
import { createFileVersion, createMaterial, createProductLine, samplePdf, tempStorage } from './factories.ts';

const files = await tempStorage();
const t = await buildTestApp({ storage: files.storage });
const db = t.db.prisma;
const cookies: Record<string, string> = {};

/** A call as the demo account `who` (signed in once in beforeAll). */
const call = <E extends EndpointDef>(endpoint: E, body: CallBody<E>, who: string) =>
  callApi(t.app, endpoint, body, cookies[who]!);

async function item(kind: 'BUTTON' | 'COLUMN', page: string, code: string): Promise<PermissionItem> {
  const res = await call(permissionsApi.page, { kind, menuPage: page, keyword: code, results: 100 }, 'demo7');
  expect(res.statusCode).toBe(200);
  const found = (res.json().data as PermissionItem[]).find((r) => r.code === code);
  if (!found) throw new Error(`no ${kind} ${page} ${code}`);
  return found;
}

async function setTypes(it: PermissionItem, allowedTypes: number[], maskedTypes: number[] = []) {
  const res = await call(
    permissionsApi.update,
    { id: it.id, version: it.version, label: it.label, allowedTypes, maskedTypes },
    'demo7',
  );
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data as PermissionItem;
}

let exportButton: PermissionItem;
const columns: Record<string, PermissionItem> = {};

beforeAll(async () => {
  for (const who of ['demo2', 'demo3', 'demo7', 'demo8']) cookies[who] = await login(t.app, who);
  exportButton = await item('BUTTON', PHONE_LOG_PAGE, 'export');
  for (const f of ['uploaderName', 'remark', 'obsoleteReason']) columns[f] = await item('COLUMN', ARCHIVE_PAGE, f);
});

afterAll(async () => {
  await t.close();
  await files.remove();
});

describe('declared defaults', () => {
  it('seeds a row for every declared button with its call access, and the columns visible to all', async () => {
    expect(exportButton).toMatchObject({
      kind: 'BUTTON',
      label: '导出Excel',
      allowedTypes: [3, 7, 8, 9],
      declared: true,
    });
    const upload = await item('BUTTON', ARCHIVE_PAGE, 'upload');
    expect(upload.allowedTypes).toEqual([3, 7, 8, 9]);
    for (const code of ['publish', 'withdraw', 'close', 'remind', 'export'])
      await item('BUTTON', PAGES.changeNoticeList.path, code);
    expect((await item('BUTTON', PAGES.drawingEmpowerApprove.path, 'approve')).allowedTypes).toEqual([6]);
    expect(columns.uploaderName!.allowedTypes).toEqual([2, 3, 4, 5, 6, 7, 8, 9]);
  });

  it('tells a page which buttons the caller may use', async () => {
    const res = await call(permissionsApi.buttons, { page: ARCHIVE_PAGE }, 'demo3');
    expect(res.statusCode).toBe(200);
    const buttons = res.json().data.buttons as { code: string; allowed: boolean }[];
    expect(Object.fromEntries(buttons.map((b) => [b.code, b.allowed]))).toMatchObject({
      upload: true,
      obsolete: true,
      export: true,
    });
    const supplier = await call(permissionsApi.buttons, { page: ARCHIVE_PAGE }, 'demo2');
    expect((supplier.json().data.buttons as { allowed: boolean }[]).every((b) => !b.allowed)).toBe(true);
  });

  it('lets only type 7 administer, and refuses a bad body field by field', async () => {
    const refused = await call(permissionsApi.page, {}, 'demo3');
    expect(refused.statusCode).toBe(403);
    const bad = await call(
      permissionsApi.insert,
      { kind: 'BUTTON', page: 'dashboard', code: '1x', label: '', allowedTypes: [1] },
      'demo7',
    );
    expect(bad.statusCode).toBe(400);
    const fields = (bad.json().errors as { field: string; message: string }[]).map((e) => e.field);
    expect(fields).toEqual(expect.arrayContaining(['page', 'code', 'label']));
    expect(hasChinese(bad.json().message)).toBe(true);
  });
});

describe('a button removed for a type', () => {
  it('is refused by its route with a message naming the action, and reported as not allowed', async () => {
    exportButton = await setTypes(exportButton, [3, 7, 9]);
    const refused = await call(phoneLogApi.exportExcel, {}, 'demo8');
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe(buttonRefusedText('导出Excel'));
    const page = await call(permissionsApi.buttons, { page: PHONE_LOG_PAGE }, 'demo8');
    expect(page.json().data.buttons).toEqual([{ code: 'export', label: '导出Excel', allowed: false }]);
    // the others keep it
    const allowed = await call(phoneLogApi.exportExcel, {}, 'demo3');
    expect(allowed.statusCode).toBe(200);
    expect(allowed.headers['content-type']).toContain('spreadsheetml');
    // given back: allowed again at once
    exportButton = await setTypes(exportButton, [3, 7, 8, 9]);
    expect((await call(phoneLogApi.exportExcel, {}, 'demo8')).statusCode).toBe(200);
  });

  it('writes every change to the change log, before → after, and the log refuses rewrites', async () => {
    const res = await call(
      permissionsApi.changes,
      { menuPage: PHONE_LOG_PAGE, action: 'UPDATE', results: 100 },
      'demo7',
    );
    const rows = res.json().data as { before: string; after: string; userAccount: string; code: string }[];
    expect(rows.length).toBeGreaterThanOrEqual(2);
    const removal = rows.find((r) => JSON.parse(r.after).allowedTypes.join() === '3,7,9')!;
    expect(JSON.parse(removal.before).allowedTypes).toEqual([3, 7, 8, 9]);
    expect(removal).toMatchObject({ userAccount: 'demo7', code: 'export' });
    await expect(db.$executeRawUnsafe('UPDATE permission_change_log SET label = $1', 'x')).rejects.toThrow(
      /append-only/,
    );
    await expect(db.$executeRawUnsafe('DELETE FROM permission_change_log')).rejects.toThrow(/append-only/);
  });

  it('answers 409 to a stale edit and to the loser of two concurrent edits', async () => {
    const stale = await call(
      permissionsApi.update,
      { id: exportButton.id, version: exportButton.version - 1, label: '导出Excel', allowedTypes: [3] },
      'demo7',
    );
    expect(stale.statusCode).toBe(409);
    const both = await Promise.all(
      [
        [3, 7],
        [7, 8],
      ].map((types) =>
        call(
          permissionsApi.update,
          { id: exportButton.id, version: exportButton.version, label: '导出Excel', allowedTypes: types },
          'demo7',
        ),
      ),
    );
    expect(both.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    expect(hasChinese(both.find((r) => r.statusCode === 409)!.json().message)).toBe(true);
    exportButton = await setTypes(await item('BUTTON', PHONE_LOG_PAGE, 'export'), [3, 7, 8, 9]);
  });

  it('adds and batch-deletes buttons of a page, refusing a duplicate', async () => {
    const body = {
      kind: 'BUTTON' as const,
      page: PAGES.visitLog.path,
      code: 'printReport',
      label: '打印报表',
      allowedTypes: [3, 7],
    };
    const a = await call(permissionsApi.insert, body, 'demo7');
    expect(a.statusCode, a.body).toBe(200);
    expect((await call(permissionsApi.insert, body, 'demo7')).statusCode).toBe(409);
    const b = await call(permissionsApi.insert, { ...body, code: 'archive', label: '归档' }, 'demo7');
    const seen = await call(permissionsApi.buttons, { page: PAGES.visitLog.path }, 'demo3');
    expect(seen.json().data.buttons).toEqual(
      expect.arrayContaining([{ code: 'printReport', label: '打印报表', allowed: true }]),
    );
    const del = await call(permissionsApi.deleteByIds, { ids: [a.json().data.id, b.json().data.id] }, 'demo7');
    expect(del.json().data.deleted).toBe(2);
    expect((await call(permissionsApi.deleteById, { id: a.json().data.id }, 'demo7')).statusCode).toBe(404);
    const log = await call(permissionsApi.changes, { menuPage: PAGES.visitLog.path, results: 100 }, 'demo7');
    // this test's two buttons only: this file's other tests change the page's column rules too
    const mine = (log.json().data as { action: string; code: string }[]).filter(
      (r) => r.code === 'printReport' || r.code === 'archive',
    );
    expect(mine.map((r) => r.action).sort()).toEqual(['DELETE', 'DELETE', 'INSERT', 'INSERT']);
  });
});

describe('governed columns', () => {
  let fileId: number;
  beforeAll(async () => {
    const line = await createProductLine(db);
    const material = await createMaterial(db, line.code);
    const f = await createFileVersion(db, files.storage, {
      materialCode: material.code,
      type: 'pdf',
      bytes: await samplePdf(1),
    });
    await db.standardFile.update({ where: { id: f.id }, data: { remark: '加强筋位置调整' } });
    fileId = f.id;
    // type 8: 上传人 hidden, 备注 and 作废原因 masked; the others unchanged
    columns.uploaderName = await setTypes(columns.uploaderName!, [2, 3, 4, 5, 6, 7, 9]);
    columns.remark = await setTypes(columns.remark!, [2, 3, 4, 5, 6, 7, 9], [8]);
    columns.obsoleteReason = await setTypes(columns.obsoleteReason!, [2, 3, 4, 5, 6, 7, 9], [8]);
  });

  it('are reported to the page per type', async () => {
    const res = await call(permissionsApi.columns, { page: ARCHIVE_PAGE }, 'demo8');
    expect(
      Object.fromEntries((res.json().data.columns as { field: string; mode: string }[]).map((c) => [c.field, c.mode])),
    ).toEqual({
      uploaderName: 'HIDDEN',
      remark: 'MASKED',
      obsoleteReason: 'MASKED',
    });
  });

  it('drop the hidden column and mask the masked one in the list', async () => {
    const mine = await call(archivesApi.files, { results: 100 }, 'demo8');
    const rows = mine.json().data as Record<string, unknown>[];
    expect(rows.length).toBeGreaterThan(0);
    for (const r of rows) expect(r).not.toHaveProperty('uploaderName');
    expect(rows.find((r) => r.id === fileId)!.remark).toBe('加****');
    const full = await call(archivesApi.files, { results: 100 }, 'demo3');
    const row = (full.json().data as Record<string, unknown>[]).find((r) => r.id === fileId)!;
    expect(row.remark).toBe('加强筋位置调整');
    expect(typeof row.uploaderName).toBe('string');
  });

  it('apply the same rule to a detail response (the obsoleted version)', async () => {
    const res = await call(archivesApi.obsolete, { id: fileId, reason: '结构变更作废' }, 'demo8');
    expect(res.statusCode, res.body).toBe(200);
    const data = res.json().data as Record<string, unknown>;
    expect(data).not.toHaveProperty('uploaderName');
    expect(data.obsoleteReason).toBe('结****');
    expect(data.remark).toBe('加****');
  });

  it('and to the Excel export', async () => {
    const sheet = async (who: string) => {
      const res = await call(exportApi.drawingExcel, { status: 'OBSOLETE' }, who);
      expect(res.statusCode).toBe(200);
      const wb = new ExcelJS.Workbook();
      await wb.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
      const rows: string[][] = [];
      wb.worksheets[0]!.eachRow((r) => rows.push((r.values as unknown[]).slice(1).map((v) => String(v ?? ''))));
      return rows;
    };
    const masked = await sheet('demo8');
    expect(masked[0]).not.toContain('上传人');
    const reason = masked[0]!.indexOf('作废原因');
    expect(masked.some((r) => r[reason] === '结****')).toBe(true);
    expect(masked.some((r) => r[reason] === '结构变更作废')).toBe(false);
    const full = await sheet('demo3');
    expect(full[0]).toContain('上传人');
    expect(full.some((r) => r.includes('结构变更作废'))).toBe(true);
  });
});
