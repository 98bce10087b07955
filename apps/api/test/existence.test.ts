/**
 * Existence leaks and unlogged probes: on every supplier call that names a
 * file or a material, a file of another supplier's material answers exactly as an id that does not
 * exist — whatever state that file is in — and refused file calls leave a REFUSED row, unknown and
 * malformed ids included, at most REFUSED_UNKNOWN_PER_MINUTE a minute per user.
 */
import { empowerApi, filesApi, standardlogApi, type EndpointDef } from '@esm/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REFUSED_UNKNOWN_PER_MINUTE } from '../src/lib/access-log.ts';
import { buildTestApp, callApi, login, unchecked, type TestApp, type CallBody } from './helpers.ts';
import {
  acceptCurrentAgreement,
  createFileVersion,
  createGrant,
  createMaterial,
  createProductLine,
  createSupplier,
  createSupplierUser,
  linkSupplier,
  samplePdf,
  tempStorage,
} from './factories.ts';

const files = await tempStorage();
let t: TestApp;
const theirs = {} as Record<'effective' | 'obsolete' | 'history' | 'missing', number>;
let theirMaterial: string;
let mine: number;
let supplierA: string;
const UNKNOWN = 2_000_000_001;

beforeAll(async () => {
  t = await buildTestApp({ storage: files.storage });
  const db = t.db.prisma;
  const pl = await createProductLine(db);
  const m1 = await createMaterial(db, pl.code);
  const m2 = await createMaterial(db, pl.code);
  theirMaterial = m2.code;
  const a = await createSupplier(db, '甲方存在性');
  const b = await createSupplier(db, '乙方存在性');
  supplierA = a.code;
  await linkSupplier(db, a.code, m1.code);
  await createGrant(db, a.code, m1.code);
  await linkSupplier(db, b.code, m2.code);
  await createGrant(db, b.code, m2.code);
  const pdf = await samplePdf(1);
  mine = (await createFileVersion(db, files.storage, { materialCode: m1.code, type: 'pdf', bytes: pdf })).id;
  theirs.effective = (
    await createFileVersion(db, files.storage, { materialCode: m2.code, type: 'pdf', bytes: pdf })
  ).id;
  theirs.obsolete = (
    await createFileVersion(db, files.storage, { materialCode: m2.code, type: 'pdf', bytes: pdf, status: 'OBSOLETE' })
  ).id;
  theirs.history = (
    await createFileVersion(db, files.storage, { materialCode: m2.code, type: 'pdf', bytes: pdf, status: 'HISTORY' })
  ).id;
  theirs.missing = (
    await createFileVersion(db, files.storage, {
      materialCode: m2.code,
      type: 'pdf',
      bytes: Buffer.from('%PDF-1.7 never stored'),
      skipStorage: true,
    })
  ).id;
});
afterAll(async () => {
  await t.close();
  await files.remove();
});

/** A fresh supplier-A user who accepted the agreement, signed in. */
async function userOfA() {
  const u = await createSupplierUser(t.db, supplierA);
  await acceptCurrentAgreement(t.db.prisma, u.id, supplierA);
  return { ...u, cookie: await login(t.app, u.account) };
}

const call = <E extends EndpointDef>(endpoint: E, body: CallBody<E>, cookie: string) =>
  callApi(t.app, endpoint, body, cookie);
const answer = (r: { statusCode: number; json(): unknown }) => ({ status: r.statusCode, body: r.json() });

const BY_FILE_ID: [string, EndpointDef, (id: number) => unknown][] = [
  filesApi.view,
  filesApi.print,
  filesApi.download,
  standardlogApi.hasConfirmLog,
  standardlogApi.insertConfirmLog,
].map((e) => [e.path, e, (id: number) => ({ id })]);

