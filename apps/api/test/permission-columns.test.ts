/**
 * Governed columns beyond the archive, on the demo data through the real calls: a
 * column hidden for a type is absent from that page's list, its detail and its Excel export, a
 * masked one masked in all three, the other types unchanged — on the change-notice list and its
 * recipients matrix, the mobile-number view log, the document-issue answer page and the
 * countersign list — and the audit trails inside an answer (a notice's and a countersign's
 * 操作记录, a countersign's 签署记录, an application's 审批记录, the access report's 访问记录 and its
 * Excel sheet), governed by path. And a countersign button removed for a type leaves the actions the server
 * offers on a list, as its route refuses it (403 naming the action).
 * A rule changed here stays changed for the file's later tests: the file's database is its own.
 */
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ACCESS_REPORT_PAGE,
  COUNTERSIGN_LIST_PAGE,
  EMPOWER_APPROVE_PAGE,
  GRANT_PAGE,
  ISSUE_ANSWER_PAGE,
  NOTICE_LIST_PAGE,
  PHONE_LOG_PAGE,
  SUPPLIER_APPLY_PAGE,
  USER_TYPES,
  REDACTED_NAME_TEXT,
  buttonRefusedText,
  type PermissionItem,
  countersignApi,
  documentIssuesApi,
  empowerApi,
  noticesApi,
  permissionsApi,
  phoneLogApi,
  type EndpointDef,
} from '@esm/contracts';
import { buildTestApp, login, callApi, pdfPages, unchecked, type CallBody } from './helpers.ts';
import { cstDay } from '../src/lib/dates.ts';

const t = await buildTestApp();
const db = t.db.prisma;
const cookies: Record<string, string> = {};
const ALL = [...USER_TYPES];
const allBut = (type: number) => ALL.filter((x) => x !== type);

/** A call as the demo account `who` (signed in once in beforeAll). */
const call = <E extends EndpointDef>(endpoint: E, body: CallBody<E>, who: string) =>
  callApi(t.app, endpoint, body, cookies[who]!);

async function item(kind: 'BUTTON' | 'COLUMN', page: string, code: string): Promise<PermissionItem> {
  const res = await call(permissionsApi.list, { kind, menuPage: page }, 'demo7');
  expect(res.statusCode, res.body).toBe(200);
  const found = (res.json().data as PermissionItem[]).find((r) => r.code === code);
  if (!found) throw new Error(`no ${kind} ${page} ${code}`);
  return found;
}

async function setTypes(
  kind: 'BUTTON' | 'COLUMN',
  page: string,
  code: string,
  allowedTypes: number[],
  maskedTypes: number[] = [],
) {
  const it = await item(kind, page, code);
  const res = await call(
    permissionsApi.update,
    { id: it.id, version: it.version, label: it.label, allowedTypes, maskedTypes },
    'demo7',
  );
  expect(res.statusCode, res.body).toBe(200);
}

/** The first sheet of an .xlsx answer, as rows of strings (the header first). */
async function sheetOf(res: { statusCode: number; rawPayload: Buffer; body: string }): Promise<string[][]> {
  expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
  const rows: string[][] = [];
  wb.worksheets[0]!.eachRow((r) => rows.push((r.values as unknown[]).slice(1).map((v) => String(v ?? ''))));
  return rows;
}

const rowsOf = (res: { statusCode: number; body: string; json: () => { data: unknown } }) => {
  expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
  return res.json().data as Record<string, unknown>[];
};

beforeAll(async () => {
  for (const who of ['demo2', 'demo3', 'demo5', 'demo7', 'demo8']) cookies[who] = await login(t.app, who);
});

afterAll(async () => {
  await t.close();
});

