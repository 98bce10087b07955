/**
 * Change notices, the supplier's side (types 2/4): each call acts for the caller's own supplier
 * (the auth hook's `supplier`); another supplier's notice answers as a missing one.
 */
import type { FastifyInstance } from 'fastify';
import { noticesApi } from '@esm/contracts';
import type { Db } from '../../db/database.ts';
import { ok } from '../../lib/envelope.ts';
import { cappedPage } from '../../lib/list.ts';
import { route } from '../../lib/route.ts';
import { clientOf } from '../../lib/access-log.ts';
import { pageChangeRecords, pageSupplierNotices } from './query.ts';
import { confirmNotice, openNotice, unreadNotices } from './supplier-service.ts';

export async function supplierNoticeRoutes(app: FastifyInstance, { db }: { db: Db }) {
  route(app, noticesApi.supplierChangeList, async ({ body, supplier }) =>
    cappedPage(await pageChangeRecords(db, body, supplier.code)),
  );
  route(app, noticesApi.supplierFind, async ({ body, user, supplier, request }) =>
    ok(await openNotice(db, user, supplier, body.id, clientOf(request)), '查询成功'),
  );
  route(app, noticesApi.unread, async ({ supplier }) => ok(await unreadNotices(db, supplier), '查询成功'));
  route(app, noticesApi.inbox, async ({ body, supplier }) =>
    cappedPage(await pageSupplierNotices(db, supplier.code, body)),
  );
  route(app, noticesApi.confirm, async ({ body, user, supplier, request }) => {
    const result = await confirmNotice(db, user, supplier, body.id, clientOf(request));
    return ok(result, result.alreadyConfirmed ? '已确认' : '确认成功');
  });
}
