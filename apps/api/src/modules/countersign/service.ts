/**
 * Countersign lists (issue 12): drafts, and the moves of the transition table in contracts
 * (COUNTERSIGN_TRANSITIONS) — issue, sign (supplier, then each internal signer in order), return,
 * complete, cancel.
 *
 * Each move is `UPDATE countersign … WHERE id = ? AND status = <from> AND round = <seen> AND
 * step = <seen>` in the transaction that writes its signature and CountersignEvent rows: of two
 * concurrent submits of one step, one changes the row, the other waits on its lock, then finds it
 * moved (0 rows) and answers 409. Reads before the move only give the better message.
 *
 * Each issue freezes the round's content (title, items, due date, notice, the file versions with
 * their sha256, the signers) in CountersignRound with its sha256: what every signature of the
 * round signed. Editing a returned list changes the next round's content only.
 */
import { createHash } from 'node:crypto';
import type { z } from 'zod';
import {
  COUNTERSIGN_ACTION_BUTTONS,
  COUNTERSIGN_EDITABLE,
  COUNTERSIGN_TRANSITIONS,
  DRAWING_ADMIN_TYPES,
  USER_TYPE_LABELS,
  canMove,
  countersignMoveRefusal,
  type CountersignAction,
  type CountersignDetail,
  type CountersignEventAction,
  type CountersignFile,
  type CountersignMove,
  type CountersignRound,
  type CountersignSigner,
  type CountersignStatus,
  type FieldError,
  type FileStatus,
  type FileType,
  type UserType,
  type ZCountersignDraftSchema,
  type ZCountersignSubmitSchema,
} from '@esm/contracts';
import { Prisma } from '../../generated/prisma/client.ts';
import type { Db } from '../../db/database.ts';
import { cstDay } from '../../lib/dates.ts';
import { keywordSql, whereSql } from '../../lib/list.ts';
import type { SessionUser } from '../../plugins/auth.ts';
import { badRequest, conflict, forbidden, notFound } from '../../plugins/errors.ts';
import type { ClientInfo } from '../logs/writer.ts';
import { grantedActions, type ButtonChecker } from '../permissions/apply.ts';
import { findCountersignRow } from './query.ts';

type Tx = Prisma.TransactionClient;
type Q = Tx | Db;
type Draft = z.output<typeof ZCountersignDraftSchema>;
type Submit = z.output<typeof ZCountersignSubmitSchema>;

export const COUNTERSIGN_NOT_FOUND = '会签单不存在';
const ONLY_ISSUER = '只有发起人可以编辑、下发或取消该会签单';

/** Whose side the caller is on: a supplier acts only within its own supplier's lists. */
/** Who asks: an internal user (whose offered actions the button table trims, issue 14) or a supplier's. */
export type Side = { kind: 'internal'; buttons: ButtonChecker } | { kind: 'supplier'; supplierCode: string };
const scopeOf = (side: Side) => (side.kind === 'supplier' ? side.supplierCode : undefined);

const displayName = (u: SessionUser) => (u.isSupplier ? u.nick : u.name);
const departmentOf = (type: number) => USER_TYPE_LABELS[type as UserType] ?? '内部';
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

// ---- the audit trail -------------------------------------------------------------------------------

export function writeEvent(tx: Tx, e: { id: number; round: number; action: CountersignEventAction; user: SessionUser; client: ClientInfo; at: Date; detail?: string | null }) {
  return tx.countersignEvent.create({
    data: {
      countersignId: e.id,
      round: e.round,
      action: e.action,
      userId: e.user.id,
      userAccount: e.user.account,
      userName: displayName(e.user),
      ip: e.client.ip.slice(0, 64),
      detail: e.detail ? e.detail.slice(0, 500) : null,
      createdAt: e.at,
    },
  });
}

// ---- the content -----------------------------------------------------------------------------------

