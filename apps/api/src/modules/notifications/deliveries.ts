/**
 * The delivery log (系统管理 → 通知发送记录): every outbox row with its recipient, what it said,
 * its state, tries and the server's last answer; and 重新发送 of failed ones — back to PENDING
 * with a fresh job, in one transaction, so a resend is queued exactly when it is recorded.
 *
 * A notification_delivery row is mutable on purpose (tries, state, the last answer): the outbox
 * works on it and this page lists it. What the audit chain holds are its facts: the trigger
 * `notification_delivery_record` (migration `delivery_chain`) appends a notification_delivery_event
 * row — queued, a try refused, sent, failed, queued again by 重新发送 — in the statement that
 * changes the delivery, whichever code wrote it, and that table is append-only and chained like
 * the other acts. A hash over a row meant to change would prove nothing; a chain of the facts
 * proves each step, and audit:verify checks that every delivery row is still the latest of them.
 */
import type { DeliveryRow, DeliveryState, NotificationKind } from '@esm/contracts';
import type { z } from 'zod';
import type { ZDeliveryPageRequestSchema } from '@esm/contracts';
import { Prisma } from '../../generated/prisma/client.ts';
import type { Db } from '../../db/database.ts';
import { capTotal, checkWindow, likeLiteral, type CappedTotal } from '../../lib/list.ts';
import { dayRange } from '../../lib/dates.ts';
import { conflict } from '../../plugins/errors.ts';
import { activeQueue } from './channels.ts';
import { DELIVER_TASK } from './tasks.ts';

type Query = z.output<typeof ZDeliveryPageRequestSchema>;

async function deliveryWhere(db: Db, q: Query): Promise<Prisma.NotificationDeliveryWhereInput> {
  const created = dayRange(q.dateFrom, q.dateTo);
  let userIds: number[] | undefined;
  if (q.recipient) {
    const text = likeLiteral(q.recipient);
    const users = await db.user.findMany({ where: { OR: [{ account: { contains: text } }, { name: { contains: text } }] }, select: { id: true } });
    userIds = users.map((u) => u.id);
  }
  return {
    ...(q.state ? { state: q.state } : {}),
    ...(created.gte || created.lt ? { createdAt: created } : {}),
    notification: { ...(q.kind ? { kind: q.kind } : {}) },
    ...(q.recipient ? { OR: [{ address: { contains: likeLiteral(q.recipient) } }, { notification: { userId: { in: userIds ?? [] } } }] } : {}),
  };
}

const withNotification = { notification: { select: { userId: true, kind: true, subject: true } } } as const;
type Stored = Prisma.NotificationDeliveryGetPayload<{ include: typeof withNotification }>;

async function deliveryRowsOf(db: Db, rows: Stored[]): Promise<DeliveryRow[]> {
  const users = new Map((await db.user.findMany({ where: { id: { in: [...new Set(rows.map((r) => r.notification.userId))] } }, select: { id: true, account: true, name: true } })).map((u) => [u.id, u]));
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
    createdAt: r.createdAt.toISOString(),
    sentAt: r.sentAt?.toISOString() ?? null,
    updatedAt: r.updatedAt.toISOString(),
  }));
}

export async function pageDeliveries(db: Db, q: Query): Promise<{ rows: DeliveryRow[] } & CappedTotal> {
  checkWindow(q);
  const where = await deliveryWhere(db, q);
  const [rows, counted] = await Promise.all([
    db.notificationDelivery.findMany({ where, include: withNotification, orderBy: { id: q.sortOrder === 'ascend' ? 'asc' : 'desc' }, skip: (q.page - 1) * q.results, take: q.results }),
    db.notificationDelivery.count({ where }),
  ]);
  return { rows: await deliveryRowsOf(db, rows), ...capTotal(counted) };
}

/** The export: every row the list's filters match, in the list's order; null when more than `max`. */
export async function deliveryRows(db: Db, q: Query, max: number): Promise<DeliveryRow[] | null> {
  const rows = await db.notificationDelivery.findMany({ where: await deliveryWhere(db, q), include: withNotification, orderBy: { id: q.sortOrder === 'ascend' ? 'asc' : 'desc' }, take: max + 1 });
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
