/**
 * Notifications: written by the domains in the transaction of the move that causes them
 * (`notify`), read by their recipient in the in-app centre.
 *
 * `notify` inserts one notification per recipient user and, in the same statement group, one
 * outbox row (notification_delivery, PENDING) per channel the user can be reached on: a move that
 * rolls back leaves neither, a move that commits leaves both, and a sender picks the outbox up
 * after commit. Recipients are user ids the caller chose by its own domain's scope rules (the
 * helpers below: a supplier's own users, the users of some internal types, one user); a disabled
 * account gets nothing.
 */
import {
  NOTIFICATION_KINDS_BY_TYPE,
  SUPPLIER_TYPES,
  type NotificationSettings,
  type SaveNotificationSettings,
  type MarkReadRequest,
  type NotificationKind,
  type NotificationPageRequest,
  type NotificationRow,
  type NotificationBell,
  NOTIFICATION_BELL_LATEST,
  type UserType,
} from '@esm/contracts';
import type { z } from 'zod';
import type { ZNotificationPageRequestSchema } from '@esm/contracts';
import { Prisma } from '../../generated/prisma/client.ts';
import type { Db } from '../../db/database.ts';
import { capTotal, checkWindow, type CappedTotal } from '../../lib/list.ts';
import { cstDay } from '../../lib/dates.ts';
import { activeChannels, activeQueue } from './channels.ts';
import { notFound } from '../../plugins/errors.ts';
import { DELIVER_TASK } from './tasks.ts';

type Tx = Prisma.TransactionClient;
type Q = Tx | Db;

export interface NotificationInput {
  kind: NotificationKind;
  /** What happened, one line in Chinese (the mail's subject). */
  subject: string;
  body?: string | null;
  /** The page under /esm with its query: /esm/supplier/noticeOfChangeOfDrawings?id=12 */
  linkPath: string;
  dueDate?: Date | null;
  /** A scheduled reminder's identity: a user already told under this key is not told again. */
  dedupeKey?: string;
}

/**
 * Writes `n` for each of `userIds` (enabled accounts only; duplicates once) and its outbox rows,
 * on the caller's transaction. Answers how many notifications were written.
 */
export async function notify(
  tx: Tx,
  userIds: readonly number[],
  n: NotificationInput,
  now = new Date(),
): Promise<number> {
  const ids = [...new Set(userIds)];
  if (ids.length === 0) return 0;
  const written = await tx.$queryRaw<
    { id: number }[]
  >`INSERT INTO notification (user_id, kind, subject, body, link_path, due_date, created_at, dedupe_key)
    SELECT u.id, ${n.kind}, ${n.subject.slice(0, 200)}, ${n.body?.slice(0, 1000) ?? null}, ${n.linkPath.slice(0, 300)}, ${n.dueDate ?? null}::date, ${now}, ${n.dedupeKey ?? null}
    FROM app_user u WHERE u.id = ANY(${ids}::int[]) AND u.enabled
    ON CONFLICT (user_id, dedupe_key) DO NOTHING
    RETURNING id`;
  if (written.length === 0) return 0;
  const notificationIds = written.map((r) => r.id);
  const queue = activeQueue();
  for (const channel of activeChannels()) {
    // a digest user's row waits for the day's digest (digest.ts) and gets no job of its own
    const rows = Prisma.sql`INSERT INTO notification_delivery (notification_id, channel, address, state, via_digest, created_at, updated_at)
      SELECT n.id, ${channel.name}, ${channel.addressSql}, 'PENDING', COALESCE(p.digest, false), ${now}, ${now}
      FROM notification n JOIN app_user u ON u.id = n.user_id LEFT JOIN notification_preference p ON p.user_id = u.id
      WHERE n.id = ANY(${notificationIds}::int[]) AND ${channel.addressSql} IS NOT NULL
        AND NOT (${n.kind} = ANY(COALESCE(p.muted_kinds, '{}')))
      RETURNING id, via_digest`;
    // the job of each row in the same statement (outbox.ts): committed together or not at all
    if (queue) {
      await tx.$queryRaw`WITH d AS (${rows})
        SELECT count(graphile_worker.add_job(${DELIVER_TASK}, json_build_object('id', d.id), max_attempts := ${queue.maxTries}::int, job_key := 'notification_delivery:' || d.id))::int AS n FROM d WHERE NOT d.via_digest`;
    } else await tx.$executeRaw`WITH d AS (${rows}) SELECT 1`;
  }
  return written.length;
}

// ---- recipients, by the domains' scope rules ------------------------------------------------------

/** The enabled supplier-side users (types 2 and 4) of these suppliers: never another supplier's. */
export async function supplierUserIds(q: Q, supplierCodes: readonly string[]): Promise<number[]> {
  if (supplierCodes.length === 0) return [];
  const rows = await q.user.findMany({
    where: { supplierCode: { in: [...supplierCodes] }, type: { in: [...SUPPLIER_TYPES] }, enabled: true },
    select: { id: true },
    orderBy: { id: 'asc' },
  });
  return rows.map((r) => r.id);
}