/** The file versions, in the order given, with the sha256 the archive keeps for each. */
export async function filesOf(q: Q, ids: number[]): Promise<CountersignFile[]> {
  if (ids.length === 0) return [];
  const rows = await q.standardFile.findMany({ where: { id: { in: ids } }, select: { id: true, standardCode: true, name: true, version: true, status: true, fileName: true, fileType: true, materialCode: true, sha256: true } });
  const byId = new Map(rows.map((f) => [f.id, f]));
  return ids.flatMap((id) => {
    const f = byId.get(id);
    return f ? [{ fileId: f.id, standardCode: f.standardCode, name: f.name, version: f.version, status: f.status as FileStatus, fileName: f.fileName, fileType: f.fileType as FileType, materialCode: f.materialCode, sha256: f.sha256 }] : [];
  });
}

/** The internal signers, in order (step 1…n). */
async function signersOf(q: Q, ids: number[]): Promise<CountersignSigner[]> {
  if (ids.length === 0) return [];
  const rows = await q.user.findMany({ where: { id: { in: ids } }, select: { id: true, account: true, name: true, type: true } });
  const byId = new Map(rows.map((u) => [u.id, u]));
  return ids.flatMap((id, i) => {
    const u = byId.get(id);
    return u ? [{ step: i + 1, userId: u.id, account: u.account, name: u.name, department: departmentOf(u.type) }] : [];
  });
}

/**
 * What the database says about a draft: the supplier exists, the notice (if any) is published,
 * the due day is not past, every file version exists, every signer is an enabled internal user of
 * types 3/7/8/9. Every problem is a field error (400), all of them at once.
 */
async function checkDraft(q: Q, d: Draft, now: Date): Promise<void> {
  const errors: FieldError[] = [];
  const supplier = await q.supplier.findUnique({ where: { code: d.supplierCode }, select: { code: true } });
  if (!supplier) errors.push({ field: 'supplierCode', message: `供应商不存在：${d.supplierCode}` });
  if (d.noticeId) {
    const notice = await q.changeNotice.findUnique({ where: { id: d.noticeId }, select: { status: true, number: true } });
    if (!notice) errors.push({ field: 'noticeId', message: '变更通知不存在' });
    else if (notice.status !== 'PUBLISHED') errors.push({ field: 'noticeId', message: `变更通知 ${notice.number} 不是已发布状态，只能关联已发布的通知` });
  }
  if (d.dueDate < cstDay(now)) errors.push({ field: 'dueDate', message: '会签截止日期不能早于今天' });
  const files = new Set((await filesOf(q, d.fileIds)).map((f) => f.fileId));
  d.fileIds.forEach((id, i) => files.has(id) || errors.push({ field: `fileIds.${i}`, message: `文件版本不存在（编号 ${id}）` }));
  const users = await q.user.findMany({ where: { id: { in: d.signerIds } }, select: { id: true, name: true, type: true, enabled: true } });
  const byId = new Map(users.map((u) => [u.id, u]));
  d.signerIds.forEach((id, i) => {
    const u = byId.get(id);
    const field = `signerIds.${i}`;
    if (!u) errors.push({ field, message: `会签人不存在（编号 ${id}）` });
    else if (!(DRAWING_ADMIN_TYPES as readonly number[]).includes(u.type)) errors.push({ field, message: `${u.name} 不是图纸管理内部用户，不能作为我方会签人` });
    else if (!u.enabled) errors.push({ field, message: `${u.name} 的账号已停用` });
  });
  if (errors.length) throw badRequest(errors[0]!.message, errors);
}

const draftData = (d: Draft) => ({
  title: d.title,
  supplierCode: d.supplierCode,
  noticeId: d.noticeId ?? null,
  items: d.items,
  dueDate: new Date(`${d.dueDate}T00:00:00Z`),
  fileIds: d.fileIds,
  signerIds: d.signerIds,
});

// ---- reading one list ----------------------------------------------------------------------------------

interface RoundContent {
  title: string;
  items: string;
  dueDate: string;
  supplierCode: string;
  supplierName: string;
  noticeNumber: string | null;
  files: CountersignFile[];
  signers: CountersignSigner[];
}

