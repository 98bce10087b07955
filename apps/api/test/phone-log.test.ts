/**
 * Mobile numbers on a real Postgres: every list masks them; saveLookMobilePhoneLog on
 * each side returns the full number only within the caller's scope (a supplier: its own contacts
 * and the purchasers of what it supplies; internal: anyone), writing exactly one log row per
 * reveal in the same transaction (concurrent reveals included) and none for a refusal; the log's
 * page and export; the log is append-only. And the walk: every registered route answered to
 * demo2 and demo3 is searched for the seeded full numbers.
 */
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_BASE, type ContactRow, phoneLogApi, type EndpointDef, PAGES, sessionApi } from '@esm/contracts';
import { buildTestApp, callApi, login, unchecked, type CallBody } from './helpers.ts';
import { DEMO_CONTACTS } from '../src/modules/phoneLog/demo.ts';
import { DEMO_USERS } from '../src/db/seed.ts';

const t = await buildTestApp();
const db = t.db.prisma;
const cookies: Record<string, string> = {};
const IP = '10.7.7.7';

/** A call as the demo account `who` (signed in once in beforeAll). */
const call = <E extends EndpointDef>(endpoint: E, body: CallBody<E>, who: string) =>
  callApi(t.app, endpoint, body, cookies[who]!, { headers: { 'user-agent': 'vitest-phones' }, remoteAddress: IP });

const contactId = async (name: string) => (await db.phoneContact.findFirstOrThrow({ where: { name } })).id;
const logCount = (contactIdValue: number) => db.phoneViewLog.count({ where: { contactId: contactIdValue } });
const MASKED = /^\d{3}\*{4}\d{4}$/;

beforeAll(async () => {
  for (const who of ['demo2', 'demo3', 'demo4', 'demo5', 'demo7']) cookies[who] = await login(t.app, who);
});
afterAll(() => t.close());

describe('contacts', () => {
  it('lists every contact masked for the manufacturer', async () => {
    const res = await call(phoneLogApi.contacts, { results: 100 }, 'demo3');
    expect(res.statusCode).toBe(200);
    const rows = res.json().data as ContactRow[];
    expect(rows.length).toBe(DEMO_CONTACTS.length);
    for (const r of rows) expect(r.mobile).toMatch(MASKED);
    const liu = rows.find((r) => r.name === '刘海涛')!;
    expect(liu).toMatchObject({
      mobile: '139****5601',
      supplierCode: 'S001',
      supplierName: '青岛海达精密机械有限公司',
    });
    const s002 = await call(phoneLogApi.contacts, { supplierCode: 'S002' }, 'demo3');
    expect((s002.json().data as ContactRow[]).map((r) => r.name).sort()).toEqual(['周婷', '李明']);
  });

  it("gives a supplier its own contacts and its materials' purchasers, masked", async () => {
    const res = await call(phoneLogApi.supplierContacts, { results: 100 }, 'demo2');
    const rows = res.json().data as ContactRow[];
    expect(rows.map((r) => r.name).sort()).toEqual(
      ['刘海涛', '吴刚', '周俊', '孙丽', '王建国', '陈晓燕', '马超'].sort(),
    );
    for (const r of rows) expect(r.mobile).toMatch(MASKED);
  });
});

describe('saveLookMobilePhoneLog', () => {
  it('returns the full number and writes one log row in the same call', async () => {
    const id = await contactId('刘海涛');
    const before = await logCount(id);
    const res = await call(phoneLogApi.supplierReveal, { contactId: id, page: PAGES.dashboardS.path }, 'demo2');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.mobile).toBe('13912345601');
    expect(await logCount(id)).toBe(before + 1);
    const row = await db.phoneViewLog.findUniqueOrThrow({ where: { id: res.json().data.logId } });
    expect(row).toMatchObject({
      viewerAccount: 'demo2',
      viewerType: 2,
      viewerSupplierCode: 'S001',
      contactName: '刘海涛',
      maskedMobile: '139****5601',
      page: PAGES.dashboardS.path,
      ip: IP,
    });
  });

  it('refuses a number outside the caller scope like one that does not exist, and logs nothing', async () => {
    for (const [who, name] of [
      ['demo2', '李明'], // another supplier's contact
      ['demo2', '郑雪'], // a purchaser of materials S001 does not supply
      ['demo4', '刘海涛'],
    ] as const) {
      const id = await contactId(name);
      const before = await logCount(id);
      const res = await call(phoneLogApi.supplierReveal, { contactId: id, page: PAGES.dashboardS.path }, who);
      expect(res.statusCode).toBe(404);
      expect(res.json().message).toBe('联系人不存在');
      expect(res.body).not.toContain('137');
      expect(await logCount(id)).toBe(before);
    }
    const missing = await call(
      phoneLogApi.supplierReveal,
      { contactId: 99_999_999, page: PAGES.dashboardS.path },
      'demo2',
    );
    expect(missing.statusCode).toBe(404);
    expect(missing.json().message).toBe('联系人不存在');
    // each side calls its own path
    expect(
      (await call(phoneLogApi.reveal, { contactId: await contactId('刘海涛'), page: '/x' }, 'demo2')).statusCode,
    ).toBe(403);
    expect(
      (await call(phoneLogApi.supplierReveal, { contactId: await contactId('刘海涛'), page: '/x' }, 'demo3'))
        .statusCode,
    ).toBe(403);
    const bad = await call(phoneLogApi.reveal, unchecked({ contactId: 'x' }), 'demo3');
    expect(bad.statusCode).toBe(400);
  });

  it('lets any internal user reveal anyone', async () => {
    for (const who of ['demo3', 'demo5']) {
      const res = await call(
        phoneLogApi.reveal,
        { contactId: await contactId('郑雪'), page: PAGES.dashboard.path },
        who,
      );
      expect(res.statusCode).toBe(200);
      expect(res.json().data.mobile).toBe('13612345624');
    }
  });

  it('logs each of several concurrent reveals exactly once', async () => {
    const id = await contactId('王建国');
    const before = await logCount(id);
    const results = await Promise.all(
      Array.from({ length: 6 }, () => call(phoneLogApi.reveal, { contactId: id, page: PAGES.dashboard.path }, 'demo3')),
    );
    expect(results.map((r) => r.statusCode)).toEqual(Array(6).fill(200));
    expect(new Set(results.map((r) => r.json().data.logId)).size).toBe(6);
    expect(await logCount(id)).toBe(before + 6);
  });
});

