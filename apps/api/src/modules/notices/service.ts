/**
 * Change notices on the manufacturer's side: drafts, and the moves of the transition
 * table in contracts (NOTICE_TRANSITIONS) — publish, withdraw, close — plus remind.
 *
 * Each move is `UPDATE … WHERE id = ? AND status IN (<from>)` in the transaction that also writes
 * its NoticeEvent row (and, for publish, the recipients): of two concurrent moves one changes the
 * row, the other finds it moved (0 rows) and answers 409 with why. Checks that read before the
 * move only give the better message; the WHERE is what decides.
 *
 * Recipients are frozen at publish by the grant rule (modules/empower/grants.ts `grantState`):
 * every supplier that supplies an affected material and holds a grant valid at that moment, with
 * the materials that made it one. A grant given later adds no one; one that expires later removes
 * no one.
 */
import {
  NOTICE_STATUS_LABELS,
  NOTICE_TRANSITIONS,
  REMIND_INTERVAL_MINUTES,
  noticeMoveRefusal,
  type FieldError,
  type NoticeDetail,
  type NoticeDraft,
  type NoticeEventAction,
  type NoticeMove,
  type NoticeStatus,
  type RecipientPreview,
} from '@esm/contracts';
import type { z } from 'zod';
import type { ZNoticeDraftSchema } from '@esm/contracts';
import { Prisma } from '../../generated/prisma/client.ts';
import type { Db } from '../../db/database.ts';
import { readRows } from '../../db/rows.ts';
import { keywordSql, whereSql } from '../../lib/list.ts';
import { cstDay, cstDayText } from '../../lib/dates.ts';
import type { SessionUser } from '../../plugins/auth.ts';
import { badRequest, conflict, notFound } from '../../plugins/errors.ts';
import type { ClientInfo } from '../../lib/access-log.ts';
import { grantState } from '../empower/index.ts';
import { findNoticeRow, noticeChanges, pastDueSql } from './query.ts';
import type { FileRecord } from '../archives/index.ts';
import { lockRecord } from '../../db/workflow-lock.ts';
import { noticePublished, noticeReminded, noticeWithdrawn } from '../notifications/index.ts';

type Tx = Prisma.TransactionClient;
type Draft = z.output<typeof ZNoticeDraftSchema>;

export const NOTICE_NOT_FOUND = '变更通知不存在或无权查看';

// ---- the audit trail -------------------------------------------------------------------------------

export interface EventInput {
  noticeId: number;
  action: NoticeEventAction;
  user: SessionUser;
  client?: ClientInfo;
  supplierCode?: string | null;
  detail?: string | null;
}

/** One NoticeEvent row, on the transaction of the move it records. */
export function writeEvent(tx: Tx, e: EventInput) {
  return tx.noticeEvent.create({
    data: {
      noticeId: e.noticeId,
      action: e.action,
      supplierCode: e.supplierCode ?? null,
      userId: e.user.id,
      userAccount: e.user.account,
      userName: e.user.isSupplier ? e.user.nick : e.user.name,
      ip: e.client?.ip.slice(0, 64) ?? null,
      detail: e.detail ? e.detail.slice(0, 500) : null,
    },
  });
}

// ---- reading one notice ------------------------------------------------------------------------------

/** haier findById: the notice with its counts, changes and audit trail. */
export async function noticeDetail(db: Db, id: number, now = new Date()): Promise<NoticeDetail> {
  const row = await findNoticeRow(db, id, now);
  if (!row) throw notFound(NOTICE_NOT_FOUND);
  const [changes, events] = await Promise.all([
    noticeChanges(db, id),
    db.noticeEvent.findMany({ where: { noticeId: id }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] }),
  ]);
  return {
    ...row,
    changes,
    events: events.map((e) => ({
      id: e.id,
      action: e.action as NoticeEventAction,
      supplierCode: e.supplierCode,
      userAccount: e.userAccount,
      userName: e.userName,
      ip: e.ip,
      detail: e.detail,
      createdAt: e.createdAt.toISOString(),
    })),
  };
}

