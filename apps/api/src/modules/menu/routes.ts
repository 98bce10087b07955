import type { FastifyInstance } from 'fastify';
import { menuApi } from '@esm/contracts';
import type { Db } from '../../db/database.ts';
import { ok } from '../../lib/envelope.ts';
import { route } from '../../lib/route.ts';
import { menuOf } from './service.ts';

/** main/getRoleFunction: the menu entries of the session's user type. */
export async function menuRoutes(app: FastifyInstance, { db }: { db: Db }) {
  route(app, menuApi.roleFunction, async ({ user }) => ok(await menuOf(db, user.type)));
}
