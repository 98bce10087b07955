/**
 * Two- and three-level BOM, through the api on a real Postgres:
 *  - the template, and an import's happy path (checked, confirmed, written; the tree with the
 *    extended quantity of level 3, the vendors, the mobile masked everywhere);
 *  - every refusal of a file with its row and column, and nothing written; the size limit;
 *  - depth and cycle rules on import and on the line form; re-import replaces that material's
 *    BOM only; a double add or delete sent in parallel;
 *  - a supplier never reaches another's BOM, on any call; the manufacturer reads any supplier's,
 *    and the where-used search finds a vendor across two suppliers; the exports;
 *  - the flat view (平铺): paging, the filters, the sort, the export of the view, the scope;
 *  - revealing a BOM vendor's mobile through saveLookMobilePhoneLog (kind BOM_VENDOR): in scope
 *    the number and one log row; another supplier's line like a missing one, nothing logged.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import { BOM_COLUMNS, BOM_IMPORT_MAX_BYTES, bomApi, phoneLogApi, type BomMaterialNode, PAGES } from '@esm/contracts';
import { createSupplierUser, multipart, supplierSupplying, unzipEntries, zipOf, type Part } from './factories.ts';
import { buildTestApp, callApi, hasChinese, login, unchecked } from './helpers.ts';

const t = await buildTestApp();
const db = t.db.prisma;
afterAll(() => t.close());

let admin: string; // demo3
let demo2: string;
let demo4: string;
beforeAll(async () => {
  [admin, demo2, demo4] = await Promise.all([login(t.app, 'demo3'), login(t.app, 'demo2'), login(t.app, 'demo4')]);
});

// ---- fixtures ----------------------------------------------------------------------------------------

/** A fresh supplier supplying `n` fresh materials, with a signed-in user. */
async function supplierWith(n: number) {
  const { supplier, materials } = await supplierSupplying(db, n);
  const user = await createSupplierUser(t.db, supplier.code);
  return { supplier, materials: materials.map((m) => m.code), cookie: await login(t.app, user.account) };
}

type Row = Partial<Record<(typeof BOM_COLUMNS)[number]['key'], string | number>>;
const VENDOR_A = {
  vendorName: '宁波测试塑胶有限公司',
  vendorCreditCode: '91330206MA2CJ8L41B',
  vendorRegion: '浙江省宁波市',
  vendorContact: '俞海',
  vendorMobile: '13857402288',
};
const VENDOR_B = {
  vendorName: '青岛测试橡塑有限公司',
  vendorCreditCode: '91370214MA3D2N5P7C',
  vendorRegion: '山东省青岛市',
  vendorContact: '孙波',
  vendorMobile: '15063907711',
};

const line = (materialCode: string, componentCode: string, over: Row = {}): Row => ({
  materialCode,
  componentCode,
  componentName: `子件${componentCode}`,
  quantity: 2,
  unit: '个',
  hasDrawing: '否',
  ...VENDOR_A,
  ...over,
});

/** An .xlsx as the template has it: the headers in row 1, then the rows. */
async function workbook(rows: Row[], headers: readonly string[] = BOM_COLUMNS.map((c) => c.header)): Promise<Buffer> {
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet('BOM导入');
  sheet.addRow([...headers]);
  for (const r of rows) sheet.addRow(BOM_COLUMNS.map((c) => r[c.key] ?? ''));
  return Buffer.from(await book.xlsx.writeBuffer());
}

async function upload(cookie: string, bytes: Uint8Array, opts: { confirm?: boolean; filename?: string } = {}) {
  const parts: Part[] = [
    { name: 'confirm', value: String(opts.confirm ?? false) },
    { name: 'file', file: { filename: opts.filename ?? 'bom.xlsx', bytes } },
  ];
  const { payload, headers } = multipart(parts);
  return t.app.inject({
    method: 'POST',
    url: `/esm-server/api/${bomApi.import.path}`,
    payload,
    headers: { ...headers, cookie },
  });
}

const linesOf = (supplierCode: string, materialCode?: string) =>
  db.bomLine.findMany({
    where: { supplierCode, ...(materialCode ? { materialCode } : {}) },
    orderBy: [{ level: 'asc' }, { sortNo: 'asc' }],
  });

const tree = (cookie: string, body: object = {}) => callApi(t.app, bomApi.tree, body, cookie);

// ---- template and import ------------------------------------------------------------------------------

