/**
 * Questions on drawings: drafts, and the moves of the transition table in contracts
 * (ISSUE_TRANSITIONS). Each move is `UPDATE … WHERE id = ? AND status IN (<from>)` (plus the
 * caller's scope) in the transaction that writes its thread message and binds its attachments:
 * of two concurrent moves one changes the row, the other finds it moved and answers 409 with why.
 * A supplier acts only on its own supplier's questions; "not yours" answers as missing (404).
 */
import {
  ISSUE_COLUMNS,
  ISSUE_TRANSITIONS,
  addWorkingDays,
  issueMoveRefusal,
  type FieldError,
  type IssueAction,
  type IssueDrawing,
  type IssueMove,
  type IssueStatus,
  type NamedFact,
} from '@esm/contracts';
import type { z } from 'zod';
import type { ZIssueDraftSchema } from '@esm/contracts';
import { Prisma } from '../../generated/prisma/client.ts';
import { readRows } from '../../db/rows.ts';
import { lockRecord } from '../../db/workflow-lock.ts';
import { keywordSql, whereSql } from '../../lib/list.ts';
import type { Db } from '../../db/database.ts';
import { cstDay } from '../../lib/dates.ts';
import type { SessionUser, SupplierScope } from '../../plugins/auth.ts';
import { badRequest, conflict, notFound } from '../../plugins/errors.ts';
import { supplierSees } from '../files/index.ts';
import { materialAccess, visibleMaterialSql } from '../empower/index.ts';
import { bindAttachments, setQuestionAttachments } from './attachments.ts';
import { ISSUE_NOT_FOUND, supersedingNotices } from './query.ts';
import { answerersFor } from './routing.ts';
import { questionAssigned, questionReplied } from '../notifications/index.ts';

type Tx = Prisma.TransactionClient;
type Draft = z.output<typeof ZIssueDraftSchema>;

// ---- the thread ----------------------------------------------------------------------------------------

interface MessageInput {
  issueId: number;
  action: IssueAction;
  from: IssueStatus | null;
  to: IssueStatus;
  user: SessionUser;
  text?: string | null;
  noticeId?: number | null;
}

/** One thread message, on the transaction of the move it records; answers its id (attachments bind to it). */
async function writeMessage(tx: Tx, m: MessageInput): Promise<number> {
  const row = await tx.documentIssueMessage.create({
    data: {
      issueId: m.issueId,
      action: m.action,
      fromStatus: m.from,
      toStatus: m.to,
      userId: m.user.id,
      userAccount: m.user.account,
      userName: m.user.isSupplier ? m.user.nick : m.user.name,
      userType: m.user.type,
      text: m.text ?? null,
      noticeId: m.noticeId ?? null,
    },
    select: { id: true },
  });
  return row.id;
}

// ---- guarded moves -------------------------------------------------------------------------------------------

type Scope = { supplierCode: string } | { handler: true };

const scopeWhere = (scope: Scope) =>
  'supplierCode' in scope ? { supplierCode: scope.supplierCode } : { status: { not: 'DRAFT' } };

/**
 * The question's status as the caller may see it, or 404 — read under the question's row lock, so
 * a move reads what an edit or a move in flight committed (db/workflow-lock.ts).
 */
async function statusOf(
  tx: Tx,
  id: number,
  scope: Scope,
): Promise<{ status: IssueStatus; assigneeId: number | null; assigneeName: string | null }> {
  await lockRecord(tx, 'issue', id);
  const row = await tx.documentIssue.findFirst({
    where: { id, ...scopeWhere(scope) },
    select: { status: true, assigneeId: true, assigneeName: true },
  });
  if (!row) throw notFound(ISSUE_NOT_FOUND);
  return { ...row, status: row.status as IssueStatus };
}

/**
 * A refusal naming who holds the question names a 回复人: to an answerer for whom that column is
 * hidden it is said without the name, masked to one for whom it is masked (permissions plugin).
 */
const holder = (name: string | null, withoutName: string): NamedFact => ({
  page: ISSUE_COLUMNS.page,
  column: 'assigneeName' satisfies keyof typeof ISSUE_COLUMNS.columns,
  names: name ? [name] : [],
  withoutName,
});

