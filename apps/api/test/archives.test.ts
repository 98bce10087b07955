/**
 * The drawing archives: the tree, the internal and supplier lists (filters, sort,
 * paging, the 10 000-row window), supplier scoping (grant states, supplying, nothing in the body
 * widens it), who can see a file, upload (type by magic bytes, size limit, versions) and
 * obsolete. Each test works on its own product lines, materials and suppliers (factories.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCanvas } from '@napi-rs/canvas';
import { LIST_WINDOW_MAX, archivesApi, empowerApi, type EndpointDef, API_BASE } from '@esm/contracts';
import { Prisma } from '../src/generated/prisma/client.ts';
import { cappedCount } from '../src/lib/list.ts';
import { buildTestApp, callApi, hasChinese, login, unchecked, type CallBody, type TestApp } from './helpers.ts';
import {
  createFileVersion,
  createGrant,
  createMaterial,
  createProductLine,
  createSupplier,
  createSupplierUser,
  linkSupplier,
  multipart,
  sampleDxf,
  samplePdf,
  samplePng,
  tempStorage,
  unique,
  type Part,
} from './factories.ts';

const UPLOAD_LIMIT = 1 << 20;

let t: TestApp;
let files: Awaited<ReturnType<typeof tempStorage>>;
let admin: string;
let supA: string;
let supB: string;
let pdf: Uint8Array;

// the fixture: see beforeAll
const f = {} as {
  pl: string;
  pl2: string;
  /** mA: A and B supply it, both valid; mB: A, expired; mC: A, not yet valid; mD: A, revoked;
   *  mE: B supplies it, A holds a valid grant without supplying it; mF (pl2): B, valid. */
  m: Record<'A' | 'B' | 'C' | 'D' | 'E' | 'F', string>;
  sa: string;
  sb: string;
  saUserId: number;
  code: string;
  ids: Record<'a1' | 'a2' | 'aObs' | 'b' | 'c' | 'd' | 'e' | 'f', number>;
};

beforeAll(async () => {
  files = await tempStorage();
  t = await buildTestApp({ storage: files.storage, config: { uploadMaxBytes: UPLOAD_LIMIT } });
  const db = t.db.prisma;
  pdf = await samplePdf(2);
  f.pl = (await createProductLine(db)).code;
  f.pl2 = (await createProductLine(db)).code;
  f.m = {} as typeof f.m;
  for (const k of ['A', 'B', 'C', 'D', 'E'] as const) f.m[k] = (await createMaterial(db, f.pl)).code;
  f.m.F = (await createMaterial(db, f.pl2)).code;
  f.sa = (await createSupplier(db, '甲')).code;
  f.sb = (await createSupplier(db, '乙')).code;
  for (const k of ['A', 'B', 'C', 'D'] as const) await linkSupplier(db, f.sa, f.m[k]);
  for (const k of ['A', 'E', 'F'] as const) await linkSupplier(db, f.sb, f.m[k]);
  await createGrant(db, f.sa, f.m.A, 'valid');
  await createGrant(db, f.sa, f.m.B, 'expired');
  await createGrant(db, f.sa, f.m.C, 'future');
  await createGrant(db, f.sa, f.m.D, 'revoked');
  await createGrant(db, f.sa, f.m.E, 'valid');
  for (const k of ['A', 'E', 'F'] as const) await createGrant(db, f.sb, f.m[k], 'valid');

  f.code = `Q/T-${unique()}`;
  const file = (materialCode: string, extra: Partial<Parameters<typeof createFileVersion>[2]> = {}) =>
    createFileVersion(db, files.storage, { materialCode, type: 'pdf', bytes: pdf, ...extra }).then((r) => r.id);
  f.ids = {
    a1: await file(f.m.A, { standardCode: f.code, version: 'A', status: 'HISTORY', name: '门体总装图' }),
    a2: await file(f.m.A, { standardCode: f.code, version: 'B', name: '门体总装图' }),
    aObs: await file(f.m.A, { status: 'OBSOLETE', name: '旧支架图' }),
    b: await file(f.m.B, { name: '支架零件图' }),
    c: await file(f.m.C),
    d: await file(f.m.D),
    e: await file(f.m.E),
    f: await file(f.m.F),
  };
  await db.standardFile.update({ where: { id: f.ids.b }, data: { effectiveDate: new Date('2025-06-30T00:00:00Z') } });
  await db.standardFile.update({ where: { id: f.ids.c }, data: { effectiveDate: new Date('2025-07-01T00:00:00Z') } });

  admin = await login(t.app, 'demo3');
  const ua = await createSupplierUser(t.db, f.sa, 2);
  const ub = await createSupplierUser(t.db, f.sb, 4);
  f.saUserId = ua.id;
  supA = await login(t.app, ua.account);
  supB = await login(t.app, ub.account);
});

