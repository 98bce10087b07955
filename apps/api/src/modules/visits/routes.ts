/** The user_visit event and the visit log for internal admins. */
import type { FastifyInstance } from 'fastify';
import { visitsApi } from '@esm/contracts';
import type { Db } from '../../db/database.ts';
import { ok } from '../../lib/envelope.ts';
import { cappedPage } from '../../lib/list.ts';
import { route } from '../../lib/route.ts';
import { clientOf } from '../../lib/access-log.ts';
import { pageSignIns, pageVisits, recordVisit } from './service.ts';

export async function visitRoutes(app: FastifyInstance, { db }: { db: Db }) {
  route(app, visitsApi.visit, async ({ body, user, request }) => {
    await recordVisit(db, user, body, clientOf(request));
    return ok(null, '已记录');
  });
  route(app, visitsApi.page, async ({ body }) => cappedPage(await pageVisits(db, body)));
  route(app, visitsApi.signInLog, async ({ body }) => cappedPage(await pageSignIns(db, body)));
}