/** `UPDATE … WHERE status IN (from)`; 0 rows → 409 naming the state it is in now. */
async function move(
  tx: Tx,
  id: number,
  scope: Scope,
  m: IssueMove,
  data: Prisma.DocumentIssueUpdateManyMutationInput,
  extra: Prisma.DocumentIssueWhereInput = {},
): Promise<IssueStatus> {
  const from = ISSUE_TRANSITIONS[m].from as readonly IssueStatus[];
  const { count } = await tx.documentIssue.updateMany({
    where: { id, ...scopeWhere(scope), ...extra, status: { in: [...from] } },
    data: { ...data, status: ISSUE_TRANSITIONS[m].to },
  });
  if (count === 1) return ISSUE_TRANSITIONS[m].to;
  const now = await statusOf(tx, id, scope);
  // still in a state the move leaves: someone else changed who handles it meanwhile
  if (from.includes(now.status))
    throw conflict(
      `该问题已由 ${now.assigneeName ?? '他人'} 处理，请刷新后重试`,
      holder(now.assigneeName, '该问题已由他人处理，请刷新后重试'),
    );
  throw conflict(issueMoveRefusal(m, now.status));
}

/** The status a move left (read before the guarded write; the write decides). */
async function before(tx: Tx, id: number, scope: Scope, m: IssueMove): Promise<IssueStatus> {
  const { status } = await statusOf(tx, id, scope);
  if (!(ISSUE_TRANSITIONS[m].from as readonly string[]).includes(status)) throw conflict(issueMoveRefusal(m, status));
  return status;
}

const dueFrom = (now: Date, days: number) => new Date(`${addWorkingDays(cstDay(now), days)}T00:00:00Z`);

// ---- drafts ------------------------------------------------------------------------------------------------

/**
 * What the database says about a draft: the drawing is a version the supplier may see now (it
 * supplies the material under a valid grant, the version is not obsolete), the problem type is
 * enabled. Field errors (400), all at once; an unknown drawing and another's answer alike.
 */
async function resolveDraft(tx: Tx, supplier: SupplierScope, d: Draft, now: Date) {
  const errors: FieldError[] = [];
  const file = await tx.standardFile.findUnique({
    where: { id: d.fileId },
    select: {
      id: true,
      standardCode: true,
      version: true,
      status: true,
      materialCode: true,
      material: { select: { productLineCode: true } },
    },
  });
  if (!file || !(await supplierSees(tx, supplier.code, file.materialCode)))
    errors.push({ field: 'fileId', message: '图纸不存在，请重新选择' });
  else if (file.status === 'OBSOLETE')
    errors.push({ field: 'fileId', message: `${file.standardCode} 版本 ${file.version} 已作废，请选择有效的版本` });
  else {
    const access = await materialAccess(tx, supplier.code, file.materialCode, now);
    if (!access.ok) errors.push({ field: 'fileId', message: access.reason });
  }
  const type = await tx.problemType.findUnique({
    where: { id: d.problemTypeId },
    select: { enabled: true, name: true },
  });
  if (!type) errors.push({ field: 'problemTypeId', message: '问题类型不存在，请重新选择' });
  else if (!type.enabled)
    errors.push({ field: 'problemTypeId', message: `问题类型「${type.name}」已停用，请选择其他类型` });
  if (errors.length) throw badRequest(errors[0]!.message, errors);
  return {
    fileId: file!.id,
    standardCode: file!.standardCode,
    version: file!.version,
    materialCode: file!.materialCode,
    productLineCode: file!.material.productLineCode,
    problemTypeId: d.problemTypeId,
    title: d.title,
    description: d.description,
    purchaser: d.purchaser ?? null,
  };
}

/** The next WT-<year>-<seq> of this year (UTC+8), counted atomically per year. */
async function nextNumber(tx: Tx, now: Date): Promise<string> {
  const year = Number(cstDay(now).slice(0, 4));
  const [row] = await tx.$queryRaw<
    { last: number }[]
  >`INSERT INTO document_issue_number (year, last) VALUES (${year}, 1)
    ON CONFLICT (year) DO UPDATE SET last = document_issue_number.last + 1 RETURNING last`;
  return `WT-${year}-${String(row!.last).padStart(4, '0')}`;
}