afterAll(async () => {
  await t.close();
  await files.remove();
});

const ids = (res: { json(): { data: { id: number }[] } }) => res.json().data.map((r) => r.id);
const list = (body: object, cookie = admin) => callApi(t.app, archivesApi.files, body, cookie);

describe('the tree', () => {
  it('lists product lines with their material counts', async () => {
    const res = await callApi(t.app, archivesApi.productLines, undefined, admin);
    expect(res.statusCode).toBe(200);
    const lines = res.json().data as { code: string; materialCount: number }[];
    expect(lines.find((l) => l.code === f.pl)).toMatchObject({ materialCount: 5 });
    expect(lines.find((l) => l.code === f.pl2)).toMatchObject({ materialCount: 1 });
  });

  it('pages the materials of a product line, sorted, with a keyword', async () => {
    const res = await callApi(t.app, archivesApi.materials, { productLineCode: f.pl, results: 3 }, admin);
    expect(res.json()).toMatchObject({ success: true, total: 5, totalCapped: false });
    expect(res.json().data.map((m: { code: string }) => m.code)).toEqual([f.m.A, f.m.B, f.m.C].sort());
    expect(res.json().data[0]).toMatchObject({
      spec: 'Φ20×100',
      purchaser: '采购员甲',
      productLineCode: f.pl,
      productLineName: expect.stringContaining('测试产品线'),
    });

    const desc = await callApi(
      t.app,
      archivesApi.materials,
      { productLineCode: f.pl, sortField: 'code', sortOrder: 'descend' },
      admin,
    );
    expect(desc.json().data.map((m: { code: string }) => m.code)).toEqual(
      Object.values(f.m)
        .filter((c) => c !== f.m.F)
        .sort()
        .reverse(),
    );

    const kw = await callApi(t.app, archivesApi.materials, { keyword: f.m.C.toLowerCase() }, admin);
    expect(kw.json().data.map((m: { code: string }) => m.code)).toEqual([f.m.C]);
  });
});

