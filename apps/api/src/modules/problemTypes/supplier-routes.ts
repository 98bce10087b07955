/** Problem types, the supplier's side: the enabled types its question form offers. */
import type { FastifyInstance } from 'fastify';
import { problemTypesApi } from '@esm/contracts';
import type { Db } from '../../db/database.ts';
import { ok } from '../../lib/envelope.ts';
import { route } from '../../lib/route.ts';
import { problemTypeOptions } from './service.ts';

export async function supplierProblemTypeRoutes(app: FastifyInstance, { db }: { db: Db }) {
  route(app, problemTypesApi.supplierList, async () => ok(await problemTypeOptions(db), '查询成功'));
}
