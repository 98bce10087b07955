import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { SqlRunner } from '../../db/migrations.ts';
import type { Storage } from '../../lib/storage.ts';
import { DATABASE_RETRY_AFTER_SECONDS } from '../../plugins/errors.ts';

/**
 * For load balancers, orchestrators and compose health checks:
 *  - /esm-server/health/live: the process answers (no I/O): restart it when this fails;
 *  - /esm-server/health/ready: the database answers AND the file store takes a write (a small
 *    probe object written, read back and removed): send it requests only when this is 200;
 *  - /esm-server/health: the same as ready (what existing checks call).
 * The store's probe is cached for a few seconds, so a busy health checker costs the store nothing;
 * the database's check is one `SELECT 1` each time. `sql` is the driver's plain SQL
 * (db/sql-runner.ts): a first check right after a start does not wait for Prisma's client.
 */
export const STORAGE_PROBE_CACHE_MS = 5_000;

const Ready = z.object({ status: z.literal('ok'), database: z.string(), storage: z.literal('ok') });
const NotReady = z.object({
  status: z.literal('unavailable'),
  database: z.string(),
  storage: z.enum(['ok', 'unavailable']),
  /** what failed: database, storage or both */
  failed: z.array(z.enum(['database', 'storage'])),
});

export const healthRoutes: FastifyPluginAsyncZod<{
  sql: Pick<SqlRunner, '$queryRawUnsafe'>;
  dbKind: string;
  storage: Storage;
}> = async (app, { sql, dbKind, storage }) => {
  let probed: { at: number; ok: Promise<boolean> } | undefined;
  /** One probe at a time, its answer reused for STORAGE_PROBE_CACHE_MS. */
  const storageOk = () => {
    const now = Date.now();
    if (!probed || now - probed.at >= STORAGE_PROBE_CACHE_MS) {
      probed = {
        at: now,
        ok: storage.probe().then(
          () => true,
          (err: unknown) => {
            app.log.warn({ err, store: storage.description }, 'file store probe failed');
            return false;
          },
        ),
      };
    }
    return probed.ok;
  };
  const databaseOk = () =>
    sql.$queryRawUnsafe('SELECT 1').then(
      () => true,
      () => false,
    );

  const ready = {
    config: { access: 'public' },
    schema: { tags: ['health'], response: { 200: Ready, 503: NotReady } },
    logLevel: 'warn',
    handler: async (_request: unknown, reply: import('fastify').FastifyReply) => {
      const [db, files] = await Promise.all([databaseOk(), storageOk()]);
      if (db && files) return { status: 'ok' as const, database: dbKind, storage: 'ok' as const };
      const failed = [...(db ? [] : ['database' as const]), ...(files ? [] : ['storage' as const])];
      return reply
        .status(503)
        .header('Retry-After', String(DATABASE_RETRY_AFTER_SECONDS))
        .send({
          status: 'unavailable' as const,
          database: dbKind,
          storage: files ? ('ok' as const) : ('unavailable' as const),
          failed,
        });
    },
  } as const;
  app.get('/esm-server/health', ready);
  app.get('/esm-server/health/ready', ready);
  app.get('/esm-server/health/live', {
    config: { access: 'public' },
    schema: { tags: ['health'], response: { 200: z.object({ status: z.literal('ok') }) } },
    logLevel: 'warn',
    handler: async () => ({ status: 'ok' as const }),
  });
};