describe(archivesApi.files.path, () => {
  it('lists every version of a product line newest first, with an exact total', async () => {
    const res = await list({ productLineCode: f.pl, results: 50 });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ success: true, total: 7, totalCapped: false });
    expect(ids(res)).toEqual([f.ids.e, f.ids.d, f.ids.c, f.ids.b, f.ids.aObs, f.ids.a2, f.ids.a1]);
    expect(res.json().data.find((r: { id: number }) => r.id === f.ids.a2)).toMatchObject({
      standardCode: f.code,
      version: 'B',
      versionNo: 2,
      materialCode: f.m.A,
      materialName: expect.stringContaining('测试物料'),
      productLineCode: f.pl,
      status: 'EFFECTIVE',
      fileType: 'pdf',
      viewable: true,
      effectiveDate: '2026-01-01',
      uploaderName: '李娜',
    });
  });

  it('filters by status, material, standard code, name, version and effective date', async () => {
    expect(ids(await list({ productLineCode: f.pl, status: 'HISTORY' }))).toEqual([f.ids.a1]);
    expect(ids(await list({ productLineCode: f.pl, status: 'OBSOLETE' }))).toEqual([f.ids.aObs]);
    expect(ids(await list({ materialCode: f.m.A }))).toEqual([f.ids.aObs, f.ids.a2, f.ids.a1]);
    expect(ids(await list({ materialCode: f.m.A, status: 'EFFECTIVE' }))).toEqual([f.ids.a2]);
    expect(ids(await list({ standardCode: f.code }))).toEqual([f.ids.a2, f.ids.a1]);
    expect(ids(await list({ standardCode: f.code, version: 'A' }))).toEqual([f.ids.a1]);
    expect(ids(await list({ productLineCode: f.pl, name: '总装' }))).toEqual([f.ids.a2, f.ids.a1]);
    expect(ids(await list({ productLineCode: f.pl, dateFrom: '2025-06-30', dateTo: '2025-06-30' }))).toEqual([f.ids.b]);
    expect(ids(await list({ productLineCode: f.pl, dateFrom: '2025-06-01', dateTo: '2025-07-31' }))).toEqual([
      f.ids.c,
      f.ids.b,
    ]);
    // a blank filter from a cleared input is no filter
    expect((await list({ productLineCode: f.pl, status: '', name: '  ' })).json().total).toBe(7);
    // wildcards in the name are taken literally
    expect((await list({ productLineCode: f.pl, name: '%' })).json().total).toBe(0);
    // 3+ characters are looked up through the trigram index (ILIKE), shorter ones are not
    // (strpos): the same matching either way
    expect(ids(await list({ productLineCode: f.pl, name: '门体总装' }))).toEqual([f.ids.a2, f.ids.a1]);
    expect(ids(await list({ productLineCode: f.pl, name: '支架' }))).toEqual([f.ids.b, f.ids.aObs]);
    expect(ids(await list({ productLineCode: f.pl, name: '支架图' }))).toEqual([f.ids.aObs]);
    expect((await list({ productLineCode: f.pl, name: '总装图%' })).json().total).toBe(0);
    expect((await list({ productLineCode: f.pl, name: '总_' })).json().total).toBe(0);
  });

  it('sorts by the declared fields with id as tie-breaker, and pages', async () => {
    const asc = await list({ productLineCode: f.pl, sortField: 'effectiveDate', sortOrder: 'ascend', results: 50 });
    // b (2025-06-30), c (2025-07-01), then the five of 2026-01-01 by id ascending
    expect(ids(asc)).toEqual([f.ids.b, f.ids.c, f.ids.a1, f.ids.a2, f.ids.aObs, f.ids.d, f.ids.e]);
    const desc = await list({ productLineCode: f.pl, sortField: 'effectiveDate', sortOrder: 'descend', results: 50 });
    expect(ids(desc)).toEqual([f.ids.e, f.ids.d, f.ids.aObs, f.ids.a2, f.ids.a1, f.ids.c, f.ids.b]);
    const page2 = await list({
      productLineCode: f.pl,
      sortField: 'effectiveDate',
      sortOrder: 'ascend',
      results: 3,
      page: 2,
    });
    expect(ids(page2)).toEqual([f.ids.a2, f.ids.aObs, f.ids.d]);
    expect(page2.json().total).toBe(7);
    // a sort field without an order keeps the default
    expect(ids(await list({ productLineCode: f.pl, sortField: 'name', results: 2 }))).toEqual([f.ids.e, f.ids.d]);
  });

  it('refuses a page beyond the 10 000-row window, and a sort field it does not declare', async () => {
    const res = await list({ page: 1001, results: 10 });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      success: false,
      message: '最多可查看前 10000 条，请缩小查询范围',
      errors: [{ field: 'page' }],
    });
    expect((await list({ page: 100, results: 100, productLineCode: f.pl })).statusCode).toBe(200);
    const bad = await list({ sortField: 'sha256', sortOrder: 'ascend' });
    expect(bad.statusCode).toBe(400);
    expect(hasChinese(bad.json().message)).toBe(true);
  });

  it('counts up to the cap and says when it stopped there', async () => {
    const from = Prisma.sql`FROM standard_file sf WHERE sf.material_code IN (SELECT code FROM material WHERE product_line_code = ${f.pl})`;
    expect(await cappedCount(t.db.prisma, from, 3)).toEqual({ total: 3, totalCapped: true });
    expect(await cappedCount(t.db.prisma, from, 7)).toEqual({ total: 7, totalCapped: false });
    expect(await cappedCount(t.db.prisma, from)).toEqual({ total: 7, totalCapped: false });
    expect(LIST_WINDOW_MAX).toBe(10_000);
  });
});

describe(archivesApi.history.path, () => {
  it('lists only versions that are no longer current (HISTORY and OBSOLETE)', async () => {
    const res = await callApi(t.app, archivesApi.history, { productLineCode: f.pl }, admin);
    expect(ids(res)).toEqual([f.ids.aObs, f.ids.a1]);
    expect(res.json()).toMatchObject({ total: 2, totalCapped: false });
    // a status in the body does not widen it
    const widened = await callApi(
      t.app,
      archivesApi.history,
      unchecked({ productLineCode: f.pl, status: 'EFFECTIVE' }),
      admin,
    );
    expect(ids(widened)).toEqual([f.ids.aObs, f.ids.a1]);
  });
});

describe('suppliers and who can see a file', () => {
  it('pages suppliers with how many materials each supplies', async () => {
    const res = await callApi(t.app, archivesApi.suppliers, { keyword: f.sa }, admin);
    expect(res.json()).toMatchObject({
      total: 1,
      totalCapped: false,
      data: [{ code: f.sa, name: expect.stringContaining('甲精密制造'), materialCount: 4 }],
    });
  });

  it('tells the grant state of every supplier of the material and whether it can open the file now', async () => {
    const of = async (id: number) => (await callApi(t.app, archivesApi.fileSuppliers, { id }, admin)).json().data;
    expect(await of(f.ids.a2)).toEqual([
      expect.objectContaining({
        supplierCode: f.sa,
        grantState: 'VALID',
        canAccess: true,
        validFrom: expect.any(String),
        validUntil: expect.any(String),
      }),
      expect.objectContaining({ supplierCode: f.sb, grantState: 'VALID', canAccess: true }),
    ]);
    expect(await of(f.ids.b)).toEqual([
      expect.objectContaining({ supplierCode: f.sa, grantState: 'EXPIRED', canAccess: false }),
    ]);
    expect(await of(f.ids.c)).toEqual([
      expect.objectContaining({ supplierCode: f.sa, grantState: 'NOT_YET', canAccess: false }),
    ]);
    // a revoked grant counts as none
    expect(await of(f.ids.d)).toEqual([
      expect.objectContaining({
        supplierCode: f.sa,
        grantState: 'NONE',
        canAccess: false,
        validFrom: null,
        validUntil: null,
      }),
    ]);
    // A holds a grant on mE but does not supply it: not listed
    expect(await of(f.ids.e)).toEqual([
      expect.objectContaining({ supplierCode: f.sb, grantState: 'VALID', canAccess: true }),
    ]);
    // an obsolete version: nobody opens it, whatever the grant
    expect((await of(f.ids.aObs)).map((r: { canAccess: boolean }) => r.canAccess)).toEqual([false, false]);
    const missing = await callApi(t.app, archivesApi.fileSuppliers, { id: 2_000_000_000 }, admin);
    expect(missing.statusCode).toBe(404);
    expect(missing.json().message).toBe('文件不存在');
  });
});

