/**
 * Drawing authorization, through the api on a real Postgres:
 *  - the grant rule, written in several forms (grants.ts), says the same thing in each;
 *  - an application's life: draft, edit, submit, approve in part and for less time (the grants
 *    come from the approval, in its transaction), reject with a reason, withdraw, delete; each
 *    move with its audit row, and each refusal a user can meet, in Chinese, per field;
 *  - the grant's boundaries on view, download and print: one second before it starts, the
 *    instant it ends, and right after it is revoked;
 *  - a double approval sent in parallel makes one set of grants;
 *  - a supplier never reaches another supplier's applications, on any supplier call;
 *  - the grants, history, census, unauthorized-materials and access-report views, the last on a
 *    scripted history, and the two exports.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import ExcelJS from 'exceljs';
import { empowerApi, filesApi, KEEPSECRET_REQUIRED_CODE, type EndpointBody, type EndpointDef } from '@esm/contracts';
import { loadConfig } from '../src/config.ts';
import { cstDay } from '../src/lib/dates.ts';
import { addDays } from '../src/modules/empower/days.ts';
import { applicationListParts, applicationRows, pageApplications } from '../src/modules/empower/applications.ts';
import { listPage } from '../src/lib/list.ts';
import {
  expiringSoon,
  expiringSql,
  grantState,
  grantStateSql,
  materialAccess,
  visibleMaterialCodes,
} from '../src/modules/empower/grants.ts';
import { Prisma } from '../src/generated/prisma/client.ts';
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
  supplierSupplying,
  tempStorage,
  type GrantKind,
} from './factories.ts';
import {
  buildTestApp,
  createUser,
  deleteUser,
  hasChinese,
  holdInserts,
  login,
  post,
  callApi,
  type ApiAnswer,
} from './helpers.ts';

const files = await tempStorage();
const t = await buildTestApp({ storage: files.storage });
const db = t.db.prisma;
afterAll(async () => {
  await t.close();
  await files.remove();
});

const DAY = 86_400_000;
const today = () => cstDay(new Date());

let approver: string; // demo6
let admin: string; // demo3
beforeAll(async () => {
  approver = await login(t.app, 'demo6');
  admin = await login(t.app, 'demo3');
});

// ---- fixtures ----------------------------------------------------------------------------------------

/** A fresh supplier supplying `n` fresh materials, with a user of its own who accepted the agreement. */
async function supplierWith(n: number, opts: { accept?: boolean } = {}) {
  const { line, supplier, materials } = await supplierSupplying(db, n);
  const user = await createSupplierUser(t.db, supplier.code);
  if (opts.accept !== false) await acceptCurrentAgreement(db, user.id, supplier.code);
  const cookie = await login(t.app, user.account, user.password);
  return { line, supplier, materials, codes: materials.map((m) => m.code), user, cookie };
}
type Fixture = Awaited<ReturnType<typeof supplierWith>>;

const period = (from = 0, days = 90) => ({
  validFrom: addDays(today(), from),
  validUntil: addDays(today(), from + days - 1),
});

async function draft(f: Fixture, codes = f.codes, p = period()) {
  const res = await callApi(
    t.app,
    empowerApi.createApply,
    { materialCodes: codes, ...p, reason: '模具开发需要查看图纸' },
    f.cookie,
  );
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data as { id: number; status: string };
}

async function submitted(f: Fixture, codes = f.codes, p = period()) {
  const d = await draft(f, codes, p);
  const res = await callApi(t.app, empowerApi.submitApply, { id: d.id }, f.cookie);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data as { id: number; status: string };
}

const decide = (body: EndpointBody<typeof empowerApi.approve>, cookie = approver) =>
  callApi(t.app, empowerApi.approve, body, cookie);
const audit = async (
  id: number,
  cookie: string,
  endpoint: typeof empowerApi.audit | typeof empowerApi.supplierAudit = empowerApi.supplierAudit,
) =>
  (await callApi(t.app, endpoint, { id }, cookie)).json().data as {
    action: string;
    fromStatus: string | null;
    toStatus: string;
    userAccount: string;
    ip: string | null;
    comment: string | null;
  }[];

function expectFieldError(res: { statusCode: number; json(): any; body: string }, field: string, text?: RegExp) {
  expect(res.statusCode, res.body).toBe(400);
  const body = res.json();
  expect(hasChinese(body.message)).toBe(true);
  const e = body.errors.find((x: { field: string }) => x.field.split('.')[0] === field);
  expect(e, res.body).toBeTruthy();
  expect(hasChinese(e.message)).toBe(true);
  if (text) expect(e.message).toMatch(text);
}

function expectRefusal(res: { statusCode: number; json(): any; body: string }, status: number, text?: RegExp) {
  expect(res.statusCode, res.body).toBe(status);
  expect(res.json().success).toBe(false);
  expect(hasChinese(res.json().message)).toBe(true);
  if (text) expect(res.json().message).toMatch(text);
}

// ---- the rule ----------------------------------------------------------------------------------------

const HISTORIES: {
  label: string;
  grants: (GrantKind | 'expiring')[];
  supplies: boolean;
  visible: boolean;
  expiring?: boolean;
}[] = [
  { label: 'no grant', grants: [], supplies: true, visible: false },
  { label: 'a valid grant', grants: ['valid'], supplies: true, visible: true },
  { label: 'an expired grant', grants: ['expired'], supplies: true, visible: false },
  { label: 'a grant not yet valid', grants: ['future'], supplies: true, visible: false },
  { label: 'a revoked grant', grants: ['revoked'], supplies: true, visible: false },
  { label: 'expired, then valid', grants: ['expired', 'valid'], supplies: true, visible: true },
  { label: 'revoked and future', grants: ['revoked', 'future'], supplies: true, visible: false },
  { label: 'a valid grant on a material it does not supply', grants: ['valid'], supplies: false, visible: false },
  { label: 'a grant ending in 5 days', grants: ['expiring'], supplies: true, visible: true, expiring: true },
  {
    label: 'a grant ending in 5 days, renewed by a later one',
    grants: ['expiring', 'future'],
    supplies: true,
    visible: true,
    expiring: false,
  },
];

