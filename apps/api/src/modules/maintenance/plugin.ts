/**
 * Housekeeping every api process runs now and then (each task is idempotent, so several
 * processes over one database and one file store may run them side by side; the file store's
 * sweep, the one that lists a whole bucket, runs on one of them at a time):
 *  - expired sessions are deleted;
 *  - login attempts older than the login limits need (modules/session/limits.ts);
 *  - the file store: temporary files, once a day old, are removed; stored bytes no row refers to,
 *    once a day old, are moved into quarantine and removed only after STORAGE_QUARANTINE_DAYS —
 *    what a crash in the middle of an upload leaves behind (lib/storage.ts sweep). Never removed
 *    outright: a database that is not the one the store's rows were written by (a restored copy)
 *    sees orphans where there are none, and a quarantined file referenced again is put back.
 * The first round runs a minute after start, off the start-up path; a failed round (the database
 * away) is logged and tried again next time.
 */
import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/database.ts';
import type { Storage, SweepCounts } from '../../lib/storage.ts';
import { sweepLoginAttempts } from '../session/index.ts';
import { sweepResults, sweepRuns } from '../../lib/metrics.ts';

const SESSION_SWEEP_MS = 10 * 60_000;
const STORAGE_SWEEP_MS = 6 * 3_600_000;
/** An upload never takes a day; anything unfinished or unreferenced that old is litter. */
export const STORAGE_LITTER_AGE_MS = 24 * 3_600_000;

/** Tables whose rows name stored bytes by their sha256: a file one of them names is never quarantined. */
const REFERENCES = `
  SELECT sha256 FROM standard_file
  UNION SELECT sha256 FROM document_issue_attachment
  UNION SELECT sha256 FROM notice_confirmed_file
  UNION SELECT jsonb_array_elements(CASE jsonb_typeof(content->'files') WHEN 'array' THEN content->'files' ELSE '[]' END)->>'sha256' FROM countersign_round`;
/** One key: the same tables, for a candidate about to be moved (a row may have committed since the sweep began). */
const REFERENCED = `
  SELECT EXISTS (SELECT 1 FROM standard_file WHERE sha256 = $1)
      OR EXISTS (SELECT 1 FROM document_issue_attachment WHERE sha256 = $1)
      OR EXISTS (SELECT 1 FROM notice_confirmed_file WHERE sha256 = $1)
      OR EXISTS (SELECT 1 FROM countersign_round WHERE content->'files' @> jsonb_build_array(jsonb_build_object('sha256', $1::text))) AS referenced`;

/** The advisory lock only one sweeping replica holds (an arbitrary constant of this application). */
export const STORAGE_SWEEP_LOCK = 7_345_012_031;
/** A sweep of a large bucket takes a while; the lock's transaction must outlive it. */
const SWEEP_TRANSACTION = { maxWait: 10_000, timeout: 3_600_000 } as const;

export interface StorageSweepOptions {
  quarantineDays: number;
  /** Postgres: take the advisory lock (the embedded database has one process, and one connection). */
  lock: boolean;
  now?: number;
}

type Runner = Pick<Db, '$queryRawUnsafe'>;

async function sweepWith(sql: Runner, storage: Storage, opts: StorageSweepOptions): Promise<SweepCounts> {
  // every referenced key at once (standard_file.sha256 has no index of its own), then each
  // candidate once more just before it moves, for a row committed while the sweep runs
  const known = new Set(
    (await sql.$queryRawUnsafe<{ sha256: string | null }[]>(REFERENCES)).map((r) => r.sha256?.trim()),
  );
  return storage.sweep({
    olderThanMs: STORAGE_LITTER_AGE_MS,
    quarantineMs: opts.quarantineDays * 86_400_000,
    ...(opts.now === undefined ? {} : { now: opts.now }),
    isReferenced: async (sha256) =>
      known.has(sha256) ||
      Boolean((await sql.$queryRawUnsafe<{ referenced: boolean }[]>(REFERENCED, sha256))[0]?.referenced),
  });
}

/**
 * Quarantines the file store's litter, puts back what is referenced again, removes what was
 * quarantined long enough (exported for operators' scripts and tests). On Postgres one replica
 * sweeps at a time: the others find the lock taken and answer null.
 */
export async function sweepStorage(db: Db, storage: Storage, opts: StorageSweepOptions): Promise<SweepCounts | null> {
  if (!opts.lock) return sweepWith(db, storage, opts);
  return db.$transaction(async (tx) => {
    const [row] = await tx.$queryRawUnsafe<{ locked: boolean }[]>(
      `SELECT pg_try_advisory_xact_lock(${STORAGE_SWEEP_LOCK}) AS locked`,
    );
    if (!row?.locked) return null;
    return sweepWith(tx, storage, opts);
  }, SWEEP_TRANSACTION);
}

export const maintenancePlugin = fp(
  async (app: FastifyInstance, opts: { config: Config; db: Db; storage: Storage }) => {
    const { config, db, storage } = opts;
    const every = (ms: number, name: string, task: () => Promise<unknown>) => {
      const run = () =>
        void task().then(
          () => sweepRuns.inc({ task: name, result: 'ok' }),
          (err) => (sweepRuns.inc({ task: name, result: 'failed' }), app.log.warn({ err }, `${name} failed`)),
        );
      const first = setTimeout(run, 60_000);
      const timer = setInterval(run, ms);
      first.unref();
      timer.unref();
      app.addHook('onClose', async () => {
        clearTimeout(first);
        clearInterval(timer);
      });
    };
    every(SESSION_SWEEP_MS, 'session sweep', async () => {
      sweepResults.inc(
        { task: 'session sweep', kind: 'sessions' },
        (await db.session.deleteMany({ where: { expiresAt: { lt: new Date() } } })).count,
      );
      await sweepLoginAttempts(db, config);
    });
    every(STORAGE_SWEEP_MS, 'file store sweep', async () => {
      const counts = await sweepStorage(db, storage, {
        quarantineDays: config.storageQuarantineDays,
        lock: Boolean(config.databaseUrl),
      });
      if (counts) {
        for (const kind of ['moved', 'restored', 'purged', 'temporary'] as const)
          sweepResults.inc({ task: 'file store sweep', kind }, counts[kind]);
        app.log.info({ ...counts, store: storage.description }, 'file store swept');
      } else app.log.info('file store sweep skipped: another replica is sweeping');
    });
  },
);