/** What the caller may do on the list now: the page shows exactly these. */
function actionsFor(user: SessionUser, c: { status: CountersignStatus; step: number; signerIds: number[]; createdById: number }): CountersignAction[] {
  const out: CountersignAction[] = [];
  if (user.isSupplier) {
    if (c.status === 'SUPPLIER_SIGNING') out.push('sign');
  } else {
    const issuer = c.createdById === user.id;
    if (issuer && COUNTERSIGN_EDITABLE.includes(c.status)) out.push('edit');
    if (issuer && canMove(COUNTERSIGN_TRANSITIONS, 'issue', c.status)) out.push('issue');
    if (issuer && canMove(COUNTERSIGN_TRANSITIONS, 'cancel', c.status)) out.push('cancel');
    if (c.status === 'INTERNAL_SIGNING' && c.signerIds[c.step - 1] === user.id) out.push('sign');
  }
  if (c.status === 'COMPLETED') out.push('download');
  return out;
}

/** actionsFor, less (internal side) the actions whose page button the caller's type lacks: their routes refuse them. */
async function offeredActions(user: SessionUser, side: Side, c: Parameters<typeof actionsFor>[1]): Promise<CountersignAction[]> {
  const actions = actionsFor(user, c);
  return side.kind === 'internal' ? grantedActions(side.buttons, user.type, actions, COUNTERSIGN_ACTION_BUTTONS) : actions;
}

/** Either Info call: for a supplier only its own issued lists (another's answers as missing). */
export async function countersignDetail(db: Db, user: SessionUser, id: number, side: Side, now = new Date()): Promise<CountersignDetail> {
  const row = await findCountersignRow(db, id, scopeOf(side), now);
  if (!row) throw notFound(COUNTERSIGN_NOT_FOUND);
  const c = await db.countersign.findUniqueOrThrow({ where: { id }, select: { items: true, fileIds: true, signerIds: true, createdById: true, cancelReason: true } });
  const [files, signers, rounds, signatures, events] = await Promise.all([
    filesOf(db, c.fileIds),
    signersOf(db, c.signerIds),
    db.countersignRound.findMany({ where: { countersignId: id }, orderBy: { round: 'asc' } }),
    db.countersignSignature.findMany({ where: { countersignId: id }, orderBy: [{ round: 'asc' }, { step: 'asc' }] }),
    side.kind === 'internal' ? db.countersignEvent.findMany({ where: { countersignId: id }, orderBy: { id: 'asc' } }) : Promise.resolve([]),
  ]);
  return {
    ...row,
    items: c.items,
    files,
    signers,
    cancelReason: c.cancelReason,
    rounds: rounds.map((r): CountersignRound => {
      const content = r.content as unknown as RoundContent;
      return {
        round: r.round,
        title: content.title,
        items: content.items,
        dueDate: content.dueDate,
        noticeNumber: content.noticeNumber,
        files: content.files,
        signers: content.signers,
        contentSha256: r.contentSha256,
        issuedAt: r.issuedAt.toISOString(),
        issuedByName: r.issuedByName,
        outcome: r.outcome as CountersignRound['outcome'],
        endedAt: r.endedAt?.toISOString() ?? null,
        signatures: signatures
          .filter((s) => s.round === r.round)
          .map((s) => ({
            id: s.id,
            round: s.round,
            step: s.step,
            userAccount: s.userAccount,
            userName: s.userName,
            supplierCode: s.supplierCode,
            supplierName: s.supplierName,
            department: s.department,
            decision: s.decision as 'AGREE',
            comment: s.comment,
            contentSha256: s.contentSha256,
            ip: s.ip,
            createdAt: s.createdAt.toISOString(),
          })),
      };
    }),
    events: events.map((e) => ({ id: e.id, round: e.round, action: e.action as CountersignEventAction, userAccount: e.userAccount, userName: e.userName, ip: e.ip, detail: e.detail, createdAt: e.createdAt.toISOString() })),
    actions: await offeredActions(user, side, { status: row.status, step: row.step, signerIds: c.signerIds, createdById: c.createdById }),
  };
}

// ---- drafts ------------------------------------------------------------------------------------------

