/**
 * The five log pages of the drawing archives (drawing admins, types 3/7/8/9), one call each
 * (contracts logsApi). Suppliers never read these.
 */
import type { FastifyInstance } from 'fastify';
import { LOG_ACTIONS, logsApi } from '@esm/contracts';
import type { Db } from '../../db/database.ts';
import { cappedPage } from '../../lib/list.ts';
import { route } from '../../lib/route.ts';
import { pageLog } from './service.ts';

export async function logRoutes(app: FastifyInstance, { db }: { db: Db }) {
  for (const action of LOG_ACTIONS)
    route(app, logsApi[action], async ({ body }) => cappedPage(await pageLog(db, action, body)));
}
