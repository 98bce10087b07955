/**
 * file/view, file/print, file/download: who gets a file's bytes, stamped with what,
 * and the one log row each attempt leaves — served (OK) or refused (REFUSED, with the words the
 * user saw). Each refusal case builds a supplier of its own in the state under test.
 */
import { filesApi, standardlogApi, type EndpointDef } from '@esm/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCanvas, loadImage } from '@napi-rs/canvas';
import type { LightMyRequestResponse } from 'fastify';
import { buildTestApp, callApi, createUser, login, pdfPages } from './helpers.ts';
import { whenStampSlotFree, stampQueueLength } from '../src/lib/stamp-queue.ts';
import {
  acceptCurrentAgreement,
  createFileVersion,
  createGrant,
  createMaterial,
  createProductLine,
  createSupplier,
  createSupplierUser,
  linkSupplier,
  logsOf,
  publishAgreement,
  sampleDxf,
  samplePdf,
  samplePng,
  tempStorage,
  type GrantKind,
} from './factories.ts';

const files = await tempStorage();
const t = await buildTestApp({ storage: files.storage });
const db = t.db.prisma;
const IP = '10.20.30.40';

type Action = 'view' | 'print' | 'download';
const ACTION_LOG = { view: 'VIEW', print: 'PRINT', download: 'DOWNLOAD' } as const;

function act(action: Action, body: unknown, cookie: string) {
  return callApi<EndpointDef>(t.app, filesApi[action], body, cookie, {
    headers: { 'user-agent': 'vitest-files' },
    remoteAddress: IP,
  });
}

/**
 * A camera-style JPEG: 200 × 100 stored pixels, red in the stored top-left corner, and an EXIF
 * APP1 segment (little-endian TIFF like most cameras, a tag before Orientation) saying how a
 * viewer must turn it: 6 = turn 90° clockwise, so upright it is 100 × 200 with red top-right.
 */
async function sidewaysJpeg(orientation: number): Promise<Buffer> {
  const canvas = createCanvas(200, 100);
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = '#ffffff';
  ctx.fillRect(0, 0, 200, 100);
  ctx.fillStyle = '#ff0000';
  ctx.fillRect(0, 0, 50, 50);
  const jpeg = await canvas.encode('jpeg', 95);
  const entry = (tag: number, type: number, value: number) => {
    const e = Buffer.alloc(12);
    e.writeUInt16LE(tag, 0);
    e.writeUInt16LE(type, 2);
    e.writeUInt32LE(1, 4);
    e.writeUInt16LE(value, 8);
    return e;
  };
  const tiff = Buffer.concat([
    Buffer.from('II*\0', 'latin1'),
    Buffer.from([8, 0, 0, 0]), // IFD0 right after the header
    Buffer.from([2, 0]), // two entries, in tag order
    entry(0x0103, 3, 6), // Compression (JPEG), only there to not be first
    entry(0x0112, 3, orientation), // Orientation
    Buffer.alloc(4), // no next IFD
  ]);
  const payload = Buffer.concat([Buffer.from('Exif\0\0', 'latin1'), tiff]);
  const length = Buffer.alloc(2);
  length.writeUInt16BE(payload.length + 2);
  const app1 = Buffer.concat([Buffer.from([0xff, 0xe1]), length, payload]);
  return Buffer.concat([jpeg.subarray(0, 2), app1, jpeg.subarray(2)]); // right after SOI
}

/** Whether a JPEG still carries an EXIF APP1 segment (anywhere before its image data). */
function hasExif(jpeg: Buffer): boolean {
  for (let at = 2; at + 4 <= jpeg.length && jpeg[at] === 0xff; at += 2 + jpeg.readUInt16BE(at + 2)) {
    if (jpeg[at + 1] === 0xda) return false; // start of scan: no more segments
    if (jpeg[at + 1] === 0xe1 && jpeg.subarray(at + 4, at + 10).toString('latin1') === 'Exif\0\0') return true;
  }
  return false;
}

/** The UTF-8 file name of an RFC 6266 Content-Disposition. */
function fileNameOf(res: Pick<LightMyRequestResponse, 'headers'>): string {
  const m = /filename\*=UTF-8''([^;]+)/.exec(String(res.headers['content-disposition']));
  if (!m) throw new Error(`no filename* in ${res.headers['content-disposition']}`);
  return decodeURIComponent(m[1]!);
}

// ---- the world: one product line; a material A and B supply, one only B supplies ----------------

