/**
 * The supplier's confidentiality agreement and drawing confirmations:
 * supplier/standardlog/{hasKeepsecret, insertKeepsecret, hasConfirmLog, insertConfirmLog} and
 * supplier/supplierDrawingFileInfomation/supplierConfirm — what each answers, and the rows each
 * leaves (acceptances, KEEPSECRET and CONFIRM log rows; REFUSED rows for refusals).
 */
import { standardlogApi, filesApi } from '@esm/contracts';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { openDatabase } from '../src/db/database.ts';
import { AGREEMENT_V1_TITLE } from '../src/db/seed-agreement.ts';
import { buildTestApp, createUser, login, apiCaller, callApi } from './helpers.ts';
import { createDatabase, dropDatabase, uniqueDatabaseName, withDatabase } from './databases.ts';
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
  samplePdf,
  tempStorage,
} from './factories.ts';

const files = await tempStorage();
const t = await buildTestApp({ storage: files.storage });
const db = t.db.prisma;
const IP = '10.20.30.41';

const call = apiCaller(t.app, { headers: { 'user-agent': 'vitest-standardlog' }, remoteAddress: IP });

let shared: { code: string; name: string };
let bOnly: { code: string };
let supplierA: { code: string; name: string };
let ok1: { id: number };
let ok2: { id: number };
let ok3: { id: number };
let obsolete: { id: number };
let bOnlyFile: { id: number };

beforeAll(async () => {
  const pl = await createProductLine(db);
  shared = await createMaterial(db, pl.code);
  bOnly = await createMaterial(db, pl.code);
  supplierA = await createSupplier(db, '甲方测试');
  const supplierB = await createSupplier(db, '乙方测试');
  await linkSupplier(db, supplierA.code, shared.code);
  await linkSupplier(db, supplierB.code, bOnly.code);
  await createGrant(db, supplierA.code, shared.code, 'valid');
  await createGrant(db, supplierB.code, bOnly.code, 'valid');
  const pdf = await samplePdf(1);
  ok1 = await createFileVersion(db, files.storage, { materialCode: shared.code, type: 'pdf', bytes: pdf });
  ok2 = await createFileVersion(db, files.storage, { materialCode: shared.code, type: 'pdf', bytes: pdf });
  ok3 = await createFileVersion(db, files.storage, { materialCode: shared.code, type: 'pdf', bytes: pdf });
  obsolete = await createFileVersion(db, files.storage, {
    materialCode: shared.code,
    type: 'pdf',
    bytes: pdf,
    status: 'OBSOLETE',
  });
  bOnlyFile = await createFileVersion(db, files.storage, { materialCode: bOnly.code, type: 'pdf', bytes: pdf });
});

afterAll(async () => {
  await t.close();
  await files.remove();
});

/** A fresh user of supplier A, signed in; `accepted` records the current agreement first. */
async function userOfA(accepted: boolean) {
  const user = await createSupplierUser(t.db, supplierA.code);
  if (accepted) await acceptCurrentAgreement(db, user.id, supplierA.code);
  return { ...user, cookie: await login(t.app, user.account) };
}

