/**
 * Reading applications: the supplier's own list, the approvers' list (never drafts: a draft is
 * the supplier's own business until it is submitted), one application as a row with each
 * material's current grant (by the grant rule), its audit trail, and the application form's
 * options. Every supplier read is scoped by the caller's supplier: another supplier's
 * application answers exactly like one that does not exist.
 */
import type { z } from 'zod';
import type {
  ApplicationRow,
  ApplicationStatus,
  ApplyOptions,
  AuditRow,
  ZApplyPageRequestSchema,
} from '@esm/contracts';
import { Prisma } from '../../generated/prisma/client.ts';
import type { Db } from '../../db/database.ts';
import { readRows } from '../../db/rows.ts';
import {
  checkWindow,
  dayRangeSql,
  equalsSql,
  listPageStatement,
  mapPage,
  orderBySql,
  pageAndCount,
  whereSql,
  type CappedTotal,
  type ListParts,
  type PageStatement,
  type SortColumns,
} from '../../lib/list.ts';
import { notFound } from '../../plugins/errors.ts';
import { dayOf, dayOrNull, today } from './days.ts';
import { expiringSoon, grantState } from './grants.ts';

type Q = Db | Prisma.TransactionClient;
type ApplyQuery = z.output<typeof ZApplyPageRequestSchema>;

export const NOT_FOUND_TEXT = '申请不存在';

export interface EmpowerRules {
  /** Longest period an application may ask for, days (both ends included). */
  maxPeriodDays: number;
  /** A valid grant ending within this many days is expiring soon. */
  expiringDays: number;
}

const ISO = `'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'`;

/**
 * An application's row as the lists and the detail answer it: its columns and its materials, each
 * with the supplier's live grants on it (`a` = empower_application, `s` = its supplier).
 */
const APPLICATION_COLUMNS = Prisma.sql`a.id, a.supplier_code, s.name AS supplier_name, a.status, a.valid_from, a.valid_until,
    a.reason, a.applicant_account, a.applicant_name, a.renews_grant_id, a.submitted_at, a.approved_from, a.approved_until,
    a.decider_account, a.decider_name, a.decided_at, a.decision_comment, a.created_at, a.updated_at,
    COALESCE((SELECT json_agg(json_build_object('code', am.material_code, 'name', m.name, 'approved', am.approved,
        'grants', COALESCE((SELECT json_agg(json_build_object('validFrom', to_char(g.valid_from, ${Prisma.raw(ISO)}), 'validUntil', to_char(g.valid_until, ${Prisma.raw(ISO)})))
          FROM empower_grant g WHERE g.supplier_code = a.supplier_code AND g.material_code = am.material_code AND g.revoked_at IS NULL), '[]'::json))
        ORDER BY am.material_code)
      FROM empower_application_material am JOIN material m ON m.code = am.material_code WHERE am.application_id = a.id), '[]'::json) AS materials`;

/**
 * The rows of applications `ids` in one statement (one round trip through `pg`, db/rows.ts,
 * instead of five Prisma queries — docs/benchmarks.md, "domain-lists").
 */
export const applicationRowsSql = (ids: readonly number[]) =>
  Prisma.sql`SELECT ${APPLICATION_COLUMNS} FROM empower_application a JOIN supplier s ON s.code = a.supplier_code WHERE a.id = ANY(${[...ids]}::int[])`;

interface ApplicationRecord {
  id: number;
  supplier_code: string;
  supplier_name: string;
  status: string;
  valid_from: Date;
  valid_until: Date;
  reason: string;
  applicant_account: string;
  applicant_name: string;
  renews_grant_id: number | null;
  submitted_at: Date | null;
  approved_from: Date | null;
  approved_until: Date | null;
  decider_account: string | null;
  decider_name: string | null;
  decided_at: Date | null;
  decision_comment: string | null;
  created_at: Date;
  updated_at: Date;
  materials: {
    code: string;
    name: string;
    approved: boolean | null;
    grants: { validFrom: string; validUntil: string }[];
  }[];
}

