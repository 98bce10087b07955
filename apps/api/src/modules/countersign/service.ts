/**
 * Countersign lists: drafts, and the moves of the transition table in contracts
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
import type { ClientInfo } from '../../lib/access-log.ts';
import { grantedActions, type ButtonChecker } from '../../lib/permission-rules.ts';
import { findCountersignRow } from './query.ts';
import { lockRecord } from '../../db/workflow-lock.ts';
import { countersignCompleted, countersignReturned, countersignWaiting } from '../notifications/index.ts';

type Tx = Prisma.TransactionClient;
type Q = Tx | Db;
type Draft = z.output<typeof ZCountersignDraftSchema>;
type Submit = z.output<typeof ZCountersignSubmitSchema>;

export const COUNTERSIGN_NOT_FOUND = '会签单不存在';
const ONLY_ISSUER = '只有发起人可以编辑、下发或取消该会签单';

/** Whose side the caller is on: a supplier acts only within its own supplier's lists. */
/** Who asks: an internal user (whose offered actions the button table trims) or a supplier's. */
export type Side = { kind: 'internal'; buttons: ButtonChecker } | { kind: 'supplier'; supplierCode: string };
const scopeOf = (side: Side) => (side.kind === 'supplier' ? side.supplierCode : undefined);

const displayName = (u: SessionUser) => (u.isSupplier ? u.nick : u.name);
const departmentOf = (type: number) => USER_TYPE_LABELS[type as UserType] ?? '内部';
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

// ---- the audit trail -------------------------------------------------------------------------------

type EventInput = { id: number; round: number; action: CountersignEventAction; user: SessionUser; client: ClientInfo; at: Date; detail?: string | null };

/** The CountersignEvent row of an event: what writeEvent writes, and what the seed's batch (writeCountersignHistories) writes. */
const eventData = (e: EventInput) => ({
  countersignId: e.id,
  round: e.round,
  action: e.action,
  userId: e.user.id,
  userAccount: e.user.account,
  userName: displayName(e.user),
  ip: e.client.ip.slice(0, 64),
  detail: e.detail ? e.detail.slice(0, 500) : null,
  createdAt: e.at,
});

export function writeEvent(tx: Tx, e: EventInput) {
  return tx.countersignEvent.create({ data: eventData(e) });
}

// ---- the content -----------------------------------------------------------------------------------

const FILE_SELECT = { id: true, standardCode: true, name: true, version: true, status: true, fileName: true, fileType: true, materialCode: true, sha256: true } as const;
type FileFact = Prisma.StandardFileGetPayload<{ select: typeof FILE_SELECT }>;
type UserFact = { id: number; account: string; name: string; type: number };

/** The file versions `ids` names, in that order, with the sha256 the archive keeps for each (a missing one is left out). */
function filesInOrder(byId: Map<number, FileFact>, ids: number[]): CountersignFile[] {
  return ids.flatMap((id) => {
    const f = byId.get(id);
    return f ? [{ fileId: f.id, standardCode: f.standardCode, name: f.name, version: f.version, status: f.status as FileStatus, fileName: f.fileName, fileType: f.fileType as FileType, materialCode: f.materialCode, sha256: f.sha256 }] : [];
  });
}

/** The internal signers `ids` names, in order (step 1…n). */
function signersInOrder(byId: Map<number, UserFact>, ids: number[]): CountersignSigner[] {
  return ids.flatMap((id, i) => {
    const u = byId.get(id);
    return u ? [{ step: i + 1, userId: u.id, account: u.account, name: u.name, department: departmentOf(u.type) }] : [];
  });
}

/** The file versions, in the order given, with the sha256 the archive keeps for each. */
export async function filesOf(q: Q, ids: number[]): Promise<CountersignFile[]> {
  if (ids.length === 0) return [];
  const rows = await q.standardFile.findMany({ where: { id: { in: ids } }, select: FILE_SELECT });
  return filesInOrder(new Map(rows.map((f) => [f.id, f])), ids);
}

/** The internal signers, in order (step 1…n). */
async function signersOf(q: Q, ids: number[]): Promise<CountersignSigner[]> {
  if (ids.length === 0) return [];
  const rows = await q.user.findMany({ where: { id: { in: ids } }, select: { id: true, account: true, name: true, type: true } });
  return signersInOrder(new Map(rows.map((u) => [u.id, u])), ids);
}