describe('the supplier side', () => {
  const sup = <E extends EndpointDef>(endpoint: E, body: CallBody<E>, cookie: string) =>
    callApi(t.app, endpoint, body, cookie);

  it('shows a supplier only the effective files of materials it supplies AND holds a valid grant for', async () => {
    const a = await sup(archivesApi.supplierFiles, {}, supA);
    expect(a.statusCode).toBe(200);
    expect(ids(a)).toEqual([f.ids.a2]);
    expect(a.json()).toMatchObject({ total: 1, totalCapped: false });
    const b = await sup(archivesApi.supplierFiles, {}, supB);
    expect(ids(b)).toEqual([f.ids.f, f.ids.e, f.ids.a2]);
  });

  it('cannot be widened from the body: another material, product line, status or supplier code', async () => {
    for (const body of [
      { materialCode: f.m.E },
      { materialCode: f.m.B },
      { materialCode: f.m.F },
      { productLineCode: f.pl2 },
      { standardCode: f.code, version: 'A' },
    ]) {
      const res = await sup(archivesApi.supplierFiles, body, supA);
      expect(res.statusCode, JSON.stringify(body)).toBe(200);
      expect(res.json(), JSON.stringify(body)).toMatchObject({ data: [], total: 0 });
    }
    for (const body of [{ status: 'HISTORY' }, { supplierCode: f.sb }, { materialCodes: [f.m.E, f.m.F] }]) {
      // fields a supplier may not filter by are ignored, not obeyed
      expect(ids(await sup(archivesApi.supplierFiles, unchecked(body), supA)), JSON.stringify(body)).toEqual([
        f.ids.a2,
      ]);
    }
  });

  it('the tree holds only what the supplier may see', async () => {
    const lines = (await sup(archivesApi.supplierProductLines, undefined, supA)).json().data as {
      code: string;
      materialCount: number;
    }[];
    expect(lines.find((l) => l.code === f.pl)).toMatchObject({ materialCount: 1 });
    expect(lines.find((l) => l.code === f.pl2)).toBeUndefined();
    const mats = await sup(archivesApi.supplierMaterials, { productLineCode: f.pl }, supA);
    expect(mats.json()).toMatchObject({ total: 1, data: [{ code: f.m.A }] });
    expect((await sup(archivesApi.supplierMaterials, { productLineCode: f.pl2 }, supA)).json()).toMatchObject({
      total: 0,
      data: [],
    });
    const linesB = (await sup(archivesApi.supplierProductLines, undefined, supB)).json().data as {
      code: string;
      materialCount: number;
    }[];
    expect(linesB.find((l) => l.code === f.pl)).toMatchObject({ materialCount: 2 });
    expect(linesB.find((l) => l.code === f.pl2)).toMatchObject({ materialCount: 1 });
  });

  it('hasEmpower says why a material is closed', async () => {
    const of = async (materialCode: string) => (await sup(empowerApi.hasEmpower, { materialCode }, supA)).json().data;
    expect(await of(f.m.A)).toMatchObject({
      empowered: true,
      validFrom: expect.any(String),
      validUntil: expect.any(String),
      reason: null,
    });
    expect(await of(f.m.B)).toMatchObject({ empowered: false, reason: expect.stringContaining('过期') });
    expect(await of(f.m.C)).toMatchObject({ empowered: false, reason: expect.stringContaining('起生效') });
    expect(await of(f.m.D)).toMatchObject({
      empowered: false,
      reason: expect.stringMatching(/^该物料的图纸授权已于 \S+ \d\d:\d\d 被撤销，如需查看请重新申请授权$/),
    });
    expect(await of(f.m.E)).toMatchObject({ empowered: false, reason: expect.stringContaining('不是该物料的供应商') });
  });

  it('the history lists HISTORY versions of visible materials only', async () => {
    expect(ids(await sup(archivesApi.supplierHistory, {}, supA))).toEqual([f.ids.a1]);
    expect(ids(await sup(archivesApi.supplierHistory, { materialCode: f.m.A }, supB))).toEqual([f.ids.a1]);
    expect(ids(await sup(archivesApi.supplierHistory, { materialCode: f.m.E }, supA))).toEqual([]);
  });

  it("each row carries this user's latest successful confirmation", async () => {
    const db = t.db.prisma;
    const base = { userAccount: 'x', userName: '测试', userType: 2, supplierCode: f.sa, fileId: f.ids.a2 };
    const early = new Date('2026-02-01T08:00:00Z');
    const late = new Date('2026-03-01T08:00:00Z');
    await db.accessLog.createMany({
      data: [
        { ...base, action: 'CONFIRM', outcome: 'OK', userId: f.saUserId, createdAt: early },
        { ...base, action: 'CONFIRM', outcome: 'OK', userId: f.saUserId, createdAt: late },
        {
          ...base,
          action: 'CONFIRM',
          outcome: 'REFUSED',
          userId: f.saUserId,
          createdAt: new Date('2026-04-01T08:00:00Z'),
        },
        { ...base, action: 'VIEW', outcome: 'OK', userId: f.saUserId, createdAt: new Date('2026-04-02T08:00:00Z') },
      ],
    });
    const rowA = (await sup(archivesApi.supplierFiles, {}, supA)).json().data[0];
    expect(rowA).toMatchObject({ id: f.ids.a2, confirmedAt: late.toISOString() });
    // another user of another supplier has not confirmed it
    const rowB = (await sup(archivesApi.supplierFiles, { materialCode: f.m.A }, supB)).json().data[0];
    expect(rowB).toMatchObject({ id: f.ids.a2, confirmedAt: null });
    // the internal list's rows are nobody's confirmations: they carry no such field
    const internalRow = (await list({ materialCode: f.m.A }))
      .json()
      .data.find((r: { id: number }) => r.id === f.ids.a2);
    expect(internalRow).toBeDefined();
    expect(internalRow).not.toHaveProperty('confirmedAt');
  });

  it('the history rows say whether this user confirmed each earlier version', async () => {
    const at = new Date('2026-01-15T08:00:00Z');
    await t.db.prisma.accessLog.create({
      data: {
        userAccount: 'x',
        userName: '测试',
        userType: 2,
        supplierCode: f.sa,
        fileId: f.ids.a1,
        action: 'CONFIRM',
        outcome: 'OK',
        userId: f.saUserId,
        createdAt: at,
      },
    });
    expect((await sup(archivesApi.supplierHistory, {}, supA)).json().data[0]).toMatchObject({
      id: f.ids.a1,
      confirmedAt: at.toISOString(),
    });
    expect((await sup(archivesApi.supplierHistory, { materialCode: f.m.A }, supB)).json().data[0]).toMatchObject({
      id: f.ids.a1,
      confirmedAt: null,
    });
  });

  it('internal calls refuse suppliers', async () => {
    const res = await list({ productLineCode: f.pl }, supA);
    expect(res.statusCode).toBe(403);
  });
});

