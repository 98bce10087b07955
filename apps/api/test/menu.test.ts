/**
 * each demo account signs in, sees itself in user/current, and
 * gets exactly its role's menu from main/getRoleFunction. The expected lists are written here
 * by hand from the legacy portal's menu, not read from the seed.
 */
import { GROUPS, ROUTES, groupPath, menuApi, routeByPath, sessionApi } from '@esm/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, login, type TestApp, callApi } from './helpers.ts';

const ADMIN_PAGES = [
  '/esm/dashboard',
  '/esm/drawingManagement/countersignList',
  '/esm/drawingManagement/archivalHistory',
  '/esm/drawingManagement/changeNoticeList',
  '/esm/drawingManagement/blueprintDownloadingLog',
  '/esm/drawingManagement/drawingViewLog',
  '/esm/drawingManagement/drawingConfirmationLog',
  '/esm/drawingManagement/confidentialityAgreement',
  '/esm/drawingManagement/drawingsAndArchivesInformation',
  '/esm/drawingAuthorization/noDrawingMaterialCensus',
  '/esm/drawingAuthorization/drawingAuthorizedFile',
  '/esm/drawingAuthorization/drawingAuthorizedFileHistory',
  '/esm/drawingAuthorization/noDrawingAndArchivesInformation',
];
const SUPPLIER_PAGES = [
  '/esm/supplier/dashboardS',
  '/esm/supplier/countersignList',
  '/esm/supplier/noticeList',
  '/esm/supplier/drawingsAndArchivesInformationG',
];

const EXPECTED: Record<number, string[]> = {
  2: SUPPLIER_PAGES,
  3: ADMIN_PAGES,
  4: SUPPLIER_PAGES,
  5: ['/esm/drawingManagement/documentIssueH'],
  6: ['/esm/drawingAuthorization/drawingEmpowerApprove'],
  7: [...ADMIN_PAGES, '/esm/personManagement/problemType'],
  8: ADMIN_PAGES,
  9: ADMIN_PAGES,
};

const PERSON: Record<number, { name: string; nick: string; supplierName: string | null }> = {
  2: { name: '张伟', nick: '海达精密-张伟', supplierName: '青岛海达精密机械有限公司' },
  3: { name: '李娜', nick: '李娜', supplierName: null },
  4: { name: '王强', nick: '东方电子-王强', supplierName: '宁波东方电子科技有限公司' },
  5: { name: '刘洋', nick: '刘洋', supplierName: null },
  6: { name: '陈静', nick: '陈静', supplierName: null },
  7: { name: '杨磊', nick: '杨磊', supplierName: null },
  8: { name: '赵敏', nick: '赵敏', supplierName: null },
  9: { name: '黄涛', nick: '黄涛', supplierName: null },
};

interface Entry {
  id: number;
  cn: string;
  name: string;
  icon: string | null;
  router: string;
  mpid: number | null;
}

/** 我的通知 and 个人设置: every type's, no role's group. */
const EVERYONE = ['/esm/notifications', '/esm/settings'];

describe('the legacy menu written here', () => {
  it('names pages PAGES declares, so a page moved there fails here rather than passing unchecked', () => {
    const written = [...Object.values(EXPECTED).flat(), ...EVERYONE, '/esm/drawingAuthorization/drawingAccessReport'];
    expect(written.filter((p) => !routeByPath.has(p))).toEqual([]);
  });
});

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => {
  await t.close();
});

