/**
 * 操作审计 on a real Postgres: the workflows' audit rows (notices, authorization applications,
 * questions, countersigns) in one paged list — who may read it (each user type), each filter
 * (时间范围, 业务类型, 操作人, 关键字), paging, and a clear message for a bad filter.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DRAWING_ADMIN_TYPES, auditApi, type OperationAuditRequest, type OperationAuditRow } from '@esm/contracts';
import { USER_TYPES_UNDER_TEST, buildTestApp, callApi, login, unchecked } from './helpers.ts';
import { unique } from './factories.ts';

const t = await buildTestApp();
const db = t.db.prisma;
const cookies = new Map<number, string>();
/** The operator account of this file's own rows: no other row matches it. */
const OPERATOR = `op${unique()}`.toLowerCase();
const MARK = `审计标记${unique()}`;
let noticeNumber = '';

const page = (body: OperationAuditRequest, type = 3) => callApi(t.app, auditApi.operations, body, cookies.get(type));
const rowsOf = async (body: OperationAuditRequest) => {
  const res = await page(body);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { data: OperationAuditRow[]; total: number; totalCapped: boolean };
};

beforeAll(async () => {
  for (const type of USER_TYPES_UNDER_TEST) cookies.set(type, await login(t.app, `demo${type}`));
  const user = await db.user.findFirstOrThrow({ where: { account: 'demo3' } });
  const who = { userId: user.id, userAccount: OPERATOR, userName: '审计测试员' };
  const notice = await db.changeNotice.findFirstOrThrow({ orderBy: { id: 'asc' } });
  noticeNumber = notice.number;
  const application = await db.empowerApplication.findFirstOrThrow({ orderBy: { id: 'asc' } });
  const countersign = await db.countersign.findFirstOrThrow({ orderBy: { id: 'asc' } });
  // three acts of one operator, on three days of 2020 (UTC+8 days): one per workflow
  await db.noticeEvent.create({
    data: {
      ...who,
      noticeId: notice.id,
      action: 'WITHDRAW',
      ip: '10.9.9.1',
      detail: `${MARK} 撤回原因`,
      createdAt: new Date('2020-01-05T04:00:00Z'),
    },
  });
  await db.empowerAudit.create({
    data: {
      ...who,
      applicationId: application.id,
      action: 'APPROVE',
      fromStatus: 'SUBMITTED',
      toStatus: 'APPROVED',
      userType: 3,
      ip: '10.9.9.2',
      comment: '同意',
      createdAt: new Date('2020-01-06T04:00:00Z'),
    },
  });
  await db.countersignEvent.create({
    data: {
      ...who,
      countersignId: countersign.id,
      round: 1,
      action: 'ISSUE',
      ip: '10.9.9.3',
      createdAt: new Date('2020-01-07T04:00:00Z'),
    },
  });
});
afterAll(() => t.close());

describe('操作审计', () => {
  it('is read by the internal admin types only', async () => {
    for (const type of USER_TYPES_UNDER_TEST) {
      const res = await page({ operator: OPERATOR }, type);
      expect(res.statusCode, `type ${type}`).toBe(
        (DRAWING_ADMIN_TYPES as readonly number[]).includes(type) ? 200 : 403,
      );
    }
  });

  it('lists one operator’s acts across the workflows, newest first, with their labels', async () => {
    const { data, total } = await rowsOf({ operator: OPERATOR });
    expect(total).toBe(3);
    expect(data.map((r) => [r.kind, r.actionLabel])).toEqual([
      ['COUNTERSIGN', '下发'],
      ['APPLICATION', '批准'],
      ['NOTICE', '撤回'],
    ]);
    const notice = data.find((r) => r.kind === 'NOTICE')!;
    expect(notice).toMatchObject({
      subject: noticeNumber,
      userAccount: OPERATOR,
      userName: '审计测试员',
      ip: '10.9.9.1',
      detail: `${MARK} 撤回原因`,
    });
    expect(data.find((r) => r.kind === 'APPLICATION')!.subject).toMatch(/^#\d+$/);
  });

  it('filters by 业务类型, 关键字 and 时间范围', async () => {
    expect((await rowsOf({ operator: OPERATOR, kind: 'APPLICATION' })).data.map((r) => r.action)).toEqual(['APPROVE']);
    expect((await rowsOf({ keyword: MARK })).data.map((r) => r.kind)).toEqual(['NOTICE']);
    expect((await rowsOf({ operator: OPERATOR, keyword: noticeNumber })).data.map((r) => r.kind)).toEqual(['NOTICE']);
    const days = await rowsOf({ operator: OPERATOR, dateFrom: '2020-01-06', dateTo: '2020-01-07' });
    expect(days.data.map((r) => r.kind)).toEqual(['COUNTERSIGN', 'APPLICATION']);
    expect((await rowsOf({ operator: OPERATOR, dateFrom: '2020-01-08' })).total).toBe(0);
  });

  it('pages without overlap, in either order of time', async () => {
    const first = await rowsOf({ operator: OPERATOR, results: 2, page: 1 });
    const second = await rowsOf({ operator: OPERATOR, results: 2, page: 2 });
    expect(first.total).toBe(3);
    expect(first.data).toHaveLength(2);
    expect(second.data.map((r) => r.kind)).toEqual(['NOTICE']);
    const ascending = await rowsOf({ operator: OPERATOR, sortField: 'createdAt', sortOrder: 'ascend' });
    expect(ascending.data.map((r) => r.kind)).toEqual(['NOTICE', 'APPLICATION', 'COUNTERSIGN']);
  });

  it('answers a bad filter with a Chinese message on its field', async () => {
    const res = await page(unchecked({ kind: 'GRANT' }));
    expect(res.statusCode).toBe(400);
    expect(res.body).toContain('业务类型只能是');
    const range = await page({ dateFrom: '2020-02-01', dateTo: '2020-01-01' });
    expect(range.statusCode).toBe(400);
  });
});