// ---- upload --------------------------------------------------------------------------------------

function fields(over: Record<string, string | undefined> = {}): Part[] {
  const base: Record<string, string | undefined> = {
    standardCode: `Q/UP-${unique()}`,
    name: '上传测试图纸',
    version: 'A',
    materialCode: f.m.A,
    category: 'DRAWING',
    secretLevel: 'SECRET',
    effectiveDate: '2026-03-15',
    remark: '首次发布',
    ...over,
  };
  return Object.entries(base)
    .filter(([, v]) => v !== undefined)
    .map(([name, value]) => ({ name, value }));
}

async function upload(parts: Part[], cookie = admin) {
  const { payload, headers } = multipart(parts);
  return t.app.inject({
    method: 'POST',
    url: `${API_BASE}/${archivesApi.upload.path}`,
    payload,
    headers: { ...headers, cookie },
  });
}

const fileOf = (filename: string, bytes: Uint8Array): Part => ({ name: 'file', file: { filename, bytes } });
const rowsOf = (standardCode: string) =>
  t.db.prisma.standardFile.findMany({ where: { standardCode }, orderBy: { versionNo: 'asc' } });

describe(archivesApi.upload.path, () => {
  it('creates version 1 EFFECTIVE of a new standard code, keeps the bytes and the file name (without its path)', async () => {
    const standardCode = `Q/UP-${unique()}`;
    const res = await upload([...fields({ standardCode }), fileOf('..\\..\\etc/图纸 总装.PDF', pdf)]);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      success: true,
      data: {
        standardCode,
        version: 'A',
        versionNo: 1,
        status: 'EFFECTIVE',
        fileName: '图纸 总装.PDF',
        fileType: 'pdf',
        fileSize: pdf.byteLength,
        effectiveDate: '2026-03-15',
        remark: '首次发布',
        uploaderName: '李娜',
      },
    });
    const [row] = await rowsOf(standardCode);
    expect(Buffer.from(await files.storage.read(row!.sha256)).equals(Buffer.from(pdf))).toBe(true);
  });

  it('a new version becomes EFFECTIVE as n+1 and the current one turns HISTORY', async () => {
    const standardCode = `Q/UP-${unique()}`;
    expect((await upload([...fields({ standardCode }), fileOf('v1.pdf', pdf)])).statusCode).toBe(200);
    const png = await samplePng();
    const v2 = await upload([
      ...fields({ standardCode, version: 'B', name: '上传测试图纸（修订）' }),
      fileOf('v2.png', png),
    ]);
    expect(v2.statusCode, v2.body).toBe(200);
    expect(v2.json().data).toMatchObject({ versionNo: 2, version: 'B', status: 'EFFECTIVE', fileType: 'png' });
    const v3 = await upload([...fields({ standardCode, version: 'C' }), fileOf('v3.dxf', sampleDxf())]);
    expect(v3.json().data).toMatchObject({ versionNo: 3, fileType: 'dxf', viewable: false });
    expect((await rowsOf(standardCode)).map((r) => [r.versionNo, r.version, r.status])).toEqual([
      [1, 'A', 'HISTORY'],
      [2, 'B', 'HISTORY'],
      [3, 'C', 'EFFECTIVE'],
    ]);
  });

  it.each([
    ['a PDF named .png', 'x.png', () => pdf],
    ['text named .pdf', 'x.pdf', () => Buffer.from('not a pdf at all')],
    ['an executable named .dwg', 'x.dwg', () => Buffer.from('MZ\x90\x00\x03\x00\x00\x00')],
    ['a PNG named .jpg', 'x.jpg', () => Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0])],
    ['an unknown extension', 'x.exe', () => pdf],
    ['no extension', 'drawing', () => pdf],
  ])('refuses %s with 415 and leaves no row', async (_label, filename, bytes) => {
    const standardCode = `Q/UP-${unique()}`;
    const res = await upload([...fields({ standardCode }), fileOf(filename, bytes())]);
    expect(res.statusCode).toBe(415);
    expect(res.json()).toMatchObject({
      success: false,
      message: '文件类型不支持，仅支持 PDF、PNG、JPG、DWG、DXF',
      data: null,
    });
    expect(await rowsOf(standardCode)).toHaveLength(0);
  });

  it.each([
    ['a JPEG', 'photo.JPEG', createCanvas(64, 48).encodeSync('jpeg'), 'jpg'],
    ['a DWG', 'part.dwg', Buffer.from('AC1032\0\0\0\0\0\0'), 'dwg'],
    [
      'a DXF with a BOM, spaces and CRLF',
      'plate.dxf',
      Buffer.from('\ufeff  0\r\nSECTION\r\n  2\r\nENTITIES\r\n  0\r\nENDSEC\r\n  0\r\nEOF\r\n'),
      'dxf',
    ],
  ])('accepts %s', async (_label, filename, bytes, type) => {
    const res = await upload([...fields(), fileOf(filename, bytes)]);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ fileType: type, fileName: filename });
  });

  it('refuses what a viewer could not stamp — a damaged PDF, a broken or huge image — and keeps the effective version', async () => {
    const standardCode = `Q/UP-${unique()}`;
    expect((await upload([...fields({ standardCode }), fileOf('v1.pdf', pdf)])).statusCode).toBe(200);
    // a 1,000×1,000,000 PNG header: its bitmap would take 4 GB; refused from the header, not decoded
    const png = Buffer.from(await samplePng(4, 4));
    png.writeUInt32BE(1_000, 16);
    png.writeUInt32BE(1_000_000, 20);
    for (const [name, bytes, reason] of [
      [
        'damaged.pdf',
        Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(2000)]),
        'PDF 文件已损坏，无法添加水印，未上传；请检查文件后重新上传',
      ],
      [
        'broken.jpg',
        Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 0x4a, 0x46, 0x49, 0x46, 0, 1]),
        '图片文件已损坏，无法添加水印，未上传；请检查文件后重新上传',
      ],
      ['huge.png', png, '图片尺寸过大（1000×1000000），无法添加水印，未上传；请检查文件后重新上传'],
    ] as const) {
      const res = await upload([...fields({ standardCode, version: 'B' }), fileOf(name, bytes)]);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json()).toMatchObject({ message: reason, errors: [{ field: 'file', message: reason }] });
    }
    expect((await rowsOf(standardCode)).map((r) => [r.version, r.status])).toEqual([['A', 'EFFECTIVE']]);
  });

  it('refuses a file over the size limit with 413 and the limit, and leaves no row', async () => {
    const standardCode = `Q/UP-${unique()}`;
    const big = Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(UPLOAD_LIMIT + 10, 0x20)]);
    const res = await upload([...fields({ standardCode }), fileOf('big.pdf', big)]);
    expect(res.statusCode).toBe(413);
    expect(res.json()).toMatchObject({ success: false, message: '文件过大：上限为 1 MB' });
    expect(await rowsOf(standardCode)).toHaveLength(0);
    // exactly at the limit is fine (a real PDF, then a comment filling it up)
    const atLimit = Buffer.concat([
      Buffer.from(pdf),
      Buffer.from('\n%'),
      Buffer.alloc(UPLOAD_LIMIT - pdf.byteLength - 3, 0x78),
      Buffer.from('\n'),
    ]);
    expect(atLimit.length).toBe(UPLOAD_LIMIT);
    expect((await upload([...fields(), fileOf('limit.pdf', atLimit)])).statusCode).toBe(200);
  });

  it('names each missing or wrong field (400), and keeps nothing', async () => {
    const res = await upload([
      { name: 'version', value: 'A' },
      { name: 'effectiveDate', value: '2026/01/01' },
      fileOf('a.pdf', pdf),
    ]);
    expect(res.statusCode).toBe(400);
    const errs = res.json().errors.map((e: { field: string }) => e.field);
    expect(errs).toEqual(
      expect.arrayContaining(['standardCode', 'name', 'materialCode', 'category', 'secretLevel', 'effectiveDate']),
    );
    for (const e of res.json().errors) expect(hasChinese(e.message)).toBe(true);

    const impossible = await upload([...fields({ effectiveDate: '2026-02-30' }), fileOf('a.pdf', pdf)]);
    expect(impossible.json()).toMatchObject({ errors: [{ field: 'effectiveDate', message: '生效日期无效' }] });

    const noFile = await upload(fields());
    expect(noFile.statusCode).toBe(400);
    expect(noFile.json().errors).toEqual([{ field: 'file', message: '请选择要上传的文件' }]);
    const empty = await upload([...fields(), fileOf('empty.pdf', new Uint8Array(0))]);
    expect(empty.statusCode).toBe(400);
    expect(empty.json().errors).toEqual([{ field: 'file', message: '文件内容为空' }]);

    const standardCode = `Q/UP-${unique()}`;
    const unknown = await upload([...fields({ standardCode, materialCode: 'NO-SUCH-MATERIAL' }), fileOf('a.pdf', pdf)]);
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().errors[0]).toMatchObject({ field: 'materialCode', message: '物料不存在：NO-SUCH-MATERIAL' });
    expect(await rowsOf(standardCode)).toHaveLength(0);
  });

  it('refuses a version string the standard code already has (409), and a new version under another material', async () => {
    const standardCode = `Q/UP-${unique()}`;
    expect((await upload([...fields({ standardCode, version: 'V1' }), fileOf('a.pdf', pdf)])).statusCode).toBe(200);
    const again = await upload([...fields({ standardCode, version: 'V1' }), fileOf('b.pdf', pdf)]);
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe('该标准编号已有版本 V1');
    const moved = await upload([...fields({ standardCode, version: 'V2', materialCode: f.m.B }), fileOf('b.pdf', pdf)]);
    expect(moved.statusCode).toBe(400);
    expect(moved.json().errors[0].field).toBe('materialCode');
    expect((await rowsOf(standardCode)).map((r) => [r.version, r.status])).toEqual([['V1', 'EFFECTIVE']]);
  });

  it('says which order the parts go in when the file comes first', async () => {
    const res = await upload([fileOf('a.pdf', pdf), ...fields()]);
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual([{ field: 'file', message: '文件须放在表单其他字段之后提交' }]);
  });

  it('refuses a second file and a body that is not multipart', async () => {
    const two = await upload([...fields(), fileOf('a.pdf', pdf), fileOf('b.pdf', pdf)]);
    expect(two.statusCode).toBe(400);
    expect(hasChinese(two.json().message)).toBe(true);
    const json = await callApi(t.app, archivesApi.upload, unchecked({ standardCode: 'x' }), admin);
    expect(json.statusCode).toBe(415);
    expect(json.json().message).toBe('请以 multipart/form-data 方式上传文件');
  });

  it('is for drawing admins only', async () => {
    const res = await upload([...fields(), fileOf('a.pdf', pdf)], supA);
    expect(res.statusCode).toBe(403);
  });
});