/** What the database says about the suppliers, notices, file versions and users that drafts name: read once, checked and snapshotted from memory. */
interface DraftFacts {
  suppliers: Map<string, { name: string }>;
  notices: Map<number, { status: string; number: string }>;
  files: Map<number, FileFact>;
  users: Map<number, UserFact & { enabled: boolean }>;
  /** `${noticeId}\u0000${supplierCode}`: the notice went to that supplier. */
  noticeSentTo: Set<string>;
  /** `${supplierCode}\u0000${materialCode}`: the supplier supplies that material. */
  supplied: Set<string>;
}

async function draftFacts(q: Q, drafts: Draft[]): Promise<DraftFacts> {
  const unique = <T>(values: T[]) => [...new Set(values)];
  const codes = unique(drafts.map((d) => d.supplierCode));
  const noticeIds = unique(drafts.flatMap((d) => (d.noticeId ? [d.noticeId] : [])));
  const fileIds = unique(drafts.flatMap((d) => d.fileIds));
  const userIds = unique(drafts.flatMap((d) => d.signerIds));
  const [suppliers, notices, files, users] = await Promise.all([
    q.supplier.findMany({ where: { code: { in: codes } }, select: { code: true, name: true } }),
    noticeIds.length ? q.changeNotice.findMany({ where: { id: { in: noticeIds } }, select: { id: true, status: true, number: true } }) : [],
    fileIds.length ? q.standardFile.findMany({ where: { id: { in: fileIds } }, select: FILE_SELECT }) : [],
    userIds.length ? q.user.findMany({ where: { id: { in: userIds } }, select: { id: true, account: true, name: true, type: true, enabled: true } }) : [],
  ]);
  const materials = unique(files.map((f) => f.materialCode));
  const [sent, supplied] = await Promise.all([
    noticeIds.length ? q.noticeRecipient.findMany({ where: { noticeId: { in: noticeIds }, supplierCode: { in: codes } }, select: { noticeId: true, supplierCode: true } }) : [],
    materials.length ? q.supplierMaterial.findMany({ where: { supplierCode: { in: codes }, materialCode: { in: materials } }, select: { supplierCode: true, materialCode: true } }) : [],
  ]);
  return {
    suppliers: new Map(suppliers.map((s) => [s.code, s])),
    notices: new Map(notices.map((n) => [n.id, n])),
    files: new Map(files.map((f) => [f.id, f])),
    users: new Map(users.map((u) => [u.id, u])),
    noticeSentTo: new Set(sent.map((r) => `${r.noticeId}\u0000${r.supplierCode}`)),
    supplied: new Set(supplied.map((r) => `${r.supplierCode}\u0000${r.materialCode}`)),
  };
}

/**
 * What is wrong with a draft against the facts: the supplier exists, the notice (if any) is
 * published and went to that supplier, the due day is not past, every file version exists and is
 * of a material the supplier supplies (the supplier reads the list: nothing of another supplier's
 * may be on it), every signer is an enabled internal user of types 3/7/8/9. Every problem is a
 * field error, all of them at once.
 */
function draftErrors(d: Draft, now: Date, f: DraftFacts): FieldError[] {
  const errors: FieldError[] = [];
  const supplierKnown = f.suppliers.has(d.supplierCode);
  if (!supplierKnown) errors.push({ field: 'supplierCode', message: `供应商不存在：${d.supplierCode}` });
  if (d.noticeId) {
    const notice = f.notices.get(d.noticeId);
    if (!notice) errors.push({ field: 'noticeId', message: '变更通知不存在' });
    else if (notice.status !== 'PUBLISHED') errors.push({ field: 'noticeId', message: `变更通知 ${notice.number} 不是已发布状态，只能关联已发布的通知` });
    else if (supplierKnown && !f.noticeSentTo.has(`${d.noticeId}\u0000${d.supplierCode}`)) {
      errors.push({ field: 'noticeId', message: `变更通知 ${notice.number} 未发给该供应商，只能关联发给该供应商的通知` });
    }
  }
  if (d.dueDate < cstDay(now)) errors.push({ field: 'dueDate', message: '会签截止日期不能早于今天' });
  d.fileIds.forEach((id, i) => {
    const file = f.files.get(id);
    if (!file) errors.push({ field: `fileIds.${i}`, message: `文件版本不存在（编号 ${id}）` });
    else if (supplierKnown && !f.supplied.has(`${d.supplierCode}\u0000${file.materialCode}`)) {
      errors.push({ field: `fileIds.${i}`, message: `${file.standardCode} ${file.version} 属于物料 ${file.materialCode}，该供应商不供应此物料` });
    }
  });
  d.signerIds.forEach((id, i) => {
    const u = f.users.get(id);
    const field = `signerIds.${i}`;
    if (!u) errors.push({ field, message: `会签人不存在（编号 ${id}）` });
    else if (!(DRAWING_ADMIN_TYPES as readonly number[]).includes(u.type)) errors.push({ field, message: `${u.name} 不是图纸管理内部用户，不能作为我方会签人` });
    else if (!u.enabled) errors.push({ field, message: `${u.name} 的账号已停用` });
  });
  return errors;
}

