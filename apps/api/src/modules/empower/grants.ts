/**
 * The grant rule — the one rule every file access and every supplier list uses: a
 * supplier may see a material's files only when it supplies the material AND holds a grant
 * valid now: not revoked, validFrom ≤ now < validUntil. It is written once per form it is needed
 * in — `grantState` over a supplier's grants on one material, `visibleMaterialSql` for lists,
 * `grantStateSql` / `expiringSql` for counts over many suppliers (the census) — and
 * test/empower.test.ts checks that the forms agree. Nothing caches a verdict: an approval opens
 * access at validFrom, and expiry and revocation close it at once.
 */
import type { GrantState } from '@esm/contracts';
import { Prisma } from '../../generated/prisma/client.ts';
import type { Db } from '../../db/database.ts';
import { readRows } from '../../db/rows.ts';
import { cstDayText, cstMinute } from '../../lib/dates.ts';

type Q = Db | Prisma.TransactionClient;

export interface Grant {
  validFrom: Date;
  validUntil: Date;
}

/** The grant that decides a supplier's state on a material now (grants not revoked). */
export function grantState<G extends Grant>(grants: readonly G[], now: Date): { state: GrantState; grant: G | null } {
  const byEnd = [...grants].sort((a, b) => b.validUntil.getTime() - a.validUntil.getTime());
  const valid = byEnd.find((g) => g.validFrom <= now && g.validUntil > now);
  if (valid) return { state: 'VALID', grant: valid };
  const future = byEnd
    .filter((g) => g.validFrom > now)
    .sort((a, b) => a.validFrom.getTime() - b.validFrom.getTime())[0];
  if (future) return { state: 'NOT_YET', grant: future };
  if (byEnd[0]) return { state: 'EXPIRED', grant: byEnd[0] };
  return { state: 'NONE', grant: null };
}

/** Valid now and no grant (not revoked) lasts beyond `days` from now: it is time to renew. */
export function expiringSoon(grants: readonly Grant[], now: Date, days: number): boolean {
  const horizon = now.getTime() + days * 86_400_000;
  return grantState(grants, now).state === 'VALID' && !grants.some((g) => g.validUntil.getTime() > horizon);
}

/** `s` and `m`: the supplier and material, each a column or a value. */
function visibleSql(s: Prisma.Sql, m: Prisma.Sql, now: Date): Prisma.Sql {
  return Prisma.sql`EXISTS (SELECT 1 FROM supplier_material sm WHERE sm.supplier_code = ${s} AND sm.material_code = ${m})
    AND EXISTS (SELECT 1 FROM empower_grant g WHERE g.supplier_code = ${s} AND g.material_code = ${m}
      AND g.revoked_at IS NULL AND g.valid_from <= ${now} AND g.valid_until > ${now})`;
}

/**
 * The materials `supplierCode` may see at `now`, as a condition on `materialColumn` (an SQL
 * identifier written by the caller).
 */
export function visibleMaterialSql(materialColumn: string, supplierCode: string, now: Date): Prisma.Sql {
  return visibleSql(Prisma.sql`${supplierCode}`, Prisma.raw(materialColumn), now);
}

/** The same condition for a supplier taken from a column (lists over many suppliers). */
export function visibleToSupplierColumnSql(materialColumn: string, supplierColumn: string, now: Date): Prisma.Sql {
  return visibleSql(Prisma.raw(supplierColumn), Prisma.raw(materialColumn), now);
}

/** Grants of the supplier × material columns that are not revoked (identifiers from the caller). */
const liveGrants = (supplierColumn: string, materialColumn: string) =>
  Prisma.sql`SELECT 1 FROM empower_grant g WHERE g.supplier_code = ${Prisma.raw(supplierColumn)} AND g.material_code = ${Prisma.raw(materialColumn)} AND g.revoked_at IS NULL`;

/** `grantState(…).state` as SQL, for the supplier × material columns: 'VALID' | 'NOT_YET' | 'EXPIRED' | 'NONE'. */
export function grantStateSql(supplierColumn: string, materialColumn: string, now: Date): Prisma.Sql {
  const live = liveGrants(supplierColumn, materialColumn);
  return Prisma.sql`(CASE WHEN EXISTS (${live} AND g.valid_from <= ${now} AND g.valid_until > ${now}) THEN 'VALID'
    WHEN EXISTS (${live} AND g.valid_from > ${now}) THEN 'NOT_YET'
    WHEN EXISTS (${live}) THEN 'EXPIRED' ELSE 'NONE' END)`;
}

