/**
 * The supplier side of drawing authorization (types 2/4): its grant on a material (by the one
 * grant rule), its applications and their audit, the form's options, and the moves a supplier
 * makes — create, update and delete a draft, submit, withdraw. Every call runs in the caller's
 * own supplier's scope (from the auth hook): another supplier's application answers exactly like
 * one that does not exist.
 */
import type { FastifyInstance } from 'fastify';
import { empowerApi } from '@esm/contracts';
import type { Db } from '../../db/database.ts';
import { ok } from '../../lib/envelope.ts';
import { cappedPage } from '../../lib/list.ts';
import { route } from '../../lib/route.ts';
import { clientOf } from '../../lib/access-log.ts';
import { applyOptions, auditTrail, pageApplications, type EmpowerRules } from './applications.ts';
import { materialAccess } from './grants.ts';
import {
  createApplication,
  deleteApplication,
  submitApplication,
  updateApplication,
  withdrawApplication,
} from './service.ts';

export async function supplierEmpowerRoutes(app: FastifyInstance, { db, rules }: { db: Db; rules: EmpowerRules }) {
  route(app, empowerApi.hasEmpower, async ({ body, supplier }) => {
    const verdict = await materialAccess(db, supplier.code, body.materialCode);
    return ok(
      verdict.ok
        ? {
            empowered: true,
            validFrom: verdict.validFrom.toISOString(),
            validUntil: verdict.validUntil.toISOString(),
            reason: null,
          }
        : { empowered: false, validFrom: null, validUntil: null, reason: verdict.reason },
      '查询成功',
    );
  });

  route(app, empowerApi.supplierApplications, async ({ body, supplier }) =>
    cappedPage(await pageApplications(db, body, { supplierCode: supplier.code })),
  );
  route(app, empowerApi.supplierAudit, async ({ body, supplier }) =>
    ok(await auditTrail(db, body.id, { supplierCode: supplier.code }), '查询成功'),
  );
  route(app, empowerApi.applyOptions, async ({ supplier }) =>
    ok(await applyOptions(db, supplier.code, rules), '查询成功'),
  );

  route(app, empowerApi.createApply, async ({ body, supplier, user, request }) =>
    ok(await createApplication(db, supplier, { user, client: clientOf(request) }, body, rules), '已保存草稿'),
  );
  route(app, empowerApi.updateApply, async ({ body: { id, ...fields }, supplier, user, request }) =>
    ok(await updateApplication(db, supplier, { user, client: clientOf(request) }, id, fields, rules), '已保存草稿'),
  );
  route(app, empowerApi.deleteApply, async ({ body, supplier }) => {
    await deleteApplication(db, supplier, body.id);
    return ok({ id: body.id }, '已删除草稿');
  });
  route(app, empowerApi.submitApply, async ({ body, supplier, user, request }) =>
    ok(await submitApplication(db, supplier, { user, client: clientOf(request) }, body.id, rules), '已提交，等待审批'),
  );
  route(app, empowerApi.withdrawApply, async ({ body, supplier, user, request }) =>
    ok(
      await withdrawApplication(db, supplier, { user, client: clientOf(request) }, body.id, body.comment),
      '已撤回申请',
    ),
  );
}
