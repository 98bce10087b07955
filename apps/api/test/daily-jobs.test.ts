/**
 * The daily reminders without mail: a portal with no SMTP_URL still runs the day's scheduled job
 * through the queue (its cron's task, added here as the cron would at its hour), and the in-app
 * notification appears for the supplier's users — and no outbox row, since mail is off.
 */
import { afterAll, expect, it } from 'vitest';
import { createMaterial, createProductLine, createSupplier, createSupplierUser, linkSupplier } from './factories.ts';
import { buildTestApp } from './helpers.ts';
import { REMINDERS_TASK } from '../src/modules/notifications/reminders.ts';
import { msToNextRun } from '../src/modules/notifications/outbox.ts';

const t = await buildTestApp({ config: { dailyJobs: true } });
const db = t.db.prisma;
afterAll(() => t.close());

it('without SMTP_URL the day’s run still writes the in-app reminder', async () => {
  const line = await createProductLine(db);
  const m = await createMaterial(db, line.code);
  const S = await createSupplier(db, '无邮件提醒');
  await linkSupplier(db, S.code, m.code);
  const u = await createSupplierUser(t.db, S.code);
  await db.user.update({ where: { id: u.id }, data: { email: `${u.account}@example.com`.toLowerCase() } });
  const g = await db.empowerGrant.create({
    data: {
      supplierCode: S.code,
      materialCode: m.code,
      validFrom: new Date(Date.now() - 86_400_000),
      validUntil: new Date(Date.now() + 5 * 86_400_000),
      createdBy: 'test',
    },
  });

  // what the cron does at 01:00 UTC: one job of the reminders task, run by this process's worker
  await db.$queryRaw`SELECT count(graphile_worker.add_job(${REMINDERS_TASK}))::int AS n`;
  const end = Date.now() + 60_000;
  let found = 0;
  while (
    Date.now() < end &&
    !(found = await db.notification.count({
      where: { userId: u.id, kind: 'GRANT_EXPIRING', dedupeKey: `grant-expiring-7:${g.id}` },
    }))
  )
    await new Promise((r) => setTimeout(r, 100));
  expect(found).toBe(1);
  expect(await db.notificationDelivery.count({ where: { notification: { userId: u.id } } })).toBe(0);
});

it('the embedded process’s timer counts to the next 01:00 UTC', () => {
  expect(msToNextRun(new Date('2026-03-01T00:30:00Z'))).toBe(30 * 60_000);
  expect(msToNextRun(new Date('2026-03-01T01:00:00Z'))).toBe(86_400_000);
  expect(msToNextRun(new Date('2026-03-31T23:00:00Z'))).toBe(2 * 3_600_000);
});