describe('the grant rule, every form agrees', () => {
  it.each(HISTORIES.map((h) => [h.label, h] as const))('%s', async (_label, h) => {
    const line = await createProductLine(db);
    const material = await createMaterial(db, line.code);
    const supplier = await createSupplier(db);
    if (h.supplies) await linkSupplier(db, supplier.code, material.code);
    for (const kind of h.grants) {
      if (kind === 'expiring') {
        await db.empowerGrant.create({
          data: {
            supplierCode: supplier.code,
            materialCode: material.code,
            validFrom: new Date(Date.now() - 300 * DAY),
            validUntil: new Date(Date.now() + 5 * DAY),
            createdBy: 'demo3',
            imported: true,
          },
        });
      } else await createGrant(db, supplier.code, material.code, kind);
    }
    const now = new Date();
    const inList = (await visibleMaterialCodes(db, supplier.code, now)).includes(material.code);
    const grants = await db.empowerGrant.findMany({
      where: { supplierCode: supplier.code, materialCode: material.code, revokedAt: null },
    });
    const verdict = await materialAccess(db, supplier.code, material.code, now);
    expect(inList).toBe(h.visible);
    expect(verdict.ok).toBe(h.visible);
    if (!verdict.ok) expect(hasChinese(verdict.reason)).toBe(true);
    const [sql] = await db.$queryRaw<{ state: string; expiring: boolean }[]>(
      Prisma.sql`SELECT ${grantStateSql('s.code', 'm.code', now)} AS state, ${expiringSql('s.code', 'm.code', now, 30)} AS expiring FROM supplier s, material m WHERE s.code = ${supplier.code} AND m.code = ${material.code}`,
    );
    expect(sql!.state).toBe(grantState(grants, now).state);
    expect(sql!.expiring).toBe(expiringSoon(grants, now, 30));
    if (h.supplies) expect(grantState(grants, now).state === 'VALID').toBe(h.visible);
    if (h.expiring !== undefined) expect(expiringSoon(grants, now, 30)).toBe(h.expiring);
  });
});

describe('supplier scope by construction', () => {
  it('a supplier account without a supplier is refused on every supplier-only call, with one message', async () => {
    const u = await createUser(t.db, { type: 2, supplierCode: null, prefix: 'nosup' });
    await db.user.update({ where: { id: u.id }, data: { supplierCode: null } });
    try {
      const cookie = await login(t.app, u.account, u.password);
      const supplierOnly = t.app.apiRoutes.filter(
        (r) => Array.isArray(r.access) && r.access.every((x) => x === 2 || x === 4),
      );
      expect(supplierOnly.length).toBeGreaterThan(5);
      for (const r of supplierOnly) {
        const res = await post(t.app, r.url.replace('/esm-server/api/', ''), {}, cookie);
        expect(res.statusCode, r.url).toBe(403);
        expect(res.json().message, r.url).toBe('账号未关联供应商，请联系管理员');
      }
    } finally {
      await deleteUser(t.db, u.account);
    }
  });
});

describe('configuration', () => {
  it('defaults to one year and 30 days; takes whole numbers; refuses anything else at start', () => {
    const c = loadConfig({}, { sessionSecret: 'x'.repeat(32) });
    expect([c.empowerMaxPeriodDays, c.empowerExpiringDays]).toEqual([365, 30]);
    const d = loadConfig(
      { EMPOWER_MAX_PERIOD_DAYS: '180', EMPOWER_EXPIRING_DAYS: '14' },
      { sessionSecret: 'x'.repeat(32) },
    );
    expect([d.empowerMaxPeriodDays, d.empowerExpiringDays]).toEqual([180, 14]);
    expect(() => loadConfig({ EMPOWER_MAX_PERIOD_DAYS: 'one year' }, { sessionSecret: 'x'.repeat(32) })).toThrow(
      /EMPOWER_MAX_PERIOD_DAYS/,
    );
    expect(() => loadConfig({ EMPOWER_EXPIRING_DAYS: '0' }, { sessionSecret: 'x'.repeat(32) })).toThrow(
      /EMPOWER_EXPIRING_DAYS/,
    );
  });
});

// ---- the lifecycle ---------------------------------------------------------------------------------------

