/**
 * The user_visit event and its log: the visitor is always the session's own user,
 * and haier/visitLog/page pages, sorts and filters as the paged request says.
 */
import { sessionApi, visitsApi, PAGES } from '@esm/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, hasChinese, login, type TestApp, callApi, unchecked } from './helpers.ts';

let t: TestApp;
const cookies: Record<string, string> = {};
const MARK = `测试菜单${Date.now().toString(36)}`;

beforeAll(async () => {
  t = await buildTestApp();
  for (const a of ['demo2', 'demo3', 'demo5', 'demo7', 'demo9']) cookies[a] = await login(t.app, a);
});
afterAll(async () => {
  await t.db.prisma.visitEvent.deleteMany({
    where: { OR: [{ menuName: { startsWith: MARK } }, { userAgent: 'vitest-agent' }] },
  });
  await t.close();
});

const page = (body: object, account = 'demo3') => callApi(t.app, visitsApi.page, body, cookies[account]);

describe(visitsApi.visit.path, () => {
  it('records the session user, whatever the body claims', async () => {
    const res = await callApi(
      t.app,
      visitsApi.visit,
      unchecked({
        menuName: `  ${MARK}-self `,
        path: ` ${PAGES.dashboardS.path} `,
        userCode: 'demo9',
        userId: 1,
        userType: 9,
        userName: '冒充者',
        ip: '1.2.3.4',
      }),
      cookies.demo2,
      { headers: { 'user-agent': 'vitest-agent' } },
    );
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ success: true, data: null });
    // a menu page is recorded under the menu's own name, not the one the body claims
    expect(await t.db.prisma.visitEvent.count({ where: { menuName: `${MARK}-self` } })).toBe(0);
    const rows = await t.db.prisma.visitEvent.findMany({
      where: { userAgent: 'vitest-agent', path: PAGES.dashboardS.path },
    });
    expect(rows).toHaveLength(1);
    const demo2 = await t.db.prisma.user.findUniqueOrThrow({ where: { account: 'demo2' } });
    expect(rows[0]).toMatchObject({
      event: 'user_visit',
      userId: demo2.id,
      userCode: 'demo2',
      userType: 2,
      userName: '海达精密-张伟', // a supplier is shown by nick
      path: PAGES.dashboardS.path,
      menuName: '企业标准档案',
      userAgent: 'vitest-agent',
    });
    expect(rows[0].ip).not.toBe('1.2.3.4');
  });

  it('an internal user is recorded by name', async () => {
    // a route outside the menu keeps the name the browser showed
    await callApi(t.app, visitsApi.visit, { menuName: `${MARK}-internal`, path: '/esm/no-such-page' }, cookies.demo5);
    const row = await t.db.prisma.visitEvent.findFirstOrThrow({ where: { menuName: `${MARK}-internal` } });
    expect(row).toMatchObject({ userCode: 'demo5', userType: 5, userName: '刘洋', path: '/esm/no-such-page' });
  });

  it('refuses a missing or blank menu name / path with field errors', async () => {
    const res = await callApi(t.app, visitsApi.visit, { menuName: ' ', path: '' }, cookies.demo3);
    expect(res.statusCode).toBe(400);
    const body = res.json();
    expect(body.success).toBe(false);
    const fields = body.errors.map((e: { field: string }) => e.field);
    expect(fields).toEqual(expect.arrayContaining(['menuName', 'path']));
    expect(hasChinese(body.message)).toBe(true);
  });

  it('without a session → 401 10000007 and nothing stored', async () => {
    const res = await callApi(t.app, visitsApi.visit, { menuName: `${MARK}-anon`, path: PAGES.dashboard.path });
    expect(res.statusCode).toBe(401);
    expect(res.json().code).toBe('10000007');
    expect(await t.db.prisma.visitEvent.count({ where: { menuName: `${MARK}-anon` } })).toBe(0);
  });
});

