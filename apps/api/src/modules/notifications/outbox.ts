/**
 * The outbox's sender: a graphile-worker job per notification_delivery row, added by `notify` in
 * the transaction that writes the row (so a committed move always has its job, and a rolled-back
 * one has neither), run after commit by a worker inside every api process.
 *
 * graphile-worker rather than pg-boss: its job is added by a plain SQL function
 * (`graphile_worker.add_job`) on the transaction the move already holds — no client object to
 * thread through the domains' Prisma transactions — and it brings what the outbox needs: a job is
 * taken by one worker across all processes (SKIP LOCKED), LISTEN/NOTIFY picks it up right after
 * commit, a failure is retried with exponential backoff up to max_attempts, and a job whose process
 * died is taken again after its lock expires. It is plain JavaScript on `pg` (which the api already
 * uses): nothing is downloaded at install.
 *
 * What a delivery does: a row still PENDING is handed to the channel; the answer and the try are
 * recorded; accepted → SENT. Refused → still PENDING and the job throws, so the queue retries it
 * later; on the last try → FAILED with the server's answer. A row no longer PENDING (sent by an
 * earlier run) is left alone, so a job run twice does not mail twice.
 */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Config, MailConfig } from '../../config.ts';
import type { Db } from '../../db/database.ts';
import { EMAIL_CHANNEL, useChannels } from './channels.ts';
import { smtpSender, type MailSender } from './mail.ts';
import { DELIVER_TASK } from './tasks.ts';
import { REMINDERS_CRONTAB, REMINDERS_TASK, sendDailyReminders } from './reminders.ts';


/** The advisory lock around graphile-worker's own migrations: processes starting together install its schema once. */
export const OUTBOX_MIGRATION_LOCK = 72616403;

interface Job {
  attempts: number;
  max_attempts: number;
}

/** One try of one delivery (see the header). */
export async function deliver(db: Db, sender: MailSender, id: number, job: Job): Promise<'sent' | 'skipped'> {
  const d = await db.notificationDelivery.findUnique({
    where: { id },
    select: { state: true, address: true, notification: { select: { userId: true, subject: true, body: true, linkPath: true, dueDate: true } } },
  });
  if (!d || d.state !== 'PENDING') return 'skipped';
  const user = await db.user.findUnique({ where: { id: d.notification.userId }, select: { name: true } });
  try {
    const answer = await sender.send({ to: d.address, recipientName: user?.name ?? '', subject: d.notification.subject, body: d.notification.body, linkPath: d.notification.linkPath, dueDate: d.notification.dueDate });
    await db.notificationDelivery.updateMany({ where: { id, state: 'PENDING' }, data: { state: 'SENT', tries: { increment: 1 }, lastAnswer: answer.slice(0, 500), sentAt: new Date() } });
    return 'sent';
  } catch (e) {
    const err = e as { response?: string; message?: string };
    const last = job.attempts >= job.max_attempts;
    await db.notificationDelivery.updateMany({ where: { id, state: 'PENDING' }, data: { tries: { increment: 1 }, lastAnswer: String(err.response ?? err.message ?? e).slice(0, 500), ...(last ? { state: 'FAILED' } : {}) } });
    throw e;
  }
}

export interface OutboxOptions {
  config: Config;
  db: Db;
  /** Tests: another sender than SMTP_URL's. */
  sender?: MailSender;
}

/**
 * Starts the worker when mail is on (SMTP_URL, with DATABASE_URL); stops it when the app closes —
 * in the shutdown drain, after the requests in flight and before the pools close: a delivery being
 * sent finishes, the rest stay queued for the next process.
 */
export const outboxPlugin = fp(async (app: FastifyInstance, { config, db, sender }: OutboxOptions) => {
  const mail: MailConfig | undefined = config.mail;
  if (!mail || !config.databaseUrl) {
    useChannels([]);
    return;
  }
  const { run, runMigrations, Logger } = await import('graphile-worker');
  const { withAdvisoryLock } = await import('../../db/advisory-lock.ts');
  const logger = new Logger(() => (level, message) => {
    if (level === 'error') app.log.error({ scope: 'outbox' }, message);
    else if (level === 'warning') app.log.warn({ scope: 'outbox' }, message);
  });
  await withAdvisoryLock(db, OUTBOX_MIGRATION_LOCK, () => runMigrations({ connectionString: config.databaseUrl, logger }));
  const mailer = sender ?? (await smtpSender(mail));
  const runner = await run({
    connectionString: config.databaseUrl,
    concurrency: 2,
    maxPoolSize: 4,
    noHandleSignals: true,
    pollInterval: 2_000,
    logger,
    // the day's reminders: graphile-worker's cron makes one job per tick across every replica
    crontab: REMINDERS_CRONTAB,
    taskList: {
      [REMINDERS_TASK]: async () => {
        await sendDailyReminders(db);
      },
      [DELIVER_TASK]: async (payload, helpers) => {
        const id = Number((payload as { id?: unknown }).id);
        if (!Number.isInteger(id)) return;
        await deliver(db, mailer, id, helpers.job);
      },
    },
  });
  useChannels([EMAIL_CHANNEL], { maxTries: mail.maxTries });
  app.addHook('onClose', async () => {
    useChannels([]);
    await runner.stop();
    mailer.close();
  });
});