describe('an application from draft to grants', () => {
  it('draft → edit → submit → approved in part and for less time: the grants come with the approval', async () => {
    const f = await supplierWith(3);
    // the form offers what the supplier supplies, none granted yet
    const options = (await callApi(t.app, empowerApi.applyOptions, undefined, f.cookie)).json().data;
    expect(options.today).toBe(today());
    expect(options.maxPeriodDays).toBe(365);
    expect(options.materials.map((m: { code: string }) => m.code).sort()).toEqual([...f.codes].sort());
    expect(options.materials.every((m: { grantState: string }) => m.grantState === 'NONE')).toBe(true);

    const d = await draft(f, f.codes.slice(0, 1));
    expect(d.status).toBe('DRAFT');
    const edited = await callApi(
      t.app,
      empowerApi.updateApply,
      { id: d.id, materialCodes: f.codes.slice(0, 2), ...period(0, 120), reason: '新模具开发' },
      f.cookie,
    );
    expect(edited.statusCode, edited.body).toBe(200);
    expect(
      edited
        .json()
        .data.materials.map((m: { code: string }) => m.code)
        .sort(),
    ).toEqual(f.codes.slice(0, 2).sort());
    expect(edited.json().data.validUntil).toBe(addDays(today(), 119));

    const sub = await callApi(t.app, empowerApi.submitApply, { id: d.id }, f.cookie);
    expect(sub.statusCode, sub.body).toBe(200);
    expect(sub.json().data.status).toBe('SUBMITTED');
    // pending applications come first on the approver's list
    const list = (await callApi(t.app, empowerApi.applications, { supplierCode: f.supplier.code }, approver)).json();
    expect(list.data.map((a: { id: number }) => a.id)).toEqual([d.id]);
    const first = (await callApi(t.app, empowerApi.applications, {}, approver)).json().data[0];
    expect(first.status).toBe('SUBMITTED');

    // approve one of the two, for 30 days instead of 120
    const shorter = addDays(today(), 29);
    const res = await decide({
      ids: [d.id],
      decision: 'APPROVE',
      materialCodes: [f.codes[0]],
      validUntil: shorter,
      comment: '先开通一个月',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ decided: 1, grants: 1 });
    const app = res.json().data.applications[0];
    expect(app).toMatchObject({
      status: 'APPROVED',
      approvedFrom: today(),
      approvedUntil: shorter,
      deciderAccount: 'demo6',
      deciderName: '陈静',
      decisionComment: '先开通一个月',
    });
    expect(app.materials.find((m: { code: string }) => m.code === f.codes[0])).toMatchObject({
      approved: true,
      grantState: 'VALID',
    });
    expect(app.materials.find((m: { code: string }) => m.code === f.codes[1])).toMatchObject({
      approved: false,
      grantState: 'NONE',
    });

    const grants = await db.empowerGrant.findMany({ where: { applicationId: d.id } });
    expect(grants).toHaveLength(1);
    expect(grants[0]).toMatchObject({
      supplierCode: f.supplier.code,
      materialCode: f.codes[0],
      imported: false,
      approverAccount: 'demo6',
      approverName: '陈静',
      createdBy: 'demo6',
      revokedAt: null,
    });
    expect(grants[0]!.validFrom.toISOString()).toBe(new Date(`${today()}T00:00:00+08:00`).toISOString());
    expect(grants[0]!.validUntil.toISOString()).toBe(new Date(`${addDays(shorter, 1)}T00:00:00+08:00`).toISOString());

    // the supplier may now open the approved material, and only that one
    const has = async (code: string) =>
      (await callApi(t.app, empowerApi.hasEmpower, { materialCode: code }, f.cookie)).json().data.empowered;
    expect(await has(f.codes[0]!)).toBe(true);
    expect(await has(f.codes[1]!)).toBe(false);

    // every move is on the record, the same for the supplier and the approver
    const trail = await audit(d.id, f.cookie);
    expect(trail.map((a) => [a.action, a.fromStatus, a.toStatus])).toEqual([
      ['CREATE', null, 'DRAFT'],
      ['UPDATE', 'DRAFT', 'DRAFT'],
      ['SUBMIT', 'DRAFT', 'SUBMITTED'],
      ['APPROVE', 'SUBMITTED', 'APPROVED'],
    ]);
    expect(trail[3]).toMatchObject({ userAccount: 'demo6', ip: '127.0.0.1' });
    expect(trail[3]!.comment).toContain('批准 1/2 个物料');
    expect(trail[3]!.comment).toContain('先开通一个月');
    expect(trail.slice(0, 3).every((a) => a.userAccount === f.user.account)).toBe(true);
    expect(await audit(d.id, approver, empowerApi.audit)).toEqual(trail);

    // a second decision on a decided application: 409, in words
    expectRefusal(await decide({ ids: [d.id], decision: 'REJECT', comment: '重复' }), 409, /已审批：已批准/);
    expectRefusal(await decide({ ids: [d.id], decision: 'APPROVE' }), 409, /不能再次审批/);
    expect(await db.empowerGrant.count({ where: { applicationId: d.id } })).toBe(1);
    // and the supplier can no longer change it
    expectRefusal(
      await callApi(
        t.app,
        empowerApi.updateApply,
        { id: d.id, materialCodes: f.codes, ...period(), reason: 'x' },
        f.cookie,
      ),
      409,
      /只能修改草稿/,
    );
    expectRefusal(await callApi(t.app, empowerApi.deleteApply, { id: d.id }, f.cookie), 409, /只能删除草稿/);
    expectRefusal(await callApi(t.app, empowerApi.withdrawApply, { id: d.id }, f.cookie), 409, /不能撤回/);
    expectRefusal(await callApi(t.app, empowerApi.submitApply, { id: d.id }, f.cookie), 409, /不能再次提交/);

    // the grant shows on the internal side, with its approver
    const inForce = (await callApi(t.app, empowerApi.grants, { supplierCode: f.supplier.code }, admin)).json().data;
    expect(inForce).toHaveLength(1);
    expect(inForce[0]).toMatchObject({
      materialCode: f.codes[0],
      state: 'VALID',
      applicationId: d.id,
      approverName: '陈静',
      imported: false,
      suppliesNow: true,
      expiringSoon: true,
    });
  });

  it('rejected with a reason (none is a field error); no grant', async () => {
    const f = await supplierWith(1);
    const a = await submitted(f);
    expectFieldError(await decide({ ids: [a.id], decision: 'REJECT' }), 'comment', /驳回原因/);
    const res = await decide({ ids: [a.id], decision: 'REJECT', comment: '请补充采购订单号' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.applications[0]).toMatchObject({
      status: 'REJECTED',
      decisionComment: '请补充采购订单号',
      approvedFrom: null,
    });
    expect(await db.empowerGrant.count({ where: { applicationId: a.id } })).toBe(0);
    const trail = await audit(a.id, f.cookie);
    expect(trail.at(-1)).toMatchObject({
      action: 'REJECT',
      fromStatus: 'SUBMITTED',
      toStatus: 'REJECTED',
      comment: '请补充采购订单号',
    });
  });

  it('withdrawn by the supplier while submitted; then nobody can decide it', async () => {
    const f = await supplierWith(1);
    const a = await submitted(f);
    const res = await callApi(t.app, empowerApi.withdrawApply, { id: a.id, comment: '期限填错了' }, f.cookie);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.status).toBe('WITHDRAWN');
    expectRefusal(await callApi(t.app, empowerApi.withdrawApply, { id: a.id }, f.cookie), 409, /已撤回/);
    expectRefusal(await decide({ ids: [a.id], decision: 'APPROVE' }), 409, /撤回/);
    expect((await audit(a.id, f.cookie)).at(-1)).toMatchObject({
      action: 'WITHDRAW',
      toStatus: 'WITHDRAWN',
      comment: '期限填错了',
    });
  });

  it('a draft is deleted (with its trail); a draft is not withdrawn; the approvers never see drafts', async () => {
    const f = await supplierWith(1);
    const d = await draft(f);
    expectRefusal(await callApi(t.app, empowerApi.withdrawApply, { id: d.id }, f.cookie), 409, /直接删除/);
    expect(
      (await callApi(t.app, empowerApi.applications, { supplierCode: f.supplier.code }, approver)).json().data,
    ).toEqual([]);
    expectRefusal(await callApi(t.app, empowerApi.audit, { id: d.id }, approver), 404);
    expectRefusal(await decide({ ids: [d.id], decision: 'APPROVE' }), 404);
    const res = await callApi(t.app, empowerApi.deleteApply, { id: d.id }, f.cookie);
    expect(res.statusCode, res.body).toBe(200);
    expect(await db.empowerApplication.count({ where: { id: d.id } })).toBe(0);
    expect(await db.empowerAudit.count({ where: { applicationId: d.id } })).toBe(0);
    expectRefusal(await callApi(t.app, empowerApi.deleteApply, { id: d.id }, f.cookie), 404, /申请不存在/);
  });

  it('several approved at once: all or nothing', async () => {
    const f = await supplierWith(2);
    const a = await submitted(f, [f.codes[0]!]);
    const b = await submitted(f, [f.codes[1]!]);
    const decided = await submitted(await supplierWith(1));
    await decide({ ids: [decided.id], decision: 'REJECT', comment: '不予批准' });
    // one of them decided already: nothing changes
    expectRefusal(
      await decide({ ids: [a.id, b.id, decided.id], decision: 'APPROVE' }),
      409,
      new RegExp(`申请 ${decided.id}`),
    );
    expect(await db.empowerApplication.count({ where: { id: { in: [a.id, b.id] }, status: 'SUBMITTED' } })).toBe(2);
    expectFieldError(
      await decide({ ids: [a.id, b.id], decision: 'APPROVE', validUntil: addDays(today(), 10) }),
      'ids',
      /一次只能审批一个/,
    );
    const res = await decide({ ids: [b.id, a.id], decision: 'APPROVE' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ decided: 2, grants: 2 });
    expect(res.json().message).toContain('已批准 2 个申请');
  });
});

// ---- refusals ------------------------------------------------------------------------------------------