describe(visitsApi.page.path, () => {
  // Five visits at chosen instants (China Standard Time, UTC+8) so sorting and day filters are exact.
  const FIXTURE = [
    { who: 'demo2', menu: 'A', at: '2025-03-01T09:00:00+08:00' },
    { who: 'demo7', menu: 'B', at: '2025-03-02T23:30:00+08:00' }, // 15:30 UTC on 03-02
    { who: 'demo9', menu: 'C', at: '2025-03-03T00:30:00+08:00' }, // 16:30 UTC on 03-02, but 03-03 in China
    { who: 'demo3', menu: 'D', at: '2025-03-04T12:00:00+08:00' },
    { who: 'demo7', menu: 'E', at: '2025-03-05T08:00:00+08:00' },
  ];
  const menu = (m: string) => `${MARK}-log-${m}`;

  beforeAll(async () => {
    for (const f of FIXTURE) {
      // a path outside the menu: its visit keeps the name sent (a menu page would take the menu's own)
      const res = await callApi(
        t.app,
        visitsApi.visit,
        { menuName: menu(f.menu), path: '/esm/visit-fixture' },
        cookies[f.who],
      );
      expect(res.statusCode).toBe(200);
      await t.db.prisma.visitEvent.updateMany({
        where: { menuName: menu(f.menu) },
        data: { createdAt: new Date(f.at) },
      });
    }
  });

  const mine = { menuName: `${MARK}-log-` };

  it('answers { success, code, data: [...], total } with the row fields', async () => {
    const res = await page({ ...mine });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ success: true, code: '200' });
    expect(body.total).toBe(5);
    expect(body.data).toHaveLength(5);
    const row = body.data.find((r: { menuName: string }) => r.menuName === menu('A'));
    expect(row).toEqual({
      id: expect.any(Number),
      userType: 2,
      userCode: 'demo2',
      userName: '海达精密-张伟',
      menuName: menu('A'),
      path: '/esm/visit-fixture',
      ip: expect.any(String),
      createdAt: new Date(FIXTURE[0].at).toISOString(),
    });
  });

  it('defaults to page 1 of 10, newest recorded first', async () => {
    const body = (await page({ ...mine })).json();
    expect(body.data.map((r: { menuName: string }) => r.menuName)).toEqual(['E', 'D', 'C', 'B', 'A'].map(menu));
  });

  it('pages with results / page', async () => {
    const p1 = (await page({ ...mine, results: 2, page: 1 })).json();
    const p2 = (await page({ ...mine, results: 2, page: 2 })).json();
    const p3 = (await page({ ...mine, results: 2, page: 3 })).json();
    const p4 = (await page({ ...mine, results: 2, page: 4 })).json();
    expect([p1.total, p2.total, p3.total, p4.total]).toEqual([5, 5, 5, 5]);
    expect([p1.data.length, p2.data.length, p3.data.length, p4.data.length]).toEqual([2, 2, 1, 0]);
    const ids = [...p1.data, ...p2.data, ...p3.data].map((r: { id: number }) => r.id);
    expect(new Set(ids).size).toBe(5);
  });

  it('accepts paging numbers sent as strings (query-string style)', async () => {
    const body = (await page({ ...mine, results: '2', page: '2' })).json();
    expect(body.data).toHaveLength(2);
  });

  it('sorts by createdAt ascend and descend', async () => {
    const asc = (await page({ ...mine, sortField: 'createdAt', sortOrder: 'ascend' })).json();
    expect(asc.data.map((r: { menuName: string }) => r.menuName)).toEqual(['A', 'B', 'C', 'D', 'E'].map(menu));
    const desc = (await page({ ...mine, sortField: 'createdAt', sortOrder: 'descend' })).json();
    expect(desc.data.map((r: { menuName: string }) => r.menuName)).toEqual(['E', 'D', 'C', 'B', 'A'].map(menu));
  });

  it('sorts by userCode ascend and descend', async () => {
    const asc = (await page({ ...mine, sortField: 'userCode', sortOrder: 'ascend' })).json();
    const codes = asc.data.map((r: { userCode: string }) => r.userCode);
    expect(codes).toEqual(['demo2', 'demo3', 'demo7', 'demo7', 'demo9']);
    const desc = (await page({ ...mine, sortField: 'userCode', sortOrder: 'descend' })).json();
    expect(desc.data.map((r: { userCode: string }) => r.userCode)).toEqual([
      'demo9',
      'demo7',
      'demo7',
      'demo3',
      'demo2',
    ]);
  });

  it('filters by keyword on account or name, case-insensitively', async () => {
    const byCode = (await page({ ...mine, keyword: 'DEMO7' })).json();
    expect(byCode.total).toBe(2);
    expect(byCode.data.every((r: { userCode: string }) => r.userCode === 'demo7')).toBe(true);
    const byName = (await page({ ...mine, keyword: '黄涛' })).json();
    expect(byName.total).toBe(1);
    expect(byName.data[0].userCode).toBe('demo9');
    const none = (await page({ ...mine, keyword: 'nobody-like-this' })).json();
    expect(none).toMatchObject({ success: true, total: 0, data: [] });
  });

  it('filters by user type and by menu name', async () => {
    const t2 = (await page({ ...mine, userType: 2 })).json();
    expect(t2.total).toBe(1);
    expect(t2.data[0].userCode).toBe('demo2');
    const t7 = (await page({ ...mine, userType: '7' })).json();
    expect(t7.total).toBe(2);
    const byMenu = (await page({ menuName: menu('C') })).json();
    expect(byMenu.total).toBe(1);
    expect(byMenu.data[0].userCode).toBe('demo9');
  });

  it('filters by day range in China time (to-day inclusive)', async () => {
    const names = async (body: object) =>
      (await page({ ...mine, sortField: 'createdAt', sortOrder: 'ascend', ...body }))
        .json()
        .data.map((r: { menuName: string }) => r.menuName);
    expect(await names({ dateFrom: '2025-03-02', dateTo: '2025-03-02' })).toEqual([menu('B')]);
    expect(await names({ dateFrom: '2025-03-03', dateTo: '2025-03-03' })).toEqual([menu('C')]);
    expect(await names({ dateFrom: '2025-03-02', dateTo: '2025-03-04' })).toEqual(['B', 'C', 'D'].map(menu));
    expect(await names({ dateFrom: '2025-03-04' })).toEqual(['D', 'E'].map(menu));
    expect(await names({ dateTo: '2025-03-01' })).toEqual([menu('A')]);
  });

  it('blank filters count as no filter', async () => {
    const body = (await page({ ...mine, keyword: '  ', userType: '', dateFrom: '', dateTo: null })).json();
    expect(body.total).toBe(5);
  });

  it('filters combine', async () => {
    const body = (await page({ ...mine, keyword: 'demo7', dateFrom: '2025-03-05', dateTo: '2025-03-05' })).json();
    expect(body.total).toBe(1);
    expect(body.data[0].menuName).toBe(menu('E'));
  });

  const refusals: [string, object, string][] = [
    ['dateFrom after dateTo', { dateFrom: '2025-03-05', dateTo: '2025-03-01' }, 'dateTo'],
    ['a bad sortField', { sortField: 'password_hash', sortOrder: 'ascend' }, 'sortField'],
    ['a bad sortOrder', { sortField: 'createdAt', sortOrder: 'up' }, 'sortOrder'],
    ['a page size over 100', { results: 101 }, 'results'],
    ['page 0', { page: 0 }, 'page'],
    ['a non-numeric page', { page: 'abc' }, 'page'],
    ['a bad date', { dateFrom: '2025/03/01' }, 'dateFrom'],
    ['an unknown user type', { userType: 12 }, 'userType'],
  ];
  it.each(refusals)('%s → 400 naming the field', async (_label, body, field) => {
    const res = await page(body);
    expect(res.statusCode).toBe(400);
    const json = res.json();
    expect(json).toMatchObject({ success: false, code: '400', data: null });
    expect(hasChinese(json.message), json.message).toBe(true);
    expect(json.errors.map((e: { field: string }) => e.field)).toContain(field);
  });

  it('the dateFrom > dateTo message says what is wrong', async () => {
    const json = (await page({ dateFrom: '2025-03-05', dateTo: '2025-03-01' })).json();
    expect(json.message).toBe('开始日期不能晚于结束日期');
  });
});