// ---- drafts ------------------------------------------------------------------------------------------

const today = (now: Date) => cstDay(now);

interface ResolvedChange {
  standardCode: string;
  materialCode: string;
  newFileId: number;
  oldFileId: number | null;
}

/**
 * What the database says about a draft: the product line exists, the due day is not past, and each
 * new version is an effective file of that product line, one per standard code; its old version is
 * the version before it. Every problem is a field error (400), all of them at once.
 */
async function resolveDraft(q: Tx | Db, d: Draft, now: Date): Promise<ResolvedChange[]> {
  const errors: FieldError[] = [];
  const line = await q.productLine.findUnique({ where: { code: d.productLineCode }, select: { name: true } });
  if (!line) errors.push({ field: 'productLineCode', message: `产品线不存在：${d.productLineCode}` });
  if (d.dueDate < today(now)) errors.push({ field: 'dueDate', message: '确认截止日期不能早于今天' });

  const files = await q.standardFile.findMany({
    where: { id: { in: d.newFileIds } },
    select: {
      id: true,
      standardCode: true,
      version: true,
      versionNo: true,
      status: true,
      materialCode: true,
      material: { select: { productLineCode: true, productLine: { select: { name: true } } } },
    },
  });
  const byId = new Map(files.map((f) => [f.id, f]));
  const seenCodes = new Set<string>();
  const changes: ResolvedChange[] = [];
  for (const [i, id] of d.newFileIds.entries()) {
    const field = `newFileIds.${i}`;
    const f = byId.get(id);
    if (!f) {
      errors.push({ field, message: `文件不存在（编号 ${id}）` });
      continue;
    }
    const label = `${f.standardCode} 版本 ${f.version}`;
    if (f.status !== 'EFFECTIVE')
      errors.push({
        field,
        message: `${label} ${f.status === 'OBSOLETE' ? '已作废' : '已被更新的版本替代'}，请选择当前生效的版本`,
      });
    else if (line && f.material.productLineCode !== d.productLineCode)
      errors.push({
        field,
        message: `${label} 属于产品线「${f.material.productLine.name}」，与通知的产品线「${line.name}」不一致`,
      });
    else if (seenCodes.has(f.standardCode))
      errors.push({ field, message: `${f.standardCode} 已有一项变更，同一标准编号只能添加一次` });
    seenCodes.add(f.standardCode);
    const old = await q.standardFile.findFirst({
      where: { standardCode: f.standardCode, versionNo: { lt: f.versionNo } },
      orderBy: { versionNo: 'desc' },
      select: { id: true },
    });
    changes.push({
      standardCode: f.standardCode,
      materialCode: f.materialCode,
      newFileId: f.id,
      oldFileId: old?.id ?? null,
    });
  }
  if (errors.length) throw badRequest(errors[0]!.message, errors);
  return changes;
}

const draftData = (d: Draft) => ({
  title: d.title,
  reason: d.reason,
  description: d.description ?? null,
  productLineCode: d.productLineCode,
  dueDate: new Date(`${d.dueDate}T00:00:00Z`),
});

/** The next BG-<year>-<seq> of this year (UTC+8), counted atomically per year. */
async function nextNumber(tx: Tx, now: Date): Promise<string> {
  const year = Number(today(now).slice(0, 4));
  const [row] = await tx.$queryRaw<{ last: number }[]>`INSERT INTO notice_number (year, last) VALUES (${year}, 1)
    ON CONFLICT (year) DO UPDATE SET last = notice_number.last + 1 RETURNING last`;
  return `BG-${year}-${String(row!.last).padStart(4, '0')}`;
}

