/**
 * The access report (for audits): for a material — or a drawing, a standard code with
 * every version — and a day, which suppliers could see it that day, under which grant, approved
 * by whom and when; and what they actually viewed, downloaded and printed under those grants.
 *
 * "Could see it that day": a grant on the material in force at some moment of the day (UTC+8):
 * it started before the day ended, ended after the day began, and was not revoked before the
 * day began. Whether the supplier supplied the material then is not on record (only who supplies
 * it now is): `suppliesNow` says that. What was done under a grant: the served (OK) view,
 * download and print rows of the access log by that supplier on the subject while the grant was
 * in force; a row that falls under two overlapping grants of the same supplier is counted once,
 * under the older grant.
 */
import type { z } from 'zod';
import {
  REPORT_EVENTS_SHOWN,
  type AccessReport,
  type ReportEvent,
  type ReportGrant,
  type ZAccessReportRequestSchema,
} from '@esm/contracts';
import { Prisma } from '../../generated/prisma/client.ts';
import { deliveredSql } from '../../lib/access-log-delivery.ts';
import type { Db } from '../../db/database.ts';
import { readRows } from '../../db/rows.ts';
import { dayRange } from '../../lib/dates.ts';
import { badRequest, notFound } from '../../plugins/errors.ts';

type ReportQuery = z.output<typeof ZAccessReportRequestSchema>;

interface Subject {
  date: string;
  standardCode: string | null;
  materials: { code: string; name: string }[];
  versions: AccessReport['versions'];
}

/** What the report is about: the drawing's versions and materials, or the material. */
async function subjectOf(db: Db, q: ReportQuery): Promise<Subject> {
  if (q.standardCode) {
    const versions = await db.standardFile.findMany({
      where: { standardCode: q.standardCode },
      select: {
        id: true,
        version: true,
        status: true,
        effectiveDate: true,
        obsoletedAt: true,
        materialCode: true,
        material: { select: { name: true } },
      },
      orderBy: { versionNo: 'asc' },
    });
    if (versions.length === 0) throw notFound(`标准编号 ${q.standardCode} 不存在`);
    const materials = [
      ...new Map(versions.map((v) => [v.materialCode, { code: v.materialCode, name: v.material.name }])).values(),
    ];
    if (q.materialCode && !materials.some((m) => m.code === q.materialCode)) {
      const message = `图纸 ${q.standardCode} 不属于物料 ${q.materialCode}`;
      throw badRequest(message, [{ field: 'materialCode', message }]);
    }
    return {
      date: q.date,
      standardCode: q.standardCode,
      materials,
      versions: versions.map((v) => ({
        id: v.id,
        version: v.version,
        status: v.status,
        effectiveDate: v.effectiveDate.toISOString().slice(0, 10),
        obsoletedAt: v.obsoletedAt?.toISOString() ?? null,
      })),
    };
  }
  const material = await db.material.findUnique({
    where: { code: q.materialCode! },
    select: { code: true, name: true },
  });
  if (!material) throw notFound(`物料 ${q.materialCode} 不存在`);
  return { date: q.date, standardCode: null, materials: [material], versions: [] };
}

interface GrantRecord {
  id: number;
  supplier_code: string;
  supplier_name: string;
  material_code: string;
  material_name: string;
  supplies_now: boolean;
  valid_from: Date;
  valid_until: Date;
  revoked_at: Date | null;
  revoked_by_name: string | null;
  revoke_reason: string | null;
  imported: boolean;
  application_id: number | null;
  applicant_name: string | null;
  approver_account: string | null;
  approver_name: string | null;
  approved_at: Date | null;
}

/** The grants on the subject's materials in force at some moment of the day. */
function grantsOfDay(s: Subject): Prisma.Sql {
  const { gte, lt } = dayRange(s.date, s.date);
  return Prisma.sql`SELECT g.id, g.supplier_code, sp.name AS supplier_name, g.material_code, m.name AS material_name,
      EXISTS (SELECT 1 FROM supplier_material sm WHERE sm.supplier_code = g.supplier_code AND sm.material_code = g.material_code) AS supplies_now,
      g.valid_from, g.valid_until, g.revoked_at, g.revoked_by_name, g.revoke_reason, g.imported, g.application_id,
      a.applicant_name, g.approver_account, g.approver_name, g.approved_at
    FROM empower_grant g
    JOIN supplier sp ON sp.code = g.supplier_code
    JOIN material m ON m.code = g.material_code
    LEFT JOIN empower_application a ON a.id = g.application_id
    WHERE g.material_code = ANY(${s.materials.map((m) => m.code)}::text[])
      AND g.valid_from < ${lt!} AND g.valid_until > ${gte!} AND (g.revoked_at IS NULL OR g.revoked_at > ${gte!})`;
}

interface EventRecord {
  id: number;
  grant_id: number;
  action: ReportEvent['action'];
  user_account: string;
  user_name: string;
  supplier_code: string;
  supplier_name: string | null;
  standard_code: string | null;
  file_name: string | null;
  version: string | null;
  material_code: string | null;
  ip: string | null;
  created_at: Date;
}

