/**
 * The archive tree (product line → material), suppliers, who can see a file, and obsoleting a
 * version. Supplier-side calls pass `supplierCode`: then only the materials that supplier may
 * see now (lib/scope.ts) are counted or listed, whatever else the request says.
 */
import type { z } from 'zod';
import type { GrantState, MaterialRow, ProductLine, StandardFileRow, ZFileSupplierRow, ZMaterialPagerRequestSchema, ZSupplierInformationRequestSchema } from '@esm/contracts';
import type { Prisma } from '../../generated/prisma/client.ts';
import type { Db } from '../../db/database.ts';
import { pageWindow } from '../../lib/envelope.ts';
import { capTotal, checkWindow, type CappedTotal } from '../../lib/listWindow.ts';
import { LIST_WINDOW_MAX } from '@esm/contracts';
import { visibleMaterialWhere } from '../../lib/scope.ts';
import { conflict, notFound } from '../../plugins/errors.ts';
import { pageFiles, type FileFilter } from './file-query.ts';

type MaterialQuery = z.output<typeof ZMaterialPagerRequestSchema>;
type SupplierQuery = z.output<typeof ZSupplierInformationRequestSchema>;
type FileSupplierRow = z.infer<typeof ZFileSupplierRow>;

/** Product lines with their material counts; for a supplier, only lines where it sees a material. */
export async function productLines(db: Db, supplierCode?: string): Promise<ProductLine[]> {
  const materials = supplierCode ? { where: visibleMaterialWhere(supplierCode) } : true;
  const lines = await db.productLine.findMany({
    orderBy: [{ sort: 'asc' }, { code: 'asc' }],
    include: { _count: { select: { materials } } },
  });
  return lines
    .map((l) => ({ code: l.code, name: l.name, materialCount: l._count.materials }))
    .filter((l) => !supplierCode || l.materialCount > 0);
}

export async function pageMaterials(db: Db, q: MaterialQuery, supplierCode?: string): Promise<{ rows: MaterialRow[] } & CappedTotal> {
  checkWindow(q);
  const where: Prisma.MaterialWhereInput = {
    AND: [
      supplierCode ? visibleMaterialWhere(supplierCode) : {},
      q.productLineCode ? { productLineCode: q.productLineCode } : {},
      q.keyword ? { OR: [{ code: { contains: q.keyword, mode: 'insensitive' } }, { name: { contains: q.keyword, mode: 'insensitive' } }] } : {},
    ],
  };
  const dir = q.sortOrder === 'descend' ? 'desc' : 'asc';
  const orderBy: Prisma.MaterialOrderByWithRelationInput[] = q.sortField && q.sortOrder ? [{ [q.sortField]: dir }, { code: dir }] : [{ code: 'asc' }];
  const [rows, counted] = await Promise.all([
    db.material.findMany({ where, orderBy, ...pageWindow(q), include: { productLine: true } }),
    db.material.count({ where, take: LIST_WINDOW_MAX + 1 }),
  ]);
  return {
    rows: rows.map((m) => ({ code: m.code, name: m.name, spec: m.spec, productLineCode: m.productLineCode, productLineName: m.productLine.name, purchaser: m.purchaser })),
    ...capTotal(counted),
  };
}

/** The material codes a supplier may see now: the scope every supplier file list runs in. */
export async function visibleMaterialCodes(db: Db, supplierCode: string): Promise<string[]> {
  const rows = await db.material.findMany({ where: visibleMaterialWhere(supplierCode), select: { code: true } });
  return rows.map((r) => r.code);
}

/**
 * A supplier's file list: the request's filters inside its scope. A material outside the scope
 * simply matches nothing (an empty page, never another supplier's rows).
 */
export async function pageSupplierFiles(
  db: Db,
  supplier: { code: string; userId: number },
  filter: Omit<FileFilter, 'materialCodes' | 'statuses'>,
  status: 'EFFECTIVE' | 'HISTORY',
  q: Parameters<typeof pageFiles>[2],
) {
  const materialCodes = await visibleMaterialCodes(db, supplier.code);
  const page = await pageFiles(db, { ...filter, statuses: [status], materialCodes }, q);
  if (status !== 'EFFECTIVE') return page;
  return { ...page, rows: await withConfirmations(db, supplier.userId, page.rows) };
}

/** Each row's `confirmedAt`: this user's latest successful confirmation of that file, or null. */
async function withConfirmations(db: Db, userId: number, rows: StandardFileRow[]): Promise<StandardFileRow[]> {
  if (rows.length === 0) return rows;
  const confirmed = await db.accessLog.groupBy({
    by: ['fileId'],
    where: { action: 'CONFIRM', outcome: 'OK', userId, fileId: { in: rows.map((r) => r.id) } },
    _max: { createdAt: true },
  });
  const at = new Map(confirmed.map((c) => [c.fileId, c._max.createdAt]));
  return rows.map((r) => ({ ...r, confirmedAt: at.get(r.id)?.toISOString() ?? null }));
}

export async function pageSuppliers(db: Db, q: SupplierQuery) {
  checkWindow(q);
  const where: Prisma.SupplierWhereInput = q.keyword
    ? { OR: [{ code: { contains: q.keyword, mode: 'insensitive' } }, { name: { contains: q.keyword, mode: 'insensitive' } }] }
    : {};
  const dir = q.sortOrder === 'descend' ? 'desc' : 'asc';
  const orderBy: Prisma.SupplierOrderByWithRelationInput[] = q.sortField && q.sortOrder ? [{ [q.sortField]: dir }, { code: dir }] : [{ code: 'asc' }];
  const [rows, counted] = await Promise.all([
    db.supplier.findMany({ where, orderBy, ...pageWindow(q), include: { _count: { select: { materials: true } } } }),
    db.supplier.count({ where, take: LIST_WINDOW_MAX + 1 }),
  ]);
  return { rows: rows.map((s) => ({ code: s.code, name: s.name, materialCount: s._count.materials })), ...capTotal(counted) };
}

type Grant = { validFrom: Date; validUntil: Date };

/** The grant that decides a supplier's state now, by the rules of lib/scope.ts materialAccess. */
export function grantState(grants: Grant[], now: Date): { state: GrantState; grant: Grant | null } {
  const byEnd = [...grants].sort((a, b) => b.validUntil.getTime() - a.validUntil.getTime());
  const valid = byEnd.find((g) => g.validFrom <= now && g.validUntil > now);
  if (valid) return { state: 'VALID', grant: valid };
  const future = byEnd.filter((g) => g.validFrom > now).sort((a, b) => a.validFrom.getTime() - b.validFrom.getTime())[0];
  if (future) return { state: 'NOT_YET', grant: future };
  if (byEnd[0]) return { state: 'EXPIRED', grant: byEnd[0] };
  return { state: 'NONE', grant: null };
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
 * Withdraws a version (EFFECTIVE or HISTORY → OBSOLETE). Obsoleting the EFFECTIVE version does
 * NOT promote an older one: a withdrawn standard leaves its code without an effective version
 * until someone uploads a new one — silently reviving an older drawing would be worse.
 */
export async function obsoleteFile(db: Db, id: number, reason: string): Promise<number> {
  const { count } = await db.standardFile.updateMany({
    where: { id, status: { in: ['EFFECTIVE', 'HISTORY'] } },
    data: { status: 'OBSOLETE', obsoletedAt: new Date(), obsoleteReason: reason },
  });
  if (count === 0) {
    const exists = await db.standardFile.findUnique({ where: { id }, select: { id: true } });
    throw exists ? conflict('该版本已作废') : notFound('文件不存在');
  }
  return id;
}