describe.each([2, 3, 4, 5, 6, 7, 8, 9])('user type %i', (type) => {
  const account = `demo${type}`;
  let cookie: string;
  let menu: Entry[];

  it('signs in with code 10000000', async () => {
    const res = await callApi(t.app, sessionApi.login, { account, password: 'Esm@2026' });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ success: true, code: '10000000', message: '登陆成功' });
    expect(body.data.type).toBe(type);
    cookie = (await login(t.app, account)) as string;
  });

  it('user/current reports who is signed in (code "0")', async () => {
    const res = await callApi(t.app, sessionApi.current, undefined, cookie);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.success).toBe(true);
    expect(body.code).toBe('0');
    expect(body.data).toMatchObject({ type, account, ...PERSON[type] });
    const supplier = type === 2 || type === 4;
    expect(body.data!.displayName).toBe(supplier ? PERSON[type].nick : PERSON[type].name);
  });

  it('main/getRoleFunction lists every page the legacy portal gives the type', async () => {
    const res = await callApi(t.app, menuApi.roleFunction, undefined, cookie);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.success).toBe(true);
    expect(Array.isArray(body.data)).toBe(true);
    menu = body.data;
    const routers = menu.map((e) => e.router);
    for (const page of EXPECTED[type]) expect(routers, `type ${type} should see ${page}`).toContain(page);
    for (const e of menu) {
      expect(typeof e.id).toBe('number');
      expect(e.cn.length).toBeGreaterThan(0);
    }
  });

  it("shows nothing of another role's group", () => {
    expect(menu.map((e) => e.router)).toEqual(expect.arrayContaining(EVERYONE));
    const routers = menu.map((e) => e.router).filter((r) => !EVERYONE.includes(r));
    const supplier = type === 2 || type === 4;
    if (supplier) {
      for (const r of routers) expect(r === '/esm/supplier' || r.startsWith('/esm/supplier/'), r).toBe(true);
    } else {
      for (const r of routers) expect(r.startsWith('/esm/supplier'), r).toBe(false);
    }
    if (type !== 7) for (const r of routers) expect(r.startsWith('/esm/personManagement'), r).toBe(false);
    if (type === 5) {
      for (const r of routers) expect(r.startsWith('/esm/drawingAuthorization'), r).toBe(false);
      expect(routers.filter((r) => r.startsWith('/esm/drawingManagement/'))).toEqual([
        '/esm/drawingManagement/documentIssueH',
      ]);
      expect(routers).not.toContain('/esm/dashboard');
    }
    if (type === 6) {
      expect(new Set(routers)).toEqual(
        new Set(['/esm/drawingAuthorization', '/esm/drawingAuthorization/drawingEmpowerApprove']),
      );
    }
    if (type !== 5) expect(routers).not.toContain('/esm/drawingManagement/documentIssueH');
    // type 6 decides applications; the drawing admins (3/7/8/9) read every page of the group, this one too
    if (![3, 6, 7, 8, 9].includes(type))
      expect(routers).not.toContain('/esm/drawingAuthorization/drawingEmpowerApprove');
    if ([3, 7, 8, 9].includes(type))
      expect(routers).toEqual(
        expect.arrayContaining([
          '/esm/drawingAuthorization/drawingEmpowerApprove',
          '/esm/drawingAuthorization/drawingAccessReport',
        ]),
      );
  });

  it('forms a tree: every child points at a group of the same list, or is hidden (-1) / top level', () => {
    const ids = new Set(menu.map((e) => e.id));
    expect(ids.size).toBe(menu.length);
    const groups = new Set(menu.filter((e) => e.mpid === null && menu.some((c) => c.mpid === e.id)).map((e) => e.id));
    for (const e of menu) {
      if (e.mpid === null || e.mpid === -1) continue;
      expect(groups.has(e.mpid), `entry ${e.id} ${e.router} has parent ${e.mpid}`).toBe(true);
    }
    // A group's children live under its router.
    for (const e of menu) {
      if (e.mpid === null || e.mpid === -1) continue;
      const parent = menu.find((p) => p.id === e.mpid)!;
      expect(e.router.startsWith(`${parent.router}/`), `${e.router} under ${parent.router}`).toBe(true);
    }
  });

  if ([3, 7, 8, 9].includes(type)) {
    it('has the always-open groups 1 and 14 and hidden (mpid -1) entries', () => {
      const byId = new Map(menu.map((e) => [e.id, e]));
      expect(byId.get(1)?.mpid ?? null).toBeNull();
      expect(byId.get(14)?.mpid ?? null).toBeNull();
      expect(byId.get(1)?.router).toBe('/esm/drawingManagement');
      expect(byId.get(14)?.router).toBe('/esm/drawingAuthorization');
      expect(menu.some((e) => e.mpid === -1)).toBe(true);
    });
  }
  if (type === 2 || type === 4) {
    it('has hidden (mpid -1) supplier pages', () => {
      expect(menu.some((e) => e.mpid === -1 && e.router.startsWith('/esm/supplier/'))).toBe(true);
    });
  }
});

describe('menu without a session', () => {
  it('main/getRoleFunction needs a session (401, 10000007)', async () => {
    const res = await callApi(t.app, menuApi.roleFunction);
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ success: false, code: '10000007', data: null });
  });
});

describe("the seeded menu is the pages' declaration (PAGES, GROUPS)", () => {
  it('one row per group and per page, with its title, icon, parent and user types', async () => {
    const rows = await t.db.prisma.menuEntry.findMany({ include: { grants: true }, orderBy: { id: 'asc' } });
    const seeded = rows.map((r) => ({
      id: r.id,
      cn: r.cn,
      name: r.name,
      icon: r.icon,
      router: r.router,
      mpid: r.mpid,
      types: r.grants.map((g) => g.userType).sort(),
    }));
    const declared = [
      ...Object.entries(GROUPS).map(([key, g]) => ({
        id: g.id,
        cn: g.title,
        name: key,
        icon: g.icon,
        router: groupPath(key as keyof typeof GROUPS),
        mpid: null,
        types: [...g.types].sort(),
      })),
      ...ROUTES.map((p) => ({
        id: p.menu.id,
        cn: p.title,
        name: p.page,
        icon: p.menu.icon,
        router: p.path,
        mpid: p.menu.parent,
        types: [...p.menu.types].sort(),
      })),
    ].sort((a, b) => a.id - b.id);
    expect(seeded).toEqual(declared);
  });

  it("in the declaration's order, each group just before its first page", async () => {
    const rows = await t.db.prisma.menuEntry.findMany({
      orderBy: [{ sort: 'asc' }, { id: 'asc' }],
      select: { id: true, mpid: true },
    });
    const groupIds = new Set<number>(Object.values(GROUPS).map((g) => g.id));
    expect(rows.filter((r) => !groupIds.has(r.id)).map((r) => r.id)).toEqual(ROUTES.map((p) => p.menu.id));
    for (const g of groupIds) {
      const at = rows.findIndex((r) => r.id === g);
      expect(ROUTES.find((p) => p.menu.id === rows[at + 1]!.id)?.group, `group ${g}`).toBe(
        Object.entries(GROUPS).find(([, x]) => x.id === g)![0],
      );
    }
  });
});