export async function createDraft(db: Db, user: SessionUser, d: Draft, client: ClientInfo, now = new Date()): Promise<number> {
  return db.$transaction(async (tx) => {
    await checkDraft(tx, d, now);
    const created = await tx.countersign.create({
      data: { ...draftData(d), number: `tmp-${now.getTime()}`.slice(0, 20), status: 'DRAFT', createdById: user.id, createdByName: user.name, createdAt: now, updatedAt: now },
      select: { id: true },
    });
    // the number follows the id: unique without a counter of its own
    const number = `HQ-${cstDay(now).slice(0, 4)}-${String(created.id).padStart(4, '0')}`;
    await tx.countersign.update({ where: { id: created.id }, data: { number } });
    await writeEvent(tx, { id: created.id, round: 0, action: 'CREATE', user, client, at: now, detail: `${number}，${d.fileIds.length} 个文件版本，${d.signerIds.length} 位会签人` });
    return created.id;
  });
}

/** The list as the issuer acts on it; 404 when missing, 403 when the caller did not issue it. */
async function issuerRow(tx: Tx, user: SessionUser, id: number) {
  const c = await tx.countersign.findUnique({ where: { id } });
  if (!c) throw notFound(COUNTERSIGN_NOT_FOUND);
  if (c.createdById !== user.id) throw forbidden(ONLY_ISSUER);
  return c;
}

export async function updateDraft(db: Db, user: SessionUser, id: number, d: Draft, client: ClientInfo, now = new Date()): Promise<void> {
  await db.$transaction(async (tx) => {
    const c = await issuerRow(tx, user, id);
    const status = c.status as CountersignStatus;
    if (!COUNTERSIGN_EDITABLE.includes(status)) throw conflict(countersignMoveRefusal('edit', status));
    await checkDraft(tx, d, now);
    // the edit is a guarded write too: a list issued meanwhile is not edited
    const { count } = await tx.countersign.updateMany({ where: { id, status: c.status, round: c.round }, data: { ...draftData(d), updatedAt: now } });
    if (count === 0) throw conflict('会签单已被他人更新，请刷新后重试');
    await writeEvent(tx, { id, round: c.round, action: 'UPDATE', user, client, at: now, detail: status === 'RETURNED' ? `第 ${c.round + 1} 轮的内容` : null });
  });
}

// ---- moves ---------------------------------------------------------------------------------------------

/**
 * `UPDATE countersign SET status = <to of move>, <set> WHERE id = ? AND status = <seen> AND round
 * = <seen> AND step = <seen>`: whether this transaction made the move. The seen status must be one
 * the move may leave (checked first: that refusal names the move).
 */
async function move(tx: Tx, id: number, m: CountersignMove, seen: { status: CountersignStatus; round: number; step: number }, set: Prisma.Sql): Promise<boolean> {
  const t = COUNTERSIGN_TRANSITIONS[m];
  if (!canMove(COUNTERSIGN_TRANSITIONS, m, seen.status)) throw conflict(countersignMoveRefusal(m, seen.status));
  const moved = await tx.$executeRaw`UPDATE countersign SET status = ${t.to}, ${set}
    WHERE id = ${id} AND status = ${seen.status} AND round = ${seen.round} AND step = ${seen.step}`;
  return moved === 1;
}

