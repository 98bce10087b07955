/**
 * searchDrawingFileInformations/drawingExportExcel: a valid .xlsx whose rows are exactly the
 * rows of the archive list with the same filters and sort (same files, same order), Chinese
 * headers, labels and dates as text in UTC+8; refused beyond the row cap; streamed in keyset
 * batches that give the list's order for every sort field.
 */
import { PassThrough } from 'node:stream';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FILE_SORT_FIELDS, archivesApi, API_BASE, exportApi } from '@esm/contracts';
import { fileBatches, pageFiles } from '../src/modules/archives/file-query.ts';
import { writeArchiveWorkbook } from '../src/modules/export/service.ts';
import { drainOrClose, readAhead, sheetEntry } from '../src/lib/workbook.ts';
import { buildTestApp, login, type TestApp, callApi } from './helpers.ts';
import { createFileVersion, createMaterial, createProductLine, samplePdf, tempStorage, unique } from './factories.ts';

const HEADERS = [
  '标准编号',
  '名称',
  '版本',
  '物料编码',
  '物料名称',
  '产品线',
  '类别',
  '保密等级',
  '状态',
  '生效日期',
  '文件名',
  '文件大小(KB)',
  '上传人',
  '上传时间',
  '作废时间',
  '作废原因',
];

let t: TestApp;
let small: TestApp;
let files: Awaited<ReturnType<typeof tempStorage>>;
let admin: string;
let adminSmall: string;
let pl: { code: string; name: string };
let m1: string;
let m2: string;
let obsoleteId: number;

beforeAll(async () => {
  files = await tempStorage();
  t = await buildTestApp({ storage: files.storage });
  small = await buildTestApp({ storage: files.storage, config: { exportMaxRows: 3 }, db: t.db });
  const db = t.db.prisma;
  pl = await createProductLine(db);
  m1 = (await createMaterial(db, pl.code)).code;
  m2 = (await createMaterial(db, pl.code)).code;
  const pdf = await samplePdf(1);
  // ties on purpose (same name, version, date) so every sort needs its id tie-breaker
  const codes = [`E-${unique()}`, `E-${unique()}`, `E-${unique()}`];
  const specs: {
    code: string;
    material: string;
    version: string;
    name: string;
    date: string;
    status?: 'HISTORY' | 'OBSOLETE';
  }[] = [
    { code: codes[0]!, material: m1, version: 'A', name: '底盘零件图', date: '2025-05-01', status: 'HISTORY' },
    { code: codes[0]!, material: m1, version: 'B', name: '底盘零件图', date: '2025-08-01' },
    { code: codes[1]!, material: m1, version: 'A', name: '风叶零件图', date: '2025-08-01' },
    { code: codes[1]!, material: m1, version: 'B', name: '风叶零件图', date: '2025-08-01', status: 'HISTORY' },
    { code: codes[2]!, material: m2, version: 'A', name: '底盘零件图', date: '2024-12-31', status: 'OBSOLETE' },
    { code: `E-${unique()}`, material: m2, version: 'A', name: '冷凝器总成图', date: '2025-08-01' },
    { code: `E-${unique()}`, material: m2, version: 'V1.0', name: '检验规范', date: '2026-01-15' },
  ];
  for (const s of specs) {
    const row = await createFileVersion(db, files.storage, {
      materialCode: s.material,
      type: 'pdf',
      bytes: pdf,
      standardCode: s.code,
      version: s.version,
      name: s.name,
      status: s.status,
    });
    await db.standardFile.update({
      where: { id: row.id },
      data: {
        effectiveDate: new Date(`${s.date}T00:00:00Z`),
        // 2026-01-02 00:00:00 in UTC+8
        createdAt: new Date('2026-01-01T16:00:00Z'),
        ...(s.status === 'OBSOLETE'
          ? { obsoletedAt: new Date('2026-02-03T04:05:06Z'), obsoleteReason: '结构变更，停用' }
          : {}),
      },
    });
    if (s.status === 'OBSOLETE') obsoleteId = row.id;
  }
  admin = await login(t.app, 'demo3');
  adminSmall = await login(small.app, 'demo8');
});

afterAll(async () => {
  await small.close();
  await t.close();
  await files.remove();
});

async function exportXlsx(body: object, app = t.app, cookie = admin) {
  const res = await app.inject({
    method: 'POST',
    url: `${API_BASE}/${exportApi.drawingExcel.path}`,
    payload: body,
    headers: { cookie },
  });
  return res;
}

