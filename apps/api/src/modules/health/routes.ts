import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { SqlRunner } from '../../db/migrations.ts';
import { DATABASE_RETRY_AFTER_SECONDS } from '../../plugins/errors.ts';

/**
 * Liveness + database reachability, for load balancers and compose health checks. `sql` is the
 * driver's plain SQL in the server (db/sql-runner.ts): a first check right after a start does not
 * wait for Prisma's client to set itself up.
 */
export const healthRoutes: FastifyPluginAsyncZod<{ sql: Pick<SqlRunner, '$queryRawUnsafe'>; dbKind: string }> = async (app, { sql, dbKind }) => {
  app.get('/esm-server/health', {
    config: { access: 'public' },
    schema: { tags: ['health'], response: { 200: z.object({ status: z.literal('ok'), database: z.string() }), 503: z.object({ status: z.literal('unavailable'), database: z.string() }) } },
    logLevel: 'warn',
    handler: async (_request, reply) => {
      try {
        await sql.$queryRawUnsafe('SELECT 1');
        return { status: 'ok' as const, database: dbKind };
      } catch {
        return reply.status(503).header('Retry-After', String(DATABASE_RETRY_AFTER_SECONDS)).send({ status: 'unavailable' as const, database: dbKind });
      }
    },
  });
};
