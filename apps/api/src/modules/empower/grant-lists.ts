/**
 * The internal side's views of grants: grants in force or starting later
 * (drawingAuthorizedFile), expired / revoked / expiring ones (drawingAuthorizedFileHistory), the
 * per-supplier census (noDrawingMaterialCensus) and one supplier's materials without a valid
 * grant with their drawings (noDrawingAndArchivesInformation). Every "valid" here is the grant
 * rule's (grants.ts), in the form each list needs.
 */
import type { z } from 'zod';
import type {
  CensusRow,
  GrantRow,
  GrantRowState,
  UnauthorizedTree,
  ZCensusPageRequestSchema,
  ZGrantPageRequestSchema,
  ZOverduePageRequestSchema,
} from '@esm/contracts';
import { FILE_TYPES, type FileType } from '@esm/contracts';
import { Prisma } from '../../generated/prisma/client.ts';
import type { Db } from '../../db/database.ts';
import { readRows } from '../../db/rows.ts';
import {
  checkWindow,
  dayRangeSql,
  equalsSql,
  keywordSql,
  listPage,
  mapPage,
  orderBySql,
  pageAndCount,
  whereSql,
  type CappedTotal,
  type PageStatement,
  type SortColumns,
} from '../../lib/list.ts';
import { notFound } from '../../plugins/errors.ts';
import type { EmpowerRules } from './applications.ts';
import { expiringSql, grantState, grantStateSql, visibleToSupplierColumnSql } from './grants.ts';

type GrantQuery = z.output<typeof ZGrantPageRequestSchema>;
type OverdueQuery = z.output<typeof ZOverduePageRequestSchema>;
type CensusQuery = z.output<typeof ZCensusPageRequestSchema>;

const DAY_MS = 86_400_000;
const horizonOf = (now: Date, rules: EmpowerRules) => new Date(now.getTime() + rules.expiringDays * DAY_MS);

// ---- grant rows -------------------------------------------------------------------------------------

interface GrantRecord {
  id: number;
  supplier_code: string;
  supplier_name: string;
  material_code: string;
  material_name: string;
  product_line_name: string;
  valid_from: Date;
  valid_until: Date;
  revoked_at: Date | null;
  revoked_by_account: string | null;
  revoked_by_name: string | null;
  revoke_reason: string | null;
  imported: boolean;
  application_id: number | null;
  approver_account: string | null;
  approver_name: string | null;
  approved_at: Date | null;
  created_at: Date;
  supplies_now: boolean;
  drawing_count: number;
  renewed: boolean;
}

const GRANT_SELECT = Prisma.sql`g.id, g.supplier_code, s.name AS supplier_name, g.material_code, m.name AS material_name, pl.name AS product_line_name,
  g.valid_from, g.valid_until, g.revoked_at, g.revoked_by_account, g.revoked_by_name, g.revoke_reason, g.imported, g.application_id,
  g.approver_account, g.approver_name, g.approved_at, g.created_at,
  EXISTS (SELECT 1 FROM supplier_material sm WHERE sm.supplier_code = g.supplier_code AND sm.material_code = g.material_code) AS supplies_now,
  (SELECT count(*)::int FROM standard_file sf WHERE sf.material_code = g.material_code AND sf.status = 'EFFECTIVE') AS drawing_count,
  EXISTS (SELECT 1 FROM empower_grant g2 WHERE g2.supplier_code = g.supplier_code AND g2.material_code = g.material_code
          AND g2.revoked_at IS NULL AND g2.id <> g.id AND g2.valid_until > g.valid_until) AS renewed`;
const GRANT_FROM = Prisma.sql`empower_grant g JOIN supplier s ON s.code = g.supplier_code JOIN material m ON m.code = g.material_code
  JOIN product_line pl ON pl.code = m.product_line_code`;

/** The grant's own state now (the supplier × material verdict also needs the supply: `suppliesNow`). */
function stateOf(r: Pick<GrantRecord, 'revoked_at' | 'valid_from' | 'valid_until'>, now: Date): GrantRowState {
  if (r.revoked_at) return 'REVOKED';
  if (r.valid_until <= now) return 'EXPIRED';
  if (r.valid_from > now) return 'NOT_YET';
  return 'VALID';
}