let shared: { code: string; name: string };
let bOnly: { code: string; name: string };
let supplierA: { code: string; name: string };
let supplierB: { code: string; name: string };
let userA: { id: number; account: string };
let cookieA: string;
let cookieB: string;
let pdfBytes: Uint8Array;
let pngBytes: Buffer;
const file = {} as Record<
  | 'brokenPdf'
  | 'brokenPng'
  | 'pdf'
  | 'png'
  | 'sidewaysJpg'
  | 'dxf'
  | 'dwg'
  | 'history'
  | 'obsolete'
  | 'missing'
  | 'bOnly'
  | 'bOnlyObsolete',
  { id: number; standardCode: string; name: string; version: string; fileName: string }
>;

beforeAll(async () => {
  const pl = await createProductLine(db);
  shared = await createMaterial(db, pl.code);
  bOnly = await createMaterial(db, pl.code);
  supplierA = await createSupplier(db, '甲方测试');
  supplierB = await createSupplier(db, '乙方测试');
  await linkSupplier(db, supplierA.code, shared.code);
  await linkSupplier(db, supplierB.code, shared.code);
  await linkSupplier(db, supplierB.code, bOnly.code);
  await createGrant(db, supplierA.code, shared.code, 'valid');
  await createGrant(db, supplierB.code, shared.code, 'valid');
  await createGrant(db, supplierB.code, bOnly.code, 'valid');

  pdfBytes = await samplePdf(3);
  pngBytes = await samplePng(640, 400);
  const s = files.storage;
  const history = await createFileVersion(db, s, {
    materialCode: shared.code,
    type: 'pdf',
    bytes: await samplePdf(2),
    status: 'HISTORY',
  });
  file.history = history;
  file.pdf = await createFileVersion(db, s, {
    materialCode: shared.code,
    type: 'pdf',
    bytes: pdfBytes,
    standardCode: history.standardCode,
    name: '法兰盘总装图',
  });
  file.png = await createFileVersion(db, s, { materialCode: shared.code, type: 'png', bytes: pngBytes });
  file.sidewaysJpg = await createFileVersion(db, s, {
    materialCode: shared.code,
    type: 'jpg',
    bytes: await sidewaysJpeg(6),
  });
  file.dxf = await createFileVersion(db, s, {
    materialCode: shared.code,
    type: 'dxf',
    bytes: sampleDxf(),
    name: '底座平面图',
  });
  file.dwg = await createFileVersion(db, s, {
    materialCode: shared.code,
    type: 'dwg',
    bytes: Buffer.from('AC1032 fake dwg bytes'),
  });
  file.obsolete = await createFileVersion(db, s, {
    materialCode: shared.code,
    type: 'pdf',
    bytes: await samplePdf(1),
    status: 'OBSOLETE',
  });
  file.missing = await createFileVersion(db, s, {
    materialCode: shared.code,
    type: 'pdf',
    bytes: Buffer.from('%PDF-1.7 never stored'),
    skipStorage: true,
  });
  file.bOnly = await createFileVersion(db, s, { materialCode: bOnly.code, type: 'pdf', bytes: await samplePdf(1) });
  file.brokenPdf = await createFileVersion(db, s, {
    materialCode: shared.code,
    type: 'pdf',
    bytes: Buffer.from('%PDF-1.7 cut off in the middle of its first obj'),
  });
  file.brokenPng = await createFileVersion(db, s, {
    materialCode: shared.code,
    type: 'png',
    bytes: Buffer.concat([pngBytes.subarray(0, 8), Buffer.from('not a png after its signature')]),
  });
  file.bOnlyObsolete = await createFileVersion(db, s, {
    materialCode: bOnly.code,
    type: 'pdf',
    bytes: await samplePdf(1),
    status: 'OBSOLETE',
  });

  userA = await createSupplierUser(t.db, supplierA.code, 2);
  await acceptCurrentAgreement(db, userA.id, supplierA.code);
  cookieA = await login(t.app, userA.account);
  const userB = await createSupplierUser(t.db, supplierB.code, 4);
  await acceptCurrentAgreement(db, userB.id, supplierB.code);
  cookieB = await login(t.app, userB.account);
});

afterAll(async () => {
  await t.close();
  await files.remove();
});

// ---- refusals ------------------------------------------------------------------------------------

interface SupplierState {
  supplies?: boolean;
  grant?: GrantKind | null;
  accepted?: boolean;
}