describe('template and import', () => {
  it('the template has the Chinese headers, instructions and the supplier’s materials', async () => {
    const f = await supplierWith(2);
    const res = await callApi(t.app, bomApi.template, {}, f.cookie);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toContain(encodeURIComponent('二三级BOM导入模板'));
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    expect(book.worksheets.map((s) => s.name)).toEqual(['BOM导入', '填写说明', '供货物料']);
    expect((book.getWorksheet('BOM导入')!.getRow(1).values as string[]).slice(1)).toEqual(
      BOM_COLUMNS.map((c) => c.header),
    );
    const materials = book.getWorksheet('供货物料')!;
    expect([materials.getRow(2).getCell(1).text, materials.getRow(3).getCell(1).text].sort()).toEqual(
      [...f.materials].sort(),
    );
  });

  it('imports a good file: checked first, then written in one go; the tree and vendors show it', async () => {
    const f = await supplierWith(2);
    const [m1, m2] = f.materials as [string, string];
    const file = await workbook([
      line(m1, 'A100', { quantity: 2, hasDrawing: '是', spec: 'ABS 白' }),
      line(m1, 'A110', { parentCode: 'A100', quantity: 1.5, unit: 'kg', ...VENDOR_B }),
      line(m1, 'A120', { parentCode: 'A100', quantity: '0.25' }),
      line(m1, 'A200', { parentCode: m1, quantity: 4 }),
      line(m2, 'B100', {}),
    ]);
    const checked = await upload(f.cookie, file);
    expect(checked.statusCode).toBe(200);
    expect(checked.json().data).toEqual({
      applied: false,
      lines: 5,
      materials: [
        { code: m1, name: expect.any(String), existing: 0, incoming: 4 },
        { code: m2, name: expect.any(String), existing: 0, incoming: 1 },
      ],
    });
    expect(await linesOf(f.supplier.code)).toHaveLength(0);

    const done = await upload(f.cookie, file, { confirm: true });
    expect(done.statusCode).toBe(200);
    expect(done.json()).toMatchObject({ message: '已导入 5 行', data: { applied: true, lines: 5 } });
    const rows = await linesOf(f.supplier.code, m1);
    expect(rows.map((r) => [r.level, r.parentCode, r.componentCode])).toEqual([
      [2, m1, 'A100'],
      [2, m1, 'A200'],
      [3, 'A100', 'A110'],
      [3, 'A100', 'A120'],
    ]);
    const a100 = rows.find((r) => r.componentCode === 'A100')!;
    expect(rows.filter((r) => r.level === 3).every((r) => r.parentId === a100.id)).toBe(true);
    expect(await db.bomEvent.count({ where: { supplierCode: f.supplier.code, action: 'IMPORT' } })).toBe(2);

    const res = await tree(f.cookie, { materialCode: m1 });
    expect(res.statusCode).toBe(200);
    const node = (res.json().data as BomMaterialNode[])[0]!;
    expect(node).toMatchObject({
      materialCode: m1,
      lineCount: 4,
      level2Count: 2,
      level3Count: 2,
      vendorCount: 2,
      supplied: true,
    });
    expect(node.children![0]).toMatchObject({
      componentCode: 'A100',
      quantity: 2,
      extendedQuantity: 2,
      hasDrawing: true,
      spec: 'ABS 白',
      vendorMobile: '138****2288',
    });
    expect(node.children![0]!.children!.map((c) => [c.componentCode, c.extendedQuantity])).toEqual([
      ['A110', 3],
      ['A120', 0.5],
    ]);
    expect(res.body).not.toContain('13857402288');

    const vendors = await callApi(t.app, bomApi.vendors, {}, f.cookie);
    expect(vendors.json().data).toEqual([
      expect.objectContaining({
        creditCode: VENDOR_A.vendorCreditCode,
        name: VENDOR_A.vendorName,
        lineCount: 4,
        componentCount: 4,
        materialCount: 2,
        mobile: '138****2288',
      }),
      expect.objectContaining({
        creditCode: VENDOR_B.vendorCreditCode,
        lineCount: 1,
        components: [{ code: 'A110', name: '子件A110', level: 3, materialCode: m1 }],
      }),
    ]);
    expect(vendors.body).not.toContain('15063907711');
  });

  it('a file with errors is refused whole: every bad row with its row number and column, nothing written', async () => {
    const f = await supplierWith(1);
    const [m] = f.materials as [string];
    const other = await supplierWith(1);
    const file = await workbook([
      line(m, 'C100'), // row 2: good
      line(m, 'C200', { quantity: -1 }), // 3
      line(m, 'C300', { componentName: '', vendorCreditCode: '123' }), // 4: two columns
      line(other.materials[0]!, 'C400'), // 5: not supplied
      line(m, 'C100'), // 6: duplicate of row 2
      line(m, 'C110', { parentCode: 'C100' }), // 7: good level 3
      line(m, 'C111', { parentCode: 'C110' }), // 8: a fourth level
      line(m, 'X1', { parentCode: 'X2' }), // 9: cycle X1 → X2 → X1
      line(m, 'X2', { parentCode: 'X1' }), // 10
      line(m, m), // 11: the material itself
      line(m, 'C500', { parentCode: 'NOPE' }), // 12: no such parent
      line(m, 'C600', { hasDrawing: '也许', vendorMobile: '138****2288' }), // 13
    ]);
    const res = await upload(f.cookie, file, { confirm: true });
    expect(res.statusCode).toBe(400);
    const body = res.json();
    const errors = Object.fromEntries(body.errors.map((e: { field: string; message: string }) => [e.field, e.message]));
    expect(errors).toEqual({
      '第 3 行 单位用量': '单位用量须为正数，最多 4 位小数',
      '第 4 行 子件名称': '请输入子件名称',
      '第 4 行 统一社会信用代码': '统一社会信用代码应为 18 位数字或大写字母',
      '第 5 行 一级物料编码': `物料 ${other.materials[0]} 不是本供应商供货的物料`,
      '第 6 行 子件编码': `子件编码 C100 在一级物料 ${m}下重复（与第 2 行重复）`,
      '第 8 行 上级编码': '层级超过三级：上级 C110 本身是三级子件，BOM 最多三级',
      '第 9 行 上级编码': '循环引用：X1 → X2 → X1',
      '第 10 行 上级编码': '循环引用：X2 → X1 → X2',
      '第 11 行 子件编码': `子件编码不能与一级物料编码 ${m} 相同（循环引用）`,
      '第 12 行 上级编码': `上级编码 NOPE 不是物料 ${m} 的二级子件（文件中没有这个子件）`,
      '第 13 行 是否有图纸': '是否有图纸只能填“是”或“否”',
      '第 13 行 联系电话': '联系电话不能是脱敏号码，请填写完整号码',
    });
    expect(body.message).toBe('导入文件有 10 行共 12 处错误，未导入任何数据');
    expect(await linesOf(f.supplier.code)).toHaveLength(0);
    expect(await db.bomEvent.count({ where: { supplierCode: f.supplier.code } })).toBe(0);
  });

  it('refuses a wrong template, an empty sheet, a file that is not .xlsx and one over the size limit', async () => {
    const f = await supplierWith(1);
    const wrong = await upload(f.cookie, await workbook([], ['物料', '名称']));
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().message).toContain(
      '缺少列 一级物料编码、子件编码、子件名称、单位用量、单位、供应商名称、统一社会信用代码',
    );
    const empty = await upload(f.cookie, await workbook([]));
    expect(empty.json()).toMatchObject({ message: '文件中没有数据行（从第 2 行起填写）' });
    const csv = await upload(f.cookie, Buffer.from('a,b\n1,2\n'), { filename: 'bom.csv' });
    expect(csv.json()).toMatchObject({ message: '只能导入 .xlsx 文件（请使用下载的模板）' });
    const none = await upload(f.cookie, Buffer.alloc(0));
    expect(none.json()).toMatchObject({
      message: '文件内容为空，请使用下载的模板填写后导入',
      errors: [{ field: 'file', message: '文件内容为空' }],
    });
    // a control character in the name is dropped (the name goes into the audit row), the file is read
    const nul = await upload(f.cookie, await workbook([line(f.materials[0]!, 'N-1')]), {
      filename: 'bom\u0000名.xlsx',
      confirm: true,
    });
    expect(nul.statusCode, nul.body).toBe(200);
    const garbage = await upload(f.cookie, Buffer.from('not a zip at all'));
    expect(garbage.json()).toMatchObject({ message: '无法读取该文件，请使用下载的模板（.xlsx）填写后导入' });
    const big = await upload(f.cookie, Buffer.alloc(BOM_IMPORT_MAX_BYTES + 10, 1));
    expect(big.statusCode).toBe(413);
    expect(big.json().message).toBe('导入文件不能超过 10 MB，请分批导入');
    for (const r of [wrong, empty, csv, garbage, big]) expect(hasChinese(r.json().message)).toBe(true);
  });

  it('a crafted file is answered with a message and costs the api little: a huge merged range, a zip bomb, no shared strings', async () => {
    const f = await supplierWith(1);
    const good = unzipEntries(await workbook([line(f.materials[0]!, 'C-1')]));
    const sheetName = [...good.keys()].find((k) => /^xl\/worksheets\/sheet\d+\.xml$/.test(k))!;
    // one merged range over ~70 million cells: loading the whole workbook expanded every one of them
    const merged = new Map(good);
    merged.set(
      sheetName,
      Buffer.from(
        good
          .get(sheetName)!
          .toString()
          .replace('</sheetData>', '</sheetData><mergeCells count="1"><mergeCell ref="A1:ZZ99999"/></mergeCells>'),
      ),
    );
    const m = await upload(f.cookie, zipOf(merged));
    expect(m.statusCode, m.body).toBe(400);
    expect(m.json()).toMatchObject({ errors: [{ field: 'file', message: '合并的单元格过多' }] });
    // 80 MB of shared strings in ~80 KB
    const bomb = new Map(good);
    bomb.set(
      'xl/sharedStrings.xml',
      Buffer.concat([good.get('xl/sharedStrings.xml')!, Buffer.alloc(80 * 1024 * 1024, 0x20)]),
    );
    const b = await upload(f.cookie, zipOf(bomb));
    expect(b.statusCode).toBe(400);
    expect(b.json()).toMatchObject({
      message: expect.stringContaining('文件解压后过大'),
      errors: [{ field: 'file', message: '文件解压后过大' }],
    });
    // the shared strings taken out: the headers read as numbers (this was a 500)
    const bare = new Map(good);
    bare.delete('xl/sharedStrings.xml');
    const n = await upload(f.cookie, zipOf(bare));
    expect(n.statusCode, n.body).toBe(400);
    expect(n.json().message).toMatch(/^模板表头不对：缺少列 一级物料编码/);
    expect(await linesOf(f.supplier.code)).toEqual([]);
  });

  it('re-import replaces that material’s BOM only, after saying how many lines change', async () => {
    const f = await supplierWith(2);
    const [m1, m2] = f.materials as [string, string];
    await upload(
      f.cookie,
      await workbook([line(m1, 'R1'), line(m1, 'R11', { parentCode: 'R1' }), line(m1, 'R2'), line(m2, 'K1')]),
      { confirm: true },
    );
    const again = await workbook([line(m1, 'N1', { quantity: 3 }), line(m1, 'N11', { parentCode: 'N1', quantity: 2 })]);
    const checked = await upload(f.cookie, again);
    expect(checked.json().data.materials).toEqual([{ code: m1, name: expect.any(String), existing: 3, incoming: 2 }]);
    expect((await upload(f.cookie, again, { confirm: true })).statusCode).toBe(200);
    expect((await linesOf(f.supplier.code, m1)).map((r) => r.componentCode)).toEqual(['N1', 'N11']);
    expect((await linesOf(f.supplier.code, m2)).map((r) => r.componentCode)).toEqual(['K1']);
    const events = await db.bomEvent.findMany({
      where: { supplierCode: f.supplier.code, materialCode: m1 },
      orderBy: { id: 'asc' },
    });
    expect(events.map((e) => [e.action, e.removed, e.written])).toEqual([
      ['IMPORT', 0, 3],
      ['IMPORT', 3, 2],
    ]);
  });
});

