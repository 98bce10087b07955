/**
 * Session and shell calls (spec §4, §7; paths named in issue 2): user/current, user/login,
 * user/logout. POST with JSON.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { CODES, SESSION_ERRORS, ZCurrentUserResponseSchema, ZLoginRequestSchema, ZLoginResponseSchema, ZNullData } from '@esm/contracts';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/database.ts';
import { readSession } from '../../plugins/auth.ts';
import { SESSION_COOKIE } from '../../plugins/session.ts';
import { login, toCurrentUser } from './service.ts';

export const sessionRoutes: FastifyPluginAsyncZod<{ db: Db; config: Config }> = async (app, { db, config }) => {
  app.post('/user/current', {
    config: { access: 'public' },
    schema: {
      tags: ['session'],
      summary: '会话检查：code "0" 返回当前用户；201-205 会话错误；10000007 未登录',
      response: { 200: ZCurrentUserResponseSchema, 401: ZCurrentUserResponseSchema, 403: ZCurrentUserResponseSchema },
    },
    handler: async (request, reply) => {
      const state = await readSession(db, request);
      if (state.ok) {
        const hasMenu = await db.menuGrant.count({ where: { userType: state.user.type } });
        if (hasMenu === 0) {
          return reply.status(403).send({ success: false, code: '205', message: SESSION_ERRORS[205], data: null, homeUrl: config.companyHomeUrl });
        }
        return { success: true, code: CODES.SESSION_OK, message: '会话有效', data: toCurrentUser(state.user) };
      }
      if (state.reason === 'none') {
        return reply.status(401).send({ success: false, code: CODES.SESSION_EXPIRED, message: '请先登录', data: null });
      }
      await request.session.destroy();
      const code = state.reason === 'invalid' ? state.code : 201;
      return reply.status(401).send({ success: false, code: String(code), message: SESSION_ERRORS[code], data: null, homeUrl: config.companyHomeUrl });
    },
  });

  app.post('/user/login', {
    config: { access: 'public' },
    schema: { tags: ['session'], summary: '登录：code "10000000" 成功', body: ZLoginRequestSchema, response: { 200: ZLoginResponseSchema } },
    handler: async (request) => {
      await login(db, config, request, request.body);
      const state = await readSession(db, request);
      if (!state.ok) throw new Error('session not readable right after login');
      return { success: true, code: CODES.LOGIN_OK, message: '登陆成功', data: toCurrentUser(state.user) };
    },
  });

  app.post('/user/logout', {
    config: { access: 'public' },
    // The legacy page posts { a: 1 }; any body is accepted and ignored.
    schema: { tags: ['session'], summary: '退出登录', body: z.unknown().optional(), response: { 200: ZNullData } },
    handler: async (request, reply) => {
      if (request.session.userId) request.log.info({ userId: request.session.userId }, 'logout');
      await request.session.destroy();
      reply.clearCookie(SESSION_COOKIE, { path: '/' });
      return { success: true, code: CODES.OK, message: '已退出登录', data: null };
    },
  });
};