describe('the change-notice list (发布人 hidden, 撤回原因 masked for type 3)', () => {
  let withdrawn: { id: number; withdrawReason: string; publishedByName: string };
  beforeAll(async () => {
    const n = await db.changeNotice.findFirstOrThrow({ where: { status: 'WITHDRAWN', withdrawReason: { not: null } } });
    withdrawn = { id: n.id, withdrawReason: n.withdrawReason!, publishedByName: n.publishedByName! };
    await setTypes('COLUMN', NOTICE_LIST_PAGE, 'publishedByName', allBut(3));
    await setTypes('COLUMN', NOTICE_LIST_PAGE, 'withdrawReason', allBut(3), [3]);
  });

  it('is reported to the page', async () => {
    const res = await call(permissionsApi.columns, { page: NOTICE_LIST_PAGE }, 'demo3');
    const modes = Object.fromEntries(
      (res.json().data.columns as { field: string; mode: string }[]).map((c) => [c.field, c.mode]),
    );
    expect(modes).toMatchObject({
      publishedByName: 'HIDDEN',
      withdrawReason: 'MASKED',
      readIp: 'VISIBLE',
      confirmedIp: 'VISIBLE',
    });
  });

  it('drops and masks in the list', async () => {
    const rows = rowsOf(await call(noticesApi.page, { results: 100 }, 'demo3'));
    expect(rows.length).toBeGreaterThan(0);
    for (const r of rows) expect(r).not.toHaveProperty('publishedByName');
    expect(rows.find((r) => r.id === withdrawn.id)!.withdrawReason).toBe(
      `${[...withdrawn.withdrawReason][0]}${'*'.repeat(Math.min([...withdrawn.withdrawReason].length - 1, 4))}`,
    );
    // type 7 keeps both in full
    const full = rowsOf(await call(noticesApi.page, { results: 100 }, 'demo7')).find((r) => r.id === withdrawn.id)!;
    expect(full).toMatchObject({
      publishedByName: withdrawn.publishedByName,
      withdrawReason: withdrawn.withdrawReason,
    });
  });

  it('drops and masks in the detail', async () => {
    const res = await call(noticesApi.detail, { id: withdrawn.id }, 'demo3');
    expect(res.statusCode).toBe(200);
    const data = res.json().data as Record<string, unknown>;
    expect(data).not.toHaveProperty('publishedByName');
    expect(data.withdrawReason).not.toBe(withdrawn.withdrawReason);
    expect(String(data.withdrawReason)).toMatch(/^.\*+$/u);
    expect(res.body).not.toContain(withdrawn.withdrawReason);
  });
});

/** The entries at `path`'s lists in an answer (`rounds.signatures.ip` → every signature of every round), and the field. */
function entriesAt(data: unknown, path: string): { entries: Record<string, unknown>[]; field: string } {
  const parts = path.split('.');
  const field = parts.pop()!;
  let entries = (Array.isArray(data) ? data : [data]) as Record<string, unknown>[];
  for (const p of parts) entries = entries.flatMap((e) => (e[p] as Record<string, unknown>[] | undefined) ?? []);
  return { entries, field };
}

/**
 * Audit trails inside an answer: for `who`'s type, `hidden` is left out of every entry
 * and `masked` masked; the unchanged answer (`full`, type 7) has both in full.
 */
