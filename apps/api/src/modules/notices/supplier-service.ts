/**
 * Change notices on the supplier's side. Every call is scoped by the caller's own
 * supplier (the auth hook's SupplierScope): a notice that supplier did not receive answers exactly
 * like one that does not exist (404 NOTICE_NOT_FOUND), whatever its id.
 *
 * The recipient's moves follow RECIPIENT_TRANSITIONS: `UPDATE notice_recipient … WHERE status IN
 * (<from>)` with the NoticeEvent row in one transaction. A repeat (opening a notice already read,
 * confirming one already confirmed, or two confirmations racing) changes nothing and is answered
 * as done, never as an error.
 *
 * Confirming needs proof: a user of the supplier has viewed every new version (an OK VIEW row of
 * access_log, written by file/view), and each new version is still the effective one. The
 * confirmation keeps each version confirmed with its sha256 and the view that proves it was seen.
 */
import {
  BELL_LATEST,
  PAGES,
  RECIPIENT_TRANSITIONS,
  type ConfirmedFile,
  type RecipientStatus,
  type SupplierNoticeDetail,
  type UnreadNotice,
} from '@esm/contracts';
import { Prisma } from '../../generated/prisma/client.ts';
import { deliveredSql } from '../../lib/access-log-delivery.ts';
import type { Db } from '../../db/database.ts';
import { readRows } from '../../db/rows.ts';
import type { SessionUser, SupplierScope } from '../../plugins/auth.ts';
import { conflict, notFound } from '../../plugins/errors.ts';
import type { ClientInfo } from '../../lib/access-log.ts';
import { findSupplierNotice, noticeChanges, overdueSql, pageSupplierNotices } from './query.ts';
import { NOTICE_NOT_FOUND, staleVersionText, writeEvent } from './service.ts';
import { markSeen } from '../notifications/index.ts';

type Tx = Prisma.TransactionClient;

/** The caller's supplier's recipient row of the notice, or the 404 a missing notice gets. */
async function ownRecipient(tx: Tx, supplier: SupplierScope, noticeId: number) {
  const r = await tx.noticeRecipient.findUnique({
    where: { noticeId_supplierCode: { noticeId, supplierCode: supplier.code } },
    select: { id: true, status: true, notice: { select: { status: true, withdrawReason: true } } },
  });
  if (!r) throw notFound(NOTICE_NOT_FOUND);
  return r;
}

const recipientMove = (m: keyof typeof RECIPIENT_TRANSITIONS) =>
  Prisma.join(RECIPIENT_TRANSITIONS[m].from.map((s) => Prisma.sql`${s}`));

/**
 * supplier findById: opening a published notice moves the supplier's recipient row 未读 → 已读
 * (user, time, IP; once — the first opener is the reader). Then the notice as the supplier sees it.
 */
export async function openNotice(
  db: Db,
  user: SessionUser,
  supplier: SupplierScope,
  noticeId: number,
  client: ClientInfo,
  now = new Date(),
): Promise<SupplierNoticeDetail> {
  await db.$transaction(async (tx) => {
    const r = await ownRecipient(tx, supplier, noticeId);
    if (r.notice.status !== 'PUBLISHED' || r.status !== 'UNREAD') return;
    const moved =
      await tx.$executeRaw`UPDATE notice_recipient SET status = ${RECIPIENT_TRANSITIONS.read.to}, read_at = ${now},
        read_by_account = ${user.account}, read_by_name = ${user.nick}, read_ip = ${client.ip.slice(0, 64)}
      WHERE id = ${r.id} AND status IN (${recipientMove('read')})`;
    if (moved) await writeEvent(tx, { noticeId, action: 'READ', user, client, supplierCode: supplier.code });
  });
  // the opener has seen what their notifications about it said (from the bell, the centre or a mail's link)
  await markSeen(db, user.id, `${PAGES.noticeOfChangeOfDrawings.path}?id=${noticeId}`, now);
  return supplierNoticeDetail(db, supplier, noticeId, now);
}

