/**
 * The delivery log (系统管理 → 通知发送记录): every outbox row with its recipient, what it said,
 * its state, tries, the server's last answer and the digest that carried it; 重新发送 of failed
 * ones — back to PENDING with a fresh job, in one transaction, so a resend is queued exactly when
 * it is recorded; and 已退回 (DELIVERY_TRANSITIONS.bounce) with a notification_delivery_move row
 * (who moved it: an admin or the bounce webhook).
 *
 * A notification_delivery row is mutable on purpose (tries, state, the last answer): the outbox
 * works on it and this page lists it. What the audit chain holds are its facts: the trigger
 * `notification_delivery_record` (migration `delivery_chain`) appends a notification_delivery_event
 * row — queued, a try refused, sent, failed, bounced, queued again by 重新发送 — in the statement
 * that changes the delivery, whichever code wrote it, and that table is append-only and chained like
 * the other acts. A hash over a row meant to change would prove nothing; a chain of the facts
 * proves each step, and audit:verify checks that every delivery row is still the latest of them.
 */
import {
  DELIVERY_STATE_LABELS,
  DELIVERY_TRANSITIONS,
  UNDELIVERED_STATES,
  type DeliveryRow,
  type DeliveryState,
  type NotificationKind,
} from '@esm/contracts';
import type { z } from 'zod';
import type { ZDeliveryPageRequestSchema } from '@esm/contracts';
import { Prisma } from '../../generated/prisma/client.ts';
import type { Db } from '../../db/database.ts';
import { capTotal, checkWindow, likeLiteral, type CappedTotal } from '../../lib/list.ts';
import { dayRange } from '../../lib/dates.ts';
import { conflict, notFound } from '../../plugins/errors.ts';
import { activeQueue } from './channels.ts';
import { DELIVER_TASK } from './tasks.ts';

type Query = z.output<typeof ZDeliveryPageRequestSchema>;

async function deliveryWhere(db: Db, q: Query): Promise<Prisma.NotificationDeliveryWhereInput> {
  const created = dayRange(q.dateFrom, q.dateTo);
  let userIds: number[] | undefined;
  if (q.recipient) {
    const text = likeLiteral(q.recipient);
    const users = await db.user.findMany({
      where: { OR: [{ account: { contains: text } }, { name: { contains: text } }] },
      select: { id: true },
    });
    userIds = users.map((u) => u.id);
  }
  return {
    ...(q.state === 'UNDELIVERED' ? { state: { in: [...UNDELIVERED_STATES] } } : q.state ? { state: q.state } : {}),
    ...(created.gte || created.lt ? { createdAt: created } : {}),
    notification: { ...(q.kind ? { kind: q.kind } : {}) },
    ...(q.recipient
      ? {
          OR: [
            { address: { contains: likeLiteral(q.recipient) } },
            { notification: { userId: { in: userIds ?? [] } } },
          ],
        }
      : {}),
  };
}

const withNotification = { notification: { select: { userId: true, kind: true, subject: true } } } as const;
type Stored = Prisma.NotificationDeliveryGetPayload<{ include: typeof withNotification }>;

async function deliveryRowsOf(db: Db, rows: Stored[]): Promise<DeliveryRow[]> {
  const users = new Map(
    (
      await db.user.findMany({
        where: { id: { in: [...new Set(rows.map((r) => r.notification.userId))] } },
        select: { id: true, account: true, name: true },
      })
    ).map((u) => [u.id, u]),
  );
  return rows.map((r) => ({
    id: r.id,
    state: r.state as DeliveryState,
    channel: r.channel,
    address: r.address,
    recipientAccount: users.get(r.notification.userId)?.account ?? '',
    recipientName: users.get(r.notification.userId)?.name ?? '',
    kind: r.notification.kind as NotificationKind,
    subject: r.notification.subject,
    tries: r.tries,
    lastAnswer: r.lastAnswer,
    viaDigest: r.viaDigest,
    digestId: r.digestId,
    createdAt: r.createdAt.toISOString(),
    sentAt: r.sentAt?.toISOString() ?? null,
    updatedAt: r.updatedAt.toISOString(),
  }));
}

export async function pageDeliveries(db: Db, q: Query): Promise<{ rows: DeliveryRow[] } & CappedTotal> {
  checkWindow(q);
  const where = await deliveryWhere(db, q);
  const [rows, counted] = await Promise.all([
    db.notificationDelivery.findMany({
      where,
      include: withNotification,
      orderBy: { id: q.sortOrder === 'ascend' ? 'asc' : 'desc' },
      skip: (q.page - 1) * q.results,
      take: q.results,
    }),
    db.notificationDelivery.count({ where }),
  ]);
  return { rows: await deliveryRowsOf(db, rows), ...capTotal(counted) };
}

