/**
 * Housekeeping every api process runs now and then (each task is idempotent, so several
 * processes over one database and one file store may run them side by side):
 *  - expired sessions are deleted;
 *  - login attempts older than the login limits need (modules/session/limits.ts);
 *  - the file store: temporary files and bytes no standard_file row refers to, once a day old
 *    (lib/storage.ts sweep) — what a crash in the middle of an upload leaves behind.
 * The first round runs a minute after start, off the start-up path; a failed round (the database
 * away) is logged and tried again next time.
 */
import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/database.ts';
import type { Storage } from '../../lib/storage.ts';
import { sweepLoginAttempts } from '../session/limits.ts';
import { sweepResults, sweepRuns } from '../../lib/metrics.ts';

const SESSION_SWEEP_MS = 10 * 60_000;
const STORAGE_SWEEP_MS = 6 * 3_600_000;
/** An upload never takes a day; anything unfinished or unreferenced that old is litter. */
export const STORAGE_LITTER_AGE_MS = 24 * 3_600_000;

/** Removes the file store's litter (exported for operators' scripts and tests). */
export function sweepStorage(db: Db, storage: Storage) {
  return storage.sweep(
    STORAGE_LITTER_AGE_MS,
    async (sha256) => (await db.standardFile.count({ where: { sha256 } })) > 0 || (await db.documentIssueAttachment.count({ where: { sha256 } })) > 0,
  );
}

export const maintenancePlugin = fp(async (app: FastifyInstance, opts: { config: Config; db: Db; storage: Storage }) => {
  const { config, db, storage } = opts;
  const every = (ms: number, name: string, task: () => Promise<unknown>) => {
    const run = () => void task().then(() => sweepRuns.inc({ task: name, result: 'ok' }), (err) => (sweepRuns.inc({ task: name, result: 'failed' }), app.log.warn({ err }, `${name} failed`)));
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
    sweepResults.inc({ task: 'session sweep', kind: 'sessions' }, (await db.session.deleteMany({ where: { expiresAt: { lt: new Date() } } })).count);
    await sweepLoginAttempts(db, config);
  });
  every(STORAGE_SWEEP_MS, 'file store sweep', async () => {
    const removed = await sweepStorage(db, storage);
    for (const kind of ['temporary', 'orphans'] as const) sweepResults.inc({ task: 'file store sweep', kind }, removed[kind]);
    if (removed.temporary || removed.orphans) app.log.info(removed, 'file store swept');
  });
});
