import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { USER_TYPES, ZMenuResponseSchema } from '@esm/contracts';
import type { Db } from '../../db/database.ts';
import { userOf } from '../../plugins/auth.ts';
import { ok } from '../../lib/envelope.ts';

/** main/getRoleFunction (spec §7): the menu entries of the session's user type. */
export const menuRoutes: FastifyPluginAsyncZod<{ db: Db }> = async (app, { db }) => {
  app.post('/main/getRoleFunction', {
    config: { access: USER_TYPES },
    schema: { tags: ['session'], summary: '当前用户类型的菜单', body: z.unknown().optional(), response: { 200: ZMenuResponseSchema } },
    handler: async (request) => {
      const { type } = userOf(request);
      const rows = await db.menuEntry.findMany({
        where: { grants: { some: { userType: type } } },
        orderBy: [{ sort: 'asc' }, { id: 'asc' }],
        select: { id: true, cn: true, name: true, icon: true, router: true, mpid: true },
      });
      return ok(rows);
    },
  });
};