/** A fresh supplier and user in the given state towards the shared material; signed in. */
async function supplierIn(state: SupplierState) {
  const supplier = await createSupplier(db);
  if (state.supplies ?? true) await linkSupplier(db, supplier.code, shared.code);
  const grant = state.grant === undefined ? 'valid' : state.grant;
  if (grant) await createGrant(db, supplier.code, shared.code, grant);
  const user = await createSupplierUser(t.db, supplier.code);
  if (state.accepted ?? true) await acceptCurrentAgreement(db, user.id, supplier.code);
  return { supplier, user, cookie: await login(t.app, user.account) };
}

async function expectOneRefusal(userId: number, action: Action, fileId: number, reason: string) {
  const rows = await logsOf(db, userId);
  expect(rows).toHaveLength(1);
  expect(rows[0]).toMatchObject({ action: ACTION_LOG[action], outcome: 'REFUSED', reason, fileId, ip: IP });
}

describe('a supplier is refused, with one REFUSED row', () => {
  const cases: [string, SupplierState, string | RegExp, string][] = [
    ['no grant', { grant: null }, '贵公司没有该物料的图纸授权，请先申请授权', '403'],
    [
      'an expired grant',
      { grant: 'expired' },
      /^该物料的图纸授权已于 \d{4}\/\d{1,2}\/\d{1,2} 过期，请重新申请授权$/,
      '403',
    ],
    [
      'a grant not yet valid',
      { grant: 'future' },
      /^该物料的图纸授权自 \d{4}\/\d{1,2}\/\d{1,2} 起生效，目前无权查看$/,
      '403',
    ],
    [
      'only a revoked grant',
      { grant: 'revoked' },
      /^该物料的图纸授权已于 \d{4}\/\d{1,2}\/\d{1,2} \d\d:\d\d 被撤销，如需查看请重新申请授权$/,
      '403',
    ],
    ['the agreement not accepted', { accepted: false }, '请先阅读并签署保密协议', '40301'],
  ];

  it.each(cases)('%s', async (_label, state, message, code) => {
    const { user, cookie } = await supplierIn(state);
    const res = await act('view', { id: file.pdf.id }, cookie);
    expect(res.statusCode).toBe(403);
    const body = res.json();
    expect(body).toMatchObject({ success: false, code, data: null });
    expect(body.message).toMatch(typeof message === 'string' ? new RegExp(`^${message}$`) : message);
    await expectOneRefusal(user.id, 'view', file.pdf.id, body.message);
  });

  it('not a supplier of the material (even with a grant): told "does not exist", as for an unknown id; the log keeps why', async () => {
    const { user, cookie } = await supplierIn({ supplies: false });
    const res = await act('view', { id: file.pdf.id }, cookie);
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ success: false, code: '404', message: '文件不存在', data: null });
    await expectOneRefusal(user.id, 'view', file.pdf.id, '贵公司不是该物料的供应商，无权查看其图纸');
  });

  it.each(['print', 'download'] as const)('%s is refused the same way (an expired grant)', async (action) => {
    const { user, cookie } = await supplierIn({ grant: 'expired' });
    const res = await act(action, { id: file.pdf.id }, cookie);
    expect(res.statusCode).toBe(403);
    expect(res.headers['content-type']).toMatch(/json/);
    await expectOneRefusal(user.id, action, file.pdf.id, res.json().message);
  });

  it('an obsolete version', async () => {
    const { user, cookie } = await supplierIn({});
    const res = await act('download', { id: file.obsolete.id }, cookie);
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toBe('该版本已作废，不能查看');
    await expectOneRefusal(user.id, 'download', file.obsolete.id, '该版本已作废，不能查看');
  });

  it('a file whose bytes are missing on disk', async () => {
    const { user, cookie } = await supplierIn({});
    const res = await act('view', { id: file.missing.id }, cookie);
    expect(res.statusCode).toBe(404);
    expect(res.json().message).toBe('文件不存在或已被移除，请联系管理员');
    await expectOneRefusal(user.id, 'view', file.missing.id, '文件不存在或已被移除，请联系管理员');
  });

  it('a new agreement version asks again, and accepting it opens the file again', async () => {
    const { user, cookie } = await supplierIn({});
    expect((await act('view', { id: file.pdf.id }, cookie)).statusCode).toBe(200);
    const v2 = await publishAgreement(db);
    try {
      const refused = await act('view', { id: file.pdf.id }, cookie);
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toMatchObject({ code: '40301', message: '请先阅读并签署保密协议' });
      const accept = await callApi(t.app, standardlogApi.insertKeepsecret, { agreementId: v2.agreement.id }, cookie, {
        remoteAddress: IP,
      });
      expect(accept.statusCode).toBe(200);
      expect((await act('view', { id: file.pdf.id }, cookie)).statusCode).toBe(200);
      const rows = await logsOf(db, user.id);
      expect(rows.map((r) => `${r.action}:${r.outcome}`)).toEqual([
        'VIEW:SENT',
        'VIEW:REFUSED',
        'KEEPSECRET:OK',
        'VIEW:SENT',
      ]);
    } finally {
      await v2.withdraw();
    }
  });

  it('DWG/DXF cannot be viewed or printed (415), only downloaded', async () => {
    const view = await act('view', { id: file.dwg.id }, cookieA);
    expect(view.statusCode).toBe(415);
    expect(view.json().message).toBe('DWG/DXF 文件不支持在线预览，请下载后查看');
    const print = await act('print', { id: file.dxf.id }, cookieA);
    expect(print.statusCode).toBe(415);
    const rows = await db.accessLog.findMany({
      where: { userId: userA.id, fileId: { in: [file.dwg.id, file.dxf.id] } },
      orderBy: { id: 'asc' },
    });
    expect(rows.map((r) => `${r.action}:${r.outcome}:${r.fileId}`)).toEqual([
      `VIEW:REFUSED:${file.dwg.id}`,
      `PRINT:REFUSED:${file.dxf.id}`,
    ]);
  });

  it('an unknown id is a 404 and a malformed body a 400, each logged as REFUSED naming what was asked', async () => {
    const before = await db.accessLog.count({ where: { userId: userA.id } });
    const unknown = await act('view', { id: 2_000_000_000 }, cookieA);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().message).toBe('文件不存在');
    const malformed = await act('download', { id: 'abc' }, cookieA);
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().message).toMatch(/[\u4e00-\u9fff]/);
    const rows = await db.accessLog.findMany({ where: { userId: userA.id }, orderBy: { id: 'asc' }, skip: before });
    expect(rows.map((r) => ({ action: r.action, outcome: r.outcome, fileId: r.fileId, reason: r.reason }))).toEqual([
      { action: 'VIEW', outcome: 'REFUSED', fileId: null, reason: '文件不存在（请求的编号：2000000000）' },
      { action: 'DOWNLOAD', outcome: 'REFUSED', fileId: null, reason: '请求参数有误（请求的编号：abc）' },
    ]);
  });
});

