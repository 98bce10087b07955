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
import { DELIVER_TASK, DIGEST_TASK, refusalAnswer, type TryJob } from './tasks.ts';
import type { TaskList } from 'graphile-worker';
import { REMINDERS_CRONTAB, REMINDERS_TASK, sendDailyReminders } from './reminders.ts';
import { DIGEST_CRONTAB, DIGEST_GATHER_TASK, deliverDigest, gatherDigests } from './digest.ts';

/** The advisory lock around graphile-worker's own migrations: processes starting together install its schema once. */
export const OUTBOX_MIGRATION_LOCK = 72616403;

/** One try of one delivery (see the header). */
export async function deliver(db: Db, sender: MailSender, id: number, job: TryJob): Promise<'sent' | 'skipped'> {
  const d = await db.notificationDelivery.findUnique({
    where: { id },
    select: {
      state: true,
      address: true,
      notification: { select: { userId: true, subject: true, body: true, linkPath: true, dueDate: true } },
    },
  });
  if (!d || d.state !== 'PENDING') return 'skipped';
  const user = await db.user.findUnique({ where: { id: d.notification.userId }, select: { name: true } });
  try {
    const sent = await sender.send({
      to: d.address,
      recipientName: user?.name ?? '',
      subject: d.notification.subject,
      body: d.notification.body,
      linkPath: d.notification.linkPath,
      dueDate: d.notification.dueDate,
    });
    await db.notificationDelivery.updateMany({
      where: { id, state: 'PENDING' },
      data: {
        state: 'SENT',
        tries: { increment: 1 },
        lastAnswer: sent.answer.slice(0, 500),
        messageId: sent.messageId,
        sentAt: new Date(),
      },
    });
    return 'sent';
  } catch (e) {
    const last = job.attempts >= job.max_attempts;
    await db.notificationDelivery.updateMany({
      where: { id, state: 'PENDING' },
      data: {
        tries: { increment: 1 },
        lastAnswer: refusalAnswer(e),
        ...(last ? { state: 'FAILED' } : {}),
      },
    });
    throw e;
  }
}

export interface OutboxOptions {
  config: Config;
  db: Db;
  /** Tests: another sender than SMTP_URL's. */
  sender?: MailSender;
}

const jobId = (payload: unknown) => Number((payload as { id?: unknown }).id);

/**
 * Starts the worker on a Postgres server (DATABASE_URL), mail or not: the day's reminders are
 * in-app notifications first, so its cron runs them whether or not SMTP_URL is set; with mail on it
 * also delivers the outbox and the daily digests. The embedded database (one process, no server)
 * has no queue: its process runs the reminders itself, once a day at the cron's hour. The worker
 * stops when the app closes — in the shutdown drain, after the requests in flight and before the
 * pools close: a delivery being sent finishes, the rest stay queued for the next process.
 */
export const outboxPlugin = fp(async (app: FastifyInstance, { config, db, sender }: OutboxOptions) => {
  const mail: MailConfig | undefined = config.mail;
  useChannels([]);
  if (!mail && !config.dailyJobs) return;
  if (!config.databaseUrl) {
    const stop = embeddedDailyReminders(app, db);
    app.addHook('onClose', stop);
    return;
  }
  const { run, runMigrations, Logger } = await import('graphile-worker');
  const { withAdvisoryLock } = await import('../../db/advisory-lock.ts');
  const { default: pg } = await import('pg');
  const { CONNECTION_OPTIONS } = await import('../../db/database.ts');
  // The worker's own pool, made here so that it always has an 'error' listener: graphile-worker's
  // pool dropped its listener while stopping, and a connection the server ended just then (a
  // database restarting or dropped during a stop) was an uncaught error that ended the process.
  const pool = new pg.Pool({ connectionString: config.databaseUrl, max: 4, options: CONNECTION_OPTIONS });
  pool.on('error', (err) => app.log.warn({ scope: 'outbox', err }, 'worker connection lost (the pool reconnects)'));
  const logger = new Logger(() => (level, message) => {
    if (level === 'error') app.log.error({ scope: 'outbox' }, message);
    else if (level === 'warning') app.log.warn({ scope: 'outbox' }, message);
  });
  await withAdvisoryLock(db, OUTBOX_MIGRATION_LOCK, () => runMigrations({ pgPool: pool, logger }));
  const mailer = mail ? (sender ?? (await smtpSender(mail))) : undefined;
  const mailTasks: TaskList = mailer
    ? {
        [DIGEST_GATHER_TASK]: async () => {
          await gatherDigests(db);
        },
        [DIGEST_TASK]: async (payload, helpers) => {
          const id = jobId(payload);
          if (Number.isInteger(id)) await deliverDigest(db, mailer, id, helpers.job);
        },
        [DELIVER_TASK]: async (payload, helpers) => {
          const id = jobId(payload);
          if (Number.isInteger(id)) await deliver(db, mailer, id, helpers.job);
        },
      }
    : {};
  const runner = await run({
    pgPool: pool,
    concurrency: 2,
    noHandleSignals: true,
    pollInterval: 2_000,
    logger,
    // the day's reminders and digests: graphile-worker's cron makes one job per tick across every replica
    crontab: mailer ? `${REMINDERS_CRONTAB}\n${DIGEST_CRONTAB}` : REMINDERS_CRONTAB,
    taskList: {
      [REMINDERS_TASK]: async () => {
        await sendDailyReminders(db);
      },
      ...mailTasks,
    },
  });
  if (mail) useChannels([EMAIL_CHANNEL], { maxTries: mail.maxTries });
  app.addHook('onClose', async () => {
    useChannels([]);
    await runner.stop();
    await pool.end(); // graphile-worker leaves a pool it was given open
    mailer?.close();
  });
});

/** The reminders cron's hour (01:00 UTC), as the embedded process's timer counts to it. */
const REMINDERS_HOUR_UTC = 1;

/** Milliseconds from `now` to the next REMINDERS_HOUR_UTC:00. */
export function msToNextRun(now: Date): number {
  const next = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate(), REMINDERS_HOUR_UTC));
  if (next.getTime() <= now.getTime()) next.setUTCDate(next.getUTCDate() + 1);
  return next.getTime() - now.getTime();
}

/** One process on the embedded database: a timer to the day's hour, then the run (its keys make a repeat harmless). */
function embeddedDailyReminders(app: FastifyInstance, db: Db): () => Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const schedule = () => {
    timer = setTimeout(() => {
      sendDailyReminders(db)
        .catch((e: unknown) => app.log.error({ scope: 'reminders', err: e }, 'daily reminders failed'))
        .finally(schedule);
    }, msToNextRun(new Date()));
    timer.unref();
  };
  schedule();
  return async () => clearTimeout(timer);
}