const TRAIL_CASES = [
  {
    name: "a change notice's 操作记录",
    page: NOTICE_LIST_PAGE,
    hidden: 'events.ip',
    masked: 'events.userName',
    who: 'demo3',
    call: noticesApi.detail,
    full: noticesApi.detail,
    body: async () => ({ id: (await db.noticeEvent.findFirstOrThrow({ where: { ip: { not: null } } })).noticeId }),
  },
  {
    name: "a countersign's 签署记录 and 操作记录",
    page: COUNTERSIGN_LIST_PAGE,
    hidden: 'rounds.signatures.ip',
    masked: 'events.userAccount',
    who: 'demo3',
    call: countersignApi.detail,
    full: countersignApi.detail,
    body: async () => ({
      id: (await db.countersignSignature.findFirstOrThrow({ where: { ip: { not: null } } })).countersignId,
    }),
  },
  {
    name: "an application's 审批记录 (the approvers')",
    page: EMPOWER_APPROVE_PAGE,
    hidden: 'ip',
    masked: 'userName',
    who: 'demo3',
    call: empowerApi.audit,
    full: empowerApi.audit,
    body: async () => ({
      id: (
        await db.empowerAudit.findFirstOrThrow({
          where: { ip: { not: null }, application: { status: { not: 'DRAFT' } } },
        })
      ).applicationId,
    }),
  },
  {
    name: "an application's 审批记录 (the supplier's own)",
    page: SUPPLIER_APPLY_PAGE,
    hidden: 'ip',
    masked: 'userAccount',
    who: 'demo2',
    call: empowerApi.supplierAudit,
    full: empowerApi.audit,
    body: async () => ({
      id: (
        await db.empowerAudit.findFirstOrThrow({
          where: { ip: { not: null }, application: { supplierCode: 'S001', status: { not: 'DRAFT' } } },
        })
      ).applicationId,
    }),
  },
  {
    name: "the access report's 访问记录",
    page: ACCESS_REPORT_PAGE,
    hidden: 'events.ip',
    masked: 'events.userName',
    who: 'demo3',
    call: empowerApi.report,
    full: empowerApi.report,
    // The newest view the report shows (one under a grant: the files share one database, so the
    // newest view of all may be another file's, on a material nobody was granted), on its own day:
    // "today" is another day for a run that crosses midnight in UTC+8 (16:00 UTC).
    body: async () => {
      const [view] = await db.$queryRaw<{ material_code: string; created_at: Date }[]>`
        SELECT l.material_code, l.created_at FROM access_log l
        WHERE l.action = 'VIEW' AND l.outcome = 'OK' AND l.ip IS NOT NULL AND EXISTS (
          SELECT 1 FROM empower_grant g WHERE g.supplier_code = l.supplier_code AND g.material_code = l.material_code
            AND l.created_at >= g.valid_from AND l.created_at < LEAST(g.valid_until, coalesce(g.revoked_at, g.valid_until)))
        ORDER BY l.id DESC LIMIT 1`;
      if (!view) throw new Error('no view under a grant to report on');
      return { materialCode: view.material_code, date: cstDay(view.created_at) };
    },
  },
] as const;

describe('audit trails inside an answer, governed by path', () => {
  const bodies = new Map<string, object>();
  beforeAll(async () => {
    for (const c of TRAIL_CASES) {
      bodies.set(c.name, await c.body());
      const type = c.who === 'demo2' ? 2 : 3;
      await setTypes('COLUMN', c.page, c.hidden, allBut(type));
      await setTypes('COLUMN', c.page, c.masked, allBut(type), [type]);
    }
  });

  it.each(TRAIL_CASES)('$name: $hidden left out and $masked masked', async (c) => {
    const data = (await call(c.call, unchecked(bodies.get(c.name)), c.who)).json().data;
    const hidden = entriesAt(data, c.hidden);
    const masked = entriesAt(data, c.masked);
    expect(hidden.entries.length).toBeGreaterThan(0);
    for (const e of hidden.entries) expect(e).not.toHaveProperty(hidden.field);
    for (const e of masked.entries) if (e[masked.field] != null) expect(String(e[masked.field])).toMatch(/^.\*+$/u);
    // the same answer for a type the rules leave alone: both in full
    const full = (await call(c.full, unchecked(bodies.get(c.name)), 'demo7')).json().data;
    expect(
      entriesAt(full, c.hidden).entries.some(
        (e) => typeof e[hidden.field] === 'string' && !String(e[hidden.field]).includes('*'),
      ),
    ).toBe(true);
    expect(
      entriesAt(full, c.masked).entries.some(
        (e) => typeof e[masked.field] === 'string' && !String(e[masked.field]).includes('*'),
      ),
    ).toBe(true);
  });

  it("and in the access report's Excel export alike (姓名 masked, IP left out)", async () => {
    const body = bodies.get("the access report's 访问记录");
    const sheet = async (who: string) => {
      const res = await call(empowerApi.reportExcel, unchecked(body), who);
      expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
      const wb = new ExcelJS.Workbook();
      await wb.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
      const rows: string[][] = [];
      wb.getWorksheet('访问记录')!.eachRow((r) =>
        rows.push((r.values as unknown[]).slice(1).map((v) => String(v ?? ''))),
      );
      return rows;
    };
    const governed = await sheet('demo3');
    expect(governed[0]).not.toContain('IP');
    const name = governed[0]!.indexOf('姓名');
    expect(governed.length).toBeGreaterThan(1);
    for (const r of governed.slice(1)) expect(r[name]).toMatch(/^.\*+$/u);
    const full = await sheet('demo7');
    expect(full[0]).toContain('IP');
    expect(full.slice(1).some((r) => !r[full[0]!.indexOf('姓名')]!.includes('*'))).toBe(true);
  });

  it('are listed on their pages for the 按钮与列权限 page', async () => {
    const res = await call(permissionsApi.columns, { page: COUNTERSIGN_LIST_PAGE }, 'demo3');
    const modes = Object.fromEntries(
      (res.json().data.columns as { field: string; mode: string }[]).map((c) => [c.field, c.mode]),
    );
    expect(modes).toMatchObject({
      'rounds.signatures.ip': 'HIDDEN',
      'events.userAccount': 'MASKED',
      'events.ip': 'VISIBLE',
      createdByName: 'VISIBLE',
    });
  });
});