/** The notice, its changes with when this supplier first viewed each new version, and what it confirmed. */
export async function supplierNoticeDetail(
  db: Db,
  supplier: SupplierScope,
  noticeId: number,
  now = new Date(),
): Promise<SupplierNoticeDetail> {
  const row = await findSupplierNotice(db, supplier.code, noticeId, now);
  if (!row) throw notFound(NOTICE_NOT_FOUND);
  const [changes, confirmed] = await Promise.all([
    noticeChanges(db, noticeId, supplier.code),
    readRows<{ file_id: number; standard_code: string; version: string; sha256: string; viewed_at: Date }>(
      db,
      Prisma.sql`SELECT cf.file_id, cf.standard_code, cf.version, cf.sha256, cf.viewed_at FROM notice_confirmed_file cf
        JOIN notice_recipient r ON r.id = cf.recipient_id WHERE r.notice_id = ${noticeId} AND r.supplier_code = ${supplier.code}
        ORDER BY cf.standard_code, cf.file_id`,
    ),
  ]);
  return {
    ...row,
    changes: changes.map((c) => ({ ...c, viewedAt: c.viewedAt ?? null })),
    confirmedFiles: confirmed.map((c) => ({
      fileId: c.file_id,
      standardCode: c.standard_code,
      version: c.version,
      sha256: c.sha256,
      viewedAt: c.viewed_at.toISOString(),
    })),
  };
}

export interface ConfirmOutcome {
  recipientStatus: RecipientStatus;
  confirmedAt: string;
  alreadyConfirmed: boolean;
  confirmedFiles: ConfirmedFile[];
}

async function confirmedFilesOf(tx: Tx, recipientId: number): Promise<ConfirmedFile[]> {
  const rows = await tx.noticeConfirmedFile.findMany({
    where: { recipientId },
    orderBy: [{ standardCode: 'asc' }, { fileId: 'asc' }],
  });
  return rows.map((c) => ({
    fileId: c.fileId,
    standardCode: c.standardCode,
    version: c.version,
    sha256: c.sha256,
    viewedAt: c.viewedAt.toISOString(),
  }));
}

async function alreadyConfirmed(tx: Tx, recipientId: number): Promise<ConfirmOutcome> {
  const r = await tx.noticeRecipient.findUniqueOrThrow({ where: { id: recipientId }, select: { confirmedAt: true } });
  return {
    recipientStatus: 'CONFIRMED',
    confirmedAt: r.confirmedAt!.toISOString(),
    alreadyConfirmed: true,
    confirmedFiles: await confirmedFilesOf(tx, recipientId),
  };
}