export async function createIssue(
  db: Db,
  user: SessionUser,
  supplier: SupplierScope,
  d: Draft,
  now = new Date(),
): Promise<number> {
  return db.$transaction(async (tx) => {
    const fields = await resolveDraft(tx, supplier, d, now);
    const issue = await tx.documentIssue.create({
      data: {
        ...fields,
        number: await nextNumber(tx, now),
        supplierCode: supplier.code,
        supplierName: user.supplierName ?? supplier.name ?? supplier.code,
        status: 'DRAFT',
        askedById: user.id,
        askedByAccount: user.account,
        askedByName: user.nick,
      },
      select: { id: true },
    });
    await bindAttachments(tx, user, d.attachmentIds, issue.id, null);
    await writeMessage(tx, { issueId: issue.id, action: 'CREATE', from: null, to: 'DRAFT', user });
    return issue.id;
  });
}

export async function updateIssue(
  db: Db,
  user: SessionUser,
  supplier: SupplierScope,
  id: number,
  d: Draft,
  now = new Date(),
): Promise<void> {
  const scope = { supplierCode: supplier.code };
  await db.$transaction(async (tx) => {
    const { status } = await statusOf(tx, id, scope);
    if (status !== 'DRAFT') throw conflict(issueMoveRefusal('edit', status));
    const fields = await resolveDraft(tx, supplier, d, now);
    const { count } = await tx.documentIssue.updateMany({
      where: { id, supplierCode: supplier.code, status: 'DRAFT' },
      data: fields,
    });
    if (count === 0) throw conflict(issueMoveRefusal('edit', (await statusOf(tx, id, scope)).status));
    await setQuestionAttachments(tx, user, id, d.attachmentIds);
    await writeMessage(tx, { issueId: id, action: 'UPDATE', from: 'DRAFT', to: 'DRAFT', user });
  });
}

/** Deletes drafts, one or many: all of them or none (a non-draft or a missing one refuses the lot). */
export async function deleteIssues(db: Db, supplier: SupplierScope, ids: readonly number[]): Promise<number> {
  const scope = { supplierCode: supplier.code };
  return db.$transaction(async (tx) => {
    const rows = await tx.documentIssue.findMany({
      where: { id: { in: [...ids] }, ...scopeWhere(scope) },
      select: { id: true, status: true, number: true },
    });
    if (rows.length !== new Set(ids).size) throw notFound(ISSUE_NOT_FOUND);
    const sent = rows.find((r) => r.status !== 'DRAFT');
    if (sent) throw conflict(`${sent.number}：${issueMoveRefusal('delete', sent.status as IssueStatus)}`);
    // guarded too: a draft submitted meanwhile is not deleted (and nothing is)
    const { count } = await tx.documentIssue.deleteMany({
      where: { id: { in: [...ids] }, supplierCode: supplier.code, status: 'DRAFT' },
    });
    if (count !== rows.length) throw conflict('所选问题的状态已变化，请刷新后重试');
    return count;
  });
}

// ---- the supplier's moves ----------------------------------------------------------------------------------

/**
 * submit: 草稿 → 待分派 with its due date from the problem type's response time, then routing: one
 * answerer → 处理中 (route), in the same transaction; otherwise it waits in the pool.
 */
export async function submitIssue(
  db: Db,
  user: SessionUser,
  supplier: SupplierScope,
  id: number,
  now = new Date(),
): Promise<{ routedTo: string | null; candidates: number }> {
  const scope = { supplierCode: supplier.code };
  return db.$transaction(async (tx) => {
    await before(tx, id, scope, 'submit');
    const issue = await tx.documentIssue.findUniqueOrThrow({
      where: { id },
      select: {
        productLineCode: true,
        problemType: { select: { role: true, responseDays: true, enabled: true, name: true } },
      },
    });
    if (!issue.problemType.enabled)
      throw badRequest(`问题类型「${issue.problemType.name}」已停用，请编辑后选择其他类型`, [
        { field: 'problemTypeId', message: '问题类型已停用' },
      ]);
    await move(tx, id, scope, 'submit', { submittedAt: now, dueDate: dueFrom(now, issue.problemType.responseDays) });
    await writeMessage(tx, { issueId: id, action: 'SUBMIT', from: 'DRAFT', to: 'PENDING', user });
    const answerers = await answerersFor(tx, issue.productLineCode, issue.problemType.role);
    if (answerers.length !== 1) {
      return { routedTo: null, candidates: answerers.length };
    }
    const [one] = answerers as [(typeof answerers)[0]];
    await move(tx, id, scope, 'route', { assigneeId: one.id, assigneeName: one.name });
    await writeMessage(tx, {
      issueId: id,
      action: 'ROUTE',
      from: 'PENDING',
      to: 'PROCESSING',
      user,
      text: `按问题类型与产品线自动分派给 ${one.name}`,
    });
    await questionAssigned(tx, id, one.id, false, now);
    return { routedTo: one.name, candidates: 1 };
  });
}