describe("supplier A and supplier B's material", () => {
  it.each(['view', 'download', 'print'] as const)(
    'A cannot %s a file of a material only B supplies',
    async (action) => {
      const before = await db.accessLog.count({
        where: { userId: userA.id, fileId: file.bOnly.id, action: ACTION_LOG[action] },
      });
      const res = await act(action, { id: file.bOnly.id }, cookieA);
      expect(res.statusCode).toBe(404);
      expect(res.json().message).toBe('文件不存在');
      expect(res.headers['content-type']).toMatch(/json/);
      const rows = await db.accessLog.findMany({
        where: { userId: userA.id, fileId: file.bOnly.id, action: ACTION_LOG[action] },
      });
      expect(rows).toHaveLength(before + 1);
      expect(rows.at(-1)).toMatchObject({
        outcome: 'REFUSED',
        supplierCode: supplierA.code,
        reason: '贵公司不是该物料的供应商，无权查看其图纸',
      });
    },
  );

  it('B can view it', async () => {
    const res = await act('view', { id: file.bOnly.id }, cookieB);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
  });
});

// ---- served copies ---------------------------------------------------------------------------------

describe('a supplier with access gets a stamped copy and one SENT row, delivered in full', () => {
  /** The rows of user A for one file and action, checked to be exactly one SENT row snapshotting all, its delivery complete. */
  async function expectOneOkRow(action: Action, f: (typeof file)[keyof typeof file]) {
    const rows = await db.accessLog.findMany({ where: { userId: userA.id, fileId: f.id, action: ACTION_LOG[action] } });
    expect(rows).toHaveLength(1);
    expect(await db.accessDelivery.findUnique({ where: { accessLogId: rows[0]!.id } })).toMatchObject({
      complete: true,
    });
    expect(rows[0]).toMatchObject({
      outcome: 'SENT',
      reason: null,
      userAccount: userA.account,
      userName: '测试昵称2', // a supplier is logged under its nick
      userType: 2,
      supplierCode: supplierA.code,
      supplierName: supplierA.name,
      standardCode: f.standardCode,
      fileName: f.fileName,
      version: f.version,
      materialCode: shared.code,
      materialName: shared.name,
      ip: IP,
      userAgent: 'vitest-files',
    });
  }

  it('view: the PDF inline, every page carrying supplier, account and IP', async () => {
    const res = await act('view', { id: file.pdf.id }, cookieA);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers['content-disposition']).toMatch(/^inline; /);
    expect(fileNameOf(res)).toBe(`法兰盘总装图_${file.pdf.version}.pdf`);
    const pages = await pdfPages(res.rawPayload);
    expect(pages).toHaveLength(3);
    for (const text of pages) {
      expect(text).toContain(supplierA.name);
      expect(text).toContain(userA.account);
      expect(text).toContain(IP);
      expect(text).toContain('仅限本人查看 严禁外传');
      expect(text).toMatch(/\d{4}-\d{2}-\d{2} \d{2}:\d{2}/);
    }
    expect(pages[0]).toContain('Drawing sheet 1 of 3'); // the drawing itself is still there
    await expectOneOkRow('view', file.pdf);
  });

  it('print: inline, logged as a print', async () => {
    const res = await act('print', { id: file.pdf.id }, cookieA);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toMatch(/^inline; /);
    expect((await pdfPages(res.rawPayload))[0]).toContain(userA.account);
    await expectOneOkRow('print', file.pdf);
  });

  it('download: an attachment under a stamped Chinese name, logged as a download', async () => {
    const res = await act('download', { id: file.pdf.id }, cookieA);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="[\x20-\x7e]+"; filename\*=UTF-8''/);
    expect(fileNameOf(res)).toMatch(new RegExp(`^法兰盘总装图_${file.pdf.version}_${supplierA.name}_\\d{12}\\.pdf$`));
    expect((await pdfPages(res.rawPayload))[0]).toContain(supplierA.name);
    await expectOneOkRow('download', file.pdf);
  });

  it('a history version can be viewed', async () => {
    const res = await act('view', { id: file.history.id }, cookieA);
    expect(res.statusCode).toBe(200);
    expect(await pdfPages(res.rawPayload)).toHaveLength(2);
    await expectOneOkRow('view', file.history);
  });

  it('view: a PNG comes back stamped, a valid PNG of the same size', async () => {
    const res = await act('view', { id: file.png.id }, cookieA);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/png');
    const out = res.rawPayload;
    expect(out.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    expect(out.equals(pngBytes)).toBe(false);
    const [before, after] = await Promise.all([loadImage(pngBytes), loadImage(out)]);
    expect([after.width, after.height]).toEqual([before.width, before.height]);
    await expectOneOkRow('view', file.png);
  });

  it('view: a phone photo (EXIF Orientation 6) comes back upright, stamped, without the tag', async () => {
    const res = await act('view', { id: file.sidewaysJpg.id }, cookieA);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/jpeg');
    const out = res.rawPayload;
    expect(out.subarray(0, 2)).toEqual(Buffer.from([0xff, 0xd8]));
    // the turn is baked into the pixels: a tag left behind would make viewers turn it twice
    expect(hasExif(out)).toBe(false);
    const img = await loadImage(out);
    expect([img.width, img.height]).toEqual([100, 200]);
    const canvas = createCanvas(img.width, img.height);
    const ctx = canvas.getContext('2d');
    ctx.drawImage(img, 0, 0);
    const rgb = (x: number, y: number) => Array.from(ctx.getImageData(x, y, 1, 1).data.subarray(0, 3));
    const isRed = ([r, g, b]: number[]) => r! > 200 && g! < 90 && b! < 90;
    // the stored top-left red square is now top-right; the other corners are white under the stamp
    expect(isRed(rgb(95, 4))).toBe(true);
    for (const [x, y] of [
      [4, 4],
      [4, 195],
      [95, 195],
    ] as const)
      expect(isRed(rgb(x, y))).toBe(false);
    await expectOneOkRow('view', file.sidewaysJpg);
  });

  it('download: a DXF keeps its bytes, the stamp is in its name', async () => {
    const res = await act('download', { id: file.dxf.id }, cookieA);
    expect(res.statusCode).toBe(200);
    expect(res.rawPayload.equals(sampleDxf())).toBe(true);
    expect(res.headers['content-disposition']).toMatch(/^attachment; /);
    expect(fileNameOf(res)).toMatch(new RegExp(`^底座平面图_${file.dxf.version}_${supplierA.name}_\\d{12}\\.dxf$`));
    await expectOneOkRow('download', file.dxf);
  });
});

