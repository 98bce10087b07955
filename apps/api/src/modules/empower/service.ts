/**
 * The application lifecycle and the grants it makes. Every change of an application
 * commits with its audit row in one transaction; a state moves only as contracts'
 * APPLICATION_TRANSITIONS says, with `UPDATE … WHERE status IN (<from>)` — so a second, stale or
 * concurrent move finds nothing to update and is answered 409 — and an approval creates its
 * grants in that same transaction. A grant is never edited afterwards: revoking sets
 * revoked_at/by/reason once.
 *
 * Refusals a user can act on: a material the supplier does not supply (named), a period that
 * starts before today or is longer than the configured maximum, a submission without the current
 * confidentiality agreement accepted, a decision on one's own application, an approval wider
 * than what was asked.
 */
import {
  APPLICATION_COLUMNS,
  APPLICATION_STATUS_LABELS,
  APPLICATION_TRANSITIONS,
  type ApplicationMove,
  type ApplicationRow,
  type ApplicationStatus,
  type AuditAction,
  type DecisionResult,
  type FieldError,
  type GrantRow,
  type NamedFact,
  type ZApproveRequestSchema,
  type ZCreateApplyRequestSchema,
} from '@esm/contracts';
import type { z } from 'zod';
import type { Prisma } from '../../generated/prisma/client.ts';
import type { Db } from '../../db/database.ts';
import { lockRecord } from '../../db/workflow-lock.ts';
import type { SessionUser, SupplierScope } from '../../plugins/auth.ts';
import { AppError, badRequest, conflict, forbidden, notFound } from '../../plugins/errors.ts';
import { cstDateTime, cstDayText } from '../../lib/dates.ts';
import type { ClientInfo } from '../../lib/access-log.ts';
import { agreementRefusal } from '../files/index.ts';
import { NOT_FOUND_TEXT, applicationRow, applicationRows, type EmpowerRules } from './applications.ts';
import { addDays, dateValue, dayOf, daysIncluded, grantWindow, today } from './days.ts';
import { grantRow } from './grant-lists.ts';
import { applicationDecided, applicationSubmitted } from '../notifications/index.ts';

type Tx = Prisma.TransactionClient;
type ApplyFields = z.output<typeof ZCreateApplyRequestSchema>;
type ApproveBody = z.output<typeof ZApproveRequestSchema>;

/** pg_advisory_xact_lock(class, key) of this module: one supplier's submissions, one at a time. */
const LOCK_SUBMIT = 30401;

const label = (s: string) => APPLICATION_STATUS_LABELS[s as ApplicationStatus] ?? s;
/** Who acted, as the audit row and the grant keep it: suppliers by their nick, staff by name. */
const nameOf = (user: SessionUser) => (user.isSupplier ? user.nick : user.name);
const cut = (s: string | null | undefined, max: number) => (s == null ? null : s.slice(0, max));

// ---- audit -----------------------------------------------------------------------------------------

async function writeAudit(
  tx: Tx,
  e: {
    applicationId: number;
    action: AuditAction;
    from: ApplicationStatus | null;
    to: ApplicationStatus;
    user: SessionUser;
    client: ClientInfo;
    comment?: string | null;
  },
) {
  await tx.empowerAudit.create({
    data: {
      applicationId: e.applicationId,
      action: e.action,
      fromStatus: e.from,
      toStatus: e.to,
      userId: e.user.id,
      userAccount: e.user.account,
      userName: cut(nameOf(e.user), 100)!,
      userType: e.user.type,
      ip: cut(e.client.ip, 64),
      comment: cut(e.comment, 500),
    },
  });
}

/**
 * Moves an application along the transition table, or says why not: the status it had is not the
 * move's `from` (already moved, by someone else or by an earlier click). `scope` narrows to the
 * supplier's own; anything else it cannot see answers as not found.
 */
async function move(
  tx: Tx,
  id: number,
  m: ApplicationMove,
  data: Prisma.EmpowerApplicationUpdateManyMutationInput,
  scope?: { supplierCode: string },
): Promise<void> {
  const { from, to } = APPLICATION_TRANSITIONS[m];
  const { count } = await tx.empowerApplication.updateMany({
    where: { id, status: { in: [...from] }, ...(scope ?? {}) },
    data: { ...data, status: to },
  });
  if (count === 1) return;
  const now = await tx.empowerApplication.findFirst({
    where: { id, ...(scope ?? {}) },
    select: { status: true, deciderName: true, decidedAt: true },
  });
  if (!now) throw notFound(NOT_FOUND_TEXT);
  throw stateConflict(m, now);
}