export async function closeIssue(
  db: Db,
  user: SessionUser,
  supplier: SupplierScope,
  id: number,
  now = new Date(),
): Promise<void> {
  const scope = { supplierCode: supplier.code };
  await db.$transaction(async (tx) => {
    const from = await before(tx, id, scope, 'close');
    await move(tx, id, scope, 'close', { closedAt: now });
    await writeMessage(tx, { issueId: id, action: 'CLOSE', from, to: 'CLOSED', user });
  });
}

/** reopen with a follow-up: back to 处理中 with the same answerer (or the pool when it has none), a new due date. */
export async function reopenIssue(
  db: Db,
  user: SessionUser,
  supplier: SupplierScope,
  id: number,
  text: string,
  attachmentIds: readonly number[],
  now = new Date(),
): Promise<void> {
  const scope = { supplierCode: supplier.code };
  await db.$transaction(async (tx) => {
    const from = await before(tx, id, scope, 'reopen');
    const issue = await tx.documentIssue.findUniqueOrThrow({
      where: { id },
      select: { assigneeId: true, problemType: { select: { responseDays: true } } },
    });
    const to = await move(tx, id, scope, 'reopen', {
      closedAt: null,
      dueDate: dueFrom(now, issue.problemType.responseDays),
    });
    const messageId = await writeMessage(tx, { issueId: id, action: 'REOPEN', from, to, user, text });
    await bindAttachments(tx, user, attachmentIds, id, messageId);
  });
}

// ---- the answerers' moves ------------------------------------------------------------------------------------

const HANDLER: Scope = { handler: true };

/**
 * assign: take (to oneself) or assign from the pool, or reassign a question in 处理中 — then a
 * reason is required. The assignee must be an enabled answerer.
 */
export async function assignIssue(
  db: Db,
  user: SessionUser,
  id: number,
  userId: number,
  reason: string | undefined,
): Promise<string> {
  return db.$transaction(async (tx) => {
    const current = await statusOf(tx, id, HANDLER);
    if (!(ISSUE_TRANSITIONS.assign.from as readonly string[]).includes(current.status))
      throw conflict(issueMoveRefusal('assign', current.status));
    if (current.assigneeId === userId && current.status === 'PROCESSING')
      throw conflict(
        `该问题已由 ${current.assigneeName} 处理`,
        holder(current.assigneeName, '该问题已由所选处理人处理'),
      );
    const reassigning = current.status === 'PROCESSING' && current.assigneeId !== null;
    if (reassigning && !reason) {
      // taking it for oneself without a reason: the question was in the pool when the user looked,
      // and someone took it meanwhile — a stale take (409), not a reassign missing its reason
      if (userId === user.id)
        throw conflict(
          `该问题已由 ${current.assigneeName ?? '他人'} 领取，请刷新后重试`,
          holder(current.assigneeName, '该问题已被他人领取，请刷新后重试'),
        );
      throw badRequest('改派请填写原因', [{ field: 'reason', message: '改派请填写原因' }]);
    }
    const target = await tx.user.findUnique({
      where: { id: userId },
      select: { id: true, name: true, type: true, enabled: true },
    });
    if (!target || !target.enabled || target.type !== 5)
      throw badRequest('只能分派给启用的图纸问题回复人员', [
        { field: 'userId', message: '只能分派给启用的图纸问题回复人员' },
      ]);
    // the guard includes who had it: a concurrent take or reassign makes this one stale
    await move(
      tx,
      id,
      HANDLER,
      'assign',
      { assigneeId: target.id, assigneeName: target.name },
      { assigneeId: current.assigneeId },
    );
    const verb =
      target.id === user.id && !reassigning
        ? `${target.name} 领取了该问题`
        : reassigning
          ? `由 ${current.assigneeName} 改派给 ${target.name}`
          : `分派给 ${target.name}`;
    await writeMessage(tx, {
      issueId: id,
      action: 'ASSIGN',
      from: current.status,
      to: 'PROCESSING',
      user,
      text: reason ? `${verb}。原因：${reason}` : verb,
    });
    // one who takes a question needs no word of it
    if (target.id !== user.id) await questionAssigned(tx, id, target.id, reassigning);
    return target.name;
  });
}

