/**
 * Countersign lists, the supplier's side (types 2/4): each call acts within the caller's own
 * supplier (the auth hook's `supplier`); another supplier's list answers as a missing one.
 */
import type { FastifyInstance } from 'fastify';
import { countersignApi } from '@esm/contracts';
import type { Db } from '../../db/database.ts';
import { ok } from '../../lib/envelope.ts';
import { cappedPage } from '../../lib/list.ts';
import { route } from '../../lib/route.ts';
import { clientOf } from '../../lib/access-log.ts';
import { pageCountersigns } from './query.ts';
import { countersignDetail } from './reads.ts';
import type { Side } from './rules.ts';
import { submitSignature } from './transitions.ts';
import { downloadSheet } from './sheet.ts';
import { sendSheet } from './routes.ts';

export async function supplierCountersignRoutes(app: FastifyInstance, { db }: { db: Db }) {
  const side = (code: string): Side => ({ kind: 'supplier', supplierCode: code });
  route(app, countersignApi.supplierPage, async ({ body, supplier }) =>
    cappedPage(await pageCountersigns(db, body, supplier.code)),
  );
  route(app, countersignApi.supplierDetail, async ({ body, user, supplier }) =>
    ok(await countersignDetail(db, user, body.id, side(supplier.code)), '查询成功'),
  );
  route(app, countersignApi.submit, async ({ body, user, supplier, request }) => {
    const result = await submitSignature(db, user, body, side(supplier.code), clientOf(request));
    return ok(result, body.decision === 'RETURN' ? '已退回' : '会签成功，等待我方会签');
  });
  route(app, countersignApi.supplierSheet, async ({ body, user, supplier, request, reply }) =>
    sendSheet(db, reply, await downloadSheet(db, user, body.id, side(supplier.code), clientOf(request))),
  );
}