describe('refusals a user can act on', () => {
  it('a material it does not supply (or that does not exist) is named', async () => {
    const f = await supplierWith(1);
    const other = await supplierWith(1);
    const res = await callApi(
      t.app,
      empowerApi.createApply,
      { materialCodes: [f.codes[0], other.codes[0], 'NO-SUCH'], ...period(), reason: '需要' },
      f.cookie,
    );
    expectFieldError(res, 'materialCodes', new RegExp(`${other.codes[0]}、NO-SUCH`));
    expect(res.json().errors[0].message).not.toContain(f.codes[0]);
  });

  it('an approval that moves one end past the other is a field error, not an inverted grant', async () => {
    const f = await supplierWith(1);
    const a = await submitted(f, f.codes, period(10, 30)); // asked: today+10 … today+39
    expectFieldError(
      await decide({ ids: [a.id], decision: 'APPROVE', validFrom: addDays(today(), 45) }),
      'validFrom',
      new RegExp(`开始日期不能晚于截止日期 ${addDays(today(), 39)}`),
    );
    expectFieldError(
      await decide({ ids: [a.id], decision: 'APPROVE', validUntil: addDays(today(), 5) }),
      'validUntil',
      new RegExp(`截止日期不能早于开始日期 ${addDays(today(), 10)}`),
    );
    expect(await db.empowerGrant.count({ where: { applicationId: a.id } })).toBe(0);
    expect((await db.empowerApplication.findUniqueOrThrow({ where: { id: a.id } })).status).toBe('SUBMITTED');
    expect((await decide({ ids: [a.id], decision: 'APPROVE', validFrom: addDays(today(), 20) })).statusCode).toBe(200);
  });

  it('a period starting before today, longer than the maximum, or ending before it starts', async () => {
    const f = await supplierWith(1);
    const body = (p: { validFrom: string; validUntil: string; materialCodes?: string[]; reason?: string }) => ({
      materialCodes: f.codes,
      reason: '需要',
      ...p,
    });
    expectFieldError(
      await callApi(t.app, empowerApi.createApply, body(period(-1, 30)), f.cookie),
      'validFrom',
      new RegExp(`不能早于今天（${today()}）`),
    );
    expectFieldError(
      await callApi(t.app, empowerApi.createApply, body(period(0, 366)), f.cookie),
      'validUntil',
      new RegExp(`最长 365 天.*${addDays(today(), 364)}`),
    );
    expect((await callApi(t.app, empowerApi.createApply, body(period(0, 365)), f.cookie)).statusCode).toBe(200);
    expectFieldError(
      await callApi(
        t.app,
        empowerApi.createApply,
        body({ validFrom: addDays(today(), 5), validUntil: today() }),
        f.cookie,
      ),
      'validUntil',
      /不能早于开始日期/,
    );
    expectFieldError(
      await callApi(t.app, empowerApi.createApply, body({ validFrom: '2026-02-30', validUntil: today() }), f.cookie),
      'validFrom',
    );
    expectFieldError(
      await callApi(t.app, empowerApi.createApply, body({ ...period(), materialCodes: [] }), f.cookie),
      'materialCodes',
      /请选择物料/,
    );
    expectFieldError(
      await callApi(t.app, empowerApi.createApply, body({ ...period(), reason: '  ' }), f.cookie),
      'reason',
      /申请理由/,
    );
  });

  it('the maximum period is configuration', async () => {
    const short = await buildTestApp({ db: t.db, config: { empowerMaxPeriodDays: 30 } });
    try {
      const f = await supplierWith(1);
      const cookie = await login(short.app, f.user.account, f.user.password);
      expectFieldError(
        await callApi(
          short.app,
          empowerApi.createApply,
          { materialCodes: f.codes, reason: '需要', ...period(0, 31) },
          cookie,
        ),
        'validUntil',
        /最长 30 天/,
      );
      expect((await callApi(short.app, empowerApi.applyOptions, undefined, cookie)).json().data.maxPeriodDays).toBe(30);
    } finally {
      await short.app.close();
    }
  });

  it('submitting needs the current confidentiality agreement accepted (the web then shows it)', async () => {
    const f = await supplierWith(1, { accept: false });
    const d = await draft(f);
    const res = await callApi(t.app, empowerApi.submitApply, { id: d.id }, f.cookie);
    expectRefusal(res, 403, /保密协议/);
    expect(res.json().code).toBe(KEEPSECRET_REQUIRED_CODE);
    await acceptCurrentAgreement(db, f.user.id, f.supplier.code);
    expect((await callApi(t.app, empowerApi.submitApply, { id: d.id }, f.cookie)).statusCode).toBe(200);
  });

  it('one pending application a material: a second submission names the first', async () => {
    const f = await supplierWith(2);
    const first = await submitted(f, [f.codes[0]!]);
    const second = await draft(f, f.codes);
    expectRefusal(
      await callApi(t.app, empowerApi.submitApply, { id: second.id }, f.cookie),
      409,
      new RegExp(`${f.codes[0]} 已有待审批的申请（编号 ${first.id}）`),
    );
  });

  it('a draft whose start day has passed must be edited before it is submitted', async () => {
    const f = await supplierWith(1);
    const d = await draft(f);
    await db.empowerApplication.update({
      where: { id: d.id },
      data: { validFrom: new Date(`${addDays(today(), -2)}T00:00:00Z`) },
    });
    expectFieldError(await callApi(t.app, empowerApi.submitApply, { id: d.id }, f.cookie), 'validFrom', /不能早于今天/);
  });

  it('the approver may shorten, never lengthen, and approve only what was asked', async () => {
    const f = await supplierWith(2);
    const a = await submitted(f, [f.codes[0]!], period(1, 60));
    expectFieldError(
      await decide({ ids: [a.id], decision: 'APPROVE', validUntil: addDays(today(), 61) }),
      'validUntil',
      /不能晚于申请的/,
    );
    expectFieldError(
      await decide({ ids: [a.id], decision: 'APPROVE', validFrom: today() }),
      'validFrom',
      /不能早于申请的/,
    );
    expectFieldError(
      await decide({ ids: [a.id], decision: 'APPROVE', materialCodes: [f.codes[1]] }),
      'materialCodes',
      new RegExp(`${f.codes[1]} 不在该申请中`),
    );
    expectFieldError(
      await decide({ ids: [a.id], decision: 'APPROVE', materialCodes: [] }),
      'materialCodes',
      /至少批准一个物料/,
    );
    // a material no longer supplied is named; untick it and approve the rest
    await db.supplierMaterial.delete({
      where: { supplierCode_materialCode: { supplierCode: f.supplier.code, materialCode: f.codes[0]! } },
    });
    expectFieldError(
      await decide({ ids: [a.id], decision: 'APPROVE' }),
      'materialCodes',
      new RegExp(`不再供应物料 ${f.codes[0]}`),
    );
    expect((await db.empowerApplication.findUnique({ where: { id: a.id } }))!.status).toBe('SUBMITTED');
  });

  it('nobody decides their own application', async () => {
    const f = await supplierWith(1);
    const a = await submitted(f);
    // the applicant's account later becomes an approver's
    await db.user.update({ where: { id: f.user.id }, data: { type: 6 } });
    const cookie = await login(t.app, f.user.account, f.user.password);
    expectRefusal(await decide({ ids: [a.id], decision: 'APPROVE' }, cookie), 403, /不能审批自己提交的申请/);
    expect((await db.empowerApplication.findUnique({ where: { id: a.id } }))!.status).toBe('SUBMITTED');
  });

  it('revoking: a reason is required; once; not an ended grant; not one that does not exist', async () => {
    const f = await supplierWith(1);
    const g = await createGrant(db, f.supplier.code, f.codes[0]!, 'valid');
    const expired = await createGrant(db, f.supplier.code, f.codes[0]!, 'expired');
    expectFieldError(await callApi(t.app, empowerApi.revoke, { id: g.id, reason: '' }, admin), 'reason', /撤销原因/);
    const res = await callApi(t.app, empowerApi.revoke, { id: g.id, reason: '合同终止' }, admin);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({
      state: 'REVOKED',
      revokedByAccount: 'demo3',
      revokedByName: '李娜',
      revokeReason: '合同终止',
    });
    expectRefusal(
      await callApi(t.app, empowerApi.revoke, { id: g.id, reason: '再撤一次' }, admin),
      409,
      /已于 .* 被李娜撤销/,
    );
    expectRefusal(
      await callApi(t.app, empowerApi.revoke, { id: expired.id, reason: '过期的' }, admin),
      409,
      /过期，无需撤销/,
    );
    expectRefusal(
      await callApi(t.app, empowerApi.revoke, { id: 2_000_000_000, reason: 'x' }, admin),
      404,
      /授权不存在/,
    );
    // the row stays, closed: nothing else about it changed
    const after = await db.empowerGrant.findUnique({ where: { id: g.id } });
    expect(after).toMatchObject({
      validFrom: g.validFrom,
      validUntil: g.validUntil,
      createdBy: g.createdBy,
      revokeReason: '合同终止',
    });
  });
});

