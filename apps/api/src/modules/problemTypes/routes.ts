/**
 * Problem types and the SQE / product-line role table, the manufacturer's side (type 7; the
 * type list also for the answerers' filters): one line a call (contracts problemTypesApi).
 */
import type { FastifyInstance } from 'fastify';
import { problemTypesApi } from '@esm/contracts';
import type { Db } from '../../db/database.ts';
import { ok } from '../../lib/envelope.ts';
import { cappedPage } from '../../lib/list.ts';
import { route } from '../../lib/route.ts';
import {
  addRole,
  createProblemType,
  deleteProblemType,
  deleteRole,
  pageProblemTypes,
  pageRoles,
  roleProductLines,
  selectableUsers,
  updateProblemType,
} from './service.ts';

export async function problemTypeRoutes(app: FastifyInstance, { db }: { db: Db }) {
  route(app, problemTypesApi.page, async ({ body }) => cappedPage(await pageProblemTypes(db, body)));
  route(app, problemTypesApi.create, async ({ body }) => ok(await createProblemType(db, body), '问题类型已新增'));
  route(app, problemTypesApi.update, async ({ body: { id, ...t } }) =>
    ok(await updateProblemType(db, id, t), '问题类型已保存'),
  );
  route(app, problemTypesApi.remove, async ({ body }) => {
    await deleteProblemType(db, body.id);
    return ok(null, '问题类型已删除');
  });
  route(app, problemTypesApi.productLines, async () => ok(await roleProductLines(db), '查询成功'));
  route(app, problemTypesApi.roles, async ({ body }) => cappedPage(await pageRoles(db, body)));
  route(app, problemTypesApi.addRole, async ({ body, user }) => ok(await addRole(db, user, body), '角色已添加'));
  route(app, problemTypesApi.deleteRole, async ({ body }) => {
    await deleteRole(db, body.id);
    return ok(null, '角色已删除');
  });
  route(app, problemTypesApi.selectUser, async ({ body }) => ok(await selectableUsers(db, body.keyword), '查询成功'));
}