/** supplierConfirm: 已读/未读 → 已确认, with the proof; a repeat answers the first confirmation. */
export async function confirmNotice(
  db: Db,
  user: SessionUser,
  supplier: SupplierScope,
  noticeId: number,
  client: ClientInfo,
  now = new Date(),
): Promise<ConfirmOutcome> {
  return db.$transaction(async (tx) => {
    const r = await ownRecipient(tx, supplier, noticeId);
    if (r.status === 'CONFIRMED') return alreadyConfirmed(tx, r.id);
    if (r.notice.status === 'WITHDRAWN')
      throw conflict(
        `该通知已撤回，不能确认${r.notice.withdrawReason ? `（撤回原因：${r.notice.withdrawReason}）` : ''}`,
      );
    if (r.notice.status === 'CLOSED') throw conflict('该通知已关闭，不能再确认');

    // the changes this supplier was sent: it confirms its own materials' new versions, not another's
    const changes = await noticeChanges(tx, noticeId, supplier.code);
    const stale = changes.map(staleVersionText).filter(Boolean);
    if (stale.length) throw conflict(`${stale.join('；')}，本通知不能再确认，请以最新的变更通知为准`);

    // the proof: for each new version, the first view by a user of this supplier delivered in full
    const views = await tx.$queryRaw<
      { file_id: number; id: number; created_at: Date }[]
    >`SELECT DISTINCT ON (l.file_id) l.file_id, l.id, l.created_at
      FROM access_log l WHERE l.file_id = ANY(${changes.map((c) => c.newFile.id)}::int[]) AND l.action = 'VIEW' AND ${deliveredSql('l')} AND l.supplier_code = ${supplier.code}
      ORDER BY l.file_id, l.id`;
    const viewOf = new Map(views.map((v) => [v.file_id, v]));
    const unseen = changes.filter((c) => !viewOf.has(c.newFile.id));
    if (unseen.length)
      throw conflict(
        `请先查看以下新版本后再确认：${unseen.map((c) => `${c.standardCode} ${c.newFile.version}`).join('、')}`,
      );

    const moved =
      await tx.$executeRaw`UPDATE notice_recipient SET status = ${RECIPIENT_TRANSITIONS.confirm.to}, confirmed_at = ${now},
        confirmed_by_account = ${user.account}, confirmed_by_name = ${user.nick}, confirmed_ip = ${client.ip.slice(0, 64)},
        read_at = COALESCE(read_at, ${now}), read_by_account = COALESCE(read_by_account, ${user.account}),
        read_by_name = COALESCE(read_by_name, ${user.nick}), read_ip = COALESCE(read_ip, ${client.ip.slice(0, 64)})
      WHERE id = ${r.id} AND status IN (${recipientMove('confirm')})`;
    // a concurrent confirmation of the same supplier got there first: it is confirmed, once
    if (moved === 0) return alreadyConfirmed(tx, r.id);
    // one recipient less owes a confirmation. Guarded by the notice's status, under its row lock:
    // a withdraw or close that committed since the check above wins, and this transaction (with
    // the recipient's move) is undone — the counter never counts a confirmation the notice refused.
    const counted =
      await tx.$executeRaw`UPDATE change_notice SET open_recipient_count = open_recipient_count - 1 WHERE id = ${noticeId} AND status = 'PUBLISHED'`;
    if (counted === 0) {
      const n = await tx.changeNotice.findUniqueOrThrow({
        where: { id: noticeId },
        select: { status: true, withdrawReason: true },
      });
      throw conflict(
        n.status === 'WITHDRAWN'
          ? `该通知已撤回，不能确认${n.withdrawReason ? `（撤回原因：${n.withdrawReason}）` : ''}`
          : '该通知已关闭，不能再确认',
      );
    }

    const files = await tx.standardFile.findMany({
      where: { id: { in: changes.map((c) => c.newFile.id) } },
      select: { id: true, standardCode: true, version: true, sha256: true },
    });
    const data = files.map((f) => ({
      recipientId: r.id,
      fileId: f.id,
      standardCode: f.standardCode,
      version: f.version,
      sha256: f.sha256,
      viewLogId: viewOf.get(f.id)!.id,
      viewedAt: viewOf.get(f.id)!.created_at,
    }));
    await tx.noticeConfirmedFile.createMany({ data });
    await writeEvent(tx, {
      noticeId,
      action: 'CONFIRM',
      user,
      client,
      supplierCode: supplier.code,
      detail: data.map((d) => `${d.standardCode} ${d.version}（sha256 ${d.sha256.slice(0, 12)}…）`).join('、'),
    });
    return {
      recipientStatus: 'CONFIRMED' as const,
      confirmedAt: now.toISOString(),
      alreadyConfirmed: false,
      confirmedFiles: await confirmedFilesOf(tx, r.id),
    };
  });
}

/** getUnReadNotice: the bell's counts over published notices, and the latest few, unread first. */
export async function unreadNotices(db: Db, supplier: SupplierScope, now = new Date()): Promise<UnreadNotice> {
  const [counts] = await readRows<{ unread: number; unconfirmed: number; overdue: number }>(
    db,
    Prisma.sql`SELECT (count(*) FILTER (WHERE r.status = 'UNREAD'))::int AS unread, (count(*) FILTER (WHERE r.status <> 'CONFIRMED'))::int AS unconfirmed,
        (count(*) FILTER (WHERE ${overdueSql('r', 'n', now)}))::int AS overdue
      FROM notice_recipient r JOIN change_notice n ON n.id = r.notice_id WHERE r.supplier_code = ${supplier.code} AND n.status = 'PUBLISHED'`,
  );
  const latest = await pageSupplierNotices(
    db,
    supplier.code,
    { page: 1, results: BELL_LATEST, noticeStatus: 'PUBLISHED' },
    now,
  );
  return {
    unread: counts?.unread ?? 0,
    unconfirmed: counts?.unconfirmed ?? 0,
    overdue: counts?.overdue ?? 0,
    latest: latest.rows,
  };
}
