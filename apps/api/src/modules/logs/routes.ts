/**
 * The five log pages of the drawing archives (drawing admins, types 3/7/8/9), one call each at
 * the path LOG_ENDPOINTS gives it (spec §7). Suppliers never read these.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { DRAWING_ADMIN_TYPES, LOG_ACTION_LABELS, LOG_ENDPOINTS, ZLogRequestSchema, ZLogResponseSchema, type LogAction } from '@esm/contracts';
import type { Db } from '../../db/database.ts';
import { cappedPage } from '../../lib/listWindow.ts';
import { pageLog } from './service.ts';

export const logRoutes: FastifyPluginAsyncZod<{ db: Db }> = async (app, { db }) => {
  for (const [action, { path }] of Object.entries(LOG_ENDPOINTS) as [LogAction, { path: string }][]) {
    app.post(`/${path}`, {
      config: { access: DRAWING_ADMIN_TYPES },
      schema: { tags: ['logs'], summary: `${LOG_ACTION_LABELS[action]}日志分页`, body: ZLogRequestSchema, response: { 200: ZLogResponseSchema } },
      handler: async (request) => cappedPage(await pageLog(db, action, request.body)),
    });
  }
};