// ---- concurrency -------------------------------------------------------------------------------------------

describe('concurrent decisions', () => {
  it('five parallel approvals of one application: one succeeds, the rest are 409, one set of grants', async () => {
    const f = await supplierWith(2);
    const a = await submitted(f);
    const second = await login(t.app, 'demo6');
    const results = await Promise.all(
      [approver, second, approver, second, approver].map((cookie) =>
        decide({ ids: [a.id], decision: 'APPROVE' }, cookie),
      ),
    );
    const statuses = results.map((r) => r.statusCode).sort();
    expect(statuses, results.map((r) => r.body).join('\n')).toEqual([200, 409, 409, 409, 409]);
    for (const r of results.filter((x) => x.statusCode === 409)) expect(hasChinese(r.json().message)).toBe(true);
    expect(await db.empowerGrant.count({ where: { applicationId: a.id } })).toBe(2);
    expect(await db.empowerAudit.count({ where: { applicationId: a.id, action: 'APPROVE' } })).toBe(1);
  });

  it('an approval racing a withdrawal: exactly one of them happens', async () => {
    const f = await supplierWith(1);
    const a = await submitted(f);
    const [approved, withdrawn] = await Promise.all([
      decide({ ids: [a.id], decision: 'APPROVE' }),
      callApi(t.app, empowerApi.withdrawApply, { id: a.id }, f.cookie),
    ]);
    expect([approved.statusCode, withdrawn.statusCode].sort()).toEqual([200, 409]);
    const status = (await db.empowerApplication.findUnique({ where: { id: a.id } }))!.status;
    expect(status).toBe(approved.statusCode === 200 ? 'APPROVED' : 'WITHDRAWN');
    expect(await db.empowerGrant.count({ where: { applicationId: a.id } })).toBe(status === 'APPROVED' ? 1 : 0);
  });
});

describe('an edit in flight', () => {
  it('a submit sent while an edit of the draft is still writing waits for it and checks the edited materials', async () => {
    const f = await supplierWith(2);
    const [m0, m1] = f.codes as [string, string];
    const waiting = await submitted(f, [m0]);
    const d = await draft(f, [m1]);
    // the edit stops at its audit row, the draft's materials rewritten but not committed
    const held = await holdInserts('empower_audit');
    let edit: Promise<ApiAnswer<EndpointDef>>;
    let submit: typeof edit;
    try {
      edit = callApi(
        t.app,
        empowerApi.updateApply,
        { id: d.id, materialCodes: [m0], ...period(), reason: '改为另一物料' },
        f.cookie,
      );
      const editing = await held.writer();
      submit = callApi(t.app, empowerApi.submitApply, { id: d.id }, f.cookie);
      await held.waitBehind(editing);
    } finally {
      await held.release();
    }
    expect((await edit!).statusCode, (await edit!).body).toBe(200);
    expectRefusal(await submit!, 409, new RegExp(`物料 ${m0} 已有待审批的申请（编号 ${waiting.id}）`));
    expect(await db.empowerApplication.count({ where: { supplierCode: f.supplier.code, status: 'SUBMITTED' } })).toBe(
      1,
    );
    expect((await audit(d.id, f.cookie)).map((a) => a.action)).toEqual(['CREATE', 'UPDATE']);
  });
});

// ---- supplier isolation ----------------------------------------------------------------------------------------

describe('a supplier never reaches another supplier’s applications', () => {
  it('on every supplier call of the domain: "not yours" reads exactly like "does not exist"', async () => {
    const mine = await supplierWith(1);
    const theirs = await supplierWith(1);
    const draftOfTheirs = await draft(theirs);
    const submittedOfTheirs = await submitted(theirs, theirs.codes, period(1, 30));
    const missing = 2_000_000_000;
    const covered = new Set<string>();
    const call = (e: EndpointDef, body?: object) => {
      covered.add(e.path);
      return callApi(t.app, e, body, mine.cookie);
    };
    const alike = async (
      e: EndpointDef,
      body: (id: number) => object,
      ids = [draftOfTheirs.id, submittedOfTheirs.id],
    ) => {
      const none = await call(e, body(missing));
      expect(none.statusCode, none.body).toBe(404);
      for (const id of ids) {
        const res = await call(e, body(id));
        expect(res.statusCode, res.body).toBe(404);
        expect(res.json()).toEqual(none.json());
      }
    };

    await alike(empowerApi.supplierAudit, (id) => ({ id }));
    await alike(empowerApi.deleteApply, (id) => ({ id }));
    await alike(empowerApi.submitApply, (id) => ({ id }));
    await alike(empowerApi.withdrawApply, (id) => ({ id }));
    await alike(empowerApi.updateApply, (id) => ({ id, materialCodes: mine.codes, ...period(), reason: '需要' }));

    // lists and options show only its own
    const list = (await call(empowerApi.supplierApplications, { materialCode: theirs.codes[0] })).json();
    expect(list.data).toEqual([]);
    expect((await call(empowerApi.supplierApplications, {})).json().total).toBe(0);
    const options = (await call(empowerApi.applyOptions)).json().data;
    expect(options.materials.map((m: { code: string }) => m.code)).toEqual(mine.codes);
    // their material cannot be applied for, nor is their grant anything to this supplier
    expectFieldError(
      await call(empowerApi.createApply, { materialCodes: theirs.codes, ...period(), reason: '需要' }),
      'materialCodes',
      new RegExp(theirs.codes[0]!),
    );
    await createGrant(db, theirs.supplier.code, theirs.codes[0]!, 'valid');
    expect((await call(empowerApi.hasEmpower, { materialCode: theirs.codes[0] })).json().data.empowered).toBe(false);

    // nothing of theirs moved
    expect((await db.empowerApplication.findUnique({ where: { id: draftOfTheirs.id } }))!.status).toBe('DRAFT');
    expect((await db.empowerApplication.findUnique({ where: { id: submittedOfTheirs.id } }))!.status).toBe('SUBMITTED');
    // every supplier call of the domain was tried
    const supplierCalls = Object.values(empowerApi)
      .filter((e) => e.path.startsWith('supplier/'))
      .map((e) => e.path);
    expect([...covered].sort()).toEqual(supplierCalls.sort());
  });
});