describe('stamping: damaged files and calls at once', () => {
  it('a file that cannot be stamped is refused with its reason (422), never served bare, and logged', async () => {
    const before = await db.accessLog.count({ where: { userId: userA.id, outcome: 'REFUSED' } });
    for (const [f, reason] of [
      [file.brokenPdf, 'PDF 文件已损坏，无法添加水印，请联系管理员'],
      [file.brokenPng, '图片文件已损坏，无法添加水印，请联系管理员'],
    ] as const) {
      const res = await act('view', { id: f.id }, cookieA);
      expect(res.statusCode).toBe(422);
      expect(res.json()).toMatchObject({ success: false, message: reason });
      const rows = await db.accessLog.findMany({ where: { userId: userA.id, fileId: f.id } });
      expect(rows).toMatchObject([{ action: 'VIEW', outcome: 'REFUSED', reason }]);
    }
    expect(await db.accessLog.count({ where: { userId: userA.id, outcome: 'REFUSED' } })).toBe(before + 2);
  });

  it('a grant revoked while the copy waits to be stamped: refused on the current rows, one REFUSED row, no bytes', async () => {
    const { supplier, user, cookie } = await supplierIn({});
    // every stamping slot held, so the call passes its first check and waits in the queue
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const holders = [whenStampSlotFree(() => held), whenStampSlotFree(() => held)];
    const call = act('download', { id: file.pdf.id }, cookie);
    await expect.poll(stampQueueLength).toBe(1);
    await db.empowerGrant.updateMany({
      where: { supplierCode: supplier.code, materialCode: shared.code },
      data: { revokedAt: new Date(), revokeReason: '供货关系调整' },
    });
    release();
    await Promise.all(holders);
    const res = await call;
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toMatch(/撤销/);
    const rows = await logsOf(db, user.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ action: 'DOWNLOAD', outcome: 'REFUSED', fileId: file.pdf.id, copyCode: null });
    expect(rows[0]!.reason).toMatch(/撤销/);
  });

  it('concurrent calls are each stamped for their own caller, one OK row each', async () => {
    const calls = [cookieA, cookieB, cookieA, cookieB, cookieA, cookieB];
    const okRows = () =>
      db.accessLog.count({
        where: { outcome: 'SENT', delivery: { complete: true }, fileId: { in: [file.pdf.id, file.png.id] } },
      });
    const before = await okRows();
    const answers = await Promise.all(
      calls.map((cookie, i) =>
        act(i % 3 === 2 ? 'download' : 'view', { id: i % 2 ? file.png.id : file.pdf.id }, cookie),
      ),
    );
    for (const [i, res] of answers.entries()) {
      expect(res.statusCode).toBe(200);
      const who = calls[i] === cookieA ? supplierA.name : supplierB.name;
      if (i % 2 === 0) expect((await pdfPages(res.rawPayload))[0]).toContain(who);
      else expect(res.headers['content-type']).toBe('image/png');
    }
    expect(await okRows()).toBe(before + calls.length);
  });
});

