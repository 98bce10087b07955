/**
 * The countersign rules, as pure functions over a list and the facts its draft names: what a
 * draft may contain, what an issue freezes (the round's content and its sha256), which move a
 * signature makes and when it is refused, and the rows each move writes. The calls
 * (transitions.ts) apply them to the database row under its lock; the demo seed (demo.ts) applies
 * them to lists in memory, so a seeded history is one the calls would have left.
 */
import { createHash } from 'node:crypto';
import type { z } from 'zod';
import {
  COUNTERSIGN_EDITABLE,
  COUNTERSIGN_TRANSITIONS,
  DRAWING_ADMIN_TYPES,
  USER_TYPE_LABELS,
  canMove,
  countersignMoveRefusal,
  type CountersignEventAction,
  type CountersignFile,
  type CountersignMove,
  type CountersignSigner,
  type CountersignStatus,
  type FieldError,
  type FileStatus,
  type FileType,
  type UserType,
  type ZCountersignDraftSchema,
  type ZCountersignSubmitSchema,
} from '@esm/contracts';
import type { Prisma } from '../../generated/prisma/client.ts';
import type { Db } from '../../db/database.ts';
import { cstDay } from '../../lib/dates.ts';
import type { SessionUser } from '../../plugins/auth.ts';
import { badRequest, conflict } from '../../plugins/errors.ts';
import type { ClientInfo } from '../../lib/access-log.ts';
import type { ButtonChecker } from '../../lib/permission-rules.ts';

export type Tx = Prisma.TransactionClient;
export type Q = Tx | Db;
export type Draft = z.output<typeof ZCountersignDraftSchema>;
export type Submit = z.output<typeof ZCountersignSubmitSchema>;

export const COUNTERSIGN_NOT_FOUND = '会签单不存在';

/** Whose side the caller is on: a supplier acts only within its own supplier's lists. */
/** Who asks: an internal user (whose offered actions the button table trims) or a supplier's. */
export type Side = { kind: 'internal'; buttons: ButtonChecker } | { kind: 'supplier'; supplierCode: string };
export const scopeOf = (side: Side) => (side.kind === 'supplier' ? side.supplierCode : undefined);

export const displayName = (u: SessionUser) => (u.isSupplier ? u.nick : u.name);
export const departmentOf = (type: number) => USER_TYPE_LABELS[type as UserType] ?? '内部';
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

// ---- the audit trail -------------------------------------------------------------------------------

export type EventInput = {
  id: number;
  round: number;
  action: CountersignEventAction;
  user: SessionUser;
  client: ClientInfo;
  at: Date;
  detail?: string | null;
};