/** The export: every row the list's filters match, in the list's order; null when more than `max`. */
export async function deliveryRows(db: Db, q: Query, max: number): Promise<DeliveryRow[] | null> {
  const rows = await db.notificationDelivery.findMany({
    where: await deliveryWhere(db, q),
    include: withNotification,
    orderBy: { id: q.sortOrder === 'ascend' ? 'asc' : 'desc' },
    take: max + 1,
  });
  return rows.length > max ? null : deliveryRowsOf(db, rows);
}

/** 重新发送: the FAILED ones among `ids` go back to PENDING with their tries reset and a new job. */
export async function resend(db: Db, ids: readonly number[], now = new Date()): Promise<number> {
  const queue = activeQueue();
  if (!queue) throw conflict('本门户未开通邮件发送（SMTP_URL 未设置），无法重新发送');
  return db.$transaction(async (tx) => {
    const rows = await tx.$queryRaw<{ n: number }[]>`WITH d AS (
        UPDATE notification_delivery SET state = 'PENDING', tries = 0, updated_at = ${now}
        WHERE id = ANY(${[...ids]}::int[]) AND state = 'FAILED' RETURNING id)
      SELECT count(graphile_worker.add_job(${DELIVER_TASK}, json_build_object('id', d.id), max_attempts := ${queue.maxTries}::int, job_key := 'notification_delivery:' || d.id))::int AS n FROM d`;
    const n = rows[0]?.n ?? 0;
    if (n === 0) throw conflict('所选记录都不是「失败」状态，无需重新发送');
    return n;
  });
}

/** Who moves a delivery by hand: an admin (id, account), or the bounce webhook. */
export type DeliveryActor = { userId: number; account: string } | 'webhook';

/**
 * 已退回 on the SENT ones among `ids` (DELIVERY_TRANSITIONS.bounce), each with its event row, in
 * one transaction; the bounce text becomes the row's last answer. Answers the ids moved.
 */
async function bounceRows(
  db: Db,
  ids: readonly number[],
  note: string,
  by: DeliveryActor,
  now: Date,
): Promise<number[]> {
  const t = DELIVERY_TRANSITIONS.bounce;
  const actor = by === 'webhook' ? { byUserId: null, byName: 'webhook' } : { byUserId: by.userId, byName: by.account };
  return db.$transaction(async (tx) => {
    const moved = await tx.$queryRaw<
      { id: number }[]
    >`UPDATE notification_delivery SET state = ${t.to}, last_answer = ${note.slice(0, 500)}, updated_at = ${now}
      WHERE id = ANY(${[...ids]}::int[]) AND state = ANY(${[...t.from]}::text[]) RETURNING id`;
    if (moved.length)
      await tx.notificationDeliveryMove.createMany({
        data: moved.map((m) => ({
          deliveryId: m.id,
          fromState: 'SENT',
          toState: t.to,
          ...actor,
          note,
          createdAt: now,
        })),
      });
    return moved.map((m) => m.id);
  });
}

const refusal = (state: string) =>
  conflict(
    `该记录为「${DELIVERY_STATE_LABELS[state as DeliveryState] ?? state}」，只有「已发送」的记录才能${DELIVERY_TRANSITIONS.bounce.label}`,
  );

/** 标记为已退回 by an admin who read the bounce in the sender's mailbox. */
export async function bounce(
  db: Db,
  id: number,
  note: string,
  by: DeliveryActor,
  now = new Date(),
): Promise<DeliveryRow> {
  const moved = await bounceRows(db, [id], note, by, now);
  const row = await db.notificationDelivery.findUnique({ where: { id }, include: withNotification });
  if (!row) throw notFound('发送记录不存在');
  if (moved.length === 0) throw refusal(row.state);
  return (await deliveryRowsOf(db, [row]))[0]!;
}

/** `<id@host>` as the mail carried it, whether the report keeps the angle brackets or not. */
const bracketed = (messageId: string) => `<${messageId.replace(/^<|>$/g, '')}>`;

/**
 * The bounce webhook: the mail with this Message-ID came back — its delivery, or every delivery a
 * digest with it carried. 404 when no mail went out with it; 409 when none of them is SENT.
 */
export async function bounceReported(db: Db, messageId: string, reason: string, now = new Date()): Promise<number> {
  const id = bracketed(messageId);
  const rows = await db.notificationDelivery.findMany({
    where: { OR: [{ messageId: id }, { digest: { messageId: id } }] },
    select: { id: true, state: true },
  });
  if (rows.length === 0) throw notFound('没有以该 Message-ID 发出的邮件');
  const moved = await bounceRows(
    db,
    rows.map((r) => r.id),
    reason,
    'webhook',
    now,
  );
  if (moved.length === 0) throw refusal(rows[0]!.state);
  return moved.length;
}