/** Governed matrix columns set for type 3: the first of each pair hidden, the second masked. */
const MATRIX_CASES = [
  { hidden: ['readIp', '阅读IP'], masked: ['confirmedIp', '确认IP'] },
  { hidden: ['confirmedByAccount', '确认人账号'], masked: ['confirmedByName', '确认人'] },
] as const;

describe('the recipients matrix (阅读IP and 确认人账号 hidden, 确认IP and 确认人 masked for type 3)', () => {
  let noticeId: number;
  let full: Record<string, string>;
  beforeAll(async () => {
    const r = await db.noticeRecipient.findFirstOrThrow({
      where: { confirmedIp: { not: null }, readIp: { not: null }, confirmedByName: { not: null } },
    });
    noticeId = r.noticeId;
    full = {
      readIp: r.readIp!,
      confirmedIp: r.confirmedIp!,
      confirmedByAccount: r.confirmedByAccount!,
      confirmedByName: r.confirmedByName!,
    };
    // the audit trail's columns govern the same facts (a reading's address is its READ entry's):
    // visible here, so that each matrix column is seen on its own
    await setTypes('COLUMN', NOTICE_LIST_PAGE, 'events.ip', [...USER_TYPES]);
    await setTypes('COLUMN', NOTICE_LIST_PAGE, 'events.userName', [...USER_TYPES]);
    for (const c of MATRIX_CASES) {
      await setTypes('COLUMN', NOTICE_LIST_PAGE, c.hidden[0], allBut(3));
      await setTypes('COLUMN', NOTICE_LIST_PAGE, c.masked[0], allBut(3), [3]);
    }
  });

  it.each(MATRIX_CASES)(
    'drops $hidden.0 and masks $masked.0 in the list',
    async ({ hidden: [gone], masked: [field] }) => {
      const rows = rowsOf(await call(noticesApi.recipients, { id: noticeId, results: 100 }, 'demo3'));
      for (const r of rows) expect(r).not.toHaveProperty(gone);
      const confirmed = rows.filter((r) => r.confirmedAt);
      expect(confirmed.length).toBeGreaterThan(0);
      for (const r of confirmed) expect(String(r[field])).toMatch(/^.\*+$/u);
      const all = rowsOf(await call(noticesApi.recipients, { id: noticeId, results: 100 }, 'demo7'));
      expect(all.some((r) => r[gone] === full[gone] && r[field] === full[field])).toBe(true);
    },
  );

  it.each(MATRIX_CASES)(
    'drops $hidden.1 and masks $masked.1 in the Excel export, the same way',
    async ({ hidden: [gone, goneHeader], masked: [field, header] }) => {
      const masked = await sheetOf(await call(noticesApi.exportRecipients, { id: noticeId }, 'demo3'));
      expect(masked[0]).not.toContain(goneHeader);
      const col = masked[0]!.indexOf(header);
      expect(col).toBeGreaterThan(-1);
      expect(masked.slice(1).some((r) => /^.\*+$/u.test(r[col]!))).toBe(true);
      expect(masked.slice(1).map((r) => r[col])).not.toContain(full[field]);
      const all = await sheetOf(await call(noticesApi.exportRecipients, { id: noticeId }, 'demo7'));
      expect(all[0]).toEqual(expect.arrayContaining([goneHeader, header]));
      expect(all.slice(1).map((r) => r[all[0]!.indexOf(goneHeader)])).toContain(full[gone]);
    },
  );
});