describe('haier/signInLog/page (登录日志)', () => {
  const WHO = `${MARK}-nobody`.slice(0, 40);
  const signIns = (body: object, account = 'demo3') => callApi(t.app, visitsApi.signInLog, body, cookies[account]);
  // Fixture rows on days no other test writes, so day filters select exactly them.
  beforeAll(async () => {
    const demo2 = await t.db.prisma.user.findUniqueOrThrow({ where: { account: 'demo2' } });
    await t.db.prisma.signInLog.createMany({
      data: [
        {
          userId: demo2.id,
          account: 'demo2',
          source: 'password',
          ip: '10.1.1.1',
          success: true,
          code: '10000000',
          reason: '登录成功',
          createdAt: new Date('2024-06-01T09:00:00+08:00'),
        },
        {
          account: WHO,
          source: 'password',
          ip: '10.1.1.2',
          success: false,
          code: '10000001',
          reason: '账号不存在',
          createdAt: new Date('2024-06-02T09:00:00+08:00'),
        },
        {
          account: '',
          source: 'oidc',
          ip: '10.1.1.3',
          success: false,
          code: '202',
          reason: '公司门户未给出账号',
          createdAt: new Date('2024-06-03T09:00:00+08:00'),
        },
      ],
    });
  });
  afterAll(async () => {
    await t.db.prisma.signInLog.deleteMany({ where: { ip: { in: ['10.1.1.1', '10.1.1.2', '10.1.1.3'] } } });
  });
  const june = { dateFrom: '2024-06-01', dateTo: '2024-06-03', sortField: 'createdAt', sortOrder: 'ascend' };

  it('lists the sign-ins with the name of the account found, newest first by default', async () => {
    const res = await signIns({ dateFrom: '2024-06-01', dateTo: '2024-06-03' });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.total).toBe(3);
    expect(body.data.map((r) => r.ip)).toEqual(['10.1.1.3', '10.1.1.2', '10.1.1.1']);
    expect(body.data[2]).toEqual({
      id: expect.any(Number),
      account: 'demo2',
      userName: '海达精密-张伟', // a supplier by its nick
      userType: 2,
      source: 'password',
      success: true,
      code: '10000000',
      reason: '登录成功',
      ip: '10.1.1.1',
      createdAt: new Date('2024-06-01T09:00:00+08:00').toISOString(),
    });
    expect(body.data[1]).toMatchObject({
      account: WHO,
      userName: null,
      userType: null,
      success: false,
      reason: '账号不存在',
    });
  });

  it('filters by result, source and keyword', async () => {
    const ips = async (body: object) => (await signIns({ ...june, ...body })).json().data.map((r) => r.ip);
    expect(await ips({ result: '1' })).toEqual(['10.1.1.1']);
    expect(await ips({ result: '0' })).toEqual(['10.1.1.2', '10.1.1.3']);
    expect(await ips({ source: 'oidc' })).toEqual(['10.1.1.3']);
    expect(await ips({ keyword: '海达精密' })).toEqual(['10.1.1.1']);
    expect(await ips({ keyword: WHO.toUpperCase() })).toEqual(['10.1.1.2']);
    expect(await ips({ result: '', source: '', keyword: ' ' })).toHaveLength(3);
  });

  it('a refused password sign-in made through the api is on the page at once', async () => {
    const res = await callApi(t.app, sessionApi.login, { account: 'demo9', password: 'wrong-Password1' });
    expect(res.statusCode).toBe(401);
    const body = (await signIns({ keyword: 'demo9', result: '0' })).json();
    expect(body.data[0]).toMatchObject({
      account: 'demo9',
      userName: '黄涛',
      userType: 9,
      source: 'password',
      success: false,
      reason: '密码错误',
    });
  });

  it.each([
    ['an unknown result', { result: '2' }, 'result'],
    ['an unknown source', { source: 'ldap' }, 'source'],
    ['a bad sort field', { sortField: 'ip', sortOrder: 'ascend' }, 'sortField'],
    ['dateFrom after dateTo', { dateFrom: '2024-06-03', dateTo: '2024-06-01' }, 'dateTo'],
  ])('%s → 400 naming the field', async (_label, body, field) => {
    const json = (await signIns(body)).json();
    expect(json).toMatchObject({ success: false, code: '400' });
    expect(hasChinese(json.message)).toBe(true);
    expect(json.errors.map((e: { field: string }) => e.field)).toContain(field);
  });

  it('suppliers and the reply and approval roles are refused', async () => {
    for (const a of ['demo2', 'demo5']) expect((await signIns({}, a)).statusCode).toBe(403);
    expect((await signIns({}, 'demo7')).statusCode).toBe(200);
  });
});