// ---- boundaries on the files ---------------------------------------------------------------------------------

describe('the grant from an approval opens and closes file access exactly on time', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('one second before valid-from, at valid-from, one second before and at valid-until, right after revoke — on view, download and print', async () => {
    const f = await supplierWith(1);
    const file = await createFileVersion(db, files.storage, {
      materialCode: f.codes[0]!,
      type: 'pdf',
      bytes: await samplePdf(1),
    });
    const a = await submitted(f, f.codes, period(1, 1)); // tomorrow only
    expect((await decide({ ids: [a.id], decision: 'APPROVE' })).statusCode).toBe(200);
    const grant = (await db.empowerGrant.findFirst({ where: { applicationId: a.id } }))!;
    expect(grant.validUntil.getTime() - grant.validFrom.getTime()).toBe(DAY);

    vi.useFakeTimers({ toFake: ['Date'] });
    /** At `time`: a fresh sign-in (sessions age with the clock), then each action on the file. */
    const actAt = async (time: number) => {
      vi.setSystemTime(time);
      const cookie = await login(t.app, f.user.account, f.user.password);
      const out: Record<string, { status: number; message?: string }> = {};
      for (const [action, endpoint] of [
        ['view', filesApi.view],
        ['download', filesApi.download],
        ['print', filesApi.print],
      ] as const) {
        const res = await callApi(t.app, endpoint, { id: file.id }, cookie);
        out[action] = { status: res.statusCode, message: res.statusCode === 200 ? undefined : res.json().message };
      }
      return out;
    };
    const all = (status: number) => ({
      view: expect.objectContaining({ status }),
      download: expect.objectContaining({ status }),
      print: expect.objectContaining({ status }),
    });

    const before = await actAt(grant.validFrom.getTime() - 1000);
    expect(before).toEqual(all(403));
    expect(before.view!.message).toMatch(/起生效/);
    expect(await actAt(grant.validFrom.getTime())).toEqual(all(200));
    expect(await actAt(grant.validUntil.getTime() - 1000)).toEqual(all(200));
    const ended = await actAt(grant.validUntil.getTime());
    expect(ended).toEqual(all(403));
    expect(ended.view!.message).toMatch(/已于 .* 过期/);

    // revoked in the middle of its day: closed for the very next request
    const mid = grant.validFrom.getTime() + 3600_000;
    vi.setSystemTime(mid);
    const staff = await login(t.app, 'demo3');
    expect((await callApi(t.app, empowerApi.revoke, { id: grant.id, reason: '供货关系终止' }, staff)).statusCode).toBe(
      200,
    );
    const revoked = await actAt(mid + 1000);
    expect(revoked).toEqual(all(403));
    expect(revoked.view!.message).toMatch(
      /^该物料的图纸授权已于 \S+ \d\d:\d\d 被撤销（原因：供货关系终止），如需查看请重新申请授权$/,
    );

    // each refusal and each served copy has its log row
    const logs = await db.accessLog.findMany({ where: { userId: f.user.id, fileId: file.id } });
    expect(logs.filter((l) => l.outcome === 'SENT')).toHaveLength(6);
    expect(logs.filter((l) => l.outcome === 'REFUSED')).toHaveLength(9);
  });
});

// ---- the internal views ----------------------------------------------------------------------------------------

describe('grants, history, census and unauthorized materials', () => {
  it('count and list by the grant rule', async () => {
    const f = await supplierWith(5);
    const [valid, expiring, expired, none, pendingOne] = f.codes as [string, string, string, string, string];
    // (the factory's valid grant ends in 30 days: exactly the expiring horizon)
    await db.empowerGrant.create({
      data: {
        supplierCode: f.supplier.code,
        materialCode: valid,
        validFrom: new Date(Date.now() - 30 * DAY),
        validUntil: new Date(Date.now() + 200 * DAY),
        createdBy: 'demo3',
        imported: true,
      },
    });
    const soon = await db.empowerGrant.create({
      data: {
        supplierCode: f.supplier.code,
        materialCode: expiring,
        validFrom: new Date(Date.now() - 300 * DAY),
        validUntil: new Date(Date.now() + 3 * DAY),
        createdBy: 'demo3',
        imported: true,
      },
    });
    await createGrant(db, f.supplier.code, expired, 'expired');
    const revoked = await createGrant(db, f.supplier.code, none, 'revoked');
    await db.empowerGrant.update({
      where: { id: revoked.id },
      data: { revokedByName: '李娜', revokeReason: '测试撤销' },
    });
    const pending = await submitted(f, [pendingOne]);
    for (const m of [valid, expiring, expired])
      await createFileVersion(db, files.storage, { materialCode: m, type: 'pdf', bytes: await samplePdf(1) });

    const census = (await callApi(t.app, empowerApi.census, { keyword: f.supplier.code }, admin)).json();
    expect(census.data).toEqual([
      {
        supplierCode: f.supplier.code,
        supplierName: f.supplier.name,
        supplied: 5,
        valid: 2,
        expiring: 1,
        expired: 1,
        unauthorized: 3,
        pending: 1,
        viewable: 2,
      },
    ]);
    // sortable by each count
    const sorted = (
      await callApi(t.app, empowerApi.census, { sortField: 'unauthorized', sortOrder: 'descend', results: 100 }, admin)
    ).json().data;
    const counts = sorted.map((r: { unauthorized: number }) => r.unauthorized);
    expect(counts).toEqual([...counts].sort((a: number, b: number) => b - a));

    const inForce = (await callApi(t.app, empowerApi.grants, { supplierCode: f.supplier.code }, admin)).json().data;
    expect(inForce.map((g: { materialCode: string }) => g.materialCode)).toEqual([expiring, valid]); // ending soonest first
    expect(inForce[0]).toMatchObject({ expiringSoon: true, imported: true, approverName: null, drawingCount: 1 });
    expect(
      (await callApi(t.app, empowerApi.grants, { supplierCode: f.supplier.code, expiringOnly: true }, admin)).json()
        .data,
    ).toHaveLength(1);

    const history = async (kind?: string) =>
      (
        await callApi(t.app, empowerApi.overdue, { supplierCode: f.supplier.code, ...(kind ? { kind } : {}) }, admin)
      ).json().data as { materialCode: string; state: string; id: number }[];
    expect((await history('EXPIRED')).map((g) => g.materialCode)).toEqual([expired]);
    expect((await history('REVOKED'))[0]).toMatchObject({
      materialCode: none,
      state: 'REVOKED',
      revokedByName: '李娜',
      revokeReason: '测试撤销',
    });
    expect((await history('EXPIRING')).map((g) => g.id)).toEqual([soon.id]);
    expect((await history()).map((g) => g.materialCode).sort()).toEqual([expiring, expired, none].sort());

    const tree = (await callApi(t.app, empowerApi.unauthorized, { supplierCode: f.supplier.code }, admin)).json().data;
    expect(tree).toMatchObject({ supplierCode: f.supplier.code, supplied: 5 });
    const materials = tree.productLines.flatMap((l: { materials: { code: string }[] }) => l.materials);
    expect(materials.map((m: { code: string }) => m.code).sort()).toEqual([expired, none, pendingOne].sort());
    expect(materials.find((m: { code: string }) => m.code === expired)).toMatchObject({
      grantState: 'EXPIRED',
      files: [expect.objectContaining({ viewable: true })],
    });
    expect(materials.find((m: { code: string }) => m.code === pendingOne)).toMatchObject({
      grantState: 'NONE',
      pendingApplicationId: pending.id,
      files: [],
    });
    expectRefusal(
      await callApi(t.app, empowerApi.unauthorized, { supplierCode: 'NO-SUCH' }, admin),
      404,
      /供应商不存在/,
    );

    // the supplier's own form says the same
    const options = (await callApi(t.app, empowerApi.applyOptions, undefined, f.cookie)).json().data.materials as {
      code: string;
      grantState: string;
      expiringSoon: boolean;
      grantId: number | null;
      pendingApplicationId: number | null;
    }[];
    expect(options.find((m) => m.code === expiring)).toMatchObject({
      grantState: 'VALID',
      expiringSoon: true,
      grantId: soon.id,
    });
    expect(options.find((m) => m.code === pendingOne)).toMatchObject({
      grantState: 'NONE',
      pendingApplicationId: pending.id,
    });

    // the census as an Excel file: the same row
    const xlsx = await callApi(t.app, empowerApi.censusExcel, { keyword: f.supplier.code }, admin);
    expect(xlsx.statusCode).toBe(200);
    expect(xlsx.headers['x-total-rows']).toBe('1');
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(xlsx.rawPayload as unknown as ArrayBuffer);
    const sheet = book.getWorksheet('供应商统计')!;
    expect(sheet.getRow(1).values).toEqual([
      undefined,
      '供应商编码',
      '供应商名称',
      '供货物料',
      '有效授权',
      '即将到期',
      '已过期',
      '未授权物料',
      '待审批申请',
      '可查看图纸',
    ]);
    expect(sheet.getRow(2).values).toEqual([undefined, f.supplier.code, f.supplier.name, 5, 2, 1, 1, 3, 1, 2]);
  });
});

