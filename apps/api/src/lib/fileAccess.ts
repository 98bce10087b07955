/**
 * May this supplier user act on this file now (issue 3)? One answer for view, print, download
 * and confirm: the version is not obsolete, the supplier supplies the material and holds a
 * grant valid now (lib/scope.ts), and the user accepted the current confidentiality agreement.
 * Each check answers with the refusal the user is shown (and that the log keeps), or null.
 * Runs on the transaction client that also writes the log row.
 */
import { KEEPSECRET_REQUIRED_CODE } from '@esm/contracts';
import type { Prisma } from '../generated/prisma/client.ts';
import type { SessionUser } from '../plugins/auth.ts';
import { AppError, forbidden, notFound } from '../plugins/errors.ts';
import type { FileSnapshot } from './accessLog.ts';
import { materialAccess } from './scope.ts';

type Q = Prisma.TransactionClient;

export const NO_AGREEMENT_TEXT = '尚未发布保密协议';

/** The agreement in force: the highest version. */
export function currentAgreement(q: Q) {
  return q.keepsecretAgreement.findFirst({ orderBy: { version: 'desc' } });
}

/** Null when the user accepted the current agreement; else why not (403 '40301' asks the web to show it). */
export async function agreementRefusal(q: Q, user: SessionUser): Promise<AppError | null> {
  const current = await currentAgreement(q);
  if (!current) return forbidden(NO_AGREEMENT_TEXT);
  const accepted = await q.keepsecretAcceptance.findUnique({ where: { agreementId_userId: { agreementId: current.id, userId: user.id } }, select: { id: true } });
  return accepted ? null : new AppError(403, '请先阅读并签署保密协议', KEEPSECRET_REQUIRED_CODE);
}

/** A file row with what the checks and the log need. */
export async function loadFile(q: Q, id: number) {
  const file = await q.standardFile.findUnique({ where: { id }, include: { material: { select: { name: true } } } });
  if (!file) throw notFound('文件不存在');
  return file;
}
export type LoadedFile = Awaited<ReturnType<typeof loadFile>>;

export function snapshotOf(file: LoadedFile): FileSnapshot {
  return {
    id: file.id,
    standardCode: file.standardCode,
    fileName: file.fileName,
    version: file.version,
    materialCode: file.materialCode,
    materialName: file.material.name,
  };
}

/** Why a supplier user may not open (or confirm) this file now, or null. Staff are never refused here. */
export async function supplierFileRefusal(q: Q, user: SessionUser, file: Pick<LoadedFile, 'status' | 'materialCode'>, purpose: 'open' | 'confirm', now = new Date()): Promise<AppError | null> {
  if (!user.isSupplier) return null;
  if (!user.supplierCode) return forbidden('账号未关联供应商，请联系管理员');
  if (file.status === 'OBSOLETE') return forbidden(purpose === 'confirm' ? '该版本已作废，不能确认' : '该版本已作废，不能查看');
  const verdict = await materialAccess(q, user.supplierCode, file.materialCode, now);
  if (!verdict.ok) return forbidden(verdict.reason);
  return agreementRefusal(q, user);
}