/** `expiringSoon` as SQL (a boolean), for the supplier × material columns. */
export function expiringSql(supplierColumn: string, materialColumn: string, now: Date, days: number): Prisma.Sql {
  const live = liveGrants(supplierColumn, materialColumn);
  const horizon = new Date(now.getTime() + days * 86_400_000);
  return Prisma.sql`(EXISTS (${live} AND g.valid_from <= ${now} AND g.valid_until > ${now}) AND NOT EXISTS (${live} AND g.valid_until > ${horizon}))`;
}

/** visibleMaterialCodes' statement (the benchmark sends the same). */
export const visibleMaterialCodesSql = (supplierCode: string, now: Date): Prisma.Sql =>
  Prisma.sql`SELECT m.code FROM material m WHERE ${visibleMaterialSql('m.code', supplierCode, now)}`;

/** The material codes a supplier may see now: the scope every supplier file list runs in. */
export async function visibleMaterialCodes(db: Db, supplierCode: string, now = new Date()): Promise<string[]> {
  const rows = await readRows<{ code: string }>(db, visibleMaterialCodesSql(supplierCode, now));
  return rows.map((r) => r.code);
}

export type AccessVerdict = { ok: true; validFrom: Date; validUntil: Date } | { ok: false; reason: string };

/** A grant as the refusal reads it: revoked ones too, with when and why. */
export interface GrantRecord extends Grant {
  revokedAt: Date | null;
  revokeReason: string | null;
}

export type GrantEnd = { at: Date; revoked: false } | { at: Date; revoked: true; reason: string | null };

/**
 * How the last access a supplier had ended, when no grant opens the material now and none is
 * still to come: the grant whose end is the latest decides. A grant ends when it was revoked, or
 * at its validUntil when that came first (a grant revoked after it had run out ended by expiry);
 * so a revocation after an older grant's expiry is what the supplier is told, and an expiry after
 * an older revocation likewise.
 */
export function lastEnd(grants: readonly GrantRecord[]): GrantEnd | null {
  let last: GrantEnd | null = null;
  for (const g of grants) {
    const end =
      g.revokedAt && g.revokedAt < g.validUntil
        ? { at: g.revokedAt, revoked: true as const, reason: g.revokeReason }
        : { at: g.validUntil, revoked: false as const };
    // equal ends: the revocation is the fact the supplier did not know of
    if (!last || end.at > last.at || (end.at.getTime() === last.at.getTime() && end.revoked)) last = end;
  }
  return last;
}

/**
 * Why a supplier may or may not open a material's files right now (refusal texts in Chinese). A
 * grant valid now opens it; else one still to come says from when; else the latest end says how
 * the last access ended — revoked (when, and the reason given) or expired.
 */
export async function materialAccess(
  db: Q,
  supplierCode: string,
  materialCode: string,
  now = new Date(),
): Promise<AccessVerdict> {
  const supplies = await db.supplierMaterial.findUnique({
    where: { supplierCode_materialCode: { supplierCode, materialCode } },
  });
  if (!supplies) return { ok: false, reason: '贵公司不是该物料的供应商，无权查看其图纸' };
  const grants = await db.empowerGrant.findMany({
    where: { supplierCode, materialCode },
    select: { validFrom: true, validUntil: true, revokedAt: true, revokeReason: true },
  });
  return grantVerdict(grants, now);
}

/** materialAccess's answer for a supplier that supplies the material, from all its grants on it (revoked ones too). */
export function grantVerdict(grants: readonly GrantRecord[], now: Date): AccessVerdict {
  const { state, grant } = grantState(
    grants.filter((g) => !g.revokedAt),
    now,
  );
  if (state === 'VALID') return { ok: true, validFrom: grant!.validFrom, validUntil: grant!.validUntil };
  if (state === 'NOT_YET')
    return { ok: false, reason: `该物料的图纸授权自 ${cstDayText(grant!.validFrom)} 起生效，目前无权查看` };
  const end = lastEnd(grants);
  if (!end) return { ok: false, reason: '贵公司没有该物料的图纸授权，请先申请授权' };
  if (end.revoked)
    return {
      ok: false,
      reason: `该物料的图纸授权已于 ${cstDayText(end.at)} ${cstMinute(end.at).slice(11)} 被撤销${end.reason ? `（原因：${end.reason}）` : ''}，如需查看请重新申请授权`,
    };
  return { ok: false, reason: `该物料的图纸授权已于 ${cstDayText(end.at)} 过期，请重新申请授权` };
}