describe('the mobile-number view log (IP hidden for type 8, masked for type 3)', () => {
  beforeAll(async () => {
    expect(await db.phoneViewLog.count({ where: { ip: { not: null } } })).toBeGreaterThan(0);
    await setTypes(
      'COLUMN',
      PHONE_LOG_PAGE,
      'ip',
      allBut(3).filter((x) => x !== 8),
      [3],
    );
  });

  it('drops it in the list for one type and masks it for another', async () => {
    const hidden = rowsOf(await call(phoneLogApi.page, { results: 100 }, 'demo8'));
    expect(hidden.length).toBeGreaterThan(0);
    for (const r of hidden) expect(r).not.toHaveProperty('ip');
    const masked = rowsOf(await call(phoneLogApi.page, { results: 100 }, 'demo3'));
    for (const r of masked.filter((x) => x.ip)) expect(String(r.ip)).toMatch(/^.\*+$/u);
    const full = rowsOf(await call(phoneLogApi.page, { results: 100 }, 'demo7'));
    expect(full.some((r) => typeof r.ip === 'string' && !String(r.ip).includes('*'))).toBe(true);
  });

  it('and in the Excel export alike', async () => {
    const hidden = await sheetOf(await call(phoneLogApi.exportExcel, {}, 'demo8'));
    expect(hidden[0]).not.toContain('IP');
    const masked = await sheetOf(await call(phoneLogApi.exportExcel, {}, 'demo3'));
    const col = masked[0]!.indexOf('IP');
    expect(col).toBeGreaterThan(-1);
    const ips = masked
      .slice(1)
      .map((r) => r[col]!)
      .filter(Boolean);
    expect(ips.length).toBeGreaterThan(0);
    for (const ip of ips) expect(ip).toMatch(/^.\*+$/u);
  });
});

describe('the document-issue answer page (回复人 hidden, 问题描述 masked for type 5)', () => {
  let issue: { id: number; description: string };
  beforeAll(async () => {
    const i = await db.documentIssue.findFirstOrThrow({ where: { assigneeName: { not: null } } });
    issue = { id: i.id, description: i.description };
    await setTypes('COLUMN', ISSUE_ANSWER_PAGE, 'assigneeName', allBut(5));
    await setTypes('COLUMN', ISSUE_ANSWER_PAGE, 'description', allBut(5), [5]);
  });

  it('drops and masks in the list', async () => {
    const rows = rowsOf(await call(documentIssuesApi.page, { scope: 'ALL', results: 100 }, 'demo5'));
    expect(rows.length).toBeGreaterThan(0);
    for (const r of rows) {
      expect(r).not.toHaveProperty('assigneeName');
      expect(String(r.description)).toMatch(/^.\*+$/u);
    }
  });

  it('drops and masks in the detail', async () => {
    const res = await call(documentIssuesApi.find, { id: issue.id }, 'demo5');
    expect(res.statusCode, res.body).toBe(200);
    const data = res.json().data as Record<string, unknown>;
    expect(data).not.toHaveProperty('assigneeName');
    expect(String(data.description)).toMatch(/^.\*+$/u);
    expect(res.body).not.toContain(issue.description);
  });
});