describe('not yours = does not exist', () => {
  it.each(BY_FILE_ID)('%s: every file of another supplier answers as an unknown id', async (path, endpoint, body) => {
    const u = await userOfA();
    const unknown = answer(await call(endpoint, body(UNKNOWN), u.cookie));
    expect(unknown).toEqual({ status: 404, body: { success: false, code: '404', message: '文件不存在', data: null } });
    for (const [state, id] of Object.entries(theirs)) {
      expect(answer(await call(endpoint, body(id), u.cookie)), `${path} ${state}`).toEqual(unknown);
    }
    // and the caller's own file is answered (a 200, or what its own state says)
    expect((await call(endpoint, body(mine), u.cookie)).statusCode).toBe(200);
  });

  it('supplierConfirm: another supplier\'s file and an unknown id are both "编号为 N 的文件不存在"', async () => {
    const u = await userOfA();
    const a = await call(standardlogApi.supplierConfirm, { ids: [mine, theirs.effective] }, u.cookie);
    const b = await call(standardlogApi.supplierConfirm, { ids: [mine, UNKNOWN] }, u.cookie);
    expect(a.statusCode).toBe(404);
    expect(b.statusCode).toBe(404);
    expect(a.json().message).toBe(`编号为 ${theirs.effective} 的文件不存在`);
    expect(b.json().message).toBe(`编号为 ${UNKNOWN} 的文件不存在`);
    expect(await t.db.prisma.accessLog.count({ where: { userId: u.id, outcome: 'OK' } })).toBe(0);
  });

  it("hasEmpower: another supplier's material answers as a material that does not exist", async () => {
    const u = await userOfA();
    const a = await call(empowerApi.hasEmpower, { materialCode: theirMaterial }, u.cookie);
    const b = await call(empowerApi.hasEmpower, { materialCode: 'M-NO-SUCH-MATERIAL' }, u.cookie);
    expect(answer(a)).toEqual(answer(b));
  });
});

describe('refused file calls are logged', () => {
  it('an unknown id and a path-like id each leave a REFUSED row naming what was asked', async () => {
    const u = await userOfA();
    expect((await call(filesApi.download, { id: UNKNOWN }, u.cookie)).statusCode).toBe(404);
    expect((await call(filesApi.view, { id: '../../../etc/passwd' }, u.cookie)).statusCode).toBe(400);
    expect((await call(filesApi.print, unchecked({}), u.cookie)).statusCode).toBe(400);
    const rows = await t.db.prisma.accessLog.findMany({ where: { userId: u.id }, orderBy: { id: 'asc' } });
    expect(rows.map((r) => [r.action, r.outcome, r.fileId, r.reason])).toEqual([
      ['DOWNLOAD', 'REFUSED', null, `文件不存在（请求的编号：${UNKNOWN}）`],
      ['VIEW', 'REFUSED', null, '请求参数有误（请求的编号：../../../etc/passwd）'],
      ['PRINT', 'REFUSED', null, '请求参数有误（请求的编号：{}）'],
    ]);
    expect(rows.every((r) => r.supplierCode && r.userAccount === u.account)).toBe(true);
  });

  it(`a flood of unknown ids at once: every call refused, at most ${REFUSED_UNKNOWN_PER_MINUTE} rows a minute`, async () => {
    const u = await userOfA();
    const all = await Promise.all(
      Array.from({ length: REFUSED_UNKNOWN_PER_MINUTE + 15 }, (_, i) =>
        call(filesApi.view, { id: UNKNOWN + i }, u.cookie),
      ),
    );
    expect(all.every((r) => r.statusCode === 404)).toBe(true);
    expect(await t.db.prisma.accessLog.count({ where: { userId: u.id, outcome: 'REFUSED', fileId: null } })).toBe(
      REFUSED_UNKNOWN_PER_MINUTE,
    );
    // a refusal of a real file is always logged, bound or not
    expect((await call(filesApi.view, { id: theirs.effective }, u.cookie)).statusCode).toBe(404);
    expect(
      await t.db.prisma.accessLog.count({ where: { userId: u.id, outcome: 'REFUSED', fileId: theirs.effective } }),
    ).toBe(1);
    // a minute later there is room again
    await t.db.prisma.accessLog.updateMany({
      where: { userId: u.id },
      data: { createdAt: new Date(Date.now() - 61_000) },
    });
    await call(filesApi.view, { id: UNKNOWN }, u.cookie);
    expect(await t.db.prisma.accessLog.count({ where: { userId: u.id, outcome: 'REFUSED', fileId: null } })).toBe(
      REFUSED_UNKNOWN_PER_MINUTE + 1,
    );
  });

  it('refusals of documents that exist (an attachment that could not be stamped) leave a probe its room', async () => {
    const u = await userOfA();
    const user = await t.db.prisma.user.findUniqueOrThrow({ where: { id: u.id } });
    await t.db.prisma.accessLog.createMany({
      data: Array.from({ length: REFUSED_UNKNOWN_PER_MINUTE }, () => ({
        action: 'DOWNLOAD' as const,
        outcome: 'REFUSED' as const,
        reason: '文件无法加水印',
        userId: u.id,
        userAccount: user.account,
        userName: user.name,
        userType: user.type,
        standardCode: 'WT-0000001',
        fileName: '附件.pdf',
        version: '问题附件',
      })),
    });
    expect((await call(filesApi.view, { id: UNKNOWN }, u.cookie)).statusCode).toBe(404);
    expect(
      await t.db.prisma.accessLog.count({
        where: { userId: u.id, outcome: 'REFUSED', fileId: null, standardCode: null },
      }),
    ).toBe(1);
  });
});
