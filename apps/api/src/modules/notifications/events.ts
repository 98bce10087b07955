/**
 * The events, one function each, called by the domains on the transaction of the move that causes
 * them. Each chooses its recipients by the scope rules of its domain — a notice's or a list's own
 * supplier's users, never another supplier's; the approvers; the one answerer or signer whose turn
 * it is — and words what happened. Texts name the thing (number, title) and its deadline, never a
 * drawing's content.
 */
import { Prisma } from '../../generated/prisma/client.ts';
import { PAGES } from '@esm/contracts';
import { cstDay } from '../../lib/dates.ts';
import { notify, supplierUserIds, userIdsOfTypes } from './service.ts';

type Tx = Prisma.TransactionClient;

// ---- change notices -----------------------------------------------------------------------------

export async function noticePublished(
  tx: Tx,
  noticeId: number,
  supplierCodes: readonly string[],
  now = new Date(),
): Promise<number> {
  const n = await tx.changeNotice.findUniqueOrThrow({
    where: { id: noticeId },
    select: { number: true, title: true, dueDate: true },
  });
  return notify(
    tx,
    await supplierUserIds(tx, supplierCodes),
    {
      kind: 'NOTICE_PUBLISHED',
      subject: `图纸变更通知 ${n.number}：${n.title}`,
      body: `贵公司收到一份图纸变更通知，请在 ${cstDay(n.dueDate)} 前阅读并确认。`,
      linkPath: `${PAGES.noticeOfChangeOfDrawings.path}?id=${noticeId}`,
      dueDate: n.dueDate,
    },
    now,
  );
}

export async function noticeWithdrawn(tx: Tx, noticeId: number, reason: string, now = new Date()): Promise<number> {
  const n = await tx.changeNotice.findUniqueOrThrow({
    where: { id: noticeId },
    select: { number: true, title: true, recipients: { select: { supplierCode: true } } },
  });
  return notify(
    tx,
    await supplierUserIds(
      tx,
      n.recipients.map((r) => r.supplierCode),
    ),
    {
      kind: 'NOTICE_WITHDRAWN',
      subject: `图纸变更通知 ${n.number} 已撤回：${n.title}`,
      body: `该通知已撤回，无需再确认。撤回原因：${reason}`,
      linkPath: `${PAGES.noticeOfChangeOfDrawings.path}?id=${noticeId}`,
    },
    now,
  );
}

/** 催办: the overdue recipients just reminded, each time someone presses it (the service allows it once per interval). */
export async function noticeReminded(
  tx: Tx,
  noticeId: number,
  supplierCodes: readonly string[],
  now = new Date(),
): Promise<number> {
  const n = await tx.changeNotice.findUniqueOrThrow({
    where: { id: noticeId },
    select: { number: true, title: true, dueDate: true },
  });
  const due = cstDay(n.dueDate);
  return notify(
    tx,
    await supplierUserIds(tx, supplierCodes),
    {
      kind: 'NOTICE_OVERDUE',
      subject: `催办：图纸变更通知 ${n.number} 已逾期未确认：${n.title}`,
      body: `确认截止日期 ${due} 已过，请尽快阅读并确认。`,
      linkPath: `${PAGES.noticeOfChangeOfDrawings.path}?id=${noticeId}`,
      dueDate: n.dueDate,
    },
    now,
  );
}

// ---- drawing authorization ----------------------------------------------------------------------

/** A supplier submitted an application: every approver (type 6) may decide it. */
export async function applicationSubmitted(tx: Tx, applicationId: number, now = new Date()): Promise<number> {
  const a = await tx.empowerApplication.findUniqueOrThrow({
    where: { id: applicationId },
    select: { supplier: { select: { name: true } }, _count: { select: { materials: true } } },
  });
  return notify(
    tx,
    await userIdsOfTypes(tx, [6]),
    {
      kind: 'APPLICATION_SUBMITTED',
      subject: `图纸授权申请待审批：${a.supplier.name}（申请 ${applicationId}）`,
      body: `${a.supplier.name} 提交了 ${a._count.materials} 个物料的图纸授权申请，请审批。`,
      linkPath: PAGES.drawingEmpowerApprove.path,
    },
    now,
  );
}

/** An application was approved or rejected: the applicant supplier's users. */
export async function applicationDecided(
  tx: Tx,
  applicationId: number,
  approved: boolean,
  comment: string | null | undefined,
  now = new Date(),
): Promise<number> {
  const a = await tx.empowerApplication.findUniqueOrThrow({
    where: { id: applicationId },
    select: { supplierCode: true, approvedUntil: true },
  });
  const verdict = approved ? '已批准' : '已驳回';
  return notify(
    tx,
    await supplierUserIds(tx, [a.supplierCode]),
    {
      kind: 'APPLICATION_DECIDED',
      subject: `图纸授权申请 ${applicationId} ${verdict}`,
      body:
        [
          approved && a.approvedUntil ? `授权有效期至 ${cstDay(a.approvedUntil)}。` : null,
          comment ? `审批意见：${comment}` : null,
        ]
          .filter(Boolean)
          .join('') || null,
      linkPath: PAGES.supplierDrawingEmpowerApply.path,
    },
    now,
  );
}