describe('the countersign list', () => {
  let draftId: number;
  let cancelled: { id: number; reason: string };
  beforeAll(async () => {
    const demo3 = await db.user.findUniqueOrThrow({ where: { account: 'demo3' } });
    draftId = (await db.countersign.findFirstOrThrow({ where: { status: 'DRAFT', createdById: demo3.id } })).id;
    const c = await db.countersign.findFirstOrThrow({ where: { status: 'CANCELLED', cancelReason: { not: null } } });
    cancelled = { id: c.id, reason: c.cancelReason! };
  });

  it('drops 创建人 and masks 取消原因 for type 3 in the list and the detail', async () => {
    await setTypes('COLUMN', COUNTERSIGN_LIST_PAGE, 'createdByName', allBut(3));
    await setTypes('COLUMN', COUNTERSIGN_LIST_PAGE, 'cancelReason', allBut(3), [3]);
    const rows = rowsOf(await call(countersignApi.page, { results: 100 }, 'demo3'));
    expect(rows.length).toBeGreaterThan(0);
    for (const r of rows) expect(r).not.toHaveProperty('createdByName');
    const res = await call(countersignApi.detail, { id: cancelled.id }, 'demo3');
    expect(res.statusCode).toBe(200);
    expect(res.json().data).not.toHaveProperty('createdByName');
    expect(String(res.json().data.cancelReason)).toMatch(/^.\*+$/u);
    expect(res.body).not.toContain(cancelled.reason);
    const full = await call(countersignApi.detail, { id: cancelled.id }, 'demo7');
    expect(full.json().data).toMatchObject({ cancelReason: cancelled.reason, createdByName: expect.any(String) });
  });

  it('leaves a button removed for type 3 out of the actions served, and its route refuses it', async () => {
    const before = await call(countersignApi.detail, { id: draftId }, 'demo3');
    expect(before.json().data.actions).toEqual(expect.arrayContaining(['edit', 'issue', 'cancel']));

    await setTypes('BUTTON', COUNTERSIGN_LIST_PAGE, 'issue', [7, 8, 9]);
    const after = await call(countersignApi.detail, { id: draftId }, 'demo3');
    expect(after.json().data.actions).not.toContain('issue');
    expect(after.json().data.actions).toEqual(expect.arrayContaining(['edit', 'cancel']));
    const refused = await call(countersignApi.issue, { id: draftId }, 'demo3');
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe(buttonRefusedText('下发'));
    // nothing moved
    expect((await db.countersign.findUniqueOrThrow({ where: { id: draftId } })).status).toBe('DRAFT');

    await setTypes('BUTTON', COUNTERSIGN_LIST_PAGE, 'edit', [7, 8, 9]);
    const noEdit = await call(countersignApi.detail, { id: draftId }, 'demo3');
    expect(noEdit.json().data.actions).not.toContain('edit');
    const refusedEdit = await call(countersignApi.update, unchecked({ id: draftId }), 'demo3');
    expect(refusedEdit.statusCode).toBe(403);
    expect(refusedEdit.json().message).toBe(buttonRefusedText('编辑'));
  });
});