describe('the access report', () => {
  it('on a scripted history: who could see it that day, on whose approval, and what they did under each grant', async () => {
    const line = await createProductLine(db);
    const material = await createMaterial(db, line.code);
    const otherMaterial = await createMaterial(db, line.code);
    const [approved, revoked, ended, later] = await Promise.all([
      createSupplier(db, '甲'),
      createSupplier(db, '乙'),
      createSupplier(db, '丙'),
      createSupplier(db, '丁'),
    ]);
    for (const s of [approved, revoked, ended, later]) await linkSupplier(db, s.code, material.code);
    const drawing = await createFileVersion(db, files.storage, {
      materialCode: material.code,
      type: 'pdf',
      bytes: await samplePdf(1),
    });
    const otherDrawing = await createFileVersion(db, files.storage, {
      materialCode: material.code,
      type: 'pdf',
      bytes: await samplePdf(1),
    });

    // 甲: applied and approved by demo6 from today
    const applicantUser = await createSupplierUser(t.db, approved.code);
    await acceptCurrentAgreement(db, applicantUser.id, approved.code);
    const cookie = await login(t.app, applicantUser.account, applicantUser.password);
    const d = (
      await callApi(
        t.app,
        empowerApi.createApply,
        { materialCodes: [material.code], ...period(0, 30), reason: '审计测试' },
        cookie,
      )
    ).json().data;
    await callApi(t.app, empowerApi.submitApply, { id: d.id }, cookie);
    expect((await decide({ ids: [d.id], decision: 'APPROVE' })).statusCode).toBe(200);
    const approvedGrant = (await db.empowerGrant.findFirst({ where: { applicationId: d.id } }))!;
    // 乙: imported, revoked just now; 丙: ended yesterday; 丁: starts tomorrow
    const now = Date.now();
    const revokedGrant = await db.empowerGrant.create({
      data: {
        supplierCode: revoked.code,
        materialCode: material.code,
        validFrom: new Date(now - 10 * DAY),
        validUntil: new Date(now + 10 * DAY),
        createdBy: 'demo3',
        imported: true,
      },
    });
    expect(
      (await callApi(t.app, empowerApi.revoke, { id: revokedGrant.id, reason: '质量问题暂停合作' }, admin)).statusCode,
    ).toBe(200);
    const revokedAt = (await db.empowerGrant.findUnique({ where: { id: revokedGrant.id } }))!.revokedAt!;
    await db.empowerGrant.create({
      data: {
        supplierCode: ended.code,
        materialCode: material.code,
        validFrom: new Date(now - 40 * DAY),
        validUntil: new Date(`${today()}T00:00:00+08:00`),
        createdBy: 'demo3',
        imported: true,
      },
    });
    await db.empowerGrant.create({
      data: {
        supplierCode: later.code,
        materialCode: material.code,
        validFrom: new Date(`${addDays(today(), 1)}T00:00:00+08:00`),
        validUntil: new Date(now + 40 * DAY),
        createdBy: 'demo3',
        imported: true,
      },
    });

    // what the log says each did (scripted rows, as the file service would write them)
    const row = (
      s: { code: string; name: string },
      action: string,
      at: Date,
      file = drawing,
      outcome = 'OK',
      mat = material.code,
    ) => ({
      action,
      outcome,
      userId: 1,
      userAccount: `${s.code}_u`,
      userName: `${s.name}用户`,
      userType: 2,
      supplierCode: s.code,
      supplierName: s.name,
      fileId: file.id,
      standardCode: file.standardCode,
      fileName: file.fileName,
      version: file.version,
      materialCode: mat,
      materialName: material.name,
      ip: '10.1.2.3',
      createdAt: at,
    });
    const justNow = new Date(Math.max(approvedGrant.validFrom.getTime() + 1000, now - 60_000));
    await db.accessLog.createMany({
      data: [
        row(approved, 'VIEW', justNow),
        row(approved, 'VIEW', justNow, otherDrawing),
        row(approved, 'DOWNLOAD', justNow),
        row(approved, 'VIEW', justNow, drawing, 'REFUSED'), // refused: nothing was seen
        row(approved, 'CONFIRM', justNow), // not a view, download or print
        row(approved, 'VIEW', new Date(approvedGrant.validFrom.getTime() - 1000)), // before its grant
        row(approved, 'VIEW', justNow, drawing, 'OK', otherMaterial.code), // another material
        row(revoked, 'PRINT', new Date(now - 5 * DAY)),
        row(revoked, 'VIEW', new Date(revokedAt.getTime() + 1000)), // after the revocation
      ],
    });

    const res = await callApi(t.app, empowerApi.report, { materialCode: material.code, date: today() }, admin);
    expect(res.statusCode, res.body).toBe(200);
    const report = res.json().data;
    expect(report.materials).toEqual([{ code: material.code, name: material.name }]);
    expect(report.grants.map((g: { supplierCode: string }) => g.supplierCode).sort()).toEqual(
      [approved.code, revoked.code].sort(),
    );
    const byCode = (c: string) => report.grants.find((g: { supplierCode: string }) => g.supplierCode === c);
    expect(byCode(approved.code)).toMatchObject({
      grantId: approvedGrant.id,
      applicationId: d.id,
      applicantName: expect.any(String),
      approverAccount: 'demo6',
      approverName: '陈静',
      imported: false,
      suppliesNow: true,
      views: 2,
      downloads: 1,
      prints: 0,
    });
    expect(byCode(revoked.code)).toMatchObject({
      imported: true,
      approverName: null,
      revokedByName: '李娜',
      revokeReason: '质量问题暂停合作',
      views: 0,
      prints: 1,
    });
    expect(report.eventsTotal).toBe(4);
    expect(
      report.events.map((e: { action: string; supplierCode: string }) => `${e.supplierCode}:${e.action}`).sort(),
    ).toEqual(
      [`${approved.code}:VIEW`, `${approved.code}:VIEW`, `${approved.code}:DOWNLOAD`, `${revoked.code}:PRINT`].sort(),
    );

    // the day before: the approval had not begun, 丙 still held its grant
    const yesterday = (
      await callApi(t.app, empowerApi.report, { materialCode: material.code, date: addDays(today(), -1) }, admin)
    ).json().data;
    expect(yesterday.grants.map((g: { supplierCode: string }) => g.supplierCode).sort()).toEqual(
      [revoked.code, ended.code].sort(),
    );

    // for one drawing: only what was done with it
    const one = (
      await callApi(t.app, empowerApi.report, { standardCode: drawing.standardCode, date: today() }, admin)
    ).json().data;
    expect(one.standardCode).toBe(drawing.standardCode);
    expect(one.versions).toHaveLength(1);
    expect(one.grants.find((g: { supplierCode: string }) => g.supplierCode === approved.code)).toMatchObject({
      views: 1,
      downloads: 1,
    });

    // refusals in words
    expectFieldError(
      await callApi(t.app, empowerApi.report, { date: today() }, admin),
      'materialCode',
      /物料编码或标准编号/,
    );
    expectRefusal(
      await callApi(t.app, empowerApi.report, { materialCode: 'NO-SUCH', date: today() }, admin),
      404,
      /物料 NO-SUCH 不存在/,
    );
    expectFieldError(
      await callApi(
        t.app,
        empowerApi.report,
        { standardCode: drawing.standardCode, materialCode: otherMaterial.code, date: today() },
        admin,
      ),
      'materialCode',
      /不属于物料/,
    );

    // the Excel file: the same grants and every event
    const xlsx = await callApi(t.app, empowerApi.reportExcel, { materialCode: material.code, date: today() }, admin);
    expect(xlsx.statusCode).toBe(200);
    expect(decodeURIComponent(String(xlsx.headers['content-disposition']))).toContain('授权访问报告_');
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(xlsx.rawPayload as unknown as ArrayBuffer);
    expect(book.worksheets.map((s) => s.name)).toEqual(['报告说明', '授权', '访问记录']);
    const grantsSheet = book.getWorksheet('授权')!;
    expect(grantsSheet.rowCount).toBe(3);
    expect(JSON.stringify(grantsSheet.getSheetValues())).toContain('陈静（demo6）');
    expect(book.getWorksheet('访问记录')!.rowCount).toBe(5);
  });
});