function toGrantRow(r: GrantRecord, now: Date, rules: EmpowerRules): GrantRow {
  const state = stateOf(r, now);
  return {
    id: r.id,
    supplierCode: r.supplier_code,
    supplierName: r.supplier_name,
    materialCode: r.material_code,
    materialName: r.material_name,
    productLineName: r.product_line_name,
    validFrom: r.valid_from.toISOString(),
    validUntil: r.valid_until.toISOString(),
    state,
    expiringSoon: state === 'VALID' && r.valid_until <= horizonOf(now, rules),
    renewed: r.renewed,
    suppliesNow: r.supplies_now,
    drawingCount: r.drawing_count,
    imported: r.imported,
    applicationId: r.application_id,
    approverAccount: r.approver_account,
    approverName: r.approver_name,
    approvedAt: r.approved_at?.toISOString() ?? null,
    revokedAt: r.revoked_at?.toISOString() ?? null,
    revokedByAccount: r.revoked_by_account,
    revokedByName: r.revoked_by_name,
    revokeReason: r.revoke_reason,
    createdAt: r.created_at.toISOString(),
  };
}

/** One grant as a row. */
export async function grantRow(db: Db, id: number, rules: EmpowerRules, now = new Date()): Promise<GrantRow> {
  const [r] = await readRows<GrantRecord>(db, Prisma.sql`SELECT ${GRANT_SELECT} FROM ${GRANT_FROM} WHERE g.id = ${id}`);
  if (!r) throw notFound('授权不存在');
  return toGrantRow(r, now, rules);
}

const GRANT_SORT: SortColumns<NonNullable<GrantQuery['sortField']>> = {
  validUntil: 'g.valid_until',
  validFrom: 'g.valid_from',
  supplierCode: 'g.supplier_code',
  materialCode: 'g.material_code',
  approvedAt: 'g.approved_at',
  revokedAt: 'g.revoked_at',
};

const commonFilters = (q: { supplierCode?: string; materialCode?: string; source?: 'APPLICATION' | 'IMPORTED' }) => [
  equalsSql('g.supplier_code', q.supplierCode),
  equalsSql('g.material_code', q.materialCode),
  q.source === 'IMPORTED' && Prisma.sql`g.imported`,
  q.source === 'APPLICATION' && Prisma.sql`g.application_id IS NOT NULL`,
];

/** findEmpowerPage: grants not revoked and not yet ended — in force now, or starting later. Ending soonest first. */
export async function pageGrants(
  db: Db,
  q: GrantQuery,
  rules: EmpowerRules,
  now = new Date(),
): Promise<{ rows: GrantRow[] } & CappedTotal> {
  checkWindow(q);
  const { page, fromWhere } = grantPageStatement(q, rules, now);
  return mapPage(await pageAndCount<GrantRecord>(db, page, fromWhere), (r) => toGrantRow(r, now, rules));
}

/**
 * The grants-in-force page (the benchmark sends the same through `pg`), a deferred join: every
 * filter and sort is on empower_grant itself, so the page's ids and the capped count are found on
 * that table alone (its joins to supplier, material and product line are foreign keys and never
 * drop a row), and only the page's rows are joined and get their sub-queries. Joining first made
 * the count join 10,001 rows and the planner hash the whole supply table for `supplies_now`:
 * ~75 ms of database CPU a page at 42,000 grants (docs/benchmarks.md, domain-lists).
 */
export function grantPageStatement(q: GrantQuery, rules: EmpowerRules, now: Date): PageStatement {
  const where = whereSql([
    Prisma.sql`g.revoked_at IS NULL AND g.valid_until > ${now}`,
    ...commonFilters(q),
    q.state === 'VALID' && Prisma.sql`g.valid_from <= ${now}`,
    q.state === 'NOT_YET' && Prisma.sql`g.valid_from > ${now}`,
    q.expiringOnly && Prisma.sql`g.valid_from <= ${now} AND g.valid_until <= ${horizonOf(now, rules)}`,
  ]);
  const order = orderBySql(GRANT_SORT, q, 'g.id', 'g.valid_until ASC, g.id ASC');
  const pageIds = Prisma.sql`SELECT g.id FROM empower_grant g ${where} ${order} LIMIT ${q.results} OFFSET ${(q.page - 1) * q.results}`;
  return {
    page: Prisma.sql`WITH page AS (${pageIds}) SELECT ${GRANT_SELECT} FROM ${GRANT_FROM} WHERE g.id IN (SELECT id FROM page) ${order}`,
    fromWhere: Prisma.sql`FROM empower_grant g ${where}`,
  };
}

