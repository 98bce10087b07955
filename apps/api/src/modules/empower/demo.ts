/**
 * Demo authorization applications, one or more in each state, dated relative to the
 * seed time, each with the audit trail its state implies; the approved ones carry their grants.
 * Runs after archives/demo.ts (materials, suppliers, the imported grants).
 *
 *  S002 (demo4)  已批准   0034000203 approved, 0064000104 left out (it already had a grant) — the
 *                         grant on 0034000203 comes from here
 *  S002 (demo4)  已批准   renewal of the imported grant on 0034000204 (ends in 20 days): approved
 *                         for a shorter period, starting when the old grant ends
 *  S001 (demo2)  已提交   0011000301 (its imported grant only starts in two weeks)
 *  S002 (demo4)  已提交   0011000302, a longer period
 *  S001 (demo2)  已驳回   0034000202 (asked without saying what for)
 *  S002 (demo4)  已撤回   0064000103 (wrong period)
 *  S001 (demo2)  草稿     0011000302
 */
import type { Db } from '../../db/database.ts';
import type { Prisma } from '../../generated/prisma/client.ts';
import { insertRows, insertRowsReturningIds } from '../../db/demo-batch.ts';
import { cstDateValue } from '../../lib/dates.ts';

const DAY = 86_400_000;

type Status = 'DRAFT' | 'SUBMITTED' | 'APPROVED' | 'REJECTED' | 'WITHDRAWN';

interface DemoApplication {
  applicant: 'demo2' | 'demo4';
  status: Status;
  materials: string[];
  /** Days after the seed day: the period asked for. */
  from: number;
  until: number;
  reason: string;
  /** Days before the seed: created, submitted, decided or withdrawn. */
  created: number;
  submitted?: number;
  closed?: number;
  /** Approved: which materials (default all) and the period granted (default as asked). */
  approved?: string[];
  grantedFrom?: number;
  grantedUntil?: number;
  comment?: string;
  /** 续期 of the imported grant on this material. */
  renews?: string;
}

const APPLICATIONS: DemoApplication[] = [
  {
    applicant: 'demo4',
    status: 'APPROVED',
    materials: ['0034000203', '0064000104'],
    from: -60,
    until: 304,
    reason: '门封圈新模具量产，需查看截面图纸进行模具设计与检验',
    created: 62,
    submitted: 61,
    closed: 60,
    approved: ['0034000203'],
    comment: '0064000104 已有有效授权，无需重复申请',
  },
  {
    applicant: 'demo4',
    status: 'APPROVED',
    materials: ['0034000204'],
    from: 20,
    until: 384,
    reason: '控制主板授权即将到期，申请续期一年',
    created: 6,
    submitted: 5,
    closed: 3,
    grantedUntil: 200,
    comment: '先批准半年，届时根据供货情况再续',
    renews: '0034000204',
  },
  {
    applicant: 'demo2',
    status: 'SUBMITTED',
    materials: ['0011000301'],
    from: 0,
    until: 364,
    reason: '新模具开发，需提前查看室外机底盘图纸准备工装',
    created: 2,
    submitted: 1,
  },
  {
    applicant: 'demo4',
    status: 'SUBMITTED',
    materials: ['0011000302'],
    from: 0,
    until: 364,
    reason: '二号工厂投产，需为新增检验人员开通贯流风叶图纸查看',
    created: 1,
    submitted: 0,
  },
  {
    applicant: 'demo2',
    status: 'REJECTED',
    materials: ['0034000202'],
    from: -19,
    until: 345,
    reason: '查看图纸',
    created: 20,
    submitted: 19,
    closed: 18,
    comment: '请补充用途说明及对应的采购订单号后重新申请',
  },
  {
    applicant: 'demo4',
    status: 'WITHDRAWN',
    materials: ['0064000103'],
    from: -29,
    until: 700,
    reason: '蒸发器图纸查看',
    created: 30,
    submitted: 30,
    closed: 29,
    comment: '申请期限填写有误，撤回后重新申请',
  },
  {
    applicant: 'demo2',
    status: 'DRAFT',
    materials: ['0011000302'],
    from: 7,
    until: 371,
    reason: '预计明年扩产，提前申请延长贯流风叶图纸授权',
    created: 3,
  },
];