/**
 * The 409 of a move the state refuses. An approver's refusal names who decided (审批人): to an
 * approver for whom that column is hidden it is said without the name, masked when masked.
 */
function stateConflict(
  m: ApplicationMove,
  a: { status: string; deciderName: string | null; decidedAt: Date | null },
  prefix = '',
): AppError {
  const text = `${prefix}${stateConflictText(m, a)}`;
  if ((m !== 'APPROVE' && m !== 'REJECT') || !a.deciderName) return conflict(text);
  const decider: NamedFact = {
    page: APPLICATION_COLUMNS.page,
    column: 'deciderName' satisfies keyof typeof APPLICATION_COLUMNS.columns,
    names: [a.deciderName],
    withoutName: `${prefix}${stateConflictText(m, { ...a, deciderName: null })}`,
  };
  return conflict(text, decider);
}

/** Why `m` cannot leave the state the application is in. */
function stateConflictText(
  m: ApplicationMove,
  a: { status: string; deciderName: string | null; decidedAt: Date | null },
): string {
  const decided = a.status === 'APPROVED' || a.status === 'REJECTED';
  const by = decided && a.deciderName ? `（${a.deciderName}，${cstDateTime(a.decidedAt)}）` : '';
  switch (m) {
    case 'SUBMIT':
      return `该申请${label(a.status)}，不能再次提交`;
    case 'WITHDRAW':
      return a.status === 'DRAFT' ? '草稿尚未提交，无需撤回，可直接删除' : `该申请${label(a.status)}${by}，不能撤回`;
    default:
      return a.status === 'WITHDRAWN'
        ? '该申请已被供应商撤回，无需审批'
        : `该申请已审批：${label(a.status)}${by}，不能再次审批`;
  }
}

// ---- checks ------------------------------------------------------------------------------------------

/** The period asked for: from today on, at most `maxPeriodDays` days. */
function periodErrors(from: string, until: string, rules: EmpowerRules, now: Date): FieldError[] {
  const errors: FieldError[] = [];
  const first = today(now);
  if (from < first) errors.push({ field: 'validFrom', message: `开始日期不能早于今天（${first}）` });
  if (daysIncluded(from, until) > rules.maxPeriodDays) {
    errors.push({
      field: 'validUntil',
      message: `申请期限最长 ${rules.maxPeriodDays} 天：自 ${from} 起，截止日期最晚为 ${addDays(from, rules.maxPeriodDays - 1)}`,
    });
  }
  return errors;
}

/** The materials this supplier does not supply (an unknown code is one of them, and reads the same). */
async function notSupplied(tx: Tx, supplierCode: string, codes: readonly string[]): Promise<string[]> {
  const links = await tx.supplierMaterial.findMany({
    where: { supplierCode, materialCode: { in: [...codes] } },
    select: { materialCode: true },
  });
  const supplied = new Set(links.map((l) => l.materialCode));
  return codes.filter((c) => !supplied.has(c));
}

const notSuppliedText = (codes: string[]) => `贵公司不是物料 ${codes.join('、')} 的供应商，不能申请其图纸授权`;

/** Everything a draft must satisfy (create, update, submit), as one 400 with every field's error. */
async function checkDraft(
  tx: Tx,
  supplierCode: string,
  f: { materialCodes: string[]; validFrom: string; validUntil: string; renewsGrantId?: number | null },
  rules: EmpowerRules,
  now: Date,
) {
  const errors = periodErrors(f.validFrom, f.validUntil, rules, now);
  const missing = await notSupplied(tx, supplierCode, f.materialCodes);
  if (missing.length) errors.push({ field: 'materialCodes', message: notSuppliedText(missing) });
  if (f.renewsGrantId) {
    const grant = await tx.empowerGrant.findFirst({
      where: { id: f.renewsGrantId, supplierCode, materialCode: { in: f.materialCodes } },
      select: { id: true },
    });
    if (!grant) errors.push({ field: 'renewsGrantId', message: '续期的授权不存在，或不属于所选物料' });
  }
  if (errors.length) throw badRequest(errors[0]!.message, errors);
}

const unique = (codes: readonly string[]) => [...new Set(codes)];

// ---- the supplier's moves ---------------------------------------------------------------------------

export interface Actor {
  user: SessionUser;
  client: ClientInfo;
}

