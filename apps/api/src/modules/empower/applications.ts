/**
 * Reading applications: the supplier's own list, the approvers' list (never drafts: a draft is
 * the supplier's own business until it is submitted), one application as a row with each
 * material's current grant (by the grant rule), its audit trail, and the application form's
 * options. Every supplier read is scoped by the caller's supplier: another supplier's
 * application answers exactly like one that does not exist.
 */
import type { z } from 'zod';
import type { ApplicationRow, ApplicationStatus, ApplyOptions, AuditRow, ZApplyPageRequestSchema } from '@esm/contracts';
import { Prisma } from '../../generated/prisma/client.ts';
import type { Db } from '../../db/database.ts';
import { dayRangeSql, equalsSql, listPage, orderBySql, whereSql, type CappedTotal, type SortColumns } from '../../lib/list.ts';
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

const include = {
  supplier: { select: { name: true } },
  materials: { include: { material: { select: { name: true } } }, orderBy: { materialCode: 'asc' } },
} as const;
type Loaded = Prisma.EmpowerApplicationGetPayload<{ include: typeof include }>;

/** The rows of these applications, in the order of `ids`, each material with its grant now. */
export async function applicationRows(q: Q, ids: readonly number[], now = new Date()): Promise<ApplicationRow[]> {
  if (ids.length === 0) return [];
  const apps = await q.empowerApplication.findMany({ where: { id: { in: [...ids] } }, include });
  const pairs = apps.flatMap((a) => a.materials.map((m) => ({ supplierCode: a.supplierCode, materialCode: m.materialCode })));
  const grants = pairs.length
    ? await q.empowerGrant.findMany({
        where: { revokedAt: null, supplierCode: { in: [...new Set(pairs.map((p) => p.supplierCode))] }, materialCode: { in: [...new Set(pairs.map((p) => p.materialCode))] } },
        select: { supplierCode: true, materialCode: true, validFrom: true, validUntil: true },
      })
    : [];
  const byId = new Map(apps.map((a) => [a.id, a]));
  return ids.flatMap((id) => {
    const a = byId.get(id);
    return a ? [toRow(a, grants, now)] : [];
  });
}

function toRow(a: Loaded, grants: { supplierCode: string; materialCode: string; validFrom: Date; validUntil: Date }[], now: Date): ApplicationRow {
  return {
    id: a.id,
    supplierCode: a.supplierCode,
    supplierName: a.supplier.name,
    status: a.status as ApplicationStatus,
    validFrom: dayOf(a.validFrom),
    validUntil: dayOf(a.validUntil),
    reason: a.reason,
    applicantAccount: a.applicantAccount,
    applicantName: a.applicantName,
    renewsGrantId: a.renewsGrantId,
    submittedAt: a.submittedAt?.toISOString() ?? null,
    approvedFrom: dayOrNull(a.approvedFrom),
    approvedUntil: dayOrNull(a.approvedUntil),
    deciderAccount: a.deciderAccount,
    deciderName: a.deciderName,
    decidedAt: a.decidedAt?.toISOString() ?? null,
    decisionComment: a.decisionComment,
    createdAt: a.createdAt.toISOString(),
    updatedAt: a.updatedAt.toISOString(),
    materials: a.materials.map((m) => {
      const { state, grant } = grantState(
        grants.filter((g) => g.supplierCode === a.supplierCode && g.materialCode === m.materialCode),
        now,
      );
      return { code: m.materialCode, name: m.material.name, approved: m.approved, grantState: state, grantValidUntil: grant?.validUntil.toISOString() ?? null };
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
const PENDING_FIRST = "CASE WHEN a.status = 'SUBMITTED' THEN 0 ELSE 1 END, CASE WHEN a.status = 'SUBMITTED' THEN a.submitted_at END ASC, a.id DESC";

/**
 * A page of applications: the supplier's own (`supplierCode` set: drafts included) or, for the
 * approvers, every supplier's except drafts.
 */
export async function pageApplications(db: Db, q: ApplyQuery, scope: { supplierCode: string } | 'approvers', now = new Date()): Promise<{ rows: ApplicationRow[] } & CappedTotal> {
  const mine = scope !== 'approvers';
  const page = await listPage<{ id: number }>(db, q, {
    select: Prisma.sql`a.id`,
    from: Prisma.sql`empower_application a`,
    where: whereSql([
      mine ? Prisma.sql`a.supplier_code = ${scope.supplierCode}` : Prisma.sql`a.status <> 'DRAFT'`,
      !mine && equalsSql('a.supplier_code', q.supplierCode),
      equalsSql('a.status', q.status),
      q.materialCode && Prisma.sql`EXISTS (SELECT 1 FROM empower_application_material am WHERE am.application_id = a.id AND am.material_code = ${q.materialCode})`,
      ...dayRangeSql('a.created_at', q.dateFrom, q.dateTo),
    ]),
    orderBy: orderBySql(SORT, q, 'a.id', mine ? 'a.id DESC' : PENDING_FIRST),
  });
  return { ...page, rows: await applicationRows(db, page.rows.map((r) => r.id), now) };
}

// ---- audit -------------------------------------------------------------------------------------------

/** The audit trail of an application, oldest first; the supplier's own only, or (approvers) any but a draft. */
export async function auditTrail(db: Db, id: number, scope: { supplierCode: string } | 'approvers'): Promise<AuditRow[]> {
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
export async function applyOptions(db: Db, supplierCode: string, rules: EmpowerRules, now = new Date()): Promise<ApplyOptions> {
  const [links, grants, pending] = await Promise.all([
    db.supplierMaterial.findMany({
      where: { supplierCode },
      include: { material: { select: { name: true, spec: true, productLine: { select: { name: true } } } } },
      orderBy: { materialCode: 'asc' },
    }),
    db.empowerGrant.findMany({ where: { supplierCode, revokedAt: null }, select: { id: true, materialCode: true, validFrom: true, validUntil: true } }),
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