/** A draft's problems as the 400 of a create or an edit. */
function throwDraftErrors(errors: FieldError[]): void {
  if (errors.length) throw badRequest(errors[0]!.message, errors);
}

/** A draft's problems found when issuing it: a 409 (the stored list must be edited first). */
function throwNotIssuable(errors: FieldError[]): void {
  if (errors.length) throw conflict(`${errors[0]!.message}，请编辑会签单后再下发`);
}

/** Reads the facts a draft names and refuses it (400) when they do not fit. */
async function checkDraft(q: Q, d: Draft, now: Date): Promise<void> {
  throwDraftErrors(draftErrors(d, now, await draftFacts(q, [d])));
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

/** The number follows the id: unique without a counter of its own. */
const countersignNumber = (id: number, createdAt: Date) => `HQ-${cstDay(createdAt).slice(0, 4)}-${String(id).padStart(4, '0')}`;
const createDetail = (number: string, d: Draft) => `${number}，${d.fileIds.length} 个文件版本，${d.signerIds.length} 位会签人`;
const updateDetail = (status: CountersignStatus, round: number) => (status === 'RETURNED' ? `第 ${round + 1} 轮的内容` : null);
const issueDetail = (round: number, supplierCode: string, supplierName: string) => `第 ${round} 轮下发给 ${supplierCode} ${supplierName}`;

/**
 * What an issue freezes: the round's content (title, items, due date, notice, the file versions
 * with their sha256, the signers) and its sha256 — what every signature of the round signs. One
 * function for the issue call and the seed's batch: the hash of a round is this one's.
 */
function roundOf(c: { number: string; title: string; items: string; supplierCode: string; noticeId: number | null; fileIds: number[]; signerIds: number[] }, dueDate: string, round: number, f: DraftFacts) {
  const supplier = f.suppliers.get(c.supplierCode);
  if (!supplier) throw new Error(`countersign ${c.number}: supplier ${c.supplierCode} not found`);
  const noticeNumber = c.noticeId ? (f.notices.get(c.noticeId)?.number ?? null) : null;
  const content: RoundContent = { title: c.title, items: c.items, dueDate, supplierCode: c.supplierCode, supplierName: supplier.name, noticeNumber, files: filesInOrder(f.files, c.fileIds), signers: signersInOrder(f.users, c.signerIds) };
  return { content, contentSha256: sha256(JSON.stringify({ number: c.number, round, ...content })) };
}

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
    const number = countersignNumber(created.id, now);
    await tx.countersign.update({ where: { id: created.id }, data: { number } });
    await writeEvent(tx, { id: created.id, round: 0, action: 'CREATE', user, client, at: now, detail: createDetail(number, d) });
    return created.id;
  });
}

/**
 * The list as the issuer acts on it, locked first (db/workflow-lock.ts: an issue freezes what an
 * edit in flight committed); 404 when missing, 403 when the caller did not issue it.
 */
async function issuerRow(tx: Tx, user: SessionUser, id: number) {
  await lockRecord(tx, 'countersign', id);
  const c = await tx.countersign.findUnique({ where: { id } });
  if (!c) throw notFound(COUNTERSIGN_NOT_FOUND);
  if (c.createdById !== user.id) throw forbidden(ONLY_ISSUER);
  return c;
}

/** Only a draft or a returned list is edited (409 otherwise). */
function checkEditable(status: CountersignStatus): void {
  if (!COUNTERSIGN_EDITABLE.includes(status)) throw conflict(countersignMoveRefusal('edit', status));
}