/** createApply: a draft for materials the supplier supplies. */
export async function createApplication(
  db: Db,
  supplier: SupplierScope,
  { user, client }: Actor,
  f: ApplyFields,
  rules: EmpowerRules,
  now = new Date(),
): Promise<ApplicationRow> {
  const materialCodes = unique(f.materialCodes);
  const id = await db.$transaction(async (tx) => {
    await checkDraft(tx, supplier.code, { ...f, materialCodes }, rules, now);
    const app = await tx.empowerApplication.create({
      data: {
        supplierCode: supplier.code,
        status: 'DRAFT',
        validFrom: dateValue(f.validFrom),
        validUntil: dateValue(f.validUntil),
        reason: f.reason,
        applicantId: user.id,
        applicantAccount: user.account,
        applicantName: cut(nameOf(user), 100)!,
        renewsGrantId: f.renewsGrantId ?? null,
        materials: { create: materialCodes.map((materialCode) => ({ materialCode })) },
      },
      select: { id: true },
    });
    await writeAudit(tx, { applicationId: app.id, action: 'CREATE', from: null, to: 'DRAFT', user, client });
    return app.id;
  });
  return applicationRow(db, id);
}

/** updateApply: a draft's materials, period and reason (only a draft, only the supplier's own). */
export async function updateApplication(
  db: Db,
  supplier: SupplierScope,
  { user, client }: Actor,
  id: number,
  f: ApplyFields,
  rules: EmpowerRules,
  now = new Date(),
): Promise<ApplicationRow> {
  const materialCodes = unique(f.materialCodes);
  await db.$transaction(async (tx) => {
    const { count } = await tx.empowerApplication.updateMany({
      where: { id, supplierCode: supplier.code, status: 'DRAFT' },
      data: {
        validFrom: dateValue(f.validFrom),
        validUntil: dateValue(f.validUntil),
        reason: f.reason,
        renewsGrantId: f.renewsGrantId ?? null,
      },
    });
    if (count === 0) {
      const app = await tx.empowerApplication.findFirst({
        where: { id, supplierCode: supplier.code },
        select: { status: true },
      });
      if (!app) throw notFound(NOT_FOUND_TEXT);
      throw conflict(`该申请${label(app.status)}，只能修改草稿`);
    }
    await checkDraft(tx, supplier.code, { ...f, materialCodes }, rules, now);
    await tx.empowerApplicationMaterial.deleteMany({ where: { applicationId: id } });
    await tx.empowerApplicationMaterial.createMany({
      data: materialCodes.map((materialCode) => ({ applicationId: id, materialCode })),
    });
    await writeAudit(tx, { applicationId: id, action: 'UPDATE', from: 'DRAFT', to: 'DRAFT', user, client });
  });
  return applicationRow(db, id);
}

/** deleteApply: a draft goes with its audit rows (nobody but the supplier ever saw it). */
export async function deleteApplication(db: Db, supplier: SupplierScope, id: number): Promise<void> {
  await db.$transaction(async (tx) => {
    const { count } = await tx.empowerApplication.deleteMany({
      where: { id, supplierCode: supplier.code, status: 'DRAFT' },
    });
    if (count === 1) return;
    const app = await tx.empowerApplication.findFirst({
      where: { id, supplierCode: supplier.code },
      select: { status: true },
    });
    if (!app) throw notFound(NOT_FOUND_TEXT);
    throw conflict(`该申请${label(app.status)}，只能删除草稿`);
  });
}

/**
 * submitApply: DRAFT → SUBMITTED. The submitting user must have accepted the current
 * confidentiality agreement; the draft must still hold (period from today, materials supplied);
 * and no other submitted application of the supplier may be waiting on one of its materials.
 */