describe('a page of applications in one statement', () => {
  // the page, its order and its total as the two statements found them before (ids, then rows)
  const twoStatements = async (
    q: Parameters<typeof pageApplications>[1],
    scope: Parameters<typeof pageApplications>[2],
    now: Date,
  ) => {
    const page = await listPage<{ id: number }>(db, q, applicationListParts(q, scope));
    return {
      ...page,
      rows: await applicationRows(
        db,
        page.rows.map((r) => r.id),
        now,
      ),
    };
  };

  it('answers the same rows, in the same order, with the same total, for every sort, filter and page', async () => {
    const { supplier, materials } = await supplierSupplying(db, 3);
    const user = await createUser(t.db, { type: 2, supplierCode: supplier.code });
    const statuses = ['DRAFT', 'SUBMITTED', 'APPROVED', 'REJECTED', 'WITHDRAWN'];
    const base = Date.UTC(2026, 0, 1);
    for (let i = 0; i < 23; i++) {
      const at = new Date(base + ((i * 7) % 23) * 86_400_000);
      const status = statuses[i % 5]!;
      await db.empowerApplication.create({
        data: {
          supplierCode: supplier.code,
          status,
          reason: `申请 ${i}`,
          applicantId: user.id,
          applicantAccount: user.account,
          applicantName: '测试申请人',
          validFrom: new Date(base + (i % 4) * 86_400_000),
          validUntil: new Date(base + (100 + (i % 3)) * 86_400_000),
          submittedAt: status === 'DRAFT' ? null : new Date(at.getTime() + ((i * 5) % 7) * 3_600_000),
          createdAt: at,
          materials: { create: materials.slice(0, 1 + (i % 3)).map((m) => ({ materialCode: m.code })) },
        },
      });
    }
    const now = new Date();
    const scopes = [{ supplierCode: supplier.code }, 'approvers'] as const;
    const queries = [
      { page: 1, results: 10 },
      { page: 2, results: 10 },
      { page: 3, results: 10 },
      { page: 9, results: 10 },
      { page: 1, results: 5, status: 'SUBMITTED' },
      { page: 1, results: 10, materialCode: materials[2]!.code },
      ...(['createdAt', 'submittedAt', 'validFrom', 'validUntil', 'status', 'decidedAt'] as const).flatMap(
        (sortField) =>
          (['ascend', 'descend'] as const).map((sortOrder) => ({ page: 2, results: 4, sortField, sortOrder })),
      ),
    ];
    for (const scope of scopes)
      for (const q of queries) {
        const body = scope === 'approvers' ? { ...q, supplierCode: supplier.code } : q;
        const parsed = (scope === 'approvers' ? empowerApi.applications : empowerApi.supplierApplications).body.parse(
          body,
        );
        const one = await pageApplications(db, parsed, scope, now);
        const two = await twoStatements(parsed, scope, now);
        expect(one, JSON.stringify(body)).toEqual(two);
      }
    // the cases are not all empty: pages with rows and materials
    const first = await pageApplications(
      db,
      empowerApi.supplierApplications.body.parse({ page: 1, results: 10 }),
      { supplierCode: supplier.code },
      now,
    );
    expect(first.total).toBe(23);
    expect(first.rows).toHaveLength(10);
    expect(first.rows.some((r) => r.materials.length === 3)).toBe(true);
  });
});