export async function issueCountersign(db: Db, user: SessionUser, id: number, client: ClientInfo, now = new Date()): Promise<void> {
  await db.$transaction(async (tx) => {
    const c = await issuerRow(tx, user, id);
    const status = c.status as CountersignStatus;
    if (!canMove(COUNTERSIGN_TRANSITIONS, 'issue', status)) throw conflict(countersignMoveRefusal('issue', status));
    const draft: Draft = { title: c.title, supplierCode: c.supplierCode, noticeId: c.noticeId ?? undefined, items: c.items, dueDate: cstDay(c.dueDate), fileIds: c.fileIds, signerIds: c.signerIds };
    try {
      await checkDraft(tx, draft, now);
    } catch (e) {
      throw conflict(`${(e as Error).message}，请编辑会签单后再下发`);
    }
    const round = c.round + 1;
    const moved = await move(tx, id, 'issue', { status, round: c.round, step: c.step }, Prisma.sql`round = ${round}, step = 0, issued_at = COALESCE(issued_at, ${now}), updated_at = ${now}`);
    if (!moved) throw conflict('该会签单已下发，不能重复下发');
    const [supplier, notice, files, signers] = await Promise.all([
      tx.supplier.findUniqueOrThrow({ where: { code: c.supplierCode }, select: { name: true } }),
      c.noticeId ? tx.changeNotice.findUnique({ where: { id: c.noticeId }, select: { number: true } }) : null,
      filesOf(tx, c.fileIds),
      signersOf(tx, c.signerIds),
    ]);
    const content: RoundContent = { title: c.title, items: c.items, dueDate: draft.dueDate, supplierCode: c.supplierCode, supplierName: supplier.name, noticeNumber: notice?.number ?? null, files, signers };
    const contentSha256 = sha256(JSON.stringify({ number: c.number, round, ...content }));
    await tx.countersignRound.create({ data: { countersignId: id, round, content: content as unknown as Prisma.InputJsonValue, contentSha256, issuedAt: now, issuedByName: user.name } });
    await writeEvent(tx, { id, round, action: 'ISSUE', user, client, at: now, detail: `第 ${round} 轮下发给 ${c.supplierCode} ${supplier.name}` });
  });
}

export async function cancelCountersign(db: Db, user: SessionUser, id: number, reason: string, client: ClientInfo, now = new Date()): Promise<void> {
  await db.$transaction(async (tx) => {
    const c = await issuerRow(tx, user, id);
    const seen = { status: c.status as CountersignStatus, round: c.round, step: c.step };
    if (!(await move(tx, id, 'cancel', seen, Prisma.sql`cancelled_at = ${now}, cancel_reason = ${reason}, updated_at = ${now}`))) throw conflict('该会签单已被他人更新，请刷新后重试');
    await writeEvent(tx, { id, round: c.round, action: 'CANCEL', user, client, at: now, detail: reason });
  });
}

// ---- signing -------------------------------------------------------------------------------------------

/** Why this caller cannot sign this step of this list now (out of turn, stale, or already signed): the 409's words. */
async function refusal(tx: Tx, user: SessionUser, c: { id: number; status: string; round: number; step: number; signerIds: number[] }, b: Submit, side: Side): Promise<string | null> {
  const status = c.status as CountersignStatus;
  const signedAlready = await tx.countersignSignature.findUnique({ where: { countersignId_round_step: { countersignId: c.id, round: b.round, step: b.step } }, select: { userName: true } });
  if (signedAlready) return `该步骤已由 ${signedAlready.userName} 提交会签，不能重复提交`;
  if (status !== 'SUPPLIER_SIGNING' && status !== 'INTERNAL_SIGNING') return countersignMoveRefusal('supplierSign', status);
  if (side.kind === 'supplier') {
    if (status !== 'SUPPLIER_SIGNING') return '贵公司已会签，当前等待我方会签';
  } else {
    if (status === 'SUPPLIER_SIGNING') return '尚未轮到我方会签，当前等待供应商会签';
    if (c.signerIds[c.step - 1] !== user.id) return c.signerIds.includes(user.id) ? '尚未轮到您会签，请等待前面的会签人' : '您不是该会签单当前步骤的会签人';
  }
  return b.round !== c.round || b.step !== c.step ? '会签单已有新的进展，请刷新后查看' : null;
}

/**
 * A signature: 同意 / 有条件同意 moves to the next step (or completes the list after the last
 * signer); 退回 ends the round. The move, the signature (with the round's content sha256) and the
 * event commit together; a second submit of the same step finds the row moved and gets 409.
 */
