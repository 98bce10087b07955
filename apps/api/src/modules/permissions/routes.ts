/** menuBtnPermission/* (what a page may use) and button/* (administration). */
import type { FastifyInstance } from 'fastify';
import { permissionsApi } from '@esm/contracts';
import type { Db } from '../../db/database.ts';
import { ok } from '../../lib/envelope.ts';
import { cappedPage } from '../../lib/list.ts';
import { route } from '../../lib/route.ts';
import { clientOf } from '../../lib/access-log.ts';
import { deleteItems, insertItem, listItems, pageChanges, pageItems, updateItem } from './service.ts';

export async function permissionRoutes(app: FastifyInstance, { db }: { db: Db }) {
  const store = app.permissions;
  /** Every change is seen by this process's next check at once (others' within CACHE_TTL_MS). */
  const changed = <T>(result: T): T => {
    store.invalidate();
    return result;
  };

  route(app, permissionsApi.buttons, async ({ body, user }) =>
    ok({ page: body.page, buttons: await store.pageButtons(body.page, user.type) }),
  );
  route(app, permissionsApi.columns, async ({ body, user }) =>
    ok({ page: body.page, columns: await store.pageColumns(body.page, user.type) }),
  );

  route(app, permissionsApi.page, async ({ body }) => {
    await store.seedDeclared();
    return cappedPage(await pageItems(db, body));
  });
  route(app, permissionsApi.list, async ({ body }) => {
    await store.seedDeclared();
    return ok(await listItems(db, body));
  });
  route(app, permissionsApi.insert, async ({ body, user, request }) =>
    ok(
      changed(await insertItem(db, body, user, clientOf(request), store.isDeclared(body.kind, body.page, body.code))),
      '已新增',
    ),
  );
  route(app, permissionsApi.update, async ({ body, user, request }) =>
    ok(changed(await updateItem(db, body, user, clientOf(request))), '已保存'),
  );
  route(app, permissionsApi.deleteById, async ({ body, user, request }) =>
    ok({ deleted: changed(await deleteItems(db, [body.id], user, clientOf(request))) }, '已删除'),
  );
  route(app, permissionsApi.deleteByIds, async ({ body, user, request }) =>
    ok({ deleted: changed(await deleteItems(db, body.ids, user, clientOf(request))) }, '已删除'),
  );
  route(app, permissionsApi.changes, async ({ body }) => cappedPage(await pageChanges(db, body)));
}
