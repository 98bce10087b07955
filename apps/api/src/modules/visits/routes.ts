/**
 * The user_visit event (spec §4) and its log. Who visited comes from the session, never from
 * the body: a caller cannot write someone else's visit.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { DRAWING_ADMIN_TYPES, USER_TYPES, ZVisitLogRequestSchema, ZVisitLogResponseSchema, ZVisitRequestSchema, ZVisitResponseSchema } from '@esm/contracts';
import type { Db } from '../../db/database.ts';
import { userOf } from '../../plugins/auth.ts';
import { ok, paged } from '../../lib/envelope.ts';
import { searchVisits } from './service.ts';

export const visitRoutes: FastifyPluginAsyncZod<{ db: Db }> = async (app, { db }) => {
  app.post('/main/visit', {
    config: { access: USER_TYPES },
    schema: { tags: ['visits'], summary: '记录 user_visit 事件', body: ZVisitRequestSchema, response: { 200: ZVisitResponseSchema } },
    handler: async (request) => {
      const u = userOf(request);
      await db.visitEvent.create({
        data: {
          userId: u.id,
          userType: u.type,
          userCode: u.account,
          userName: u.isSupplier ? u.nick : u.name,
          menuName: request.body.menuName,
          path: request.body.path,
          ip: request.ip,
          userAgent: request.headers['user-agent']?.slice(0, 400) ?? null,
        },
      });
      return ok(null, '已记录');
    },
  });

  app.post('/haier/visitLog/page', {
    config: { access: DRAWING_ADMIN_TYPES },
    schema: { tags: ['visits'], summary: '访问日志分页查询', body: ZVisitLogRequestSchema, response: { 200: ZVisitLogResponseSchema } },
    handler: async (request) => {
      const { rows, total } = await searchVisits(db, request.body);
      return paged(rows, total);
    },
  });
};