export async function createDraft(
  db: Db,
  user: SessionUser,
  d: Draft,
  client: ClientInfo,
  now = new Date(),
): Promise<number> {
  return db.$transaction(async (tx) => {
    const changes = await resolveDraft(tx, d, now);
    const notice = await tx.changeNotice.create({
      data: {
        ...draftData(d),
        number: await nextNumber(tx, now),
        status: 'DRAFT',
        createdById: user.id,
        createdByName: user.name,
        changes: { create: changes.map((c, sort) => ({ ...c, sort })) },
      },
      select: { id: true, number: true },
    });
    await writeEvent(tx, {
      noticeId: notice.id,
      action: 'CREATE',
      user,
      client,
      detail: `${notice.number}，${changes.length} 项变更`,
    });
    return notice.id;
  });
}

/** The notice's status, or 404 (the 409 of a refused move names it). */
async function statusOf(tx: Tx, id: number): Promise<NoticeStatus> {
  const n = await tx.changeNotice.findUnique({ where: { id }, select: { status: true } });
  if (!n) throw notFound(NOTICE_NOT_FOUND);
  return n.status as NoticeStatus;
}

export async function updateDraft(
  db: Db,
  user: SessionUser,
  id: number,
  d: Draft,
  client: ClientInfo,
  now = new Date(),
): Promise<void> {
  await db.$transaction(async (tx) => {
    await lockRecord(tx, 'notice', id);
    const status = await statusOf(tx, id);
    if (status !== 'DRAFT') throw conflict(noticeMoveRefusal('edit', status));
    const changes = await resolveDraft(tx, d, now);
    // the edit is a guarded write too: a draft published meanwhile is not edited
    const { count } = await tx.changeNotice.updateMany({ where: { id, status: 'DRAFT' }, data: draftData(d) });
    if (count === 0) throw conflict(noticeMoveRefusal('edit', await statusOf(tx, id)));
    await tx.noticeChange.deleteMany({ where: { noticeId: id } });
    await tx.noticeChange.createMany({ data: changes.map((c, sort) => ({ ...c, sort, noticeId: id })) });
    await writeEvent(tx, { noticeId: id, action: 'UPDATE', user, client, detail: `${changes.length} 项变更` });
  });
}

// ---- recipients -----------------------------------------------------------------------------------------

/**
 * Who a notice on these materials reaches at `now`, and why: the suppliers of each material whose
 * grants on it make it VALID by the grant rule. Sorted by supplier code.
 */
export async function recipientsFor(q: Tx | Db, materialCodes: string[], now: Date): Promise<RecipientPreview[]> {
  if (materialCodes.length === 0) return [];
  const [links, grants] = await Promise.all([
    q.supplierMaterial.findMany({
      where: { materialCode: { in: materialCodes } },
      select: {
        supplierCode: true,
        materialCode: true,
        supplier: { select: { name: true } },
        material: { select: { name: true } },
      },
      orderBy: [{ supplierCode: 'asc' }, { materialCode: 'asc' }],
    }),
    q.empowerGrant.findMany({
      where: { materialCode: { in: materialCodes }, revokedAt: null },
      select: { supplierCode: true, materialCode: true, validFrom: true, validUntil: true },
    }),
  ]);
  const grantsOf = new Map<string, typeof grants>();
  for (const g of grants) {
    const key = `${g.supplierCode}\u0000${g.materialCode}`;
    grantsOf.set(key, [...(grantsOf.get(key) ?? []), g]);
  }
  const out = new Map<string, RecipientPreview>();
  for (const l of links) {
    const { state, grant } = grantState(grantsOf.get(`${l.supplierCode}\u0000${l.materialCode}`) ?? [], now);
    if (state !== 'VALID') continue;
    const r = out.get(l.supplierCode) ?? { supplierCode: l.supplierCode, supplierName: l.supplier.name, basis: [] };
    r.basis.push({
      materialCode: l.materialCode,
      materialName: l.material.name,
      validUntil: grant!.validUntil.toISOString(),
    });
    out.set(l.supplierCode, r);
  }
  return [...out.values()];
}

async function materialsOf(q: Tx | Db, noticeId: number): Promise<string[]> {
  const rows = await q.noticeChange.findMany({
    where: { noticeId },
    select: { materialCode: true },
    distinct: ['materialCode'],
  });
  return rows.map((r) => r.materialCode);
}