// ---- the line form ----------------------------------------------------------------------------------------

describe('lines: add, edit, delete', () => {
  const fields = (componentCode: string, over: object = {}) => ({
    componentCode,
    componentName: `子件${componentCode}`,
    quantity: '1.5',
    unit: '个',
    hasDrawing: false,
    ...VENDOR_A,
    ...over,
  });

  it('adds levels 2 and 3, refuses a fourth level, a cycle and a duplicate code, each with a message', async () => {
    const f = await supplierWith(1);
    const [m] = f.materials as [string];
    const l2 = await callApi(t.app, bomApi.add, { materialCode: m, ...fields('P1') }, f.cookie);
    expect(l2.statusCode).toBe(200);
    expect(l2.json().data).toMatchObject({ level: 2, parentCode: m, quantity: 1.5, vendorMobile: '138****2288' });
    const l3 = await callApi(
      t.app,
      bomApi.add,
      { materialCode: m, parentId: l2.json().data.id, ...fields('P11', { quantity: '4' }) },
      f.cookie,
    );
    expect(l3.json().data).toMatchObject({ level: 3, parentCode: 'P1', extendedQuantity: 6 });

    const fourth = await callApi(
      t.app,
      bomApi.add,
      { materialCode: m, parentId: l3.json().data.id, ...fields('P111') },
      f.cookie,
    );
    expect(fourth.statusCode).toBe(400);
    expect(fourth.json().errors).toEqual([{ field: 'parentId', message: '三级子件下不能再添加子件（BOM 最多三级）' }]);
    const self = await callApi(
      t.app,
      bomApi.add,
      { materialCode: m, parentId: l2.json().data.id, ...fields('P1') },
      f.cookie,
    );
    expect(self.json().errors).toEqual([{ field: 'componentCode', message: '子件 P1 不能以自身为上级（循环引用）' }]);
    const material = await callApi(t.app, bomApi.add, { materialCode: m, ...fields(m) }, f.cookie);
    expect(material.json().errors[0].message).toBe(`子件编码不能与一级物料编码 ${m} 相同（循环引用）`);
    const dup = await callApi(t.app, bomApi.add, { materialCode: m, ...fields('P1') }, f.cookie);
    expect(dup.statusCode).toBe(409);
    expect(dup.json().message).toBe(`一级物料 ${m} 下已有子件 P1`);
    const bad = await callApi(
      t.app,
      bomApi.add,
      { materialCode: m, ...fields('Q1', { quantity: '0', vendorCreditCode: 'abc' }) },
      f.cookie,
    );
    expect(bad.statusCode).toBe(400);
    expect(
      bad
        .json()
        .errors.map((e: { field: string }) => e.field)
        .sort(),
    ).toEqual(['quantity', 'vendorCreditCode']);
    expect(await linesOf(f.supplier.code)).toHaveLength(2);
  });

  it('an edited level-2 code is carried to its children; deleting it takes them along', async () => {
    const f = await supplierWith(1);
    const [m] = f.materials as [string];
    const l2 = (await callApi(t.app, bomApi.add, { materialCode: m, ...fields('E1') }, f.cookie)).json().data;
    await callApi(t.app, bomApi.add, { materialCode: m, parentId: l2.id, ...fields('E11') }, f.cookie);
    const cycle = await callApi(t.app, bomApi.update, { id: l2.id, ...fields('E11') }, f.cookie);
    expect(cycle.json().errors[0].message).toBe('子件 E11 已是它的三级子件，不能再作为它自身的编码（循环引用）');
    const edited = await callApi(
      t.app,
      bomApi.update,
      { id: l2.id, ...fields('E2', { quantity: '3', componentName: '改名' }) },
      f.cookie,
    );
    expect(edited.json().data).toMatchObject({ componentCode: 'E2', componentName: '改名', quantity: 3 });
    expect((await linesOf(f.supplier.code)).map((r) => [r.componentCode, r.parentCode])).toEqual([
      ['E2', m],
      ['E11', 'E2'],
    ]);
    const removed = await callApi(t.app, bomApi.remove, { id: l2.id }, f.cookie);
    expect(removed.json()).toMatchObject({ message: '已删除 2 行（含三级子件）', data: { removed: 2 } });
    expect(await linesOf(f.supplier.code)).toHaveLength(0);
    const events = await db.bomEvent.findMany({ where: { supplierCode: f.supplier.code }, orderBy: { id: 'asc' } });
    expect(events.map((e) => e.action)).toEqual(['ADD', 'ADD', 'UPDATE', 'DELETE']);
  });

  it('a double add or delete sent at once makes one change; the other answers 409', async () => {
    const f = await supplierWith(1);
    const [m] = f.materials as [string];
    const adds = await Promise.all(
      [1, 2].map(() => callApi(t.app, bomApi.add, { materialCode: m, ...fields('D1') }, f.cookie)),
    );
    expect(adds.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    expect(await linesOf(f.supplier.code)).toHaveLength(1);
    const id = adds.find((r) => r.statusCode === 200)!.json().data.id;
    const deletes = await Promise.all([1, 2].map(() => callApi(t.app, bomApi.remove, { id }, f.cookie)));
    const codes = deletes.map((r) => r.statusCode).sort();
    expect(codes[0]).toBe(200);
    expect([404, 409]).toContain(codes[1]);
    expect(await db.bomEvent.count({ where: { supplierCode: f.supplier.code, action: 'DELETE' } })).toBe(1);
  });
});

// ---- isolation and the manufacturer's side -------------------------------------------------------------------

describe('who sees what', () => {
  it('a supplier sees and changes only its own BOM, on every call', async () => {
    const a = await supplierWith(1);
    const b = await supplierWith(1);
    const [ma] = a.materials as [string];
    await upload(a.cookie, await workbook([line(ma, 'S1'), line(ma, 'S11', { parentCode: 'S1' })]), { confirm: true });
    const theirs = (await linesOf(a.supplier.code)).find((r) => r.level === 2)!;

    // b's tree, vendors, materials, export and template do not show a's
    expect((await tree(b.cookie)).json().data.map((n: { materialCode: string }) => n.materialCode)).toEqual(
      b.materials,
    );
    expect((await tree(b.cookie, { materialCode: ma })).json()).toMatchObject({ total: 0, data: [] });
    expect((await callApi(t.app, bomApi.vendors, {}, b.cookie)).json()).toMatchObject({ total: 0 });
    expect(
      (await callApi(t.app, bomApi.materials, {}, b.cookie)).json().data.map((x: { code: string }) => x.code),
    ).toEqual(b.materials);
    const exported = await callApi(t.app, bomApi.exportLines, {}, b.cookie);
    expect(exported.headers['x-total-rows']).toBe('0');

    // a's line: the same 404 as an id that does not exist
    const missing = await callApi(
      t.app,
      bomApi.update,
      {
        id: 2_000_000_000,
        componentCode: 'Z',
        componentName: 'Z',
        quantity: '1',
        unit: '个',
        hasDrawing: false,
        ...VENDOR_A,
      },
      b.cookie,
    );
    const update = await callApi(
      t.app,
      bomApi.update,
      {
        id: theirs.id,
        componentCode: 'Z',
        componentName: 'Z',
        quantity: '1',
        unit: '个',
        hasDrawing: false,
        ...VENDOR_A,
      },
      b.cookie,
    );
    const remove = await callApi(t.app, bomApi.remove, { id: theirs.id }, b.cookie);
    const addUnder = await callApi(
      t.app,
      bomApi.add,
      {
        materialCode: ma,
        parentId: theirs.id,
        componentCode: 'Z',
        componentName: 'Z',
        quantity: '1',
        unit: '个',
        hasDrawing: false,
        ...VENDOR_A,
      },
      b.cookie,
    );
    expect([missing.statusCode, update.statusCode, remove.statusCode]).toEqual([404, 404, 404]);
    expect(update.json().message).toBe(missing.json().message);
    expect(addUnder.statusCode).toBe(400);
    expect(addUnder.json().errors).toEqual([{ field: 'materialCode', message: `物料 ${ma} 不是本供应商供货的物料` }]);
    const imported = await upload(b.cookie, await workbook([line(ma, 'S1')]), { confirm: true });
    expect(imported.json().errors).toEqual([
      { field: '第 2 行 一级物料编码', message: `物料 ${ma} 不是本供应商供货的物料` },
    ]);
    expect((await linesOf(a.supplier.code)).map((r) => r.componentCode)).toEqual(['S1', 'S11']);

    // internal users cannot use the supplier calls, suppliers not the internal ones
    expect((await tree(admin)).statusCode).toBe(403);
    expect((await callApi(t.app, bomApi.haierTree, { supplierCode: a.supplier.code }, a.cookie)).statusCode).toBe(403);
    expect((await callApi(t.app, bomApi.whereUsed, { vendor: '测试' }, demo2)).statusCode).toBe(403);
  });

  it('the manufacturer reads any supplier’s BOM and vendors; an unknown supplier is 404', async () => {
    const res = await callApi(t.app, bomApi.haierTree, { supplierCode: 'S001' }, admin);
    expect(res.statusCode).toBe(200);
    const door = (res.json().data as BomMaterialNode[]).find((n) => n.materialCode === '0064000101');
    expect(door).toMatchObject({ materialName: '冰箱门体组件', level2Count: 5, level3Count: 5 });
    expect(door!.children![0]!.children![0]).toMatchObject({ componentCode: 'GB-DC01-05', extendedQuantity: 2.35 });
    expect(res.body).not.toMatch(/1[3-9]\d{9}/);
    const vendors = await callApi(t.app, bomApi.haierVendors, { supplierCode: 'S002' }, admin);
    expect(vendors.json().data.map((v: { name: string }) => v.name)).toContain('宁波金田塑胶制品有限公司');
    expect((await callApi(t.app, bomApi.haierTree, { supplierCode: 'NOPE' }, admin)).statusCode).toBe(404);
    expect((await callApi(t.app, bomApi.haierTree, unchecked({}), admin)).json().errors).toEqual([
      { field: 'supplierCode', message: '请选择供应商' },
    ]);
    const suppliers = await callApi(t.app, bomApi.suppliers, { keyword: 'S00' }, admin);
    expect(suppliers.json().data).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ supplierCode: 'S001', supplied: 7, withBom: 3, lineCount: 16 }),
        expect.objectContaining({ supplierCode: 'S002', supplied: 7, withBom: 2, lineCount: 7 }),
      ]),
    );
    // demo4 reads its own demo BOM, not demo2's
    expect((await tree(demo4, { vendor: '宝钢' })).json()).toMatchObject({ total: 0 });
    expect((await tree(demo2, { vendor: '宝钢' })).json().total).toBe(2);
  });

  it('where-used finds a vendor and a component across two suppliers', async () => {
    const a = await supplierWith(1);
    const b = await supplierWith(1);
    const shared = { vendorName: '北京共享芯片有限公司', vendorCreditCode: '91110108MA01B6D3RJ' };
    await upload(
      a.cookie,
      await workbook([
        line(a.materials[0]!, 'W1', { quantity: 2 }),
        line(a.materials[0]!, 'WCHIP', { parentCode: 'W1', quantity: 3, ...shared }),
      ]),
      { confirm: true },
    );
    await upload(b.cookie, await workbook([line(b.materials[0]!, 'WCHIP', { ...shared })]), { confirm: true });

    const byVendor = await callApi(
      t.app,
      bomApi.whereUsed,
      { vendor: '共享芯片', sortField: 'supplierCode', sortOrder: 'ascend' },
      admin,
    );
    expect(byVendor.statusCode).toBe(200);
    const rows = byVendor
      .json()
      .data.filter((r: { supplierCode: string }) => [a.supplier.code, b.supplier.code].includes(r.supplierCode));
    expect(
      rows
        .map((r: { supplierCode: string; materialCode: string; level: number; extendedQuantity: number }) => [
          r.supplierCode,
          r.materialCode,
          r.level,
          r.extendedQuantity,
        ])
        .sort(),
    ).toEqual(
      [
        [a.supplier.code, a.materials[0], 3, 6],
        [b.supplier.code, b.materials[0], 2, 2],
      ].sort(),
    );
    const byComponent = await callApi(t.app, bomApi.whereUsed, { component: 'WCHIP' }, admin);
    expect(new Set(byComponent.json().data.map((r: { supplierCode: string }) => r.supplierCode))).toEqual(
      new Set([a.supplier.code, b.supplier.code]),
    );
    const demo = await callApi(t.app, bomApi.whereUsed, { vendor: '金田塑胶' }, admin);
    expect(new Set(demo.json().data.map((r: { supplierCode: string }) => r.supplierCode))).toEqual(
      new Set(['S001', 'S002']),
    );
    const none = await callApi(t.app, bomApi.whereUsed, {}, admin);
    expect(none.json().errors).toEqual([{ field: 'vendor', message: '请输入次级供应商或子件' }]);
  });

  it('exports the tree and the vendors as .xlsx with the template’s columns', async () => {
    const res = await callApi(t.app, bomApi.exportLines, { materialCode: '0064000101' }, demo2);
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-total-rows']).toBe('10');
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const sheet = book.worksheets[0]!;
    expect((sheet.getRow(1).values as string[]).slice(1, BOM_COLUMNS.length + 3)).toEqual([
      ...BOM_COLUMNS.map((c) => c.header),
      '层级',
      '每一级物料用量',
    ]);
    expect((sheet.getRow(3).values as unknown[]).slice(1, 4)).toEqual(['0064000101', 'HD-MK-01', 'GB-DC01-05']);
    expect(sheet.getRow(3).getCell(13).text).toBe('139****1234');
    const vendors = await callApi(t.app, bomApi.exportVendors, { keyword: '金田' }, demo2);
    const vbook = new ExcelJS.Workbook();
    await vbook.xlsx.load(vendors.rawPayload as unknown as ArrayBuffer);
    expect(vbook.worksheets[0]!.getRow(2).getCell(1).text).toBe('宁波金田塑胶制品有限公司');
  });

  it('refuses an export above the row cap with the exports’ message, in every view, and writes the cap itself', async () => {
    // the same database, an app whose cap is 9: 0064000101's tree has 10 lines
    const small = await buildTestApp({ config: { exportMaxRows: 9 }, db: t.db });
    try {
      const cookie = await login(small.app, 'demo2');
      for (const body of [{ materialCode: '0064000101' }, { materialCode: '0064000101', view: 'flat' }]) {
        const res = await callApi(small.app, bomApi.exportLines, body, cookie);
        expect(res.statusCode, JSON.stringify(body)).toBe(400);
        expect(res.json().message).toBe('导出结果超过 9 条，请缩小查询范围后再导出');
      }
      const level3 = await callApi(
        small.app,
        bomApi.exportLines,
        { materialCode: '0064000101', view: 'flat', level: '3' },
        cookie,
      );
      expect(level3.statusCode).toBe(200);
      expect(Number(level3.headers['x-total-rows'])).toBeLessThanOrEqual(9);
      const tiny = await buildTestApp({ config: { exportMaxRows: 1 }, db: t.db });
      try {
        const vendors = await callApi(tiny.app, bomApi.exportVendors, {}, await login(tiny.app, 'demo2'));
        expect(vendors.statusCode).toBe(400);
        expect(vendors.json().message).toBe('导出结果超过 1 条，请缩小查询范围后再导出');
      } finally {
        await tiny.close();
      }
    } finally {
      await small.close();
    }
  });
});

