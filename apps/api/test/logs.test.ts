/**
 * The five log pages (view, confirm, download, print, confidentiality agreement): each lists
 * only its own action, filters by supplier, material, standard code, user, outcome and day
 * (UTC+8), sorts, pages within the window, and is closed to suppliers. The rows are written
 * straight into access_log with codes of this file's own, so other test files never interfere.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOG_ACTIONS, logsApi, type EndpointDef, type LogAction } from '@esm/contracts';
import { buildTestApp, callApi, login, type TestApp } from './helpers.ts';
import { unique } from './factories.ts';

let t: TestApp;
let admin: string;
const refused: Record<string, string> = {};
const S1 = `LS${unique()}`;
const S2 = `LS${unique()}`;
const M1 = `LM${unique()}`;
const M2 = `LM${unique()}`;
const C1 = `Q/LOG-${unique()}`;
const ACTIONS = LOG_ACTIONS;

/** ids by action, oldest first */
const written: Record<LogAction, number[]> = { VIEW: [], CONFIRM: [], DOWNLOAD: [], PRINT: [], KEEPSECRET: [] };

beforeAll(async () => {
  t = await buildTestApp();
  admin = await login(t.app, 'demo3');
  for (const account of ['demo2', 'demo4', 'demo5', 'demo6']) refused[account] = await login(t.app, account);
  const db = t.db.prisma;
  for (const action of ACTIONS) {
    const rows = [
      // 2026-03-01 23:30 in UTC+8
      {
        supplierCode: S1,
        materialCode: M1,
        standardCode: C1,
        userAccount: 'sup_alpha',
        userName: '海达-张伟',
        outcome: 'OK',
        createdAt: new Date('2026-03-01T15:30:00Z'),
      },
      // 2026-03-02 00:30 in UTC+8 (still 1 March in UTC)
      {
        supplierCode: S1,
        materialCode: M2,
        standardCode: null,
        userAccount: 'sup_beta',
        userName: '海达-李雷',
        outcome: 'REFUSED',
        createdAt: new Date('2026-03-01T16:30:00Z'),
      },
      {
        supplierCode: S2,
        materialCode: M1,
        standardCode: C1,
        userAccount: 'sup_gamma',
        userName: '东方-王强',
        outcome: 'OK',
        createdAt: new Date('2026-03-05T02:00:00Z'),
      },
    ];
    for (const r of rows) {
      const row = await db.accessLog.create({
        data: {
          action,
          ...r,
          reason: r.outcome === 'REFUSED' ? '授权已过期' : null,
          userId: 1,
          userType: 2,
          supplierName: r.supplierCode === S1 ? '海达精密' : '东方电子',
          fileId: 1,
          fileName: '图纸.pdf',
          version: 'A',
          materialName: '测试物料',
          ip: '10.1.2.3',
        },
      });
      written[action].push(row.id);
    }
  }
});

afterAll(async () => {
  await t.db.prisma.accessLog.deleteMany({ where: { supplierCode: { in: [S1, S2] } } });
  await t.close();
});

const page = (action: LogAction, body: object, cookie = admin) =>
  callApi<EndpointDef>(t.app, logsApi[action], body, cookie);
const ids = (res: { json(): { data: { id: number }[] } }) => res.json().data.map((r) => r.id);
/** Our rows only: both suppliers of this file, in the order the page gives them. */
const ours = async (action: LogAction, body: object) => {
  const a = ids(await page(action, { ...body, supplierCode: S1, results: 100 }));
  const b = ids(await page(action, { ...body, supplierCode: S2, results: 100 }));
  return [...a, ...b];
};

describe.each(ACTIONS)('the %s log', (action) => {
  it('lists only its own action, newest first, with an exact total', async () => {
    const res = await page(action, { supplierCode: S1 });
    expect(res.statusCode, res.body).toBe(200);
    const [first, second] = written[action];
    expect(ids(res)).toEqual([second, first]);
    expect(res.json()).toMatchObject({ success: true, total: 2, totalCapped: false });
    expect(res.json().data[0]).toMatchObject({
      action,
      outcome: 'REFUSED',
      reason: '授权已过期',
      userAccount: 'sup_beta',
      userName: '海达-李雷',
      userType: 2,
      supplierCode: S1,
      supplierName: '海达精密',
      fileId: 1,
      standardCode: null,
      fileName: '图纸.pdf',
      version: 'A',
      materialCode: M2,
      materialName: '测试物料',
      ip: '10.1.2.3',
      createdAt: '2026-03-01T16:30:00.000Z',
    });
  });

  it('is closed to suppliers and other internal roles', async () => {
    for (const [account, cookie] of Object.entries(refused)) {
      const res = await page(action, {}, cookie);
      expect(res.statusCode, account).toBe(403);
    }
  });
});