/** The CountersignEvent row of an event: what writeEvent writes, and what the seed's batch (writeCountersignHistories) writes. */
export const eventData = (e: EventInput) => ({
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

export const FILE_SELECT = {
  id: true,
  standardCode: true,
  name: true,
  version: true,
  status: true,
  fileName: true,
  fileType: true,
  materialCode: true,
  sha256: true,
} as const;
type FileFact = Prisma.StandardFileGetPayload<{ select: typeof FILE_SELECT }>;
type UserFact = { id: number; account: string; name: string; type: number };

/** The file versions `ids` names, in that order, with the sha256 the archive keeps for each (a missing one is left out). */
export function filesInOrder(byId: Map<number, FileFact>, ids: number[]): CountersignFile[] {
  return ids.flatMap((id) => {
    const f = byId.get(id);
    return f
      ? [
          {
            fileId: f.id,
            standardCode: f.standardCode,
            name: f.name,
            version: f.version,
            status: f.status as FileStatus,
            fileName: f.fileName,
            fileType: f.fileType as FileType,
            materialCode: f.materialCode,
            sha256: f.sha256,
          },
        ]
      : [];
  });
}

/** The internal signers `ids` names, in order (step 1…n). */
export function signersInOrder(byId: Map<number, UserFact>, ids: number[]): CountersignSigner[] {
  return ids.flatMap((id, i) => {
    const u = byId.get(id);
    return u ? [{ step: i + 1, userId: u.id, account: u.account, name: u.name, department: departmentOf(u.type) }] : [];
  });
}

/** What the database says about the suppliers, notices, file versions and users that drafts name: read once, checked and snapshotted from memory. */
export interface DraftFacts {
  suppliers: Map<string, { name: string }>;
  notices: Map<number, { status: string; number: string }>;
  files: Map<number, FileFact>;
  users: Map<number, UserFact & { enabled: boolean }>;
  /** `${noticeId}\u0000${supplierCode}`: the notice went to that supplier. */
  noticeSentTo: Set<string>;
  /** `${supplierCode}\u0000${materialCode}`: the supplier supplies that material. */
  supplied: Set<string>;
}

export async function draftFacts(q: Q, drafts: Draft[]): Promise<DraftFacts> {
  const unique = <T>(values: T[]) => [...new Set(values)];
  const codes = unique(drafts.map((d) => d.supplierCode));
  const noticeIds = unique(drafts.flatMap((d) => (d.noticeId ? [d.noticeId] : [])));
  const fileIds = unique(drafts.flatMap((d) => d.fileIds));
  const userIds = unique(drafts.flatMap((d) => d.signerIds));
  const [suppliers, notices, files, users] = await Promise.all([
    q.supplier.findMany({ where: { code: { in: codes } }, select: { code: true, name: true } }),
    noticeIds.length
      ? q.changeNotice.findMany({ where: { id: { in: noticeIds } }, select: { id: true, status: true, number: true } })
      : [],
    fileIds.length ? q.standardFile.findMany({ where: { id: { in: fileIds } }, select: FILE_SELECT }) : [],
    userIds.length
      ? q.user.findMany({
          where: { id: { in: userIds } },
          select: { id: true, account: true, name: true, type: true, enabled: true },
        })
      : [],
  ]);
  const materials = unique(files.map((f) => f.materialCode));
  const [sent, supplied] = await Promise.all([
    noticeIds.length
      ? q.noticeRecipient.findMany({
          where: { noticeId: { in: noticeIds }, supplierCode: { in: codes } },
          select: { noticeId: true, supplierCode: true },
        })
      : [],
    materials.length
      ? q.supplierMaterial.findMany({
          where: { supplierCode: { in: codes }, materialCode: { in: materials } },
          select: { supplierCode: true, materialCode: true },
        })
      : [],
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
export function draftErrors(d: Draft, now: Date, f: DraftFacts): FieldError[] {
  const errors: FieldError[] = [];
  const supplierKnown = f.suppliers.has(d.supplierCode);
  if (!supplierKnown) errors.push({ field: 'supplierCode', message: `供应商不存在：${d.supplierCode}` });
  if (d.noticeId) {
    const notice = f.notices.get(d.noticeId);
    if (!notice) errors.push({ field: 'noticeId', message: '变更通知不存在' });
    else if (notice.status !== 'PUBLISHED')
      errors.push({ field: 'noticeId', message: `变更通知 ${notice.number} 不是已发布状态，只能关联已发布的通知` });
    else if (supplierKnown && !f.noticeSentTo.has(`${d.noticeId}\u0000${d.supplierCode}`)) {
      errors.push({
        field: 'noticeId',
        message: `变更通知 ${notice.number} 未发给该供应商，只能关联发给该供应商的通知`,
      });
    }
  }
  if (d.dueDate < cstDay(now)) errors.push({ field: 'dueDate', message: '会签截止日期不能早于今天' });
  d.fileIds.forEach((id, i) => {
    const file = f.files.get(id);
    if (!file) errors.push({ field: `fileIds.${i}`, message: `文件版本不存在（编号 ${id}）` });
    else if (supplierKnown && !f.supplied.has(`${d.supplierCode}\u0000${file.materialCode}`)) {
      errors.push({
        field: `fileIds.${i}`,
        message: `${file.standardCode} ${file.version} 属于物料 ${file.materialCode}，该供应商不供应此物料`,
      });
    }
  });
  d.signerIds.forEach((id, i) => {
    const u = f.users.get(id);
    const field = `signerIds.${i}`;
    if (!u) errors.push({ field, message: `会签人不存在（编号 ${id}）` });
    else if (!(DRAWING_ADMIN_TYPES as readonly number[]).includes(u.type))
      errors.push({ field, message: `${u.name} 不是图纸管理内部用户，不能作为我方会签人` });
    else if (!u.enabled) errors.push({ field, message: `${u.name} 的账号已停用` });
  });
  return errors;
}

/** A draft's problems as the 400 of a create or an edit. */
export function throwDraftErrors(errors: FieldError[]): void {
  if (errors.length) throw badRequest(errors[0]!.message, errors);
}

/** A draft's problems found when issuing it: a 409 (the stored list must be edited first). */
export function throwNotIssuable(errors: FieldError[]): void {
  if (errors.length) throw conflict(`${errors[0]!.message}，请编辑会签单后再下发`);
}

/** Reads the facts a draft names and refuses it (400) when they do not fit. */
export async function checkDraft(q: Q, d: Draft, now: Date): Promise<void> {
  throwDraftErrors(draftErrors(d, now, await draftFacts(q, [d])));
}

export const draftData = (d: Draft) => ({
  title: d.title,
  supplierCode: d.supplierCode,
  noticeId: d.noticeId ?? null,
  items: d.items,
  dueDate: new Date(`${d.dueDate}T00:00:00Z`),
  fileIds: d.fileIds,
  signerIds: d.signerIds,
});

/** The number follows the id: unique without a counter of its own. */
export const countersignNumber = (id: number, createdAt: Date) =>
  `HQ-${cstDay(createdAt).slice(0, 4)}-${String(id).padStart(4, '0')}`;
export const createDetail = (number: string, d: Draft) =>
  `${number}，${d.fileIds.length} 个文件版本，${d.signerIds.length} 位会签人`;
export const updateDetail = (status: CountersignStatus, round: number) =>
  status === 'RETURNED' ? `第 ${round + 1} 轮的内容` : null;
export const issueDetail = (round: number, supplierCode: string, supplierName: string) =>
  `第 ${round} 轮下发给 ${supplierCode} ${supplierName}`;

/**
 * What an issue freezes: the round's content (title, items, due date, notice, the file versions
 * with their sha256, the signers) and its sha256 — what every signature of the round signs. One
 * function for the issue call and the seed's batch: the hash of a round is this one's.
 */
export function roundOf(
  c: {
    number: string;
    title: string;
    items: string;
    supplierCode: string;
    noticeId: number | null;
    fileIds: number[];
    signerIds: number[];
  },
  dueDate: string,
  round: number,
  f: DraftFacts,
) {
  const supplier = f.suppliers.get(c.supplierCode);
  if (!supplier) throw new Error(`countersign ${c.number}: supplier ${c.supplierCode} not found`);
  const noticeNumber = c.noticeId ? (f.notices.get(c.noticeId)?.number ?? null) : null;
  const content: RoundContent = {
    title: c.title,
    items: c.items,
    dueDate,
    supplierCode: c.supplierCode,
    supplierName: supplier.name,
    noticeNumber,
    files: filesInOrder(f.files, c.fileIds),
    signers: signersInOrder(f.users, c.signerIds),
  };
  return { content, contentSha256: sha256(JSON.stringify({ number: c.number, round, ...content })) };
}

export interface RoundContent {
  title: string;
  items: string;
  dueDate: string;
  supplierCode: string;
  supplierName: string;
  noticeNumber: string | null;
  files: CountersignFile[];
  signers: CountersignSigner[];
}

/** Only a draft or a returned list is edited (409 otherwise). */
export function checkEditable(status: CountersignStatus): void {
  if (!COUNTERSIGN_EDITABLE.includes(status)) throw conflict(countersignMoveRefusal('edit', status));
}

// ---- moves ---------------------------------------------------------------------------------------------

/** What a move writes on the list besides its status: the live UPDATE and the seed's batch both take it from here. */
export interface MoveColumns {
  round?: number;
  step?: number;
  issuedAt?: Date;
  completedAt?: Date;
  cancelledAt?: Date;
  cancelReason?: string;
  updatedAt: Date;
}

/** An issue opens the next round at the supplier's step; the first issue's time stays the list's. */
export const issueColumns = (c: { round: number; issuedAt: Date | null }, now: Date): MoveColumns => ({
  round: c.round + 1,
  step: 0,
  issuedAt: c.issuedAt ?? now,
  updatedAt: now,
});
export const signColumns = (m: CountersignMove, nextStep: number, now: Date): MoveColumns => ({
  step: nextStep,
  updatedAt: now,
  ...(m === 'complete' ? { completedAt: now } : {}),
});
export const cancelColumns = (reason: string, now: Date): MoveColumns => ({
  cancelledAt: now,
  cancelReason: reason,
  updatedAt: now,
});

/** The status a move leads to from `status`; 409 naming the move when it may not leave it. */
export function moveTo(m: CountersignMove, status: CountersignStatus): CountersignStatus {
  if (!canMove(COUNTERSIGN_TRANSITIONS, m, status)) throw conflict(countersignMoveRefusal(m, status));
  return COUNTERSIGN_TRANSITIONS[m].to;
}

// ---- signing -------------------------------------------------------------------------------------------

export type SignState = { id: number; status: string; round: number; step: number; signerIds: number[] };

/**
 * Why this caller cannot sign this step of this list now (out of turn, stale, or already signed):
 * the 409's words. `signedBy`: who already signed the step the caller names, if anyone.
 */
export function refusalOf(
  user: SessionUser,
  c: SignState,
  b: Submit,
  side: Side,
  signedBy: string | null,
): string | null {
  const status = c.status as CountersignStatus;
  if (signedBy) return `该步骤已由 ${signedBy} 提交会签，不能重复提交`;
  if (status !== 'SUPPLIER_SIGNING' && status !== 'INTERNAL_SIGNING')
    return countersignMoveRefusal('supplierSign', status);
  if (side.kind === 'supplier') {
    if (status !== 'SUPPLIER_SIGNING') return '贵公司已会签，当前等待我方会签';
  } else {
    if (status === 'SUPPLIER_SIGNING') return '尚未轮到我方会签，当前等待供应商会签';
    if (c.signerIds[c.step - 1] !== user.id)
      return c.signerIds.includes(user.id) ? '尚未轮到您会签，请等待前面的会签人' : '您不是该会签单当前步骤的会签人';
  }
  return b.round !== c.round || b.step !== c.step ? '会签单已有新的进展，请刷新后查看' : null;
}

/** The move a decision makes from the list's state (退回 ends the round; after the last signer the list is complete) and the step it leaves. */
export function signMove(c: SignState, decision: Submit['decision']): { m: CountersignMove; nextStep: number } {
  const status = c.status as CountersignStatus;
  const last = status === 'INTERNAL_SIGNING' && c.step === c.signerIds.length;
  const m: CountersignMove =
    decision === 'RETURN'
      ? 'return'
      : status === 'SUPPLIER_SIGNING'
        ? 'supplierSign'
        : last
          ? 'complete'
          : 'internalSign';
  return { m, nextStep: m === 'return' ? c.step : c.step + 1 };
}

/** The signature row: who, on which side, what decision, and the sha256 of the round's content signed. */
export const signatureData = (
  c: { id: number; round: number; step: number },
  user: SessionUser,
  b: Submit,
  contentSha256: string,
  client: ClientInfo,
  now: Date,
) => ({
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
export const roundOutcome = (m: CountersignMove) =>
  m === 'return' ? 'RETURNED' : m === 'complete' ? 'COMPLETED' : null;

/** The events a signature writes: the signature (or return), and the completion after the last signer. */
export function signEvents(
  c: { id: number; round: number },
  m: CountersignMove,
  user: SessionUser,
  b: Submit,
  client: ClientInfo,
  now: Date,
): EventInput[] {
  const label =
    b.decision === 'AGREE' ? '同意' : b.decision === 'CONDITIONAL' ? `有条件同意：${b.comment}` : `退回：${b.comment}`;
  const events: EventInput[] = [
    { id: c.id, round: c.round, action: m === 'return' ? 'RETURN' : 'SIGN', user, client, at: now, detail: label },
  ];
  if (m === 'complete')
    events.push({
      id: c.id,
      round: c.round,
      action: 'COMPLETE',
      user,
      client,
      at: now,
      detail: '全部会签完成，生成签核单',
    });
  return events;
}
