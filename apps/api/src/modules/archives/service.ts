/**
 * The archive tree (product line → material), suppliers, who can see a file, and obsoleting a
 * version. Supplier-side calls pass the caller's supplier: then only the materials that supplier
 * may see now (the grant rule, modules/empower/grants.ts) are counted or listed, whatever else
 * the request says.
 */
import type { z } from 'zod';
import type {
  FileSupplierRow,
  MaterialRow,
  ObsoleteScope,
  ProductLine,
  ZMaterialPagerRequestSchema,
  ZSupplierInformationRequestSchema,
} from '@esm/contracts';
import { Prisma } from '../../generated/prisma/client.ts';
import type { Db } from '../../db/database.ts';
import { readRows } from '../../db/rows.ts';
import { equalsSql, keywordSql, listPage, mapPage, orderBySql, whereSql, type CappedTotal } from '../../lib/list.ts';
import { conflict, notFound } from '../../plugins/errors.ts';
import type { SupplierScope } from '../../plugins/auth.ts';
import { grantState, visibleMaterialCodes, visibleMaterialSql } from '../empower/index.ts';
import { pageFiles, type FileFilter } from './file-query.ts';

type MaterialQuery = z.output<typeof ZMaterialPagerRequestSchema>;
type SupplierQuery = z.output<typeof ZSupplierInformationRequestSchema>;

/** Product lines with their material counts; for a supplier, only lines where it sees a material. */
export async function productLines(db: Db, supplierCode?: string, now = new Date()): Promise<ProductLine[]> {
  const visible = supplierCode ? Prisma.sql`AND ${visibleMaterialSql('m.code', supplierCode, now)}` : Prisma.empty;
  const rows = await readRows<{ code: string; name: string; n: number }>(
    db,
    Prisma.sql`SELECT pl.code, pl.name, (SELECT count(*)::int FROM material m WHERE m.product_line_code = pl.code ${visible}) AS n
      FROM product_line pl ORDER BY pl.sort, pl.code`,
  );
  return rows
    .map((l) => ({ code: l.code, name: l.name, materialCount: l.n }))
    .filter((l) => !supplierCode || l.materialCount > 0);
}

const MATERIAL_SORT = { code: 'm.code', name: 'm.name' } as const;

export async function pageMaterials(
  db: Db,
  q: MaterialQuery,
  supplierCode?: string,
  now = new Date(),
): Promise<{ rows: MaterialRow[] } & CappedTotal> {
  const page = await listPage<{
    code: string;
    name: string;
    spec: string | null;
    product_line_code: string;
    product_line_name: string;
    purchaser: string | null;
  }>(db, q, {
    select: Prisma.sql`m.code, m.name, m.spec, m.product_line_code, pl.name AS product_line_name, m.purchaser`,
    from: Prisma.sql`material m JOIN product_line pl ON pl.code = m.product_line_code`,
    where: whereSql([
      supplierCode && visibleMaterialSql('m.code', supplierCode, now),
      equalsSql('m.product_line_code', q.productLineCode),
      keywordSql(['m.code', 'm.name'], q.keyword),
    ]),
    orderBy: orderBySql(MATERIAL_SORT, q, 'm.code', 'm.code ASC'),
  });
  return mapPage(page, (m) => ({
    code: m.code,
    name: m.name,
    spec: m.spec,
    productLineCode: m.product_line_code,
    productLineName: m.product_line_name,
    purchaser: m.purchaser,
  }));
}

/**
 * A supplier's file list: the request's filters inside its scope. A material outside the scope
 * simply matches nothing (an empty page, never another supplier's rows).
 */
export async function pageSupplierFiles(
  db: Db,
  supplier: SupplierScope,
  filter: Omit<FileFilter, 'materialCodes' | 'statuses'>,
  status: 'EFFECTIVE' | 'HISTORY',
  q: Parameters<typeof pageFiles>[2],
) {
  // The scope is read first, as a list of codes: with the codes as a value the planner knows how
  // many materials the supplier sees and picks the walk that suits (its few materials' files, or
  // the newest files filtered), where a subquery in the page would leave it guessing.
  const materialCodes = await visibleMaterialCodes(db, supplier.code);
  // the history says whether this user confirmed each earlier version, as the current list does
  return pageFiles(db, { ...filter, statuses: [status], materialCodes }, q, { confirmedBy: supplier.userId });
}

const SUPPLIER_SORT = { code: 's.code', name: 's.name' } as const;