describe('log filters', () => {
  const [view1, view2, view3] = [0, 1, 2].map((i) => () => written.VIEW[i]!);

  it('by material and standard code (exact), user (part of account or name) and outcome', async () => {
    expect(await ours('VIEW', { materialCode: M1 })).toEqual([view1(), view3()]);
    expect(ids(await page('VIEW', { standardCode: C1 }))).toEqual([view3(), view1()]);
    expect(ids(await page('VIEW', { standardCode: C1.slice(0, -1) }))).toEqual([]);
    expect(await ours('VIEW', { user: 'BETA' })).toEqual([view2()]);
    expect(await ours('VIEW', { user: '王强' })).toEqual([view3()]);
    // 3+ characters go through the trigram indexes (ILIKE), shorter ones do not (strpos):
    // both match case-insensitively, wildcards literally
    expect(await ours('VIEW', { user: 'Be' })).toEqual([view2()]);
    expect(await ours('VIEW', { user: 'SUP_A' })).toEqual([view1()]);
    expect(await ours('VIEW', { user: 'Sup%a' })).toEqual([]);
    expect(await ours('VIEW', { user: 'p_' })).toEqual([view2(), view1(), view3()]);
    expect(await ours('VIEW', { user: 'a%' })).toEqual([]);
    expect(await ours('VIEW', { user: '东方-王强' })).toEqual([view3()]);
    expect(await ours('VIEW', { outcome: 'REFUSED' })).toEqual([view2()]);
    expect(await ours('VIEW', { outcome: 'OK', materialCode: M1 })).toEqual([view1(), view3()]);
  });

  it('by day in UTC+8, both ends included', async () => {
    expect(await ours('VIEW', { dateFrom: '2026-03-01', dateTo: '2026-03-01' })).toEqual([view1()]);
    expect(await ours('VIEW', { dateFrom: '2026-03-02', dateTo: '2026-03-02' })).toEqual([view2()]);
    expect(await ours('VIEW', { dateFrom: '2026-03-02' })).toEqual([view2(), view3()]);
    expect(await ours('VIEW', { dateTo: '2026-03-04' })).toEqual([view2(), view1()]);
    const reversed = await page('VIEW', { dateFrom: '2026-03-05', dateTo: '2026-03-01' });
    expect(reversed.statusCode).toBe(400);
    expect(reversed.json().errors).toEqual([{ field: 'dateTo', message: '开始日期不能晚于结束日期' }]);
  });

  it('sorts by a declared field with id as tie-breaker, and pages', async () => {
    const byUser = await page('VIEW', { standardCode: C1, sortField: 'userAccount', sortOrder: 'ascend' });
    expect(byUser.json().data.map((r: { userAccount: string }) => r.userAccount)).toEqual(['sup_alpha', 'sup_gamma']);
    const byTime = await page('VIEW', { supplierCode: S1, sortField: 'createdAt', sortOrder: 'ascend' });
    expect(ids(byTime)).toEqual([view1(), view2()]);
    const second = await page('VIEW', { supplierCode: S1, results: 1, page: 2 });
    expect(ids(second)).toEqual([view1()]);
    expect(second.json().total).toBe(2);
  });

  it('refuses a page beyond the window and an unknown outcome', async () => {
    const far = await page('PRINT', { page: 101, results: 100 });
    expect(far.statusCode).toBe(400);
    expect(far.json().message).toBe('最多可查看前 10000 条，请缩小查询范围');
    const bad = await page('PRINT', { outcome: 'MAYBE' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors[0]).toMatchObject({ field: 'outcome', message: '结果只能是 OK、PARTIAL 或 REFUSED' });
  });
});
