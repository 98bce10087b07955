/**
 * What a supplier may see (issue 3): a material's files only when the supplier supplies the
 * material AND holds a grant valid now (not revoked, validFrom ≤ now < validUntil). Every
 * supplier query goes through these; nothing a supplier sends can widen them.
 */
import type { Prisma } from '../generated/prisma/client.ts';
import type { Db } from '../db/database.ts';
import { AppError } from '../plugins/errors.ts';

export function validGrantWhere(supplierCode: string, now: Date): Prisma.EmpowerGrantWhereInput {
  return { supplierCode, revokedAt: null, validFrom: { lte: now }, validUntil: { gt: now } };
}

/** Materials visible to a supplier now. */
export function visibleMaterialWhere(supplierCode: string, now = new Date()): Prisma.MaterialWhereInput {
  return { suppliers: { some: { supplierCode } }, grants: { some: validGrantWhere(supplierCode, now) } };
}

export type AccessVerdict = { ok: true; validFrom: Date; validUntil: Date } | { ok: false; reason: string };

const day = (d: Date) => d.toLocaleDateString('zh-CN', { timeZone: 'Asia/Shanghai' });

/** Why a supplier may or may not open a material's files right now (refusal texts in Chinese). */
export async function materialAccess(db: Db | Prisma.TransactionClient, supplierCode: string, materialCode: string, now = new Date()): Promise<AccessVerdict> {
  const supplies = await db.supplierMaterial.findUnique({ where: { supplierCode_materialCode: { supplierCode, materialCode } } });
  if (!supplies) return { ok: false, reason: '贵公司不是该物料的供应商，无权查看其图纸' };
  const grants = await db.empowerGrant.findMany({ where: { supplierCode, materialCode, revokedAt: null }, orderBy: { validUntil: 'desc' } });
  const valid = grants.find((g) => g.validFrom <= now && g.validUntil > now);
  if (valid) return { ok: true, validFrom: valid.validFrom, validUntil: valid.validUntil };
  const future = grants.find((g) => g.validFrom > now);
  if (future) return { ok: false, reason: `该物料的图纸授权自 ${day(future.validFrom)} 起生效，目前无权查看` };
  const last = grants[0];
  if (last) return { ok: false, reason: `该物料的图纸授权已于 ${day(last.validUntil)} 过期，请重新申请授权` };
  return { ok: false, reason: '贵公司没有该物料的图纸授权，请先申请授权' };
}

export function refuse(reason: string): never {
  throw new AppError(403, reason);
}