export async function updateDraft(db: Db, user: SessionUser, id: number, d: Draft, client: ClientInfo, now = new Date()): Promise<void> {
  await db.$transaction(async (tx) => {
    const c = await issuerRow(tx, user, id);
    const status = c.status as CountersignStatus;
    checkEditable(status);
    await checkDraft(tx, d, now);
    // the edit is a guarded write too: a list issued meanwhile is not edited
    const { count } = await tx.countersign.updateMany({ where: { id, status: c.status, round: c.round }, data: { ...draftData(d), updatedAt: now } });
    if (count === 0) throw conflict('会签单已被他人更新，请刷新后重试');
    await writeEvent(tx, { id, round: c.round, action: 'UPDATE', user, client, at: now, detail: updateDetail(status, c.round) });
  });
}

// ---- moves ---------------------------------------------------------------------------------------------

/** What a move writes on the list besides its status: the live UPDATE and the seed's batch both take it from here. */
interface MoveColumns {
  round?: number;
  step?: number;
  issuedAt?: Date;
  completedAt?: Date;
  cancelledAt?: Date;
  cancelReason?: string;
  updatedAt: Date;
}
const MOVE_COLUMN_SQL: Record<keyof MoveColumns, string> = { round: 'round', step: 'step', issuedAt: 'issued_at', completedAt: 'completed_at', cancelledAt: 'cancelled_at', cancelReason: 'cancel_reason', updatedAt: 'updated_at' };

/** An issue opens the next round at the supplier's step; the first issue's time stays the list's. */
const issueColumns = (c: { round: number; issuedAt: Date | null }, now: Date): MoveColumns => ({ round: c.round + 1, step: 0, issuedAt: c.issuedAt ?? now, updatedAt: now });
const signColumns = (m: CountersignMove, nextStep: number, now: Date): MoveColumns => ({ step: nextStep, updatedAt: now, ...(m === 'complete' ? { completedAt: now } : {}) });
const cancelColumns = (reason: string, now: Date): MoveColumns => ({ cancelledAt: now, cancelReason: reason, updatedAt: now });

/** The status a move leads to from `status`; 409 naming the move when it may not leave it. */
function moveTo(m: CountersignMove, status: CountersignStatus): CountersignStatus {
  if (!canMove(COUNTERSIGN_TRANSITIONS, m, status)) throw conflict(countersignMoveRefusal(m, status));
  return COUNTERSIGN_TRANSITIONS[m].to;
}

/**
 * `UPDATE countersign SET status = <to of move>, <set> WHERE id = ? AND status = <seen> AND round
 * = <seen> AND step = <seen>`: whether this transaction made the move. The seen status must be one
 * the move may leave (checked first: that refusal names the move).
 */
async function move(tx: Tx, id: number, m: CountersignMove, seen: { status: CountersignStatus; round: number; step: number }, set: MoveColumns): Promise<boolean> {
  const to = moveTo(m, seen.status);
  const columns = Prisma.join(
    (Object.keys(set) as (keyof MoveColumns)[]).map((k) => Prisma.sql`${Prisma.raw(MOVE_COLUMN_SQL[k])} = ${set[k]}`),
    ', ',
  );
  const moved = await tx.$executeRaw`UPDATE countersign SET status = ${to}, ${columns}
    WHERE id = ${id} AND status = ${seen.status} AND round = ${seen.round} AND step = ${seen.step}`;
  return moved === 1;
}

export async function issueCountersign(db: Db, user: SessionUser, id: number, client: ClientInfo, now = new Date()): Promise<void> {
  await db.$transaction(async (tx) => {
    const c = await issuerRow(tx, user, id);
    const status = c.status as CountersignStatus;
    moveTo('issue', status);
    const dueDate = cstDay(c.dueDate);
    const draft: Draft = { title: c.title, supplierCode: c.supplierCode, noticeId: c.noticeId ?? undefined, items: c.items, dueDate, fileIds: c.fileIds, signerIds: c.signerIds };
    const facts = await draftFacts(tx, [draft]);
    throwNotIssuable(draftErrors(draft, now, facts));
    const set = issueColumns(c, now);
    if (!(await move(tx, id, 'issue', { status, round: c.round, step: c.step }, set))) throw conflict('该会签单已下发，不能重复下发');
    const round = set.round!;
    const { content, contentSha256 } = roundOf(c, dueDate, round, facts);
    await tx.countersignRound.create({ data: { countersignId: id, round, content: content as unknown as Prisma.InputJsonValue, contentSha256, issuedAt: now, issuedByName: user.name } });
    await writeEvent(tx, { id, round, action: 'ISSUE', user, client, at: now, detail: issueDetail(round, c.supplierCode, content.supplierName) });
    await countersignWaiting(tx, id, 'supplier', now);
  });
}