/** findEmpowerOverduePage: expired, revoked, and valid ones ending within the configured days. Latest end first. */
export async function pageOverdue(
  db: Db,
  q: OverdueQuery,
  rules: EmpowerRules,
  now = new Date(),
): Promise<{ rows: GrantRow[] } & CappedTotal> {
  const expired = Prisma.sql`(g.revoked_at IS NULL AND g.valid_until <= ${now})`;
  const revoked = Prisma.sql`(g.revoked_at IS NOT NULL)`;
  const expiring = Prisma.sql`(g.revoked_at IS NULL AND g.valid_from <= ${now} AND g.valid_until > ${now} AND g.valid_until <= ${horizonOf(now, rules)})`;
  const kind =
    q.kind === 'EXPIRED'
      ? expired
      : q.kind === 'REVOKED'
        ? revoked
        : q.kind === 'EXPIRING'
          ? expiring
          : Prisma.sql`(${expired} OR ${revoked} OR ${expiring})`;
  const page = await listPage<GrantRecord>(db, q, {
    select: GRANT_SELECT,
    from: GRANT_FROM,
    where: whereSql([
      kind,
      ...commonFilters(q),
      ...dayRangeSql('coalesce(g.revoked_at, g.valid_until)', q.dateFrom, q.dateTo),
    ]),
    orderBy: orderBySql(GRANT_SORT, q, 'g.id', 'coalesce(g.revoked_at, g.valid_until) DESC, g.id DESC'),
  });
  return mapPage(page, (r) => toGrantRow(r, now, rules));
}

// ---- census ----------------------------------------------------------------------------------------------

const CENSUS_SORT: SortColumns<NonNullable<CensusQuery['sortField']>> = {
  supplierCode: 'c.supplier_code',
  supplierName: 'c.supplier_name',
  supplied: 'c.supplied',
  valid: 'c.valid',
  expiring: 'c.expiring',
  expired: 'c.expired',
  unauthorized: 'c.unauthorized',
  pending: 'c.pending',
  viewable: 'c.viewable',
};

interface CensusRecord {
  supplier_code: string;
  supplier_name: string;
  supplied: number;
  valid: number;
  expiring: number;
  expired: number;
  unauthorized: number;
  pending: number;
  viewable: number;
}

/** Per supplier: its supplied materials counted by grant state, its pending applications and the drawings it may open now. */
function censusSql(q: Pick<CensusQuery, 'keyword'>, rules: EmpowerRules, now: Date): Prisma.Sql {
  return Prisma.sql`(SELECT s.code AS supplier_code, s.name AS supplier_name, c.supplied, c.valid, c.expiring, c.expired,
      c.supplied - c.valid AS unauthorized,
      (SELECT count(*)::int FROM empower_application a WHERE a.supplier_code = s.code AND a.status = 'SUBMITTED') AS pending,
      (SELECT count(*)::int FROM standard_file sf WHERE sf.status = 'EFFECTIVE' AND ${visibleToSupplierColumnSql('sf.material_code', 's.code', now)}) AS viewable
    FROM supplier s
    CROSS JOIN LATERAL (
      SELECT count(*)::int AS supplied,
        (count(*) FILTER (WHERE st.state = 'VALID'))::int AS valid,
        (count(*) FILTER (WHERE st.expiring))::int AS expiring,
        (count(*) FILTER (WHERE st.state = 'EXPIRED'))::int AS expired
      FROM supplier_material sm
      CROSS JOIN LATERAL (SELECT ${grantStateSql('sm.supplier_code', 'sm.material_code', now)} AS state,
                                 ${expiringSql('sm.supplier_code', 'sm.material_code', now, rules.expiringDays)} AS expiring) st
      WHERE sm.supplier_code = s.code
    ) c
    ${whereSql([keywordSql(['s.code', 's.name'], q.keyword)])}) c`;
}

const toCensusRow = (r: CensusRecord): CensusRow => ({
  supplierCode: r.supplier_code,
  supplierName: r.supplier_name,
  supplied: r.supplied,
  valid: r.valid,
  expiring: r.expiring,
  expired: r.expired,
  unauthorized: r.unauthorized,
  pending: r.pending,
  viewable: r.viewable,
});

