/**
 * Supplier side of the confidentiality agreement and drawing confirmations. Who acts is the
 * session's user; nothing in a body can name another user or supplier.
 */
import type { FastifyInstance } from 'fastify';
import { standardlogApi } from '@esm/contracts';
import type { Db } from '../../db/database.ts';
import { ok } from '../../lib/envelope.ts';
import { route } from '../../lib/route.ts';
import { clientOf } from '../../lib/access-log.ts';
import { acceptAgreement, confirmFile, confirmFiles, confirmState, keepsecretState } from './service.ts';

export async function standardlogRoutes(app: FastifyInstance, { db }: { db: Db }) {
  route(app, standardlogApi.hasKeepsecret, async ({ user }) => ok(await keepsecretState(db, user), '查询成功'));
  route(app, standardlogApi.insertKeepsecret, async ({ body, user, request }) => {
    const { state, already } = await acceptAgreement(db, user, body.agreementId, clientOf(request));
    return ok(state, already ? '已签署' : '签署成功');
  });
  route(app, standardlogApi.hasConfirmLog, async ({ body, user }) =>
    ok(await confirmState(db, user, body.id), '查询成功'),
  );
  route(app, standardlogApi.insertConfirmLog, async ({ body, user, request }) => {
    const { state, already } = await confirmFile(db, user, body.id, clientOf(request));
    return ok(state, already ? '已确认' : '确认成功');
  });
  route(app, standardlogApi.supplierConfirm, async ({ body, user, request }) => {
    const result = await confirmFiles(db, user, body.ids, clientOf(request));
    return ok(result, result.confirmed > 0 ? `已确认 ${result.confirmed} 份图纸` : '所选图纸均已确认');
  });
}
