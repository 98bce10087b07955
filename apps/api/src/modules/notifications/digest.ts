/**
 * The daily digest: a user who chose 每日汇总 in 个人设置 gets the day's mail in one message
 * instead of one per notification. `notify` writes their outbox rows waiting (via_digest, no job);
 * once a day `gatherDigests` gives each such user one notification_digest row for the day (UTC+8)
 * that carries every row waiting for them, and queues its job; `deliverDigest` sends it and moves
 * the digest and the rows it carries together.
 *
 * Once a day, never twice: the queue's cron makes one job per tick across replicas, and a digest is
 * unique per user and day — a repeated run (a retry, a second replica, an operator re-running it)
 * finds the day's digest already there and adds nothing; rows written after it wait for the next
 * day's. The in-app centre is not touched: it lists the notifications as they are written.
 */
import type { Db } from '../../db/database.ts';
import { cstDay } from '../../lib/dates.ts';
import { activeQueue } from './channels.ts';
import type { MailSender } from './mail.ts';
import { DIGEST_TASK, refusalAnswer, type TryJob } from './tasks.ts';

/** Gives each user with waiting rows the day's digest, with its job; answers how many were made. */
export async function gatherDigests(db: Db, now = new Date()): Promise<number> {
  const queue = activeQueue();
  if (!queue) return 0;
  const day = cstDay(now);
  const users = await db.$queryRaw<
    { user_id: number }[]
  >`SELECT DISTINCT n.user_id FROM notification_delivery d JOIN notification n ON n.id = d.notification_id
    WHERE d.via_digest AND d.state = 'PENDING' AND d.digest_id IS NULL AND d.created_at <= ${now} ORDER BY n.user_id`;
  let made = 0;
  for (const { user_id: userId } of users) {
    made += await db.$transaction(async (tx) => {
      // the latest waiting row's address: where the user wanted mail when it was written
      const digest = await tx.$queryRaw<
        { id: number }[]
      >`INSERT INTO notification_digest (user_id, day, address, state, created_at, updated_at)
        SELECT ${userId}, ${day}::date, d.address, 'PENDING', ${now}, ${now}
        FROM notification_delivery d JOIN notification n ON n.id = d.notification_id
        WHERE n.user_id = ${userId} AND d.via_digest AND d.state = 'PENDING' AND d.digest_id IS NULL AND d.created_at <= ${now}
        ORDER BY d.id DESC LIMIT 1
        ON CONFLICT (user_id, day) DO NOTHING RETURNING id`;
      const id = digest[0]?.id;
      if (id === undefined) return 0;
      await tx.$executeRaw`UPDATE notification_delivery d SET digest_id = ${id}, updated_at = ${now}
        FROM notification n WHERE n.id = d.notification_id AND n.user_id = ${userId}
          AND d.via_digest AND d.state = 'PENDING' AND d.digest_id IS NULL AND d.created_at <= ${now}`;
      await tx.$queryRaw`SELECT count(graphile_worker.add_job(${DIGEST_TASK}, json_build_object('id', ${id}::int), max_attempts := ${queue.maxTries}::int, job_key := ${`notification_digest:${id}`}))::int AS n`;
      return 1;
    });
  }
  return made;
}

/**
 * One try of one digest: still PENDING → one mail listing its rows; accepted → the digest and its
 * rows SENT; refused → the job throws and the queue retries; on the last try → FAILED, with the
 * rows, and the server's answer on each (重新发送 then mails a row on its own).
 */
export async function deliverDigest(db: Db, sender: MailSender, id: number, job: TryJob): Promise<'sent' | 'skipped'> {
  const g = await db.notificationDigest.findUnique({
    where: { id },
    select: {
      state: true,
      address: true,
      day: true,
      userId: true,
      deliveries: {
        where: { state: 'PENDING' },
        orderBy: { id: 'asc' },
        select: { notification: { select: { subject: true, body: true, linkPath: true, dueDate: true } } },
      },
    },
  });
  if (!g || g.state !== 'PENDING') return 'skipped';
  const user = await db.user.findUnique({ where: { id: g.userId }, select: { name: true } });
  const now = new Date();
  try {
    const sent = await sender.sendDigest({
      to: g.address,
      recipientName: user?.name ?? '',
      day: cstDay(g.day),
      items: g.deliveries.map((d) => d.notification),
    });
    const answer = sent.answer.slice(0, 500);
    await db.$transaction([
      db.notificationDigest.updateMany({
        where: { id, state: 'PENDING' },
        data: { state: 'SENT', tries: { increment: 1 }, lastAnswer: answer, messageId: sent.messageId, sentAt: now },
      }),
      db.notificationDelivery.updateMany({
        where: { digestId: id, state: 'PENDING' },
        data: { state: 'SENT', tries: { increment: 1 }, lastAnswer: answer, messageId: sent.messageId, sentAt: now },
      }),
    ]);
    return 'sent';
  } catch (e) {
    const answer = refusalAnswer(e);
    const state = job.attempts >= job.max_attempts ? { state: 'FAILED' } : {};
    await db.$transaction([
      db.notificationDigest.updateMany({
        where: { id, state: 'PENDING' },
        data: { tries: { increment: 1 }, lastAnswer: answer, ...state },
      }),
      db.notificationDelivery.updateMany({
        where: { digestId: id, state: 'PENDING' },
        data: { tries: { increment: 1 }, lastAnswer: answer, ...state },
      }),
    ]);
    throw e;
  }
}

export const DIGEST_GATHER_TASK = 'gather_daily_digests';
/** 10:00 UTC, 18:00 in China (after the working day): once a day, one replica. */
export const DIGEST_CRONTAB = `0 10 * * * ${DIGEST_GATHER_TASK} ?max=3`;
