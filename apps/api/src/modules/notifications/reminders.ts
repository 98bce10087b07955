/**
 * The day's reminders: a published notice due in 2 days, or past its due date, to the users of
 * each recipient supplier that has not confirmed it; a valid grant ending within 30 and within 7
 * days to its supplier's users (with the 续期 page). Each carries a key (notice-due:12,
 * grant-expiring-7:34), so a user is told once whatever how often the run repeats — the queue's
 * cron runs it once a day across replicas, and a repeat (a retry, two replicas racing) adds nothing.
 */
import type { Db } from '../../db/database.ts';
import { PAGES } from '@esm/contracts';
import { cstDay } from '../../lib/dates.ts';
import { notify, supplierUserIds } from './service.ts';

const DAY_MS = 86_400_000;

/** YYYY-MM-DD in UTC+8, `days` from `now`. */
const dayFrom = (now: Date, days: number) => cstDay(new Date(now.getTime() + days * DAY_MS));

export async function sendDailyReminders(db: Db, now = new Date()): Promise<number> {
  let told = 0;
  const today = dayFrom(now, 0);
  const soon = dayFrom(now, 2);
  const notices = await db.$queryRaw<
    { id: number; number: string; title: string; due_date: Date; due: string; supplier_codes: string[] }[]
  >`
    SELECT n.id, n.number, n.title, n.due_date, to_char(n.due_date, 'YYYY-MM-DD') AS due, array_agg(r.supplier_code ORDER BY r.supplier_code) AS supplier_codes
    FROM change_notice n JOIN notice_recipient r ON r.notice_id = n.id AND r.status <> 'CONFIRMED'
    WHERE n.status = 'PUBLISHED' AND (n.due_date = ${soon}::date OR n.due_date < ${today}::date)
    GROUP BY n.id ORDER BY n.id`;
  for (const n of notices) {
    const overdue = n.due < today;
    await db.$transaction(async (tx) => {
      told += await notify(
        tx,
        await supplierUserIds(tx, n.supplier_codes),
        {
          kind: overdue ? 'NOTICE_OVERDUE' : 'NOTICE_DUE_SOON',
          subject: overdue
            ? `图纸变更通知 ${n.number} 已逾期未确认：${n.title}`
            : `图纸变更通知 ${n.number} 将于 ${n.due} 到期：${n.title}`,
          body: overdue ? `确认截止日期 ${n.due} 已过，请尽快阅读并确认。` : `请在 ${n.due} 前阅读并确认。`,
          linkPath: `${PAGES.noticeOfChangeOfDrawings.path}?id=${n.id}`,
          dueDate: n.due_date,
          dedupeKey: `${overdue ? 'notice-overdue' : 'notice-due'}:${n.id}`,
        },
        now,
      );
    });
  }
  const grants = await db.empowerGrant.findMany({
    where: {
      revokedAt: null,
      validFrom: { lte: now },
      validUntil: { gt: now, lte: new Date(now.getTime() + 30 * DAY_MS) },
    },
    select: {
      id: true,
      supplierCode: true,
      materialCode: true,
      validUntil: true,
      material: { select: { name: true } },
    },
    orderBy: { id: 'asc' },
  });
  for (const g of grants) {
    const within = g.validUntil.getTime() - now.getTime() <= 7 * DAY_MS ? 7 : 30;
    const last = cstDay(new Date(g.validUntil.getTime() - 1));
    await db.$transaction(async (tx) => {
      told += await notify(
        tx,
        await supplierUserIds(tx, [g.supplierCode]),
        {
          kind: 'GRANT_EXPIRING',
          subject: `物料 ${g.materialCode} ${g.material.name} 的图纸授权将于 ${last} 到期`,
          body: `授权到期后将无法查看该物料的图纸；如仍需要，请在到期前申请续期（${within} 天内到期）。`,
          linkPath: PAGES.supplierDrawingEmpowerApply.path,
          dueDate: new Date(`${last}T00:00:00Z`),
          dedupeKey: `grant-expiring-${within}:${g.id}`,
        },
        now,
      );
    });
  }
  return told;
}

export const REMINDERS_TASK = 'send_daily_reminders';
/** 01:00 UTC, 09:00 in China: once a day, one replica (the queue's cron takes one job per tick). */
export const REMINDERS_CRONTAB = `0 1 * * * ${REMINDERS_TASK} ?max=3`;