/**
 * The served view/download/print rows under these grants, each once (under its oldest grant),
 * newest first: `SELECT … FROM (this) ev`.
 */
function eventsUnder(grantIds: number[], standardCode: string | null, beforeId?: number): Prisma.Sql {
  return Prisma.sql`(SELECT DISTINCT ON (l.id) l.id, gr.id AS grant_id, l.action, l.user_account, l.user_name, l.supplier_code, l.supplier_name,
        l.standard_code, l.file_name, l.version, l.material_code, l.ip, l.created_at
      FROM empower_grant gr
      JOIN access_log l ON l.supplier_code = gr.supplier_code AND l.material_code = gr.material_code
        AND l.created_at >= gr.valid_from AND l.created_at < LEAST(gr.valid_until, coalesce(gr.revoked_at, gr.valid_until))
      WHERE gr.id = ANY(${grantIds}::int[]) AND l.action IN ('VIEW', 'DOWNLOAD', 'PRINT') AND ${deliveredSql('l')}
        ${standardCode ? Prisma.sql`AND l.standard_code = ${standardCode}` : Prisma.empty}
        ${beforeId ? Prisma.sql`AND l.id < ${beforeId}` : Prisma.empty}
      ORDER BY l.id DESC, gr.id ASC) ev`;
}

const toEvent = (r: EventRecord): ReportEvent => ({
  id: r.id,
  grantId: r.grant_id,
  action: r.action,
  userAccount: r.user_account,
  userName: r.user_name,
  supplierCode: r.supplier_code,
  supplierName: r.supplier_name,
  standardCode: r.standard_code,
  fileName: r.file_name,
  version: r.version,
  materialCode: r.material_code,
  ip: r.ip,
  createdAt: r.created_at.toISOString(),
});

export interface ReportData {
  report: AccessReport;
  grantIds: number[];
}

export async function accessReport(db: Db, q: ReportQuery): Promise<ReportData> {
  const subject = await subjectOf(db, q);
  const grants = await readRows<GrantRecord>(
    db,
    Prisma.sql`${grantsOfDay(subject)} ORDER BY g.supplier_code, g.valid_from, g.id`,
  );
  const ids = grants.map((g) => g.id);
  const [counts, events] = ids.length
    ? await Promise.all([
        readRows<{
          grant_id: number;
          views: number;
          downloads: number;
          prints: number;
          total: number;
          last_at: Date | null;
        }>(
          db,
          Prisma.sql`SELECT ev.grant_id, (count(*) FILTER (WHERE ev.action = 'VIEW'))::int AS views, (count(*) FILTER (WHERE ev.action = 'DOWNLOAD'))::int AS downloads,
              (count(*) FILTER (WHERE ev.action = 'PRINT'))::int AS prints, count(*)::int AS total, max(ev.created_at) AS last_at
            FROM ${eventsUnder(ids, subject.standardCode)} GROUP BY ev.grant_id`,
        ),
        readRows<EventRecord>(
          db,
          Prisma.sql`SELECT ev.* FROM ${eventsUnder(ids, subject.standardCode)} ORDER BY ev.id DESC LIMIT ${REPORT_EVENTS_SHOWN}`,
        ),
      ])
    : [[], []];
  const byGrant = new Map(counts.map((c) => [c.grant_id, c]));
  const rows: ReportGrant[] = grants.map((g) => {
    const c = byGrant.get(g.id);
    return {
      grantId: g.id,
      supplierCode: g.supplier_code,
      supplierName: g.supplier_name,
      materialCode: g.material_code,
      materialName: g.material_name,
      suppliesNow: g.supplies_now,
      validFrom: g.valid_from.toISOString(),
      validUntil: g.valid_until.toISOString(),
      revokedAt: g.revoked_at?.toISOString() ?? null,
      revokedByName: g.revoked_by_name,
      revokeReason: g.revoke_reason,
      imported: g.imported,
      applicationId: g.application_id,
      applicantName: g.applicant_name,
      approverAccount: g.approver_account,
      approverName: g.approver_name,
      approvedAt: g.approved_at?.toISOString() ?? null,
      views: c?.views ?? 0,
      downloads: c?.downloads ?? 0,
      prints: c?.prints ?? 0,
      lastAccessAt: c?.last_at?.toISOString() ?? null,
    };
  });
  return {
    report: {
      ...subject,
      grants: rows,
      events: events.map(toEvent),
      eventsTotal: counts.reduce((n, c) => n + c.total, 0),
    },
    grantIds: ids,
  };
}

/** Every event of the report, newest first, `size` a query (the export). */
export async function* reportEventBatches(
  db: Db,
  grantIds: number[],
  standardCode: string | null,
  size = 1000,
): AsyncGenerator<ReportEvent[]> {
  if (grantIds.length === 0) return;
  let before: number | undefined;
  for (;;) {
    const batch = await readRows<EventRecord>(
      db,
      Prisma.sql`SELECT ev.* FROM ${eventsUnder(grantIds, standardCode, before)} ORDER BY ev.id DESC LIMIT ${size}`,
    );
    if (batch.length) yield batch.map(toEvent);
    if (batch.length < size) return;
    before = batch[batch.length - 1]!.id;
  }
}