/** The enabled internal users of these types (the approvers: type 6). */
export async function userIdsOfTypes(q: Q, types: readonly UserType[]): Promise<number[]> {
  const rows = await q.user.findMany({
    where: { type: { in: [...types] }, supplierCode: null, enabled: true },
    select: { id: true },
    orderBy: { id: 'asc' },
  });
  return rows.map((r) => r.id);
}

// ---- the centre -------------------------------------------------------------------------------------

type Stored = {
  id: number;
  kind: string;
  subject: string;
  body: string | null;
  linkPath: string;
  dueDate: Date | null;
  createdAt: Date;
  readAt: Date | null;
};

const rowOf = (n: Stored): NotificationRow => ({
  id: n.id,
  kind: n.kind as NotificationKind,
  subject: n.subject,
  body: n.body,
  linkPath: n.linkPath,
  dueDate: n.dueDate ? cstDay(n.dueDate) : null,
  createdAt: n.createdAt.toISOString(),
  readAt: n.readAt?.toISOString() ?? null,
});

const SELECT = {
  id: true,
  kind: true,
  subject: true,
  body: true,
  linkPath: true,
  dueDate: true,
  createdAt: true,
  readAt: true,
} as const;

/** The bell: the caller's unread count and latest few. */
export async function bell(db: Db, userId: number): Promise<NotificationBell> {
  const [unread, latest] = await Promise.all([
    db.notification.count({ where: { userId, readAt: null } }),
    db.notification.findMany({
      where: { userId },
      select: SELECT,
      orderBy: { id: 'desc' },
      take: NOTIFICATION_BELL_LATEST,
    }),
  ]);
  return { unread, latest: latest.map(rowOf) };
}

/** The centre's list: the caller's own only, newest first (or oldest first when asked). */
export async function pageNotifications(
  db: Db,
  userId: number,
  q: z.output<typeof ZNotificationPageRequestSchema> & NotificationPageRequest,
): Promise<{ rows: NotificationRow[] } & CappedTotal> {
  checkWindow(q);
  const where: Prisma.NotificationWhereInput = {
    userId,
    ...(q.kind ? { kind: q.kind } : {}),
    ...(q.state === 'UNREAD' ? { readAt: null } : q.state === 'READ' ? { readAt: { not: null } } : {}),
  };
  const order = q.sortOrder === 'ascend' ? 'asc' : 'desc';
  const [rows, counted] = await Promise.all([
    db.notification.findMany({
      where,
      select: SELECT,
      orderBy: { id: order },
      skip: (q.page - 1) * q.results,
      take: q.results,
    }),
    db.notification.count({ where }),
  ]);
  return { rows: rows.map(rowOf), ...capTotal(counted) };
}

/** Marks the caller's own (named, or all) unread notifications read; another user's ids change nothing. */
export async function markRead(db: Db, userId: number, q: MarkReadRequest, now = new Date()): Promise<number> {
  const { count } = await db.notification.updateMany({
    where: { userId, readAt: null, ...(q.ids ? { id: { in: q.ids } } : {}) },
    data: { readAt: now },
  });
  return count;
}

/** The user opened the page a notification links to: theirs about it are read. */
export async function markSeen(db: Db, userId: number, linkPath: string, now = new Date()): Promise<number> {
  const { count } = await db.notification.updateMany({
    where: { userId, linkPath, readAt: null },
    data: { readAt: now },
  });
  return count;
}

// ---- 个人设置 -----------------------------------------------------------------------------------------

export async function settingsOf(db: Db, userId: number, mailOn: boolean): Promise<NotificationSettings> {
  const [u, p] = await Promise.all([
    db.user.findUniqueOrThrow({
      where: { id: userId },
      select: { account: true, name: true, email: true, type: true },
    }),
    db.notificationPreference.findUnique({ where: { userId }, select: { mutedKinds: true, digest: true } }),
  ]);
  const { type, ...who } = u;
  return {
    ...who,
    mutedKinds: (p?.mutedKinds ?? []) as NotificationKind[],
    kinds: [...(NOTIFICATION_KINDS_BY_TYPE[type as UserType] ?? [])],
    digest: p?.digest ?? false,
    mailOn,
  };
}

/** The user's own address and mail choices (which kinds; at once or in the daily digest), in one transaction. */
export async function saveSettings(db: Db, userId: number, s: SaveNotificationSettings): Promise<void> {
  const mutedKinds = [...new Set(s.mutedKinds)];
  await db.$transaction(async (tx) => {
    if (s.email !== undefined) await tx.user.update({ where: { id: userId }, data: { email: s.email } });
    const digest = s.digest === undefined ? {} : { digest: s.digest };
    await tx.notificationPreference.upsert({
      where: { userId },
      create: { userId, mutedKinds, ...digest },
      update: { mutedKinds, ...digest },
    });
  });
}

/** An internal admin sets a user's address (修改邮箱 on the delivery log); any user, supplier or internal. */
export async function setUserEmail(
  db: Db,
  account: string,
  email: string | null | undefined,
): Promise<{ account: string; name: string; email: string | null }> {
  const found = await db.user.findUnique({ where: { account }, select: { id: true } });
  if (!found) throw notFound('用户不存在');
  return db.user.update({
    where: { id: found.id },
    data: { email: email ?? null },
    select: { account: true, name: true, email: true },
  });
}
