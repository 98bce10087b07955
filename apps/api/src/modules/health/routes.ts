import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Db } from '../../db/database.ts';
import { DATABASE_RETRY_AFTER_SECONDS } from '../../plugins/errors.ts';

/** Liveness + database reachability, for load balancers and compose health checks. */
export const healthRoutes: FastifyPluginAsyncZod<{ db: Db; dbKind: string }> = async (app, { db, dbKind }) => {
  app.get('/esm-server/health', {
    config: { access: 'public' },
    schema: { tags: ['health'], response: { 200: z.object({ status: z.literal('ok'), database: z.string() }), 503: z.object({ status: z.literal('unavailable'), database: z.string() }) } },
    logLevel: 'warn',
    handler: async (_request, reply) => {
      try {
        await db.$queryRawUnsafe('SELECT 1');
        return { status: 'ok' as const, database: dbKind };
      } catch {
        return reply.status(503).header('Retry-After', String(DATABASE_RETRY_AFTER_SECONDS)).send({ status: 'unavailable' as const, database: dbKind });
      }
    },
  });
};
