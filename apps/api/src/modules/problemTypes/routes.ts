/**
 * Problem types and the SQE / product-line role table, the manufacturer's side (type 7; the
 * type list also for the answerers' filters): one line a call (contracts problemTypesApi).
 */
import type { FastifyInstance } from 'fastify';
import { problemTypesApi as api } from '@esm/contracts';
import type { Db } from '../../db/database.ts';
import { ok } from '../../lib/envelope.ts';
import { cappedPage } from '../../lib/list.ts';
import { route } from '../../lib/route.ts';
import { addRole, createProblemType, deleteProblemType, deleteRole, pageProblemTypes, pageRoles, roleProductLines, selectableUsers, updateProblemType } from './service.ts';

export async function problemTypeRoutes(app: FastifyInstance, { db }: { db: Db }) {
  route(app, api.page, async ({ body }) => cappedPage(await pageProblemTypes(db, body)));
  route(app, api.create, async ({ body }) => ok(await createProblemType(db, body), '问题类型已新增'));
  route(app, api.update, async ({ body: { id, ...t } }) => ok(await updateProblemType(db, id, t), '问题类型已保存'));
  route(app, api.remove, async ({ body }) => {
    await deleteProblemType(db, body.id);
    return ok(null, '问题类型已删除');
  });
  route(app, api.productLines, async () => ok(await roleProductLines(db), '查询成功'));
  route(app, api.roles, async ({ body }) => cappedPage(await pageRoles(db, body)));
  route(app, api.addRole, async ({ body, user }) => ok(await addRole(db, user, body), '角色已添加'));
  route(app, api.deleteRole, async ({ body }) => {
    await deleteRole(db, body.id);
    return ok(null, '角色已删除');
  });
  route(app, api.selectUser, async ({ body }) => ok(await selectableUsers(db, body.keyword), '查询成功'));
}