// ---- questions on drawings ----------------------------------------------------------------------

/** A question was routed, assigned or reassigned to an answerer (not when they took it themselves). */
export async function questionAssigned(
  tx: Tx,
  issueId: number,
  assigneeId: number,
  reassigned: boolean,
  now = new Date(),
): Promise<number> {
  const q = await tx.documentIssue.findUniqueOrThrow({
    where: { id: issueId },
    select: { number: true, title: true, dueDate: true },
  });
  return notify(
    tx,
    [assigneeId],
    {
      kind: 'QUESTION_ASSIGNED',
      subject: `图纸问题${reassigned ? '改派' : '分派'}给您：${q.number} ${q.title}`,
      body: q.dueDate ? `请在 ${cstDay(q.dueDate)} 前回复。` : null,
      linkPath: `${PAGES.documentIssueH.path}?id=${issueId}`,
      dueDate: q.dueDate,
    },
    now,
  );
}

/** The answerer replied: the asking supplier's users. */
export async function questionReplied(tx: Tx, issueId: number, now = new Date()): Promise<number> {
  const q = await tx.documentIssue.findUniqueOrThrow({
    where: { id: issueId },
    select: { number: true, title: true, supplierCode: true },
  });
  return notify(
    tx,
    await supplierUserIds(tx, [q.supplierCode]),
    {
      kind: 'QUESTION_REPLIED',
      subject: `图纸问题已回复：${q.number} ${q.title}`,
      body: '请查看回复，如已解决可关闭问题。',
      linkPath: `${PAGES.documentIssue.path}?id=${issueId}`,
    },
    now,
  );
}

// ---- countersign lists --------------------------------------------------------------------------

type ListFacts = { number: string; title: string; supplierCode: string; dueDate: Date; createdById: number };

const listFacts = (tx: Tx, id: number): Promise<ListFacts> =>
  tx.countersign.findUniqueOrThrow({
    where: { id },
    select: { number: true, title: true, supplierCode: true, dueDate: true, createdById: true },
  });

/** Whose turn it is now: the list's supplier (`'supplier'`) or one internal signer. */
export async function countersignWaiting(
  tx: Tx,
  id: number,
  turn: 'supplier' | number,
  now = new Date(),
): Promise<number> {
  const c = await listFacts(tx, id);
  const supplier = turn === 'supplier';
  return notify(
    tx,
    supplier ? await supplierUserIds(tx, [c.supplierCode]) : [turn],
    {
      kind: 'COUNTERSIGN_WAITING',
      subject: `会签单待${supplier ? '贵公司' : '您'}会签：${c.number} ${c.title}`,
      body: `请在 ${cstDay(c.dueDate)} 前完成会签。`,
      linkPath: supplier ? `${PAGES.supplierCountersignList.path}?id=${id}` : `${PAGES.countersignList.path}?id=${id}`,
      dueDate: c.dueDate,
    },
    now,
  );
}

/** A signer returned the list: its issuer, who edits and issues it again. */
export async function countersignReturned(
  tx: Tx,
  id: number,
  by: string,
  comment: string | undefined,
  now = new Date(),
): Promise<number> {
  const c = await listFacts(tx, id);
  return notify(
    tx,
    [c.createdById],
    {
      kind: 'COUNTERSIGN_RETURNED',
      subject: `会签单被退回：${c.number} ${c.title}`,
      body: `${by} 退回了会签单${comment ? `，意见：${comment}` : ''}。`,
      linkPath: `${PAGES.countersignList.path}?id=${id}`,
    },
    now,
  );
}

/** The last signer signed: the issuer and the list's supplier's users. */
export async function countersignCompleted(tx: Tx, id: number, now = new Date()): Promise<number> {
  const c = await listFacts(tx, id);
  const subject = `会签单已完成：${c.number} ${c.title}`;
  const body = '全部会签完成，已生成签核单。';
  return (
    (await notify(
      tx,
      [c.createdById],
      { kind: 'COUNTERSIGN_COMPLETED', subject, body, linkPath: `${PAGES.countersignList.path}?id=${id}` },
      now,
    )) +
    (await notify(
      tx,
      await supplierUserIds(tx, [c.supplierCode]),
      { kind: 'COUNTERSIGN_COMPLETED', subject, body, linkPath: `${PAGES.supplierCountersignList.path}?id=${id}` },
      now,
    ))
  );
}