describe('the view log', () => {
  it('lists reveals with filters, newest first, and exports them masked', async () => {
    const res = await call(phoneLogApi.page, { viewer: 'demo2', contact: '刘海涛' }, 'demo3');
    expect(res.statusCode).toBe(200);
    const rows = res.json().data as { viewerAccount: string; maskedMobile: string; contactSupplierName: string }[];
    expect(rows.length).toBeGreaterThanOrEqual(1);
    expect(rows[0]).toMatchObject({
      viewerAccount: 'demo2',
      maskedMobile: '139****5601',
      contactSupplierName: '青岛海达精密机械有限公司',
    });
    const none = await call(
      phoneLogApi.page,
      { viewer: 'demo2', dateFrom: '2020-01-01', dateTo: '2020-01-02' },
      'demo3',
    );
    expect(none.json().total).toBe(0);
    const badRange = await call(phoneLogApi.page, { dateFrom: '2026-02-01', dateTo: '2026-01-01' }, 'demo3');
    expect(badRange.statusCode).toBe(400);
    expect((await call(phoneLogApi.page, {}, 'demo2')).statusCode).toBe(403);

    const xlsx = await call(phoneLogApi.exportExcel, { viewer: 'demo2' }, 'demo3');
    expect(xlsx.statusCode).toBe(200);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(xlsx.rawPayload as unknown as ArrayBuffer);
    const text: string[] = [];
    wb.worksheets[0]!.eachRow((r) => text.push((r.values as unknown[]).slice(1).join('|')));
    expect(text[0]).toContain('被查看人');
    expect(text.some((l) => l.includes('刘海涛') && l.includes('139****5601'))).toBe(true);
    expect(text.join('\n')).not.toContain('13912345601');
  });

  it('is append-only', async () => {
    await expect(db.$executeRawUnsafe("UPDATE phone_view_log SET page = 'x'")).rejects.toThrow(/append-only/);
    await expect(db.$executeRawUnsafe('DELETE FROM phone_view_log')).rejects.toThrow(/append-only/);
  });
});

describe('no response carries a full number', () => {
  const seeded = [...DEMO_CONTACTS.map((c) => c.mobile), ...DEMO_USERS.map((u) => u.mobile)];
  /** What a response says, as text: an .xlsx is unpacked to its cells. */
  async function textOf(res: { headers: Record<string, unknown>; rawPayload: Buffer; body: string }): Promise<string> {
    if (!String(res.headers['content-type'] ?? '').includes('spreadsheetml')) return res.body;
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const cells: string[] = [];
    for (const ws of wb.worksheets) ws.eachRow((r) => cells.push((r.values as unknown[]).join('|')));
    return cells.join('\n');
  }
  // the one path that returns a number, and the calls that end the walk's own session
  const SKIP = new Set(
    [phoneLogApi.reveal.path, phoneLogApi.supplierReveal.path, sessionApi.logout.path, sessionApi.login.path].map(
      (p) => `${API_BASE}/${p}`,
    ),
  );

  it.each(['demo2', 'demo3'])('walks every route as %s', async (who) => {
    const routes = t.app.apiRoutes.filter((r) => r.method === 'POST' && !SKIP.has(r.url));
    expect(routes.length).toBeGreaterThan(50);
    let answered = 0;
    for (const r of routes) {
      const res = await t.app.inject({ method: 'POST', url: r.url, payload: {}, headers: { cookie: cookies[who]! } });
      if (res.statusCode === 200) answered++;
      const text = await textOf(res);
      for (const m of seeded) expect(text.includes(m), `${r.url} as ${who} carries ${m}`).toBe(false);
    }
    expect(answered).toBeGreaterThan(10);
    // the search itself finds a full number where one is sent: the skipped reveal does send it
    const shown = await call(
      who === 'demo2' ? phoneLogApi.supplierReveal : phoneLogApi.reveal,
      { contactId: await contactId('陈晓燕'), page: PAGES.dashboard.path },
      who,
    );
    expect((await textOf(shown)).includes('13912345602')).toBe(true);
    // and the contacts the walk saw were there, masked
    const contacts = await call(who === 'demo2' ? phoneLogApi.supplierContacts : phoneLogApi.contacts, {}, who);
    expect((contacts.json().data as ContactRow[]).length).toBeGreaterThan(0);
  });
});