/** The rows of these applications, in the order of `ids`, each material with its grant now. */
export async function applicationRows(q: Q, ids: readonly number[], now = new Date()): Promise<ApplicationRow[]> {
  if (ids.length === 0) return [];
  // a transaction client has no pool of its own: readRows sends it through the transaction
  const apps = await readRows<ApplicationRecord>(q as Db, applicationRowsSql(ids));
  const byId = new Map(apps.map((a) => [a.id, a]));
  return ids.flatMap((id) => {
    const a = byId.get(id);
    return a ? [toRow(a, now)] : [];
  });
}

function toRow(a: ApplicationRecord, now: Date): ApplicationRow {
  return {
    id: a.id,
    supplierCode: a.supplier_code,
    supplierName: a.supplier_name,
    status: a.status as ApplicationStatus,
    validFrom: dayOf(a.valid_from),
    validUntil: dayOf(a.valid_until),
    reason: a.reason,
    applicantAccount: a.applicant_account,
    applicantName: a.applicant_name,
    renewsGrantId: a.renews_grant_id,
    submittedAt: a.submitted_at?.toISOString() ?? null,
    approvedFrom: dayOrNull(a.approved_from),
    approvedUntil: dayOrNull(a.approved_until),
    deciderAccount: a.decider_account,
    deciderName: a.decider_name,
    decidedAt: a.decided_at?.toISOString() ?? null,
    decisionComment: a.decision_comment,
    createdAt: a.created_at.toISOString(),
    updatedAt: a.updated_at.toISOString(),
    materials: a.materials.map((m) => {
      const { state, grant } = grantState(
        m.grants.map((g) => ({ validFrom: new Date(g.validFrom), validUntil: new Date(g.validUntil) })),
        now,
      );
      return {
        code: m.code,
        name: m.name,
        approved: m.approved,
        grantState: state,
        grantValidUntil: grant?.validUntil.toISOString() ?? null,
      };
    }),
  };
}

/** One application as a row (it exists: the caller just wrote it). */
export async function applicationRow(q: Q, id: number): Promise<ApplicationRow> {
  const [row] = await applicationRows(q, [id]);
  if (!row) throw notFound(NOT_FOUND_TEXT);
  return row;
}

// ---- lists -----------------------------------------------------------------------------------------

const SORT: SortColumns<NonNullable<ApplyQuery['sortField']>> = {
  createdAt: 'a.created_at',
  submittedAt: 'a.submitted_at',
  validFrom: 'a.valid_from',
  validUntil: 'a.valid_until',
  status: 'a.status',
  supplierCode: 'a.supplier_code',
  decidedAt: 'a.decided_at',
};

/** Awaiting a decision first (oldest first: first come, first decided), then the newest. */
const PENDING_FIRST =
  "CASE WHEN a.status = 'SUBMITTED' THEN 0 ELSE 1 END, CASE WHEN a.status = 'SUBMITTED' THEN a.submitted_at END ASC, a.id DESC";

/**
 * A page of applications: the supplier's own (`supplierCode` set: drafts included) or, for the
 * approvers, every supplier's except drafts.
 */
export async function pageApplications(
  db: Db,
  q: ApplyQuery,
  scope: { supplierCode: string } | 'approvers',
  now = new Date(),
): Promise<{ rows: ApplicationRow[] } & CappedTotal> {
  checkWindow(q);
  const { page, fromWhere, prepare } = applicationPageStatement(q, scope);
  return mapPage(await pageAndCount<ApplicationRecord>(db, page, fromWhere, undefined, prepare), (r) => toRow(r, now));
}

/**
 * A page of applications with their rows and the capped total, in one statement (the benchmark
 * sends the same): the page's ids as the list's parts choose them, numbered in their order, then
 * each id's row. One round trip per list call instead of two (the page, then its rows).
 */
export function applicationPageStatement(q: ApplyQuery, scope: { supplierCode: string } | 'approvers'): PageStatement {
  const { page: ids, fromWhere } = listPageStatement(q, applicationListParts(q, scope));
  return {
    // A supplier's own, prepared: every variant is served by (supplier_code, id) whichever the
    // supplier, so one generic plan fits all, and planning this statement was most of its
    // database CPU (the history of docs/benchmarks.md). The approvers' list is not: its filters
    // pick different indexes by their values.
    prepare: scope === 'approvers' ? undefined : 'esm_apply_mine',
    // row_number() numbers the sorted page's ids as they come (see pageAndCount)
    page: Prisma.sql`SELECT ${APPLICATION_COLUMNS}, p.__n
      FROM (SELECT ids.id, (row_number() OVER ())::int AS __n FROM (${ids}) AS ids) AS p
      JOIN empower_application a ON a.id = p.id JOIN supplier s ON s.code = a.supplier_code
      ORDER BY p.__n`,
    fromWhere,
  };
}