describe('the same facts served by other calls and fields of a governed page (found by an audit)', () => {
  it('供应商确认情况 (searchSupplierDetail) governs 发布人 and 阅读人 as the list and the matrix do', async () => {
    await setTypes('COLUMN', NOTICE_LIST_PAGE, 'publishedByName', allBut(3));
    await setTypes('COLUMN', NOTICE_LIST_PAGE, 'readByName', allBut(3));
    await setTypes('COLUMN', NOTICE_LIST_PAGE, 'readByAccount', allBut(3), [3]);
    const rows = rowsOf(await call(noticesApi.supplierDetail, { supplierCode: 'S001', results: 100 }, 'demo3'));
    expect(rows.length).toBeGreaterThan(0);
    for (const r of rows) expect(r).not.toHaveProperty('publishedByName');
    for (const r of rows) expect(r).not.toHaveProperty('readByName');
    for (const r of rows.filter((x) => x.readAt)) expect(String(r.readByAccount)).toMatch(/^.\*+$/u);
    const full = rowsOf(await call(noticesApi.supplierDetail, { supplierCode: 'S001', results: 100 }, 'demo7'));
    expect(full.some((r) => typeof r.publishedByName === 'string' && typeof r.readByName === 'string')).toBe(true);
  });

  it('审批人 hidden takes the approver’s account with it, in the applications and the grants', async () => {
    await setTypes('COLUMN', EMPOWER_APPROVE_PAGE, 'deciderName', allBut(3));
    await setTypes('COLUMN', GRANT_PAGE, 'approverName', allBut(3), [3]);
    const apps = rowsOf(await call(empowerApi.applications, { results: 100 }, 'demo3'));
    expect(apps.some((a) => a.status === 'APPROVED')).toBe(true);
    for (const a of apps) expect(a).not.toHaveProperty('deciderAccount');
    const grants = rowsOf(await call(empowerApi.grants, { results: 100 }, 'demo3')).filter((g) => g.approverName);
    expect(grants.length).toBeGreaterThan(0);
    for (const g of grants)
      expect([g.approverName, g.approverAccount].every((v) => /^.\*+$/u.test(String(v)))).toBe(true);
    const full = rowsOf(await call(empowerApi.applications, { results: 100 }, 'demo7'));
    expect(full.some((a) => a.deciderAccount === 'demo6')).toBe(true);
  });

  it('签署记录·IP地址 hidden is not printed on the sign-off sheet either', async () => {
    const done = await db.countersign.findFirstOrThrow({ where: { status: 'COMPLETED' } });
    const ips = [
      ...new Set(
        (await db.countersignSignature.findMany({ where: { countersignId: done.id } }))
          .map((x) => x.ip)
          .filter(Boolean),
      ),
    ] as string[];
    expect(ips.length).toBeGreaterThan(0);
    const text = async (who: string) => {
      const res = await call(countersignApi.sheet, { id: done.id }, who);
      expect(res.statusCode, res.body.slice(0, 200)).toBe(200);
      return (await pdfPages(res.rawPayload)).join('\n');
    };
    await setTypes('COLUMN', COUNTERSIGN_LIST_PAGE, 'rounds.signatures.ip', allBut(3));
    const hidden = await text('demo3');
    for (const ip of ips) expect(hidden).not.toContain(ip);
    const full = await text('demo7');
    for (const ip of ips) expect(full).toContain(ip);
  });

  it('创建人 and 操作记录·操作人 hidden: the sign-off sheet names neither the creator nor the issuer nor a signer', async () => {
    const done = await db.countersign.findFirstOrThrow({
      where: { status: 'COMPLETED' },
      include: { signatures: true },
    });
    const names = [...new Set([done.createdByName, ...done.signatures.map((x) => x.userName)])];
    const text = async (who: string) => {
      const res = await call(countersignApi.sheet, { id: done.id }, who);
      expect(res.statusCode, res.body.slice(0, 200)).toBe(200);
      return (await pdfPages(res.rawPayload)).join('\n');
    };
    await setTypes('COLUMN', COUNTERSIGN_LIST_PAGE, 'createdByName', allBut(3));
    await setTypes('COLUMN', COUNTERSIGN_LIST_PAGE, 'events.userName', allBut(3));
    const hidden = await text('demo3');
    for (const n of names) expect(hidden).not.toContain(n);
    expect(hidden).not.toContain('undefined');
    expect(hidden).toContain(REDACTED_NAME_TEXT);
    const full = await text('demo7');
    for (const n of names) expect(full).toContain(n);
  });
});