export async function pageSuppliers(db: Db, q: SupplierQuery) {
  const page = await listPage<{ code: string; name: string; n: number }>(db, q, {
    select: Prisma.sql`s.code, s.name, (SELECT count(*)::int FROM supplier_material sm WHERE sm.supplier_code = s.code) AS n`,
    from: Prisma.sql`supplier s`,
    where: whereSql([keywordSql(['s.code', 's.name'], q.keyword)]),
    orderBy: orderBySql(SUPPLIER_SORT, q, 's.code', 's.code ASC'),
  });
  return mapPage(page, (s) => ({ code: s.code, name: s.name, materialCount: s.n }));
}

/** Who supplies the file's material, each with its grant state and whether it can open the file now. */
export async function fileSuppliers(db: Db, id: number, now = new Date()): Promise<FileSupplierRow[]> {
  const file = await db.standardFile.findUnique({ where: { id }, select: { materialCode: true, status: true } });
  if (!file) throw notFound('文件不存在');
  const links = await db.supplierMaterial.findMany({
    where: { materialCode: file.materialCode },
    include: { supplier: { include: { grants: { where: { materialCode: file.materialCode, revokedAt: null } } } } },
    orderBy: { supplierCode: 'asc' },
  });
  return links.map(({ supplier }) => {
    const { state, grant } = grantState(supplier.grants, now);
    return {
      supplierCode: supplier.code,
      supplierName: supplier.name,
      grantState: state,
      validFrom: grant?.validFrom.toISOString() ?? null,
      validUntil: grant?.validUntil.toISOString() ?? null,
      canAccess: state === 'VALID' && file.status !== 'OBSOLETE',
    };
  });
}

/**
 * 作废. VERSION withdraws one version (EFFECTIVE or HISTORY → OBSOLETE); when it was the
 * effective one, the latest earlier version still in force (HISTORY) becomes EFFECTIVE again, so
 * the standard stays visible to suppliers. STANDARD withdraws every version still in force. Each
 * change is an archive_event row (who, when, why) in the same transaction; a version already
 * obsolete is a 409. Answers the obsoleted version's id and the restored version, if any.
 */
export async function obsoleteFile(
  db: Db,
  id: number,
  reason: string,
  scope: ObsoleteScope,
  by: { id: number; name: string },
): Promise<{ id: number; restored: { id: number; version: string } | null; count: number }> {
  return db.$transaction(async (tx) => {
    const file = await tx.standardFile.findUnique({
      where: { id },
      select: { id: true, standardCode: true, version: true, status: true },
    });
    if (!file) throw notFound('文件不存在');
    const event = (action: string, f: { id: number; standardCode: string; version: string }, why: string | null) =>
      tx.archiveEvent.create({
        data: {
          action,
          fileId: f.id,
          standardCode: f.standardCode,
          version: f.version,
          reason: why,
          userId: by.id,
          userName: by.name,
        },
      });
    const now = new Date();
    const targets =
      scope === 'STANDARD'
        ? await tx.standardFile.findMany({
            where: { standardCode: file.standardCode, status: { in: ['EFFECTIVE', 'HISTORY'] } },
            select: { id: true, standardCode: true, version: true },
          })
        : [file];
    // the status check is in the UPDATE itself: of two concurrent 作废, one wins, the other is a 409
    const { count } = await tx.standardFile.updateMany({
      where: { id: { in: targets.map((t) => t.id) }, status: { in: ['EFFECTIVE', 'HISTORY'] } },
      data: { status: 'OBSOLETE', obsoletedAt: now, obsoleteReason: reason },
    });
    if (count === 0 || (scope === 'VERSION' && file.status === 'OBSOLETE'))
      throw conflict(scope === 'STANDARD' ? '该标准已全部作废' : '该版本已作废');
    for (const t of targets) await event(scope === 'STANDARD' ? 'OBSOLETE_STANDARD' : 'OBSOLETE_VERSION', t, reason);

    let restored: { id: number; version: string } | null = null;
    if (scope === 'VERSION' && file.status === 'EFFECTIVE') {
      const previous = await tx.standardFile.findFirst({
        where: { standardCode: file.standardCode, status: 'HISTORY' },
        orderBy: { versionNo: 'desc' },
        select: { id: true, standardCode: true, version: true },
      });
      if (previous) {
        await tx.standardFile.update({ where: { id: previous.id }, data: { status: 'EFFECTIVE' } });
        await event('RESTORE_VERSION', previous, `${file.version} 版作废后恢复为生效`);
        restored = { id: previous.id, version: previous.version };
      }
    }
    return { id, restored, count };
  });
}