export async function submitSignature(db: Db, user: SessionUser, b: Submit, side: Side, client: ClientInfo, now = new Date()) {
  return db.$transaction(async (tx) => {
    const c = await tx.countersign.findFirst({ where: { id: b.id, ...(side.kind === 'supplier' ? { supplierCode: side.supplierCode, round: { gt: 0 } } : {}) } });
    if (!c) throw notFound(COUNTERSIGN_NOT_FOUND);
    const why = await refusal(tx, user, c, b, side);
    if (why) throw conflict(why);
    const status = c.status as CountersignStatus;
    const last = status === 'INTERNAL_SIGNING' && c.step === c.signerIds.length;
    const m: CountersignMove = b.decision === 'RETURN' ? 'return' : status === 'SUPPLIER_SIGNING' ? 'supplierSign' : last ? 'complete' : 'internalSign';
    const nextStep = m === 'return' ? c.step : c.step + 1;
    const moved = await move(tx, c.id, m, { status, round: c.round, step: c.step }, Prisma.sql`step = ${nextStep}, updated_at = ${now}${m === 'complete' ? Prisma.sql`, completed_at = ${now}` : Prisma.empty}`);
    if (!moved) {
      // another submit of this step committed first (we waited on its row lock): say what it did
      throw conflict((await refusal(tx, user, (await tx.countersign.findUniqueOrThrow({ where: { id: c.id } })), b, side)) ?? '会签单已有新的进展，请刷新后查看');
    }
    const round = await tx.countersignRound.findUniqueOrThrow({ where: { countersignId_round: { countersignId: c.id, round: c.round } }, select: { contentSha256: true } });
    await tx.countersignSignature.create({
      data: {
        countersignId: c.id,
        round: c.round,
        step: c.step,
        userId: user.id,
        userAccount: user.account,
        userName: displayName(user),
        supplierCode: user.isSupplier ? user.supplierCode : null,
        supplierName: user.isSupplier ? user.supplierName : null,
        department: user.isSupplier ? null : departmentOf(user.type),
        decision: b.decision,
        comment: b.comment ?? null,
        contentSha256: round.contentSha256,
        ip: client.ip.slice(0, 64),
        createdAt: now,
      },
    });
    if (m === 'return' || m === 'complete') {
      await tx.countersignRound.update({ where: { countersignId_round: { countersignId: c.id, round: c.round } }, data: { outcome: m === 'return' ? 'RETURNED' : 'COMPLETED', endedAt: now } });
    }
    const label = b.decision === 'AGREE' ? '同意' : b.decision === 'CONDITIONAL' ? `有条件同意：${b.comment}` : `退回：${b.comment}`;
    await writeEvent(tx, { id: c.id, round: c.round, action: m === 'return' ? 'RETURN' : 'SIGN', user, client, at: now, detail: label });
    if (m === 'complete') await writeEvent(tx, { id: c.id, round: c.round, action: 'COMPLETE', user, client, at: now, detail: '全部会签完成，生成签核单' });
    return { status: COUNTERSIGN_TRANSITIONS[m].to as CountersignStatus, round: c.round, step: nextStep };
  });
}

// ---- pickers -------------------------------------------------------------------------------------------

/** Internal users who may countersign (types 3/7/8/9, enabled), by account or name. */
export async function countersignerOptions(db: Db, keyword: string | undefined) {
  const where = whereSql([Prisma.sql`u.type = ANY(${[...DRAWING_ADMIN_TYPES]}::int[]) AND u.enabled`, keywordSql(['u.account', 'u.name'], keyword)]);
  const rows = await db.$queryRaw<{ id: number; account: string; name: string; type: number }[]>`SELECT u.id, u.account, u.name, u.type FROM app_user u ${where} ORDER BY u.account LIMIT 30`;
  return rows.map((u) => ({ id: u.id, account: u.account, name: u.name, department: departmentOf(u.type) }));
}

/** File versions to pick from, by standard code or name (newest first), or the ones named. */
export async function fileOptions(db: Db, q: { keyword?: string; ids?: number[] }) {
  const where = q.ids?.length ? whereSql([Prisma.sql`f.id = ANY(${q.ids}::int[])`]) : whereSql([keywordSql(['f.standard_code', 'f.name'], q.keyword)]);
  const rows = await db.$queryRaw<{ id: number }[]>`SELECT f.id FROM standard_file f ${where} ORDER BY f.id DESC LIMIT 30`;
  return filesOf(db, rows.map((r) => r.id));
}
