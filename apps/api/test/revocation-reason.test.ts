/**
 * What a supplier is told once a grant was revoked: file/view and hasEmpower say when it was
 * revoked and why, and when several grants existed the one that ended last decides — a
 * revocation after an older grant's expiry is a revocation, an expiry after an older revocation
 * is an expiry, a grant valid now opens the files and one still to come says from when.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { empowerApi, filesApi } from '@esm/contracts';
import { buildTestApp, login, apiCaller } from './helpers.ts';
import {
  acceptCurrentAgreement,
  createFileVersion,
  createMaterial,
  createProductLine,
  createSupplier,
  createSupplierUser,
  linkSupplier,
  samplePdf,
  tempStorage,
} from './factories.ts';

const DAY = 86_400_000;
const files = await tempStorage();
const t = await buildTestApp({ storage: files.storage });
const db = t.db.prisma;
let staff = '';
let pdf: Uint8Array;
let line = '';

beforeAll(async () => {
  staff = await login(t.app, 'demo3');
  pdf = await samplePdf(1);
  line = (await createProductLine(db)).code;
});
afterAll(async () => {
  await t.close();
  await files.remove();
});

const call = apiCaller(t.app);

type Window = [fromDays: number, untilDays: number];

/** A supplier (and its signed-in user) supplying a fresh material with one file and these grants. */
async function supplierWith(...grants: Window[]) {
  const material = await createMaterial(db, line);
  const supplier = await createSupplier(db);
  await linkSupplier(db, supplier.code, material.code);
  const user = await createSupplierUser(t.db, supplier.code);
  await acceptCurrentAgreement(db, user.id, supplier.code);
  const file = await createFileVersion(db, files.storage, { materialCode: material.code, type: 'pdf', bytes: pdf });
  const now = Date.now();
  const ids = [];
  for (const [from, until] of grants) {
    const g = await db.empowerGrant.create({
      data: {
        supplierCode: supplier.code,
        materialCode: material.code,
        validFrom: new Date(now + from * DAY),
        validUntil: new Date(now + until * DAY),
        createdBy: 'demo3',
        imported: true,
      },
    });
    ids.push(g.id);
  }
  const cookie = await login(t.app, user.account);
  return {
    grants: ids,
    /** What file/view and hasEmpower say now: one message, the same on both. */
    async told(): Promise<{ view: number; viewMessage: string | null; reason: string | null }> {
      const view = await call(filesApi.view, { id: file.id }, cookie);
      const has = (await call(empowerApi.hasEmpower, { materialCode: material.code }, cookie)).json().data;
      return {
        view: view.statusCode,
        viewMessage: view.statusCode === 200 ? null : view.json().message,
        reason: has.reason,
      };
    },
  };
}

async function revoke(id: number, reason: string) {
  const res = await call(empowerApi.revoke, { id, reason }, staff);
  expect(res.statusCode, res.body).toBe(200);
}

/** A revocation's words: day and minute in UTC+8, then the reason. */
const revokedText = (reason: string) =>
  new RegExp(
    `^该物料的图纸授权已于 \\d{4}/\\d{1,2}/\\d{1,2} \\d{2}:\\d{2} 被撤销（原因：${reason}），如需查看请重新申请授权$`,
  );

describe('after a revocation the supplier is told it was revoked, when and why', () => {
  it('its only grant revoked: file/view and hasEmpower name the revocation with its reason', async () => {
    const s = await supplierWith([-10, 30]);
    expect((await s.told()).view).toBe(200);
    await revoke(s.grants[0]!, '供货关系终止');
    const told = await s.told();
    expect(told.view).toBe(403);
    expect(told.viewMessage).toMatch(revokedText('供货关系终止'));
    expect(told.reason).toBe(told.viewMessage);
  });

  it('an older grant that expired, then a later one revoked: the revocation, not the old expiry', async () => {
    const s = await supplierWith([-100, -40], [-30, 30]);
    await revoke(s.grants[1]!, '质量问题暂停合作');
    const told = await s.told();
    expect(told.viewMessage).toMatch(revokedText('质量问题暂停合作'));
    expect(told.reason).toBe(told.viewMessage);
  });

  it('the time said is the revocation’s, day and minute in UTC+8', async () => {
    const s = await supplierWith([-10, 30]);
    await revoke(s.grants[0]!, '测试');
    const { revokedAt } = await db.empowerGrant.findUniqueOrThrow({ where: { id: s.grants[0]! } });
    const cst = new Date(revokedAt!.getTime() + 8 * 3600_000);
    const when = `${cst.getUTCFullYear()}/${cst.getUTCMonth() + 1}/${cst.getUTCDate()} ${cst.toISOString().slice(11, 16)}`;
    expect((await s.told()).viewMessage).toContain(`已于 ${when} 被撤销`);
  });
});

describe('with several grants, the one that ended last decides', () => {
  it('a grant revoked long ago, then a later one that ran out: the expiry', async () => {
    const s = await supplierWith([-100, 100], [-20, -2]);
    await db.empowerGrant.update({
      where: { id: s.grants[0]! },
      data: { revokedAt: new Date(Date.now() - 50 * DAY), revokeReason: '旧的撤销' },
    });
    const told = await s.told();
    expect(told.viewMessage).toMatch(/^该物料的图纸授权已于 \d{4}\/\d{1,2}\/\d{1,2} 过期，请重新申请授权$/);
    expect(told.reason).toBe(told.viewMessage);
  });

  it('a revoked grant and one valid now: no refusal', async () => {
    const s = await supplierWith([-30, 30], [-5, 60]);
    await revoke(s.grants[0]!, '改用新授权');
    const told = await s.told();
    expect(told.view).toBe(200);
    expect(told.reason).toBeNull();
  });

  it('a revoked grant and one still to come: says from when it opens', async () => {
    const s = await supplierWith([-30, 30], [10, 60]);
    await revoke(s.grants[0]!, '等待新授权');
    expect((await s.told()).viewMessage).toMatch(/^该物料的图纸授权自 \S+ 起生效，目前无权查看$/);
  });

  it('never a grant at all: says there is none', async () => {
    const s = await supplierWith();
    expect((await s.told()).viewMessage).toBe('贵公司没有该物料的图纸授权，请先申请授权');
  });
});