/** previewSuppliers: who the notice would reach if published now. */
export async function previewRecipients(db: Db, id: number, now = new Date()): Promise<RecipientPreview[]> {
  const n = await db.changeNotice.findUnique({ where: { id }, select: { id: true } });
  if (!n) throw notFound(NOTICE_NOT_FOUND);
  return recipientsFor(db, await materialsOf(db, id), now);
}

// ---- moves ---------------------------------------------------------------------------------------------

/**
 * `UPDATE change_notice SET <set> WHERE id = ? AND status IN (<from of move>)`: true when this
 * transaction made the move; otherwise the 409 says what the notice is now.
 */
async function move(tx: Tx, id: number, m: NoticeMove, set: Prisma.Sql, now: Date): Promise<void> {
  const t = NOTICE_TRANSITIONS[m];
  const moved = await tx.$executeRaw`UPDATE change_notice SET status = ${t.to}, updated_at = ${now}, ${set}
    WHERE id = ${id} AND status IN (${Prisma.join([...t.from])})`;
  if (moved === 0) throw conflict(noticeMoveRefusal(m, await statusOf(tx, id)));
}

/** A change whose new version is no longer the effective one: why it cannot go out or be confirmed. */
export function staleVersionText(c: {
  standardCode: string;
  newFile: { version: string; status: string };
}): string | null {
  if (c.newFile.status === 'EFFECTIVE') return null;
  return c.newFile.status === 'OBSOLETE'
    ? `${c.standardCode} 的新版本 ${c.newFile.version} 已作废`
    : `${c.standardCode} 的新版本 ${c.newFile.version} 已被更新的版本替代`;
}