export async function submitApplication(
  db: Db,
  supplier: SupplierScope,
  { user, client }: Actor,
  id: number,
  rules: EmpowerRules,
  now = new Date(),
): Promise<ApplicationRow> {
  await db.$transaction(async (tx) => {
    // one supplier's submissions one at a time: two drafts on one material cannot both get through
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(${LOCK_SUBMIT}::int, hashtext(${supplier.code}))`;
    // and an edit of this draft in flight commits before its materials are checked (db/workflow-lock.ts)
    await lockRecord(tx, 'application', id);
    const app = await tx.empowerApplication.findFirst({
      where: { id, supplierCode: supplier.code },
      include: { materials: { select: { materialCode: true } } },
    });
    if (!app) throw notFound(NOT_FOUND_TEXT);
    if (app.status !== 'DRAFT') throw conflict(stateConflictText('SUBMIT', app));
    const refusal: AppError | null = await agreementRefusal(tx, user);
    if (refusal) throw refusal;
    const materialCodes = app.materials.map((m) => m.materialCode);
    await checkDraft(
      tx,
      supplier.code,
      {
        materialCodes,
        validFrom: dayOf(app.validFrom),
        validUntil: dayOf(app.validUntil),
        renewsGrantId: app.renewsGrantId,
      },
      rules,
      now,
    );
    const waiting = await tx.empowerApplicationMaterial.findFirst({
      where: {
        materialCode: { in: materialCodes },
        application: { supplierCode: supplier.code, status: 'SUBMITTED', id: { not: id } },
      },
      select: { materialCode: true, applicationId: true },
    });
    if (waiting)
      throw conflict(
        `物料 ${waiting.materialCode} 已有待审批的申请（编号 ${waiting.applicationId}），请等待审批结果，或撤回该申请后再提交`,
      );
    await move(tx, id, 'SUBMIT', { submittedAt: now }, { supplierCode: supplier.code });
    await writeAudit(tx, { applicationId: id, action: 'SUBMIT', from: 'DRAFT', to: 'SUBMITTED', user, client });
    await applicationSubmitted(tx, id, now);
  });
  return applicationRow(db, id);
}

/** withdrawApply: SUBMITTED → WITHDRAWN, before anyone decided it. */
export async function withdrawApplication(
  db: Db,
  supplier: SupplierScope,
  { user, client }: Actor,
  id: number,
  comment: string | undefined,
): Promise<ApplicationRow> {
  await db.$transaction(async (tx) => {
    await move(tx, id, 'WITHDRAW', {}, { supplierCode: supplier.code });
    await writeAudit(tx, {
      applicationId: id,
      action: 'WITHDRAW',
      from: 'SUBMITTED',
      to: 'WITHDRAWN',
      user,
      client,
      comment,
    });
  });
  return applicationRow(db, id);
}

// ---- the decision -------------------------------------------------------------------------------------

/**
 * approveApplyEmpower: approves (creating the grants) or rejects each application, all in one
 * transaction — all of them are decided, or none. Applications are taken in id order so two
 * approvers deciding overlapping sets never wait on each other in a circle.
 */
export async function decide(
  db: Db,
  { user, client }: Actor,
  body: ApproveBody,
  now = new Date(),
): Promise<DecisionResult> {
  const ids = unique(body.ids.map(String))
    .map(Number)
    .sort((a, b) => a - b);
  const grants = await db.$transaction(async (tx) => {
    let made = 0;
    for (const id of ids) made += await decideOne(tx, user, client, id, body, now);
    return made;
  });
  return { decided: ids.length, grants, applications: await applicationRows(db, ids, now) };
}

async function decideOne(
  tx: Tx,
  user: SessionUser,
  client: ClientInfo,
  id: number,
  body: ApproveBody,
  now: Date,
): Promise<number> {
  const app = await tx.empowerApplication.findUnique({
    where: { id },
    include: { materials: { select: { materialCode: true } } },
  });
  const named = body.ids.length > 1 ? `申请 ${id}：` : '';
  if (!app || app.status === 'DRAFT') throw notFound(`${named}${NOT_FOUND_TEXT}`);
  if (app.applicantId === user.id) throw forbidden(`${named}不能审批自己提交的申请`);
  const m: ApplicationMove = body.decision === 'APPROVE' ? 'APPROVE' : 'REJECT';
  if (app.status !== 'SUBMITTED') throw stateConflict(m, app, named);
  const decision = {
    deciderId: user.id,
    deciderAccount: user.account,
    deciderName: cut(nameOf(user), 100),
    decidedAt: now,
    decisionComment: body.comment ?? null,
  };
  const asked = app.materials.map((x) => x.materialCode);

  if (m === 'REJECT') {
    await move(tx, id, 'REJECT', decision);
    await tx.empowerApplicationMaterial.updateMany({ where: { applicationId: id }, data: { approved: false } });
    await writeAudit(tx, {
      applicationId: id,
      action: 'REJECT',
      from: 'SUBMITTED',
      to: 'REJECTED',
      user,
      client,
      comment: body.comment,
    });
    await applicationDecided(tx, id, false, body.comment, now);
    return 0;
  }

  // what is approved: all or some of what was asked, for the period asked or a shorter one
  const approved = body.materialCodes ? unique(body.materialCodes) : asked;
  const askedFrom = dayOf(app.validFrom);
  const askedUntil = dayOf(app.validUntil);
  const from = body.validFrom ?? askedFrom;
  const until = body.validUntil ?? askedUntil;
  const errors: FieldError[] = [];
  const extra = approved.filter((c) => !asked.includes(c));
  if (extra.length) errors.push({ field: 'materialCodes', message: `物料 ${extra.join('、')} 不在该申请中` });
  const dropped = await notSupplied(
    tx,
    app.supplierCode,
    approved.filter((c) => asked.includes(c)),
  );
  if (dropped.length)
    errors.push({ field: 'materialCodes', message: `供应商已不再供应物料 ${dropped.join('、')}，请取消勾选后再批准` });
  if (from < askedFrom)
    errors.push({ field: 'validFrom', message: `开始日期不能早于申请的 ${askedFrom}（只能缩短期限）` });
  // one end given, the other the application's: the pair may still be inverted
  if (from > until)
    errors.push({
      field: body.validFrom ? 'validFrom' : 'validUntil',
      message: body.validFrom ? `开始日期不能晚于截止日期 ${until}` : `截止日期不能早于开始日期 ${from}`,
    });
  else if (until > askedUntil)
    errors.push({ field: 'validUntil', message: `截止日期不能晚于申请的 ${askedUntil}（只能缩短期限）` });
  else if (until < today(now))
    errors.push({ field: 'validUntil', message: `截止日期 ${until} 已过，批准后的授权不会生效；请驳回或调整截止日期` });
  if (errors.length) throw badRequest(`${named}${errors[0]!.message}`, errors);

  await move(tx, id, 'APPROVE', { ...decision, approvedFrom: dateValue(from), approvedUntil: dateValue(until) });
  await tx.empowerApplicationMaterial.updateMany({ where: { applicationId: id }, data: { approved: false } });
  await tx.empowerApplicationMaterial.updateMany({
    where: { applicationId: id, materialCode: { in: approved } },
    data: { approved: true },
  });
  const window = grantWindow(from, until);
  await tx.empowerGrant.createMany({
    data: approved.map((materialCode) => ({
      supplierCode: app.supplierCode,
      materialCode,
      ...window,
      applicationId: id,
      createdBy: user.account,
      approverId: user.id,
      approverAccount: user.account,
      approverName: cut(nameOf(user), 100),
      approvedAt: now,
    })),
  });
  const partial =
    approved.length < asked.length
      ? `批准 ${approved.length}/${asked.length} 个物料（${approved.join('、')}）`
      : `批准全部 ${asked.length} 个物料`;
  const period =
    from !== askedFrom || until !== askedUntil
      ? `；期限调整为 ${from} 至 ${until}（申请 ${askedFrom} 至 ${askedUntil}）`
      : `；期限 ${from} 至 ${until}`;
  await writeAudit(tx, {
    applicationId: id,
    action: 'APPROVE',
    from: 'SUBMITTED',
    to: 'APPROVED',
    user,
    client,
    comment: [partial + period, body.comment].filter(Boolean).join('。'),
  });
  await applicationDecided(tx, id, true, body.comment, now);
  return approved.length;
}

// ---- revoking a grant ----------------------------------------------------------------------------------------

/** revokeEmpower: closes a grant now, once, with who and why; it stays on record. */
export async function revokeGrant(
  db: Db,
  user: SessionUser,
  id: number,
  reason: string,
  rules: EmpowerRules,
  now = new Date(),
): Promise<GrantRow> {
  const { count } = await db.empowerGrant.updateMany({
    where: { id, revokedAt: null, validUntil: { gt: now } },
    data: {
      revokedAt: now,
      revokedById: user.id,
      revokedByAccount: user.account,
      revokedByName: cut(nameOf(user), 100),
      revokeReason: reason,
    },
  });
  if (count === 0) {
    const g = await db.empowerGrant.findUnique({
      where: { id },
      select: { revokedAt: true, revokedByName: true, validUntil: true },
    });
    if (!g) throw notFound('授权不存在');
    if (g.revokedAt) throw conflict(`该授权已于 ${cstDateTime(g.revokedAt)} 被${g.revokedByName ?? ''}撤销`);
    throw conflict(`该授权已于 ${cstDayText(g.validUntil)} 过期，无需撤销`);
  }
  return grantRow(db, id, rules, now);
}