export async function cancelCountersign(db: Db, user: SessionUser, id: number, reason: string, client: ClientInfo, now = new Date()): Promise<void> {
  await db.$transaction(async (tx) => {
    const c = await issuerRow(tx, user, id);
    const seen = { status: c.status as CountersignStatus, round: c.round, step: c.step };
    if (!(await move(tx, id, 'cancel', seen, cancelColumns(reason, now)))) throw conflict('该会签单已被他人更新，请刷新后重试');
    await writeEvent(tx, { id, round: c.round, action: 'CANCEL', user, client, at: now, detail: reason });
  });
}

// ---- signing -------------------------------------------------------------------------------------------

type SignState = { id: number; status: string; round: number; step: number; signerIds: number[] };

/**
 * Why this caller cannot sign this step of this list now (out of turn, stale, or already signed):
 * the 409's words. `signedBy`: who already signed the step the caller names, if anyone.
 */
function refusalOf(user: SessionUser, c: SignState, b: Submit, side: Side, signedBy: string | null): string | null {
  const status = c.status as CountersignStatus;
  if (signedBy) return `该步骤已由 ${signedBy} 提交会签，不能重复提交`;
  if (status !== 'SUPPLIER_SIGNING' && status !== 'INTERNAL_SIGNING') return countersignMoveRefusal('supplierSign', status);
  if (side.kind === 'supplier') {
    if (status !== 'SUPPLIER_SIGNING') return '贵公司已会签，当前等待我方会签';
  } else {
    if (status === 'SUPPLIER_SIGNING') return '尚未轮到我方会签，当前等待供应商会签';
    if (c.signerIds[c.step - 1] !== user.id) return c.signerIds.includes(user.id) ? '尚未轮到您会签，请等待前面的会签人' : '您不是该会签单当前步骤的会签人';
  }
  return b.round !== c.round || b.step !== c.step ? '会签单已有新的进展，请刷新后查看' : null;
}

async function refusal(tx: Tx, user: SessionUser, c: SignState, b: Submit, side: Side): Promise<string | null> {
  const signedAlready = await tx.countersignSignature.findUnique({ where: { countersignId_round_step: { countersignId: c.id, round: b.round, step: b.step } }, select: { userName: true } });
  return refusalOf(user, c, b, side, signedAlready?.userName ?? null);
}

/** The move a decision makes from the list's state (退回 ends the round; after the last signer the list is complete) and the step it leaves. */
function signMove(c: SignState, decision: Submit['decision']): { m: CountersignMove; nextStep: number } {
  const status = c.status as CountersignStatus;
  const last = status === 'INTERNAL_SIGNING' && c.step === c.signerIds.length;
  const m: CountersignMove = decision === 'RETURN' ? 'return' : status === 'SUPPLIER_SIGNING' ? 'supplierSign' : last ? 'complete' : 'internalSign';
  return { m, nextStep: m === 'return' ? c.step : c.step + 1 };
}

/** The signature row: who, on which side, what decision, and the sha256 of the round's content signed. */
const signatureData = (c: { id: number; round: number; step: number }, user: SessionUser, b: Submit, contentSha256: string, client: ClientInfo, now: Date) => ({
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
  contentSha256,
  ip: client.ip.slice(0, 64),
  createdAt: now,
});

/** How a round ends with this move, if it does. */
const roundOutcome = (m: CountersignMove) => (m === 'return' ? 'RETURNED' : m === 'complete' ? 'COMPLETED' : null);

/** The events a signature writes: the signature (or return), and the completion after the last signer. */
function signEvents(c: { id: number; round: number }, m: CountersignMove, user: SessionUser, b: Submit, client: ClientInfo, now: Date): EventInput[] {
  const label = b.decision === 'AGREE' ? '同意' : b.decision === 'CONDITIONAL' ? `有条件同意：${b.comment}` : `退回：${b.comment}`;
  const events: EventInput[] = [{ id: c.id, round: c.round, action: m === 'return' ? 'RETURN' : 'SIGN', user, client, at: now, detail: label }];
  if (m === 'complete') events.push({ id: c.id, round: c.round, action: 'COMPLETE', user, client, at: now, detail: '全部会签完成，生成签核单' });
  return events;
}