const censusOrder = (q: CensusQuery) => orderBySql(CENSUS_SORT, q, 'c.supplier_code', 'c.supplier_code ASC');

export async function pageCensus(
  db: Db,
  q: CensusQuery,
  rules: EmpowerRules,
  now = new Date(),
): Promise<{ rows: CensusRow[] } & CappedTotal> {
  const page = await listPage<CensusRecord>(db, q, {
    select: Prisma.sql`c.*`,
    from: censusSql(q, rules, now),
    where: Prisma.empty,
    orderBy: censusOrder(q),
  });
  return mapPage(page, toCensusRow);
}

/** Every census row in the list's order (the export); at most `cap` + 1 rows are read. */
export async function allCensusRows(
  db: Db,
  q: CensusQuery,
  rules: EmpowerRules,
  cap: number,
  now = new Date(),
): Promise<CensusRow[]> {
  const rows = await readRows<CensusRecord>(
    db,
    Prisma.sql`SELECT c.* FROM ${censusSql(q, rules, now)} ${censusOrder(q)} LIMIT ${cap + 1}`,
  );
  return rows.map(toCensusRow);
}

// ---- one supplier's materials without a valid grant ------------------------------------------------------

export async function unauthorizedTree(db: Db, supplierCode: string, now = new Date()): Promise<UnauthorizedTree> {
  const supplier = await db.supplier.findUnique({ where: { code: supplierCode }, select: { code: true, name: true } });
  if (!supplier) throw notFound('供应商不存在');
  const [links, grants, pending] = await Promise.all([
    db.supplierMaterial.findMany({
      where: { supplierCode },
      include: {
        material: {
          select: { name: true, spec: true, productLine: { select: { code: true, name: true, sort: true } } },
        },
      },
      orderBy: { materialCode: 'asc' },
    }),
    db.empowerGrant.findMany({
      where: { supplierCode, revokedAt: null },
      select: { materialCode: true, validFrom: true, validUntil: true },
    }),
    db.empowerApplicationMaterial.findMany({
      where: { application: { supplierCode, status: 'SUBMITTED' } },
      select: { materialCode: true, applicationId: true },
    }),
  ]);
  const open = links
    .map((l) => ({
      link: l,
      ...grantState(
        grants.filter((g) => g.materialCode === l.materialCode),
        now,
      ),
    }))
    .filter((x) => x.state !== 'VALID');
  const files = await db.standardFile.findMany({
    where: { materialCode: { in: open.map((x) => x.link.materialCode) }, status: 'EFFECTIVE' },
    select: {
      id: true,
      standardCode: true,
      name: true,
      version: true,
      fileName: true,
      fileType: true,
      effectiveDate: true,
      materialCode: true,
    },
    orderBy: [{ standardCode: 'asc' }, { id: 'asc' }],
  });
  const lines = new Map<
    string,
    { code: string; name: string; sort: number; materials: UnauthorizedTree['productLines'][number]['materials'] }
  >();
  for (const { link, state, grant } of open) {
    const pl = link.material.productLine;
    const line = lines.get(pl.code) ?? { code: pl.code, name: pl.name, sort: pl.sort, materials: [] };
    lines.set(pl.code, line);
    line.materials.push({
      code: link.materialCode,
      name: link.material.name,
      spec: link.material.spec,
      grantState: state,
      validFrom: grant?.validFrom.toISOString() ?? null,
      validUntil: grant?.validUntil.toISOString() ?? null,
      pendingApplicationId: pending.find((p) => p.materialCode === link.materialCode)?.applicationId ?? null,
      files: files
        .filter((f) => f.materialCode === link.materialCode)
        .map((f) => ({
          id: f.id,
          standardCode: f.standardCode,
          name: f.name,
          version: f.version,
          fileName: f.fileName,
          fileType: f.fileType,
          viewable: FILE_TYPES[f.fileType as FileType]?.viewable ?? false,
          effectiveDate: f.effectiveDate.toISOString().slice(0, 10),
        })),
    });
  }
  return {
    supplierCode: supplier.code,
    supplierName: supplier.name,
    supplied: links.length,
    productLines: [...lines.values()]
      .sort((a, b) => a.sort - b.sort || a.code.localeCompare(b.code))
      .map(({ sort: _sort, ...l }) => l),
  };
}