describe(archivesApi.obsolete.path, () => {
  it('withdraws the effective version and restores the latest earlier one to effect; twice is a 409', async () => {
    const db = t.db.prisma;
    const mat = (await createMaterial(db, f.pl2)).code;
    const code = `Q/OB-${unique()}`;
    const v1 = await createFileVersion(db, files.storage, {
      materialCode: mat,
      type: 'pdf',
      bytes: pdf,
      standardCode: code,
      status: 'HISTORY',
      version: 'A',
    });
    const v2 = await createFileVersion(db, files.storage, {
      materialCode: mat,
      type: 'pdf',
      bytes: pdf,
      standardCode: code,
      version: 'B',
    });

    const res = await callApi(t.app, archivesApi.obsolete, { id: v2.id, reason: ' 设计变更，停止使用 ' }, admin);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({
      id: v2.id,
      status: 'OBSOLETE',
      obsoleteReason: '设计变更，停止使用',
      obsoletedAt: expect.any(String),
    });
    expect(res.json().message).toBe('已作废，A 版已恢复为生效');
    expect((await rowsOf(code)).map((r) => r.status)).toEqual(['EFFECTIVE', 'OBSOLETE']);
    const events = await db.archiveEvent.findMany({ where: { standardCode: code }, orderBy: { id: 'asc' } });
    expect(events.map((e) => [e.action, e.version, e.userName])).toEqual([
      ['OBSOLETE_VERSION', 'B', '李娜'],
      ['RESTORE_VERSION', 'A', '李娜'],
    ]);

    const again = await callApi(t.app, archivesApi.obsolete, { id: v2.id, reason: '再次作废' }, admin);
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe('该版本已作废');

    // the restored version can be withdrawn too; with nothing earlier left, nothing is restored
    const last = await callApi(t.app, archivesApi.obsolete, { id: v1.id, reason: '不再使用' }, admin);
    expect(last.json()).toMatchObject({ message: '已作废', data: { status: 'OBSOLETE' } });
  });

  it('整个标准作废 withdraws every version still in force, each logged', async () => {
    const db = t.db.prisma;
    const mat = (await createMaterial(db, f.pl2)).code;
    const code = `Q/OS-${unique()}`;
    await createFileVersion(db, files.storage, {
      materialCode: mat,
      type: 'pdf',
      bytes: pdf,
      standardCode: code,
      status: 'HISTORY',
      version: 'A',
    });
    const v2 = await createFileVersion(db, files.storage, {
      materialCode: mat,
      type: 'pdf',
      bytes: pdf,
      standardCode: code,
      version: 'B',
    });
    const res = await callApi(t.app, archivesApi.obsolete, { id: v2.id, reason: '产品停产', scope: 'STANDARD' }, admin);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().message).toBe('已作废该标准的 2 个版本');
    expect((await rowsOf(code)).map((r) => r.status)).toEqual(['OBSOLETE', 'OBSOLETE']);
    expect(await db.archiveEvent.count({ where: { standardCode: code, action: 'OBSOLETE_STANDARD' } })).toBe(2);
    expect(
      (await callApi(t.app, archivesApi.obsolete, { id: v2.id, reason: '再次', scope: 'STANDARD' }, admin)).statusCode,
    ).toBe(409);
  });

  it('two 作废 of the same version at once: one succeeds, the other is a 409, one version restored', async () => {
    const db = t.db.prisma;
    const mat = (await createMaterial(db, f.pl2)).code;
    const code = `Q/OC-${unique()}`;
    await createFileVersion(db, files.storage, {
      materialCode: mat,
      type: 'pdf',
      bytes: pdf,
      standardCode: code,
      status: 'HISTORY',
      version: 'A',
    });
    const v2 = await createFileVersion(db, files.storage, {
      materialCode: mat,
      type: 'pdf',
      bytes: pdf,
      standardCode: code,
      version: 'B',
    });
    const both = await Promise.all(
      [1, 2].map((n) => callApi(t.app, archivesApi.obsolete, { id: v2.id, reason: `并发 ${n}` }, admin)),
    );
    expect(both.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    expect((await rowsOf(code)).map((r) => r.status)).toEqual(['EFFECTIVE', 'OBSOLETE']);
    expect(await db.archiveEvent.count({ where: { standardCode: code } })).toBe(2);
  });

  it('needs a reason (400 on the field) and an existing file (404)', async () => {
    const noReason = await callApi(t.app, archivesApi.obsolete, { id: f.ids.e, reason: '   ' }, admin);
    expect(noReason.statusCode).toBe(400);
    expect(noReason.json().errors).toEqual([{ field: 'reason', message: '请填写作废原因' }]);
    const missing = await callApi(t.app, archivesApi.obsolete, { id: 2_000_000_000, reason: '不存在' }, admin);
    expect(missing.statusCode).toBe(404);
    expect((await t.db.prisma.standardFile.findUniqueOrThrow({ where: { id: f.ids.e } })).status).toBe('EFFECTIVE');
  });
});