// ---- the flat view --------------------------------------------------------------------------------------

type Flat = {
  id: number;
  level: number;
  materialCode: string;
  materialName: string;
  parentCode: string;
  parentName: string;
  componentCode: string;
  extendedQuantity: number;
  vendorMobile: string | null;
};
const codes = (res: { json: () => { data: unknown[] } }) => (res.json().data as Flat[]).map((r) => r.componentCode);

describe('the flat view (平铺)', () => {
  /** a: two materials (A100 with two level-3 lines, A200; B100); b: its own A100 under its material. */
  async function twoSuppliers() {
    const a = await supplierWith(2);
    const b = await supplierWith(1);
    const [m1, m2] = a.materials as [string, string];
    await upload(
      a.cookie,
      await workbook([
        line(m1, 'A100', { quantity: 2 }),
        line(m1, 'A110', { parentCode: 'A100', quantity: 1.5, ...VENDOR_B }),
        line(m1, 'A120', { parentCode: 'A100', quantity: '0.25' }),
        line(m1, 'A200', { quantity: 4 }),
        line(m2, 'B100', {}),
      ]),
      { confirm: true },
    );
    await upload(
      b.cookie,
      await workbook([
        line(b.materials[0]!, 'A100', { ...VENDOR_B }),
        line(b.materials[0]!, 'A130', { parentCode: 'A100', ...VENDOR_B }),
      ]),
      { confirm: true },
    );
    return { a, b, m1, m2 };
  }

  it('pages the lines, filters them like the tree (without context lines) and sorts them', async () => {
    const { a, m1, m2 } = await twoSuppliers();
    const all = await tree(a.cookie, { view: 'flat' });
    expect(all.statusCode).toBe(200);
    expect(all.json().total).toBe(5);
    // tree order by default: each level-2 line followed by its level-3 lines
    const byMaterial =
      [m1, m2].sort()[0] === m1 ? ['A100', 'A110', 'A120', 'A200', 'B100'] : ['B100', 'A100', 'A110', 'A120', 'A200'];
    expect(codes(all)).toEqual(byMaterial);
    const a110 = (all.json().data as Flat[]).find((r) => r.componentCode === 'A110')!;
    expect(a110).toMatchObject({
      level: 3,
      materialCode: m1,
      parentCode: 'A100',
      parentName: '子件A100',
      extendedQuantity: 3,
      vendorMobile: '150****7711',
    });
    expect(all.body).not.toMatch(/1[3-9]\d{9}/);

    const page2 = await tree(a.cookie, { view: 'flat', results: 2, page: 2 });
    expect(page2.json()).toMatchObject({ total: 5 });
    expect(codes(page2)).toEqual(byMaterial.slice(2, 4));

    // a level, a vendor, a component, a material: only the lines that match, no parents around them
    expect(codes(await tree(a.cookie, { view: 'flat', level: '3' }))).toEqual(['A110', 'A120']);
    expect(codes(await tree(a.cookie, { view: 'flat', vendor: VENDOR_B.vendorName }))).toEqual(['A110']);
    expect(codes(await tree(a.cookie, { view: 'flat', component: 'A2' }))).toEqual(['A200']);
    expect(codes(await tree(a.cookie, { view: 'flat', materialCode: m2 }))).toEqual(['B100']);
    // the tree keeps the parent as context for the same filter
    const treeLevel3 = ((await tree(a.cookie, { level: '3', materialCode: m1 })).json().data as BomMaterialNode[])[0]!;
    expect(treeLevel3.children!.map((c) => c.componentCode)).toEqual(['A100']);

    const sorted = await tree(a.cookie, {
      view: 'flat',
      materialCode: m1,
      sortField: 'extendedQuantity',
      sortOrder: 'descend',
    });
    expect(codes(sorted)).toEqual(['A200', 'A110', 'A100', 'A120']);
    expect(
      codes(await tree(a.cookie, { view: 'flat', materialCode: m1, sortField: 'componentCode', sortOrder: 'descend' })),
    ).toEqual(['A200', 'A120', 'A110', 'A100']);

    // the tree sorts by material only; a view or sort field that is not one is a field error
    expect((await tree(a.cookie, { sortField: 'componentCode', sortOrder: 'ascend' })).json().errors).toEqual([
      { field: 'sortField', message: expect.stringContaining('树形视图只能按一级物料编码排序') },
    ]);
    expect((await tree(a.cookie, { view: 'list' })).json().errors).toEqual([
      { field: 'view', message: '视图只能是 tree（树形）或 flat（平铺）' },
    ]);
  });

  it('a supplier sees only its own lines; the manufacturer reads any supplier’s flat', async () => {
    const { a, b } = await twoSuppliers();
    // b's lines only, though a has the same component code and vendor
    const mine = await tree(b.cookie, { view: 'flat', results: 100 });
    expect(codes(mine)).toEqual(['A100', 'A130']);
    expect((mine.json().data as Flat[]).every((r) => r.materialCode === b.materials[0])).toBe(true);
    expect(codes(await tree(b.cookie, { view: 'flat', vendor: VENDOR_B.vendorCreditCode }))).toEqual(['A100', 'A130']);
    expect((await tree(b.cookie, { view: 'flat', materialCode: a.materials[0] })).json()).toMatchObject({
      total: 0,
      data: [],
    });
    expect((await tree(a.cookie, { view: 'flat', component: 'A130' })).json()).toMatchObject({ total: 0, data: [] });

    const haier = await callApi(
      t.app,
      bomApi.haierTree,
      { supplierCode: b.supplier.code, view: 'flat', level: '3' },
      admin,
    );
    expect(haier.statusCode).toBe(200);
    expect(codes(haier)).toEqual(['A130']);
    expect(
      (await callApi(t.app, bomApi.haierTree, { supplierCode: b.supplier.code, view: 'flat' }, a.cookie)).statusCode,
    ).toBe(403);
  });

  it('the export follows the view: flat only the matching lines, in the flat order', async () => {
    const { a, m1 } = await twoSuppliers();
    const rowsOf = async (body: object) => {
      const res = await callApi(t.app, bomApi.exportLines, body, a.cookie);
      expect(res.statusCode).toBe(200);
      const book = new ExcelJS.Workbook();
      await book.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
      const out: string[] = [];
      book.worksheets[0]!.eachRow((r, n) => n > 1 && out.push(r.getCell(3).text));
      return out;
    };
    expect(await rowsOf({ materialCode: m1, level: '3' })).toEqual(['A100', 'A110', 'A120']);
    expect(await rowsOf({ materialCode: m1, level: '3', view: 'flat' })).toEqual(['A110', 'A120']);
    expect(await rowsOf({ materialCode: m1, view: 'flat', sortField: 'quantity', sortOrder: 'ascend' })).toEqual([
      'A120',
      'A110',
      'A100',
      'A200',
    ]);
  });
});