/** reply: the assignee only; may link a change notice that superseded the version asked about. */
export async function replyIssue(
  db: Db,
  user: SessionUser,
  id: number,
  text: string,
  attachmentIds: readonly number[],
  noticeId: number | undefined,
  now = new Date(),
): Promise<void> {
  await db.$transaction(async (tx) => {
    const current = await statusOf(tx, id, HANDLER);
    if (current.status === 'PROCESSING' && current.assigneeId !== user.id) {
      throw conflict(
        `该问题由 ${current.assigneeName ?? '他人'} 处理，只有处理人可以回复；如需处理请先改派给自己`,
        holder(current.assigneeName, '该问题由他人处理，只有处理人可以回复；如需处理请先改派给自己'),
      );
    }
    if (noticeId !== undefined) {
      const issue = await tx.documentIssue.findUniqueOrThrow({ where: { id }, select: { fileId: true } });
      if (!(await supersedingNotices(tx, issue.fileId)).some((n) => n.id === noticeId)) {
        throw badRequest('只能关联替代了该图纸版本的变更通知', [
          { field: 'noticeId', message: '只能关联替代了该图纸版本的变更通知' },
        ]);
      }
    }
    await move(tx, id, HANDLER, 'reply', { answeredAt: now }, { assigneeId: user.id });
    const messageId = await writeMessage(tx, {
      issueId: id,
      action: 'REPLY',
      from: 'PROCESSING',
      to: 'ANSWERED',
      user,
      text,
      noticeId: noticeId ?? null,
    });
    await bindAttachments(tx, user, attachmentIds, id, messageId);
    await questionReplied(tx, id, now);
  });
}

export const handlers = (db: Db) =>
  db.user.findMany({
    where: { type: 5, enabled: true },
    select: { id: true, account: true, name: true },
    orderBy: { account: 'asc' },
  });

// ---- the supplier's pickers --------------------------------------------------------------------------------

/** Versions the supplier may ask about: of materials it may see now, effective or superseded (not obsolete). */
export async function askableDrawings(
  db: Db,
  supplier: SupplierScope,
  keyword: string | undefined,
  now = new Date(),
): Promise<IssueDrawing[]> {
  return readRows<IssueDrawing>(
    db,
    Prisma.sql`SELECT f.id AS "fileId", f.standard_code AS "standardCode", f.name, f.version, f.status, f.material_code AS "materialCode", m.name AS "materialName", pl.name AS "productLineName"
      FROM standard_file f JOIN material m ON m.code = f.material_code JOIN product_line pl ON pl.code = m.product_line_code
      ${whereSql([Prisma.sql`f.status <> 'OBSOLETE'`, visibleMaterialSql('f.material_code', supplier.code, now), keywordSql(['f.standard_code', 'f.name', 'f.material_code', 'm.name'], keyword)])}
      ORDER BY f.status = 'EFFECTIVE' DESC, f.standard_code, f.version_no DESC LIMIT 50`,
  );
}

export async function purchasersOf(db: Db, supplier: SupplierScope, materialCode: string) {
  if (!(await supplierSees(db, supplier.code, materialCode))) throw notFound('物料不存在');
  const m = await db.material.findUnique({ where: { code: materialCode }, select: { purchaser: true } });
  return m?.purchaser ? [{ name: m.purchaser, materialCode }] : [];
}
