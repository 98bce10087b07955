/**
 * The manufacturer side of drawing authorization: the approvers' list, decisions and
 * audit (type 6 decides; drawing admins read), grants in force and revoking them, the history of
 * expired / revoked / expiring grants, the census, one supplier's unauthorized materials and the
 * access report — the last two exportable.
 */
import type { FastifyInstance } from 'fastify';
import { ACCESS_REPORT_COLUMNS, APPLICATION_COLUMNS, applyColumnSet, empowerApi } from '@esm/contracts';
import type { Db } from '../../db/database.ts';
import { ok } from '../../lib/envelope.ts';
import { cappedPage } from '../../lib/list.ts';
import { route } from '../../lib/route.ts';
import { tooManyToExport } from '../../lib/export-limits.ts';
import { clientOf } from '../../lib/access-log.ts';
import { auditTrail, pageApplications, type EmpowerRules } from './applications.ts';
import { sendWorkbook } from '../../lib/workbook.ts';
import { censusSheets, reportSheets } from './excel.ts';
import { allCensusRows, pageCensus, pageGrants, pageOverdue, unauthorizedTree } from './grant-lists.ts';
import { accessReport, reportEventBatches } from './report.ts';
import { decide, revokeGrant } from './service.ts';

export interface EmpowerDeps {
  db: Db;
  rules: EmpowerRules;
  /** The most rows an export may have. */
  exportMaxRows: number;
}

export async function empowerRoutes(app: FastifyInstance, { db, rules, exportMaxRows }: EmpowerDeps) {
  const tooMany = () => tooManyToExport(exportMaxRows);

  route(app, empowerApi.applications, async ({ body }) => cappedPage(await pageApplications(db, body, 'approvers')));
  route(app, empowerApi.audit, async ({ body }) => ok(await auditTrail(db, body.id, 'approvers'), '查询成功'));
  route(app, empowerApi.approve, async ({ body, user, request }) => {
    const decided = await decide(db, { user, client: clientOf(request) }, body);
    // the decided applications go out as the list shows them (its governed columns)
    const modes = await app.permissions.columnModes(APPLICATION_COLUMNS, user.type);
    const result = {
      ...decided,
      applications: decided.applications.map((a) => applyColumnSet(a, APPLICATION_COLUMNS, modes)),
    };
    return ok(
      result,
      body.decision === 'APPROVE'
        ? `已批准 ${result.decided} 个申请，生成 ${result.grants} 项授权`
        : `已驳回 ${result.decided} 个申请`,
    );
  });

  route(app, empowerApi.grants, async ({ body }) => cappedPage(await pageGrants(db, body, rules)));
  route(app, empowerApi.revoke, async ({ body, user }) =>
    ok(await revokeGrant(db, user, body.id, body.reason, rules), '已撤销授权'),
  );
  route(app, empowerApi.overdue, async ({ body }) => cappedPage(await pageOverdue(db, body, rules)));

  route(app, empowerApi.census, async ({ body }) => cappedPage(await pageCensus(db, body, rules)));
  route(app, empowerApi.censusExcel, async ({ body, request, reply }) => {
    const rows = await allCensusRows(db, body, rules, exportMaxRows);
    if (rows.length > exportMaxRows) throw tooMany();
    return sendWorkbook(request, reply, '供应商统计', rows.length, censusSheets(rows));
  });
  route(app, empowerApi.unauthorized, async ({ body }) =>
    ok(await unauthorizedTree(db, body.supplierCode), '查询成功'),
  );

  route(app, empowerApi.report, async ({ body }) => ok((await accessReport(db, body)).report, '查询成功'));
  route(app, empowerApi.reportExcel, async ({ body, user, request, reply }) => {
    const { report, grantIds } = await accessReport(db, body);
    if (report.eventsTotal > exportMaxRows) throw tooMany();
    const events = reportEventBatches(db, grantIds, report.standardCode);
    const modes = await app.permissions.columnModes(ACCESS_REPORT_COLUMNS, user.type);
    return sendWorkbook(
      request,
      reply,
      '授权访问报告',
      report.grants.length + report.eventsTotal,
      reportSheets(report, `${user.name}（${user.account}）`, events, modes),
    );
  });
}