/** Who hears of a signature: the next signer in turn, the issuer of a returned list, everyone of a completed one. */
async function notifyTurn(tx: Tx, c: SignState, m: CountersignMove, nextStep: number, by: string, comment: string | undefined, now: Date): Promise<void> {
  if (m === 'return') await countersignReturned(tx, c.id, by, comment, now);
  else if (m === 'complete') await countersignCompleted(tx, c.id, now);
  else {
    const next = c.signerIds[nextStep - 1];
    if (next !== undefined) await countersignWaiting(tx, c.id, next, now);
  }
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
    const { m, nextStep } = signMove(c, b.decision);
    const moved = await move(tx, c.id, m, { status, round: c.round, step: c.step }, signColumns(m, nextStep, now));
    if (!moved) {
      // another submit of this step committed first (we waited on its row lock): say what it did
      throw conflict((await refusal(tx, user, (await tx.countersign.findUniqueOrThrow({ where: { id: c.id } })), b, side)) ?? '会签单已有新的进展，请刷新后查看');
    }
    const round = await tx.countersignRound.findUniqueOrThrow({ where: { countersignId_round: { countersignId: c.id, round: c.round } }, select: { contentSha256: true } });
    await tx.countersignSignature.create({ data: signatureData(c, user, b, round.contentSha256, client, now) });
    const outcome = roundOutcome(m);
    if (outcome) await tx.countersignRound.update({ where: { countersignId_round: { countersignId: c.id, round: c.round } }, data: { outcome, endedAt: now } });
    for (const e of signEvents(c, m, user, b, client, now)) await writeEvent(tx, e);
    await notifyTurn(tx, c, m, nextStep, displayName(user), b.comment, now);
    return { status: COUNTERSIGN_TRANSITIONS[m].to as CountersignStatus, round: c.round, step: nextStep };
  });
}

// ---- a batch of lists with their history (the demo seed) --------------------------------------------------

/** One step of a list's history after its creation; all but a signature are the issuer's. */
export type CountersignStep =
  | { kind: 'edit'; draft: Draft; at: Date }
  | { kind: 'issue'; at: Date }
  | { kind: 'sign'; user: SessionUser; side: Side; client: ClientInfo; submit: Omit<Submit, 'id'>; at: Date }
  | { kind: 'cancel'; reason: string; at: Date };

export interface CountersignHistory {
  issuer: SessionUser;
  client: ClientInfo;
  draft: Draft;
  createdAt: Date;
  steps: CountersignStep[];
}

/**
 * Writes lists with their whole history — creation, edits, issues, signatures, returns, cancels —
 * as the calls above, one after another, would have left them, in one transaction of ~10
 * statements instead of ~200 in ~25 transactions (~1 s of a cold embedded start). Each
 * step goes through the calls' own rules, applied to the list in memory: the draft checks, the
 * transition table, the signing order and its refusals, what each move writes, the round's
 * content and its sha256, the signature and event rows. The facts the drafts name (suppliers,
 * notices, file versions, users) are read once at the start: for the demo seed, on a database no
 * one else is using yet. Ids follow the order of the histories and their steps, as the calls would
 * have given them. Returns the lists' ids.
 */