describe('the confidentiality agreement', () => {
  it('hasKeepsecret shows the current version; accepting it writes one acceptance and one KEEPSECRET row, once', async () => {
    const u = await userOfA(false);
    const before = await call(standardlogApi.hasKeepsecret, {}, u.cookie);
    expect(before.statusCode).toBe(200);
    const state = before.json().data;
    expect(state).toMatchObject({
      accepted: false,
      acceptedAt: null,
      agreement: { version: 1, title: AGREEMENT_V1_TITLE },
    });
    expect(state.agreement.content).toContain('第一条');

    const first = await call(standardlogApi.insertKeepsecret, { agreementId: state.agreement.id }, u.cookie);
    expect(first.statusCode).toBe(200);
    expect(first.json()).toMatchObject({
      success: true,
      message: '签署成功',
      data: { accepted: true, agreement: { id: state.agreement.id } },
    });
    const again = await call(standardlogApi.insertKeepsecret, { agreementId: state.agreement.id }, u.cookie);
    expect(again.statusCode).toBe(200);
    expect(again.json()).toMatchObject({
      success: true,
      message: '已签署',
      data: { accepted: true, acceptedAt: first.json().data.acceptedAt },
    });

    expect(await db.keepsecretAcceptance.count({ where: { userId: u.id } })).toBe(1);
    const rows = await logsOf(db, u.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      action: 'KEEPSECRET',
      outcome: 'OK',
      userAccount: u.account,
      supplierCode: supplierA.code,
      supplierName: supplierA.name,
      fileId: null,
      fileName: AGREEMENT_V1_TITLE,
      version: 'V1',
      ip: IP,
      userAgent: 'vitest-standardlog',
    });

    const after = (await call(standardlogApi.hasKeepsecret, {}, u.cookie)).json().data;
    expect(after).toMatchObject({ accepted: true, acceptedAt: first.json().data.acceptedAt });
  });

  it('accepting a version that is no longer current is a 409; an unknown agreement a 404; nothing written', async () => {
    const u = await userOfA(false);
    const v1 = (await call(standardlogApi.hasKeepsecret, {}, u.cookie)).json().data.agreement;
    const v2 = await publishAgreement(db);
    try {
      const state = (await call(standardlogApi.hasKeepsecret, {}, u.cookie)).json().data;
      expect(state).toMatchObject({
        accepted: false,
        agreement: { id: v2.agreement.id, version: v2.agreement.version },
      });
      const stale = await call(standardlogApi.insertKeepsecret, { agreementId: v1.id }, u.cookie);
      expect(stale.statusCode).toBe(409);
      expect(stale.json().message).toBe('保密协议已更新，请阅读新版本后再签署');
      const unknown = await call(standardlogApi.insertKeepsecret, { agreementId: 2_000_000_000 }, u.cookie);
      expect(unknown.statusCode).toBe(404);
      expect(await db.keepsecretAcceptance.count({ where: { userId: u.id } })).toBe(0);
      expect(await logsOf(db, u.id)).toHaveLength(0);
    } finally {
      await v2.withdraw();
    }
  });

  it('with no agreement published: hasKeepsecret is a 404 and suppliers cannot open files', async () => {
    // A database of its own: removing the agreement must not disturb the other tests.
    const serverUrl = inject('serverUrl');
    const name = uniqueDatabaseName('esm_test_noagreement');
    await createDatabase(serverUrl, name);
    const own = await openDatabase({ databaseUrl: withDatabase(serverUrl, name), dataDir: '' });
    const ownFiles = await tempStorage();
    try {
      await own.migrate(); // no seed: no agreement
      const app = await buildTestApp({ db: own, storage: ownFiles.storage });
      try {
        await createUser(own, { type: 3 }); // the uploader
        const supplier = await createSupplier(own.prisma);
        const pl = await createProductLine(own.prisma);
        const m = await createMaterial(own.prisma, pl.code);
        await linkSupplier(own.prisma, supplier.code, m.code);
        await createGrant(own.prisma, supplier.code, m.code, 'valid');
        const f = await createFileVersion(own.prisma, ownFiles.storage, {
          materialCode: m.code,
          type: 'pdf',
          bytes: await samplePdf(1),
        });
        const user = await createSupplierUser(own, supplier.code);
        const cookie = await login(app.app, user.account);
        const has = await callApi(app.app, standardlogApi.hasKeepsecret, {}, cookie);
        expect(has.statusCode).toBe(404);
        expect(has.json().message).toBe('尚未发布保密协议');
        const view = await callApi(app.app, filesApi.view, { id: f.id }, cookie);
        expect(view.statusCode).toBe(403);
        expect(view.json().message).toBe('尚未发布保密协议');
        const rows = await own.prisma.accessLog.findMany({ where: { fileId: f.id } });
        expect(rows.map((r) => `${r.action}:${r.outcome}:${r.reason}`)).toEqual(['VIEW:REFUSED:尚未发布保密协议']);
      } finally {
        await app.close();
      }
    } finally {
      await own.close();
      await ownFiles.remove();
      await dropDatabase(serverUrl, name);
    }
  });
});