/** The data rows of the first sheet, each as a list of 16 cell values ('' for an empty cell). */
async function sheetRows(bytes: Buffer) {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(bytes as unknown as ArrayBuffer);
  const ws = wb.worksheets[0]!;
  const rows: (string | number)[][] = [];
  ws.eachRow((row) => rows.push(HEADERS.map((_h, i) => (row.getCell(i + 1).value ?? '') as string | number)));
  return { name: ws.name, header: rows[0], rows: rows.slice(1) };
}

describe('drawingExportExcel', () => {
  it('streams a valid .xlsx whose rows are the filtered list, in its order, with Chinese headers and text dates', async () => {
    const filters = { productLineCode: pl.code, sortField: 'standardCode', sortOrder: 'ascend' } as const;
    const res = await exportXlsx(filters);
    expect(res.statusCode, res.body.slice(0, 200)).toBe(200);
    expect(res.headers['content-type']).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    expect(res.headers['content-disposition']).toMatch(
      /^attachment; filename="[\x20-\x7e]+\.xlsx"; filename\*=UTF-8''/,
    );
    const name = decodeURIComponent(/filename\*=UTF-8''(.+)$/.exec(String(res.headers['content-disposition']))![1]!);
    expect(name).toMatch(/^图纸档案信息_\d{14}\.xlsx$/);
    expect(res.headers['x-total-rows']).toBe('7');

    const sheet = await sheetRows(res.rawPayload);
    expect(sheet.name).toBe('图纸档案信息');
    expect(sheet.header).toEqual(HEADERS);

    const list = await callApi(t.app, archivesApi.files, { ...filters, results: 100 }, admin);
    const expected = list.json().data as {
      standardCode: string;
      version: string;
      id: number;
      materialCode: string;
      fileSize: number;
      fileName: string;
    }[];
    expect(sheet.rows.map((r) => `${r[0]} ${r[2]}`)).toEqual(expected.map((r) => `${r.standardCode} ${r.version}`));
    expect(sheet.rows.map((r) => r[3])).toEqual(expected.map((r) => r.materialCode));

    const obsolete = expected.findIndex((r) => r.id === obsoleteId);
    const row = sheet.rows[obsolete]!;
    const file = expected[obsolete]!;
    expect(row).toEqual([
      file.standardCode,
      '底盘零件图',
      'A',
      m2,
      expect.stringContaining('测试物料'),
      pl.name,
      '图纸',
      '秘密',
      '已作废',
      '2024-12-31',
      file.fileName,
      Math.round((file.fileSize / 1024) * 100) / 100,
      '李娜',
      '2026-01-02 00:00:00',
      '2026-02-03 12:05:06',
      '结构变更，停用',
    ]);
    const effective = sheet.rows.find((r) => r[8] === '生效')!;
    expect(effective.slice(14)).toEqual(['', '']);
  });

  it('applies the status filter and writes a header-only sheet when nothing matches', async () => {
    const hist = await exportXlsx({ productLineCode: pl.code, status: 'HISTORY' });
    expect((await sheetRows(hist.rawPayload)).rows.map((r) => r[8])).toEqual(['历史版本', '历史版本']);
    const none = await exportXlsx({ productLineCode: pl.code, name: '不存在的名称' });
    expect(none.statusCode).toBe(200);
    expect(none.headers['x-total-rows']).toBe('0');
    const sheet = await sheetRows(none.rawPayload);
    expect(sheet.header).toEqual(HEADERS);
    expect(sheet.rows).toEqual([]);
  });

  it('refuses an export over the row cap with a message, and serves one at the cap', async () => {
    const over = await exportXlsx({ productLineCode: pl.code }, small.app, adminSmall);
    expect(over.statusCode).toBe(400);
    expect(over.json()).toMatchObject({
      success: false,
      message: '导出结果超过 3 条，请缩小查询范围后再导出',
      data: null,
    });
    const at = await exportXlsx({ materialCode: m2 }, small.app, adminSmall);
    expect(at.statusCode).toBe(200);
    expect((await sheetRows(at.rawPayload)).rows).toHaveLength(3);
  });

  it('is for drawing admins only, and checks its filters', async () => {
    expect((await exportXlsx({}, t.app, await login(t.app, 'demo2'))).statusCode).toBe(403);
    const bad = await exportXlsx({ status: 'DELETED' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors[0].field).toBe('status');
  });
});

describe('keyset batches', () => {
  it.each(
    FILE_SORT_FIELDS.flatMap((field) => (['ascend', 'descend'] as const).map((order) => [field, order] as const)),
  )('read in batches of 2, sorted by %s %s, give exactly the list', async (sortField, sortOrder) => {
    const filter = { productLineCode: pl.code };
    const listed = await pageFiles(t.db.prisma, filter, { sortField, sortOrder, page: 1, results: 100 });
    const batched: number[] = [];
    for await (const batch of fileBatches(t.db.prisma, filter, { sortField, sortOrder }, 2)) {
      expect(batch.length).toBeLessThanOrEqual(2);
      batched.push(...batch.map((r) => r.id));
    }
    expect(batched).toEqual(listed.rows.map((r) => r.id));
    expect(batched).toHaveLength(7);
  });

  it('the workbook written in small batches equals the one written in one', async () => {
    const write = async (batchSize: number) => {
      const out = new PassThrough();
      const chunks: Buffer[] = [];
      out.on('data', (c: Buffer) => chunks.push(c));
      const done = new Promise((r) => out.on('end', r));
      await writeArchiveWorkbook(
        t.db.prisma,
        { productLineCode: pl.code },
        { sortField: 'name', sortOrder: 'descend' },
        out,
        batchSize,
      );
      await done;
      return (await sheetRows(Buffer.concat(chunks))).rows;
    };
    const one = await write(1000);
    expect(one).toHaveLength(7);
    expect(await write(2)).toEqual(one);
  });
});

describe('backpressure', () => {
  it("finds exceljs' zip entry behind a worksheet (the export waits on it; an exceljs upgrade that moves it must fail here)", () => {
    const out = new PassThrough();
    out.resume();
    const wb = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true, useSharedStrings: false });
    const sheet = wb.addWorksheet('probe');
    sheet.addRow(['x']).commit();
    const entry = sheetEntry(sheet);
    expect(entry).toBeDefined();
    expect(typeof (entry!.writableLength ?? entry!._writableState?.length)).toBe('number');
    expect(typeof entry!.once).toBe('function');
  });

  it('waiting for drain 100 times leaves no listener behind (an export waits ~100 times)', async () => {
    const out = new PassThrough();
    const entry = new PassThrough();
    const base = { outClose: out.listenerCount('close'), entryDrain: entry.listenerCount('drain') };
    for (let i = 0; i < 100; i++) {
      const waiting = drainOrClose(entry, out);
      entry.emit('drain');
      await waiting;
    }
    expect(out.listenerCount('close')).toBe(base.outClose);
    expect(entry.listenerCount('drain')).toBe(base.entryDrain);
    // and the client going away ends a wait too
    const waiting = drainOrClose(entry, out);
    out.destroy();
    await waiting;
    expect(entry.listenerCount('drain')).toBe(base.entryDrain);
  });

  it('a slow reader holds the export back and still gets the whole workbook', async () => {
    const warnings: string[] = [];
    const onWarning = (w: Error) => warnings.push(w.name);
    process.on('warning', onWarning);
    try {
      // a 256-byte buffer read 1 KB every 2 ms: the export has to wait for the reader many times
      const out = new PassThrough({ highWaterMark: 256 });
      const chunks: Buffer[] = [];
      const reading = (async () => {
        for (;;) {
          await new Promise((r) => setTimeout(r, 2));
          const c = out.read(1024) ?? out.read();
          if (c) chunks.push(c);
          else if (out.readableEnded || out.writableFinished) break;
        }
      })();
      const baseline = out.listenerCount('close');
      const written = await writeArchiveWorkbook(t.db.prisma, { productLineCode: pl.code }, {}, out, 1);
      expect(written).toBe(7);
      expect(out.listenerCount('close')).toBeLessThanOrEqual(baseline);
      expect(out.listenerCount('drain')).toBe(0);
      await reading;
      expect((await sheetRows(Buffer.concat(chunks))).rows).toHaveLength(7);
      expect(warnings).not.toContain('MaxListenersExceededWarning');
    } finally {
      process.off('warning', onWarning);
    }
  });
});

describe('readAhead', () => {
  it('yields every batch in order, the next one already asked for while the current one is used', async () => {
    const asked: number[] = [];
    async function* source() {
      for (let i = 0; i < 3; i++) {
        asked.push(i);
        yield i;
      }
    }
    const seen: [batch: number, asked: number][] = [];
    for await (const b of readAhead(source())) seen.push([b, asked.length]);
    expect(seen).toEqual([
      [0, 2],
      [1, 3],
      [2, 3],
    ]);
  });

  it('closes its source when the caller stops early', async () => {
    let closed = false;
    async function* source() {
      try {
        for (let i = 0; ; i++) yield i;
      } finally {
        closed = true;
      }
    }
    for await (const b of readAhead(source())) if (b === 1) break;
    expect(closed).toBe(true);
  });
});