export async function writeCountersignHistories(db: Db, histories: CountersignHistory[]): Promise<number[]> {
  if (histories.length === 0) return [];
  return db.$transaction(async (tx) => {
    const facts = await draftFacts(tx, histories.flatMap((h) => [h.draft, ...h.steps.flatMap((s) => (s.kind === 'edit' ? [s.draft] : []))]));
    // the ids the creations would have taken, in order: each list's number follows its id
    const reserved = await tx.$queryRaw<{ id: number }[]>`SELECT nextval(pg_get_serial_sequence('countersign', 'id'))::int AS id FROM generate_series(1, ${histories.length}::int)`;
    const ids = reserved.map((r) => r.id).sort((a, b) => a - b);
    const lists: Prisma.CountersignCreateManyInput[] = [];
    const rounds: Prisma.CountersignRoundCreateManyInput[] = [];
    const signatures: Prisma.CountersignSignatureCreateManyInput[] = [];
    const events: Prisma.CountersignEventCreateManyInput[] = [];
    histories.forEach((h, i) => {
      const id = ids[i]!;
      let d = h.draft;
      throwDraftErrors(draftErrors(d, h.createdAt, facts));
      const number = countersignNumber(id, h.createdAt);
      const c = { id, status: 'DRAFT' as CountersignStatus, round: 0, step: 0, issuedAt: null as Date | null, completedAt: null as Date | null, cancelledAt: null as Date | null, cancelReason: null as string | null, updatedAt: h.createdAt };
      const apply = (m: CountersignMove, set: MoveColumns) => Object.assign(c, { status: moveTo(m, c.status) }, set);
      const roundsOfList = new Map<number, (typeof rounds)[number]>();
      const signedBy = new Map<string, string>(); // "round/step" → who signed it
      events.push(eventData({ id, round: 0, action: 'CREATE', user: h.issuer, client: h.client, at: h.createdAt, detail: createDetail(number, d) }));
      for (const s of h.steps) {
        if (s.kind === 'edit') {
          checkEditable(c.status);
          throwDraftErrors(draftErrors(s.draft, s.at, facts));
          events.push(eventData({ id, round: c.round, action: 'UPDATE', user: h.issuer, client: h.client, at: s.at, detail: updateDetail(c.status, c.round) }));
          d = s.draft;
          c.updatedAt = s.at;
        } else if (s.kind === 'issue') {
          moveTo('issue', c.status);
          throwNotIssuable(draftErrors(d, s.at, facts));
          apply('issue', issueColumns(c, s.at));
          const { content, contentSha256 } = roundOf({ number, ...draftData(d) }, d.dueDate, c.round, facts);
          const round = { countersignId: id, round: c.round, content: content as unknown as Prisma.InputJsonValue, contentSha256, issuedAt: s.at, issuedByName: h.issuer.name };
          roundsOfList.set(c.round, round);
          rounds.push(round);
          events.push(eventData({ id, round: c.round, action: 'ISSUE', user: h.issuer, client: h.client, at: s.at, detail: issueDetail(c.round, d.supplierCode, content.supplierName) }));
        } else if (s.kind === 'sign') {
          const b: Submit = { id, ...s.submit };
          // what submitSignature's read finds for a supplier: its own lists, once issued
          if (s.side.kind === 'supplier' && (s.side.supplierCode !== d.supplierCode || c.round === 0)) throw notFound(COUNTERSIGN_NOT_FOUND);
          const seen = { id, status: c.status, round: c.round, step: c.step, signerIds: d.signerIds };
          const why = refusalOf(s.user, seen, b, s.side, signedBy.get(`${b.round}/${b.step}`) ?? null);
          if (why) throw conflict(why);
          const { m, nextStep } = signMove(seen, b.decision);
          apply(m, signColumns(m, nextStep, s.at));
          const round = roundsOfList.get(seen.round)!;
          signatures.push(signatureData(seen, s.user, b, round.contentSha256, s.client, s.at));
          signedBy.set(`${seen.round}/${seen.step}`, displayName(s.user));
          const outcome = roundOutcome(m);
          if (outcome) Object.assign(round, { outcome, endedAt: s.at });
          events.push(...signEvents(seen, m, s.user, b, s.client, s.at).map(eventData));
        } else {
          const round = c.round;
          apply('cancel', cancelColumns(s.reason, s.at));
          events.push(eventData({ id, round, action: 'CANCEL', user: h.issuer, client: h.client, at: s.at, detail: s.reason }));
        }
      }
      lists.push({ number, ...draftData(d), ...c, createdById: h.issuer.id, createdByName: h.issuer.name, createdAt: h.createdAt });
    });
    await tx.countersign.createMany({ data: lists });
    if (rounds.length) await tx.countersignRound.createMany({ data: rounds });
    if (signatures.length) await tx.countersignSignature.createMany({ data: signatures });
    await tx.countersignEvent.createMany({ data: events });
    return ids;
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
export async function fileOptions(db: Db, q: { keyword?: string; ids?: number[]; supplierCode?: string }) {
  const supplied = q.supplierCode && Prisma.sql`EXISTS (SELECT 1 FROM supplier_material sm WHERE sm.material_code = f.material_code AND sm.supplier_code = ${q.supplierCode})`;
  const where = q.ids?.length ? whereSql([Prisma.sql`f.id = ANY(${q.ids}::int[])`]) : whereSql([keywordSql(['f.standard_code', 'f.name'], q.keyword), supplied]);
  const rows = await db.$queryRaw<{ id: number }[]>`SELECT f.id FROM standard_file f ${where} ORDER BY f.id DESC LIMIT 30`;
  return filesOf(db, rows.map((r) => r.id));
}