describe('confirming one drawing', () => {
  it('confirms once: one CONFIRM row; confirming again answers 已确认 and writes nothing', async () => {
    const u = await userOfA(true);
    expect((await call(standardlogApi.hasConfirmLog, { id: ok1.id }, u.cookie)).json().data).toEqual({
      confirmed: false,
      confirmedAt: null,
    });
    const first = await call(standardlogApi.insertConfirmLog, { id: ok1.id }, u.cookie);
    expect(first.statusCode).toBe(200);
    expect(first.json()).toMatchObject({ success: true, message: '确认成功', data: { confirmed: true } });
    const again = await call(standardlogApi.insertConfirmLog, { id: ok1.id }, u.cookie);
    expect(again.json()).toMatchObject({
      success: true,
      message: '已确认',
      data: { confirmed: true, confirmedAt: first.json().data.confirmedAt },
    });
    expect((await call(standardlogApi.hasConfirmLog, { id: ok1.id }, u.cookie)).json().data).toEqual(first.json().data);

    const rows = await logsOf(db, u.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      action: 'CONFIRM',
      outcome: 'OK',
      fileId: ok1.id,
      materialCode: shared.code,
      supplierCode: supplierA.code,
      ip: IP,
    });
  });

  it('two confirmations at once still leave one row', async () => {
    const u = await userOfA(true);
    const both = await Promise.all([
      call(standardlogApi.insertConfirmLog, { id: ok2.id }, u.cookie),
      call(standardlogApi.insertConfirmLog, { id: ok2.id }, u.cookie),
    ]);
    expect(both.map((r) => r.statusCode)).toEqual([200, 200]);
    expect(await db.accessLog.count({ where: { userId: u.id, action: 'CONFIRM' } })).toBe(1);
  });

  it.each([
    ['the agreement not accepted', false, () => ok1.id, 403, '请先阅读并签署保密协议'],
    ['an obsolete version', true, () => obsolete.id, 403, '该版本已作废，不能确认'],
  ] as const)('is refused for %s, with one REFUSED row', async (_label, accepted, id, status, message) => {
    const u = await userOfA(accepted);
    const res = await call(standardlogApi.insertConfirmLog, { id: id() }, u.cookie);
    expect(res.statusCode).toBe(status);
    expect(res.json().message).toBe(message);
    const rows = await logsOf(db, u.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ action: 'CONFIRM', outcome: 'REFUSED', reason: message, fileId: id() });
  });

  it("supplier B's file answers exactly as an unknown one (404 文件不存在); both leave a REFUSED row", async () => {
    const u = await userOfA(true);
    const theirs = await call(standardlogApi.insertConfirmLog, { id: bOnlyFile.id }, u.cookie);
    const unknown = await call(standardlogApi.insertConfirmLog, { id: 2_000_000_000 }, u.cookie);
    expect(theirs.statusCode).toBe(404);
    expect(theirs.json()).toEqual(unknown.json());
    expect(unknown.json()).toEqual({ success: false, code: '404', message: '文件不存在', data: null });
    const rows = await logsOf(db, u.id);
    expect(rows.map((r) => ({ outcome: r.outcome, fileId: r.fileId, reason: r.reason }))).toEqual([
      { outcome: 'REFUSED', fileId: bOnlyFile.id, reason: '贵公司不是该物料的供应商，无权查看其图纸' },
      { outcome: 'REFUSED', fileId: null, reason: '文件不存在（请求的编号：2000000000）' },
    ]);
  });

  it("hasConfirmLog: supplier B's file answers exactly as an unknown one", async () => {
    const u = await userOfA(true);
    const theirs = await call(standardlogApi.hasConfirmLog, { id: bOnlyFile.id }, u.cookie);
    const unknown = await call(standardlogApi.hasConfirmLog, { id: 2_000_000_000 }, u.cookie);
    expect(theirs.statusCode).toBe(404);
    expect(theirs.json()).toEqual(unknown.json());
    expect(theirs.json().message).toBe('文件不存在');
  });
});

describe('supplierConfirm (a batch)', () => {
  it('confirms the new ones and counts the confirmed ones', async () => {
    const u = await userOfA(true);
    const first = await call(standardlogApi.supplierConfirm, { ids: [ok1.id, ok2.id, ok1.id] }, u.cookie);
    expect(first.statusCode).toBe(200);
    expect(first.json().data).toEqual({ confirmed: 2, alreadyConfirmed: 0 });
    const second = await call(standardlogApi.supplierConfirm, { ids: [ok1.id, ok2.id, ok3.id] }, u.cookie);
    expect(second.json().data).toEqual({ confirmed: 1, alreadyConfirmed: 2 });
    const rows = await logsOf(db, u.id);
    expect(rows.map((r) => `${r.action}:${r.outcome}:${r.fileId}`).sort()).toEqual(
      [`CONFIRM:OK:${ok1.id}`, `CONFIRM:OK:${ok2.id}`, `CONFIRM:OK:${ok3.id}`].sort(),
    );
  });

  it("is all or nothing: one of supplier B's files refuses the batch, names it, confirms none", async () => {
    const u = await userOfA(true);
    const res = await call(standardlogApi.supplierConfirm, { ids: [ok3.id, bOnlyFile.id] }, u.cookie);
    expect(res.statusCode).toBe(404);
    expect(res.json().message).toBe(`编号为 ${bOnlyFile.id} 的文件不存在`);
    const rows = await logsOf(db, u.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      action: 'CONFIRM',
      outcome: 'REFUSED',
      fileId: bOnlyFile.id,
      reason: '贵公司不是该物料的供应商，无权查看其图纸',
    });
  });

  it('without the agreement the batch is refused with the agreement code', async () => {
    const u = await userOfA(false);
    const res = await call(standardlogApi.supplierConfirm, { ids: [ok1.id] }, u.cookie);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ code: '40301', message: '请先阅读并签署保密协议' });
    expect(await db.accessLog.count({ where: { userId: u.id, outcome: 'OK' } })).toBe(0);
  });

  it('an unknown id is a 404 naming it, no confirmation written, the refusal logged', async () => {
    const u = await userOfA(true);
    const res = await call(standardlogApi.supplierConfirm, { ids: [ok1.id, 2_000_000_000] }, u.cookie);
    expect(res.statusCode).toBe(404);
    expect(res.json().message).toBe('编号为 2000000000 的文件不存在');
    const rows = await logsOf(db, u.id);
    expect(rows.map((r) => `${r.outcome}:${r.fileId}`)).toEqual(['REFUSED:null']);
  });
});