describe('internal users', () => {
  it('open any version of any material, stamped 内部 with their account, logged without a supplier', async () => {
    const staff = await createUser(t.db, { type: 8, prefix: 'staff' });
    const cookie = await login(t.app, staff.account);
    const view = await act('view', { id: file.bOnlyObsolete.id }, cookie);
    expect(view.statusCode).toBe(200);
    const text = (await pdfPages(view.rawPayload))[0]!;
    expect(text).toContain(`内部 ${staff.account}`);
    expect(text).toContain(IP);

    const download = await act('download', { id: file.dwg.id }, cookie);
    expect(download.statusCode).toBe(200);
    expect(fileNameOf(download)).toMatch(new RegExp(`_${staff.account}_\\d{12}\\.dwg$`));

    const rows = await logsOf(db, staff.id);
    expect(rows.map((r) => `${r.action}:${r.outcome}:${r.fileId}`)).toEqual([
      `VIEW:SENT:${file.bOnlyObsolete.id}`,
      `DOWNLOAD:SENT:${file.dwg.id}`,
    ]);
    for (const r of rows)
      expect(r).toMatchObject({
        userAccount: staff.account,
        userName: '测试用户8',
        userType: 8,
        supplierCode: null,
        supplierName: null,
        ip: IP,
      });
  });
});