// ---- revealing a vendor's mobile -----------------------------------------------------------------------------

describe('revealing a BOM vendor’s mobile (saveLookMobilePhoneLog, kind BOM_VENDOR)', () => {
  const reveal = (cookie: string, contactId: number, side: 'supplier' | 'haier' = 'supplier') =>
    callApi(
      t.app,
      side === 'supplier' ? phoneLogApi.supplierReveal : phoneLogApi.reveal,
      { contactId, kind: 'BOM_VENDOR', page: PAGES.twoOrThreeLevelsBom.path },
      cookie,
    );
  const logged = (contactId: number) => db.phoneViewLog.count({ where: { contactKind: 'BOM_VENDOR', contactId } });

  it('answers the full number of a vendor on the caller’s own line and writes exactly one log row', async () => {
    const a = await supplierWith(1);
    await upload(
      a.cookie,
      await workbook([line(a.materials[0]!, 'R100'), line(a.materials[0]!, 'R200', { ...VENDOR_B })]),
      { confirm: true },
    );
    const [r100] = await linesOf(a.supplier.code);
    // every list shows it masked; the vendor row names the line to reveal it through
    const vendors = (await callApi(t.app, bomApi.vendors, {}, a.cookie)).json().data as {
      creditCode: string;
      lineId: number;
      mobile: string;
    }[];
    const vendorA = vendors.find((v) => v.creditCode === VENDOR_A.vendorCreditCode)!;
    expect(vendorA).toMatchObject({ lineId: r100!.id, mobile: '138****2288' });

    const res = await reveal(a.cookie, vendorA.lineId);
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ contactId: r100!.id, mobile: VENDOR_A.vendorMobile });
    expect(await logged(r100!.id)).toBe(1);
    const [row] = await db.phoneViewLog.findMany({ where: { contactKind: 'BOM_VENDOR', contactId: r100!.id } });
    expect(row).toMatchObject({
      contactName: VENDOR_A.vendorContact,
      contactSupplierName: VENDOR_A.vendorName,
      contactSupplierCode: a.supplier.code,
      maskedMobile: '138****2288',
      viewerSupplierCode: a.supplier.code,
      page: PAGES.twoOrThreeLevelsBom.path,
    });

    // an internal user reveals any supplier's vendor; each look is its own row
    const byAdmin = await reveal(admin, r100!.id, 'haier');
    expect(byAdmin.json().data.mobile).toBe(VENDOR_A.vendorMobile);
    expect(await logged(r100!.id)).toBe(2);

    // the phone log page lists the BOM reveals, masked, and filters by the kind and the supplier
    const log = await callApi(
      t.app,
      phoneLogApi.page,
      { contactKind: 'BOM_VENDOR', supplierCode: a.supplier.code },
      admin,
    );
    expect(log.statusCode).toBe(200);
    expect(log.json().total).toBe(2);
    expect(log.json().data[0]).toMatchObject({
      contactKind: 'BOM_VENDOR',
      contactName: '俞海',
      contactSupplierName: VENDOR_A.vendorName,
      maskedMobile: '138****2288',
    });
    expect(log.body).not.toContain(VENDOR_A.vendorMobile);
  });

  it('another supplier’s line answers like one that does not exist, and logs nothing', async () => {
    const a = await supplierWith(1);
    const b = await supplierWith(1);
    await upload(a.cookie, await workbook([line(a.materials[0]!, 'X100')]), { confirm: true });
    const [theirs] = await linesOf(a.supplier.code);
    const before = await db.phoneViewLog.count();
    const other = await reveal(b.cookie, theirs!.id);
    const missing = await reveal(b.cookie, 2_000_000_000);
    expect([other.statusCode, missing.statusCode]).toEqual([404, 404]);
    expect(other.json()).toEqual(missing.json());
    expect(other.body).not.toContain(VENDOR_A.vendorMobile);
    // a line without a mobile has nothing to reveal
    await upload(b.cookie, await workbook([line(b.materials[0]!, 'Y100', { vendorMobile: '' })]), { confirm: true });
    const [noMobile] = await linesOf(b.supplier.code);
    expect((await reveal(b.cookie, noMobile!.id)).statusCode).toBe(404);
    expect(await db.phoneViewLog.count()).toBe(before);
  });
});