export async function seedDemoEmpower(db: Db): Promise<void> {
  const now = Date.now();
  const at = (daysAgo: number, minutes = 0) => new Date(now - daysAgo * DAY + minutes * 60_000);
  /** A DATE column's value for the day `n` days after the seed day (UTC+8). */
  const day = (n: number) => cstDateValue(new Date(now + n * DAY));
  /** The instant a day (n days after the seed day) begins in UTC+8. */
  const dayStart = (n: number) => new Date(`${day(n).toISOString().slice(0, 10)}T00:00:00+08:00`);

  const users = await db.user.findMany({
    where: { account: { in: ['demo2', 'demo4', 'demo6'] } },
    include: { supplier: true },
  });
  const user = (account: string) => users.find((u) => u.account === account)!;
  const approver = user('demo6');

  // imported grants a renewal points at
  const imported = await db.empowerGrant.findMany({
    where: { imported: true, materialCode: { in: APPLICATIONS.flatMap((a) => (a.renews ? [a.renews] : [])) } },
    select: { id: true, supplierCode: true, materialCode: true },
    orderBy: { id: 'asc' },
  });

  // a table at a time (demo-batch.ts), rows in the order the applications are listed
  const plans = APPLICATIONS.map((a) => {
    const applicant = user(a.applicant);
    const supplierCode = applicant.supplierCode!;
    const decided = a.status === 'APPROVED' || a.status === 'REJECTED';
    const grantedFrom = a.grantedFrom ?? a.from;
    const grantedUntil = a.grantedUntil ?? a.until;
    const approved = a.status === 'APPROVED' ? (a.approved ?? a.materials) : [];
    const renewed = a.renews
      ? imported.find((g) => g.supplierCode === supplierCode && g.materialCode === a.renews)
      : undefined;
    return { a, applicant, supplierCode, decided, grantedFrom, grantedUntil, approved, renewed };
  });
  // the seed-only batch insert (demo-batch.ts): one statement a table, no Prisma query compiled;
  // a decider's columns a row lacks are NULL, as Prisma left them
  const seeded = new Date(now);
  await db.$transaction(async (tx) => {
    const appIds = await insertRowsReturningIds(
      tx,
      'empower_application',
      plans.map(({ a, applicant, supplierCode, decided, grantedFrom, grantedUntil, renewed }) => ({
        supplierCode,
        status: a.status,
        validFrom: day(a.from),
        validUntil: day(a.until),
        reason: a.reason,
        applicantId: applicant.id,
        applicantAccount: applicant.account,
        applicantName: applicant.nick,
        renewsGrantId: renewed?.id ?? null,
        submittedAt: a.submitted !== undefined ? at(a.submitted, 5) : null,
        approvedFrom: a.status === 'APPROVED' ? day(grantedFrom) : null,
        approvedUntil: a.status === 'APPROVED' ? day(grantedUntil) : null,
        ...(decided
          ? {
              deciderId: approver.id,
              deciderAccount: approver.account,
              deciderName: approver.name,
              decidedAt: at(a.closed!, 30),
              decisionComment: a.comment ?? null,
            }
          : {}),
        createdAt: at(a.created),
        updatedAt: seeded,
      })),
    );
    await insertRows(
      tx,
      'empower_application_material',
      plans.flatMap(({ a, decided, approved }, i) =>
        a.materials.map((materialCode) => ({
          applicationId: appIds[i]!,
          materialCode,
          approved: decided ? approved.includes(materialCode) : null,
        })),
      ),
    );
    const audits: Prisma.EmpowerAuditCreateManyInput[] = [];
    const grants: Prisma.EmpowerGrantCreateManyInput[] = [];
    for (const [i, { a, applicant, supplierCode, grantedFrom, grantedUntil, approved }] of plans.entries()) {
      const applicationId = appIds[i]!;
      const audit = (
        action: string,
        from: Status | null,
        to: Status,
        by: typeof applicant,
        when: Date,
        comment: string | null = null,
      ) =>
        audits.push({
          applicationId,
          action,
          fromStatus: from,
          toStatus: to,
          userId: by.id,
          userAccount: by.account,
          userName: by.supplierCode ? by.nick : by.name,
          userType: by.type,
          ip: '127.0.0.1',
          comment,
          createdAt: when,
        });
      audit('CREATE', null, 'DRAFT', applicant, at(a.created));
      if (a.submitted !== undefined) audit('SUBMIT', 'DRAFT', 'SUBMITTED', applicant, at(a.submitted, 5));
      if (a.status === 'WITHDRAWN')
        audit('WITHDRAW', 'SUBMITTED', 'WITHDRAWN', applicant, at(a.closed!, 10), a.comment ?? null);
      if (a.status === 'REJECTED')
        audit('REJECT', 'SUBMITTED', 'REJECTED', approver, at(a.closed!, 30), a.comment ?? null);
      if (a.status === 'APPROVED') {
        const summary = `批准 ${approved.length}/${a.materials.length} 个物料；期限 ${day(grantedFrom).toISOString().slice(0, 10)} 至 ${day(grantedUntil).toISOString().slice(0, 10)}`;
        audit(
          'APPROVE',
          'SUBMITTED',
          'APPROVED',
          approver,
          at(a.closed!, 30),
          [summary, a.comment].filter(Boolean).join('。'),
        );
        grants.push(
          ...approved.map((materialCode) => ({
            supplierCode,
            materialCode,
            validFrom: dayStart(grantedFrom),
            validUntil: dayStart(grantedUntil + 1),
            applicationId,
            createdBy: approver.account,
            approverId: approver.id,
            approverAccount: approver.account,
            approverName: approver.name,
            approvedAt: at(a.closed!, 30),
            createdAt: at(a.closed!, 30),
          })),
        );
      }
    }
    await insertRows(tx, 'empower_audit', audits);
    await insertRows(tx, 'empower_grant', grants);
  });
}
