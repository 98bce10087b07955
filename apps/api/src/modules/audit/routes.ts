/**
 * 审计校验: the last verification, a verification run from the page (recorded), each day's chain
 * head; 泄露追溯: a copy → its log row; 证据包: a supplier's rows on a subject, or a notice's, as
 * one ZIP; 操作审计: the workflows' audit rows in one paged list.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { SessionUser } from '../../plugins/auth.ts';
import fastifyMultipart from '@fastify/multipart';
import type { z } from 'zod';
import {
  AUDIT_ACTION_LABELS,
  COUNTERSIGN_EVENT_LABELS,
  DAY_HEADS_MAX_DAYS,
  ISSUE_ACTION_LABELS,
  NOTICE_EVENT_LABELS,
  TRACE_FILE_MAX_BYTES,
  auditApi,
  type AuditVerification,
  type OperationAuditRow,
  type OperationKind,
  type ZOperationAuditRequestSchema,
} from '@esm/contracts';
import { Prisma } from '../../generated/prisma/client.ts';
import type { Db } from '../../db/database.ts';
import { cstDay } from '../../lib/dates.ts';
import { ok } from '../../lib/envelope.ts';
import {
  cappedPage,
  dayRangeSql,
  equalsSql,
  jsonRow,
  keywordSql,
  listPage,
  mapPage,
  orderBySql,
  whereSql,
} from '../../lib/list.ts';
import { route } from '../../lib/route.ts';
import { badRequest } from '../../plugins/errors.ts';
import { CHAINED_TABLES, type ChainHead, type ChainProblem } from './chain.ts';
import { dayHeads } from './heads.ts';
import { verifyAndRecord } from './verifications.ts';
import { traceCode, traceFile } from './trace.ts';
import { exportPackage, noticeEvidence, subjectEvidence, type EvidenceContent } from './evidence.ts';
import { clientOf } from '../../lib/access-log.ts';
import { contentDisposition } from '../../lib/watermark.ts';
import { sendDelivery } from '../../lib/access-log-delivery.ts';

const DAY_MS = 86_400_000;
const labelOf = (table: string) => CHAINED_TABLES.find((t) => t.table === table)?.label ?? table;

type Recorded = {
  id: number;
  source: string;
  userName: string;
  ok: boolean;
  rows: number;
  createdAt: Date;
  problems: unknown;
  heads: unknown;
};
const verificationRow = (v: Recorded): AuditVerification => ({
  id: v.id,
  source: v.source as AuditVerification['source'],
  userName: v.userName,
  ok: v.ok,
  rows: v.rows,
  createdAt: v.createdAt.toISOString(),
  problems: v.problems as ChainProblem[],
  heads: (v.heads as ChainHead[]).map((h) => ({ ...h, label: labelOf(h.table) })),
});

/**
 * The four workflows' audit tables as one: who did what to which record (a notice's, question's or
 * countersign's number, an application's #id). A question's message text is its thread's, shown on
 * its own page under that page's column rules, so it is not repeated here.
 */
const OPERATIONS = Prisma.sql`
  SELECT 'NOTICE' AS kind, e.id, e.action, n.number AS subject, e.user_account, e.user_name, e.ip, e.detail, e.created_at
    FROM notice_event e JOIN change_notice n ON n.id = e.notice_id
  UNION ALL
  SELECT 'APPLICATION', e.id, e.action, '#' || e.application_id, e.user_account, e.user_name, e.ip, e.comment, e.created_at FROM empower_audit e
  UNION ALL
  SELECT 'QUESTION', e.id, e.action, i.number, e.user_account, e.user_name, NULL, NULL, e.created_at
    FROM document_issue_message e JOIN document_issue i ON i.id = e.issue_id
  UNION ALL
  SELECT 'COUNTERSIGN', e.id, e.action, c.number, e.user_account, e.user_name, e.ip, e.detail, e.created_at
    FROM countersign_event e JOIN countersign c ON c.id = e.countersign_id`;