/** Same key space as the upload's lock (archives/upload.ts): no new version of these codes lands while a notice on them goes out. */
async function lockStandardCodes(tx: Tx, codes: string[]) {
  for (const code of [...new Set(codes)].sort()) await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${code}))`;
}

/** EVENT_DETAIL_MAX: notice_event.detail's width. */
const EVENT_DETAIL_MAX = 500;

/**
 * The publish event's words: every recipient's code while they fit the column, else the first ones
 * and the count (a notice to hundreds of suppliers overflowed it and the publish failed); the full
 * list stays in notice_recipient.
 */
export function publishDetail(codes: readonly string[]): string {
  const all = `通知 ${codes.length} 家供应商：${codes.join('、')}`;
  if (all.length <= EVENT_DETAIL_MAX) return all;
  const tail = ` 等 ${codes.length} 家`;
  let listed = `通知 ${codes.length} 家供应商：`;
  for (const [i, code] of codes.entries()) {
    const next = `${listed}${i ? '、' : ''}${code}`;
    if (next.length + tail.length > EVENT_DETAIL_MAX) break;
    listed = next;
  }
  return `${listed}${tail}`;
}

export async function publishNotice(
  db: Db,
  user: SessionUser,
  id: number,
  client: ClientInfo,
  now = new Date(),
): Promise<{ recipients: number }> {
  return db.$transaction(async (tx) => {
    // first: an edit in flight commits before the changes and recipients are read (db/workflow-lock.ts)
    await lockRecord(tx, 'notice', id);
    const status = await statusOf(tx, id);
    if (status !== 'DRAFT') throw conflict(noticeMoveRefusal('publish', status));
    const notice = await tx.changeNotice.findUniqueOrThrow({ where: { id }, select: { dueDate: true, number: true } });
    const changes = await noticeChanges(tx, id);
    await lockStandardCodes(
      tx,
      changes.map((c) => c.standardCode),
    );
    const current = await noticeChanges(tx, id); // re-read under the locks
    const stale = current.map(staleVersionText).filter(Boolean);
    if (stale.length) throw conflict(`${stale.join('；')}，请编辑通知改选当前生效的版本后再发布`);
    if (cstDay(notice.dueDate) < today(now))
      throw conflict(`确认截止日期 ${cstDayText(notice.dueDate)} 已过，请编辑通知修改截止日期后再发布`);
    const recipients = await recipientsFor(tx, [...new Set(current.map((c) => c.materialCode))], now);
    if (recipients.length === 0)
      throw conflict('受影响的物料目前没有持有有效授权的供应商，发布后无人接收；请确认变更内容或先办理授权');

    // every recipient starts owing a confirmation (change_notice.open_recipient_count)
    await move(
      tx,
      id,
      'publish',
      Prisma.sql`published_at = ${now}, published_by_name = ${user.name}, open_recipient_count = ${recipients.length}`,
      now,
    );
    await tx.noticeRecipient.createMany({
      data: recipients.map((r) => ({
        noticeId: id,
        supplierCode: r.supplierCode,
        supplierName: r.supplierName,
        basis: r.basis,
        status: 'UNREAD',
      })),
    });
    await writeEvent(tx, {
      noticeId: id,
      action: 'PUBLISH',
      user,
      client,
      detail: publishDetail(recipients.map((r) => r.supplierCode)),
    });
    await noticePublished(
      tx,
      id,
      recipients.map((r) => r.supplierCode),
      now,
    );
    return { recipients: recipients.length };
  });
}

export async function withdrawNotice(
  db: Db,
  user: SessionUser,
  id: number,
  reason: string,
  client: ClientInfo,
  now = new Date(),
): Promise<void> {
  await db.$transaction(async (tx) => {
    // a withdrawn notice can no longer be confirmed: no one owes a confirmation on it any more
    await move(
      tx,
      id,
      'withdraw',
      Prisma.sql`withdrawn_at = ${now}, withdrawn_by_name = ${user.name}, withdraw_reason = ${reason}, open_recipient_count = 0`,
      now,
    );
    await writeEvent(tx, { noticeId: id, action: 'WITHDRAW', user, client, detail: reason });
    await noticeWithdrawn(tx, id, reason, now);
  });
}

export async function closeNotice(
  db: Db,
  user: SessionUser,
  id: number,
  client: ClientInfo,
  now = new Date(),
): Promise<void> {
  await db.$transaction(async (tx) => {
    await move(tx, id, 'close', Prisma.sql`closed_at = ${now}, closed_by_name = ${user.name}`, now);
    // the counter freezes here: a closed notice takes no more confirmations
    const { openRecipientCount: open } = await tx.changeNotice.findUniqueOrThrow({
      where: { id },
      select: { openRecipientCount: true },
    });
    await writeEvent(tx, {
      noticeId: id,
      action: 'CLOSE',
      user,
      client,
      detail: open ? `关闭时 ${open} 家供应商未确认` : '全部供应商已确认',
    });
  });
}

// ---- remind ------------------------------------------------------------------------------------------

/**
 * Reminds the overdue recipients of a published notice (or the named ones among them). A recipient
 * reminded within REMIND_INTERVAL_MINUTES is skipped, so a double click reminds once.
 */
export async function remindOverdue(
  db: Db,
  user: SessionUser,
  id: number,
  supplierCodes: string[] | undefined,
  client: ClientInfo,
  now = new Date(),
) {
  return db.$transaction(async (tx) => {
    const status = await statusOf(tx, id);
    if (status !== 'PUBLISHED')
      throw conflict(`该通知当前为「${NOTICE_STATUS_LABELS[status]}」，只有已发布的通知可以催办`);
    const [due] = await tx.$queryRaw<
      { past: boolean }[]
    >`SELECT ${pastDueSql('n', now)} AS past FROM change_notice n WHERE n.id = ${id}`;
    if (!due?.past) throw conflict('尚未到确认截止日期，没有逾期的供应商');
    if (supplierCodes) {
      // each code named must be a recipient still owing a confirmation (ZNoticeRemindSchema): say which is not
      const open = await tx.noticeRecipient.findMany({
        where: { noticeId: id, supplierCode: { in: supplierCodes }, status: { not: 'CONFIRMED' } },
        select: { supplierCode: true },
      });
      const owing = new Set(open.map((r) => r.supplierCode));
      const errors = supplierCodes.flatMap((code, i) =>
        owing.has(code)
          ? []
          : [{ field: `supplierCodes.${i}`, message: `供应商 ${code} 不是该通知待确认的接收方，无需催办` }],
      );
      if (errors.length) throw badRequest(errors[0]!.message, errors);
    }
    const since = new Date(now.getTime() - REMIND_INTERVAL_MINUTES * 60_000);
    const only = supplierCodes ? Prisma.sql`AND supplier_code = ANY(${supplierCodes}::text[])` : Prisma.empty;
    const reminded = await tx.$queryRaw<
      { supplier_code: string }[]
    >`UPDATE notice_recipient SET remind_count = remind_count + 1, last_reminded_at = ${now}
      WHERE notice_id = ${id} AND status <> 'CONFIRMED' AND (last_reminded_at IS NULL OR last_reminded_at <= ${since}) ${only}
      RETURNING supplier_code`;
    const [open] = await tx.$queryRaw<
      { n: number }[]
    >`SELECT count(*)::int AS n FROM notice_recipient WHERE notice_id = ${id} AND status <> 'CONFIRMED' ${only}`;
    const asked = supplierCodes ? new Set(supplierCodes).size : (open?.n ?? 0);
    if (reminded.length) {
      await writeEvent(tx, {
        noticeId: id,
        action: 'REMIND',
        user,
        client,
        detail: `催办 ${reminded.length} 家：${reminded
          .map((r) => r.supplier_code)
          .sort()
          .join('、')}`,
      });
      // the reminded suppliers' users are told (in the portal, and by mail where they chose it)
      await noticeReminded(
        tx,
        id,
        reminded.map((r) => r.supplier_code),
        now,
      );
    }
    return { reminded: reminded.length, skipped: Math.max(0, asked - reminded.length) };
  });
}

// ---- candidates -------------------------------------------------------------------------------------------

/** A file version the notice form offers: the archive list's row shape, plus the version it replaces. */
type CandidateRecord = Pick<
  FileRecord,
  | 'id'
  | 'standard_code'
  | 'name'
  | 'version'
  | 'version_no'
  | 'material_code'
  | 'material_name'
  | 'product_line_code'
  | 'product_line_name'
  | 'effective_date'
  | 'created_at'
> & { old_id: number | null; old_version: string | null };

/** findChangeCandidates: effective versions matching a keyword (newest first), or the files named. */
export async function changeCandidates(db: Db, q: { keyword?: string; ids?: number[] }) {
  const where = q.ids?.length
    ? whereSql([Prisma.sql`f.id = ANY(${q.ids}::int[])`])
    : whereSql([Prisma.sql`f.status = 'EFFECTIVE'`, keywordSql(['f.standard_code', 'f.name'], q.keyword)]);
  const rows = await readRows<CandidateRecord>(
    db,
    Prisma.sql`SELECT f.id, f.standard_code, f.name, f.version, f.version_no, f.material_code, m.name AS material_name, m.product_line_code,
        pl.name AS product_line_name, o.id AS old_id, o.version AS old_version, to_char(f.effective_date, 'YYYY-MM-DD') AS effective_date, f.created_at
      FROM standard_file f JOIN material m ON m.code = f.material_code JOIN product_line pl ON pl.code = m.product_line_code
      LEFT JOIN LATERAL (SELECT p.id, p.version FROM standard_file p WHERE p.standard_code = f.standard_code AND p.version_no < f.version_no ORDER BY p.version_no DESC LIMIT 1) o ON true
      ${where} ORDER BY f.id DESC LIMIT 20`,
  );
  return rows.map((r) => ({
    fileId: r.id,
    standardCode: r.standard_code,
    name: r.name,
    version: r.version,
    versionNo: r.version_no,
    materialCode: r.material_code,
    materialName: r.material_name,
    productLineCode: r.product_line_code,
    productLineName: r.product_line_name,
    oldFileId: r.old_id,
    oldVersion: r.old_version,
    effectiveDate: r.effective_date,
    createdAt: r.created_at.toISOString(),
  }));
}

export type { NoticeDraft };