/** The statement of an applications page's ids (the benchmark sends the same through `pg`). */
export function applicationListParts(q: ApplyQuery, scope: { supplierCode: string } | 'approvers'): ListParts {
  const mine = scope !== 'approvers';
  return {
    select: Prisma.sql`a.id`,
    from: Prisma.sql`empower_application a`,
    where: whereSql([
      mine ? Prisma.sql`a.supplier_code = ${scope.supplierCode}` : Prisma.sql`a.status <> 'DRAFT'`,
      !mine && equalsSql('a.supplier_code', q.supplierCode),
      equalsSql('a.status', q.status),
      q.materialCode &&
        Prisma.sql`EXISTS (SELECT 1 FROM empower_application_material am WHERE am.application_id = a.id AND am.material_code = ${q.materialCode})`,
      ...dayRangeSql('a.created_at', q.dateFrom, q.dateTo),
    ]),
    orderBy: orderBySql(SORT, q, 'a.id', mine ? 'a.id DESC' : PENDING_FIRST),
  };
}

// ---- audit -------------------------------------------------------------------------------------------

/** The audit trail of an application, oldest first; the supplier's own only, or (approvers) any but a draft. */
export async function auditTrail(
  db: Db,
  id: number,
  scope: { supplierCode: string } | 'approvers',
): Promise<AuditRow[]> {
  const app = await db.empowerApplication.findUnique({ where: { id }, select: { supplierCode: true, status: true } });
  const visible = app && (scope === 'approvers' ? app.status !== 'DRAFT' : app.supplierCode === scope.supplierCode);
  if (!visible) throw notFound(NOT_FOUND_TEXT);
  const rows = await db.empowerAudit.findMany({ where: { applicationId: id }, orderBy: { id: 'asc' } });
  return rows.map((r) => ({
    id: r.id,
    action: r.action as AuditRow['action'],
    fromStatus: r.fromStatus as AuditRow['fromStatus'],
    toStatus: r.toStatus as AuditRow['toStatus'],
    userAccount: r.userAccount,
    userName: r.userName,
    userType: r.userType,
    ip: r.ip,
    comment: r.comment,
    createdAt: r.createdAt.toISOString(),
  }));
}

// ---- the form's options ---------------------------------------------------------------------------------

/** The materials the supplier supplies, each with its grant now, whether it expires soon and any pending application. */
export async function applyOptions(
  db: Db,
  supplierCode: string,
  rules: EmpowerRules,
  now = new Date(),
): Promise<ApplyOptions> {
  const [links, grants, pending] = await Promise.all([
    db.supplierMaterial.findMany({
      where: { supplierCode },
      include: { material: { select: { name: true, spec: true, productLine: { select: { name: true } } } } },
      orderBy: { materialCode: 'asc' },
    }),
    db.empowerGrant.findMany({
      where: { supplierCode, revokedAt: null },
      select: { id: true, materialCode: true, validFrom: true, validUntil: true },
    }),
    db.empowerApplicationMaterial.findMany({
      where: { application: { supplierCode, status: 'SUBMITTED' } },
      select: { materialCode: true, applicationId: true },
      orderBy: { applicationId: 'asc' },
    }),
  ]);
  return {
    today: today(now),
    maxPeriodDays: rules.maxPeriodDays,
    expiringDays: rules.expiringDays,
    materials: links.map((l) => {
      const own = grants.filter((g) => g.materialCode === l.materialCode);
      const { state, grant } = grantState(own, now);
      return {
        code: l.materialCode,
        name: l.material.name,
        spec: l.material.spec,
        productLineName: l.material.productLine.name,
        grantState: state,
        grantId: grant?.id ?? null,
        validFrom: grant?.validFrom.toISOString() ?? null,
        validUntil: grant?.validUntil.toISOString() ?? null,
        expiringSoon: expiringSoon(own, now, rules.expiringDays),
        pendingApplicationId: pending.find((p) => p.materialCode === l.materialCode)?.applicationId ?? null,
      };
    }),
  };
}