const ACTION_LABELS: Record<OperationKind, Readonly<Record<string, string>>> = {
  NOTICE: NOTICE_EVENT_LABELS,
  APPLICATION: AUDIT_ACTION_LABELS,
  QUESTION: ISSUE_ACTION_LABELS,
  COUNTERSIGN: COUNTERSIGN_EVENT_LABELS,
};

export async function pageOperations(db: Db, q: z.output<typeof ZOperationAuditRequestSchema>) {
  const page = await listPage<Omit<OperationAuditRow, 'actionLabel'>>(db, q, {
    select: Prisma.sql`kind || '-' || id AS key, kind, action, subject, user_account AS "userAccount", user_name AS "userName", ip, detail, created_at AS "createdAt"`,
    from: Prisma.sql`(${OPERATIONS}) ops`,
    where: whereSql([
      equalsSql('kind', q.kind),
      keywordSql(['user_account', 'user_name'], q.operator),
      keywordSql(['subject', 'detail'], q.keyword),
      ...dayRangeSql('created_at', q.dateFrom, q.dateTo),
    ]),
    orderBy: orderBySql({ createdAt: 'created_at' }, q, 'key', 'created_at DESC, key DESC'),
  });
  return mapPage(page, (r) => {
    const row = jsonRow<Omit<OperationAuditRow, 'actionLabel'>>(r);
    return { ...row, actionLabel: ACTION_LABELS[row.kind][row.action] ?? row.action };
  });
}

export async function auditRoutes(app: FastifyInstance, { db }: { db: Db }) {
  await app.register(fastifyMultipart, {
    limits: { fileSize: TRACE_FILE_MAX_BYTES, files: 1, fields: 2, parts: 3, fieldSize: 256 },
  });
  route(app, auditApi.status, async () => {
    const last = await db.auditVerification.findFirst({ orderBy: { id: 'desc' } });
    return ok({ last: last ? verificationRow(last) : null });
  });
  route(app, auditApi.verify, async ({ user }) => {
    const { report, row } = await verifyAndRecord(db, { source: 'PAGE', userId: user.id, userName: user.name });
    return ok(
      verificationRow(row),
      report.ok ? '校验通过：审计链完整' : `校验未通过：发现 ${report.problems.length} 处问题`,
    );
  });
  route(app, auditApi.dayHeads, async ({ body }) => {
    const dateTo = body.dateTo ?? cstDay(new Date());
    const dateFrom = body.dateFrom ?? cstDay(new Date(Date.parse(`${dateTo}T00:00:00Z`) - 29 * DAY_MS));
    if ((Date.parse(dateTo) - Date.parse(dateFrom)) / DAY_MS >= DAY_HEADS_MAX_DAYS) {
      throw badRequest(`一次最多查询 ${DAY_HEADS_MAX_DAYS} 天`, [
        { field: 'dateFrom', message: `一次最多查询 ${DAY_HEADS_MAX_DAYS} 天，请缩小日期范围` },
      ]);
    }
    return ok({ dateFrom, dateTo, heads: await dayHeads(db, dateFrom, dateTo) });
  });
  route(app, auditApi.operations, async ({ body }) => cappedPage(await pageOperations(db, body)));
  route(app, auditApi.traceCode, async ({ body }) => ok(await traceCode(db, body.code)));
  route(app, auditApi.traceFile, async ({ request }) => ok(await traceFile(db, request)));
  const sendPackage = async (
    content: EvidenceContent,
    user: SessionUser,
    request: FastifyRequest,
    reply: FastifyReply,
  ) => {
    const { pkg, logId } = await exportPackage(db, content, user, clientOf(request));
    reply
      .header('Content-Type', 'application/zip')
      .header('Content-Disposition', contentDisposition('attachment', pkg.fileName))
      .header('Cache-Control', 'no-store');
    return sendDelivery(db, reply, logId, { bytes: pkg.bytes });
  };
  route(app, auditApi.subjectEvidence, async ({ body, user, request, reply }) =>
    sendPackage(await subjectEvidence(db, body), user, request, reply),
  );
  route(app, auditApi.noticeEvidence, async ({ body, user, request, reply }) =>
    sendPackage(await noticeEvidence(db, body), user, request, reply),
  );
}
