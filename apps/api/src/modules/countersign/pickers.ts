/** The countersign form's pickers: the internal users who may countersign, and the file versions to put on a list. */
import { DRAWING_ADMIN_TYPES } from '@esm/contracts';
import { Prisma } from '../../generated/prisma/client.ts';
import type { Db } from '../../db/database.ts';
import { keywordSql, whereSql } from '../../lib/list.ts';
import { filesOf } from './reads.ts';
import { departmentOf } from './rules.ts';

/** Internal users who may countersign (types 3/7/8/9, enabled), by account or name. */
export async function countersignerOptions(db: Db, keyword: string | undefined) {
  const where = whereSql([
    Prisma.sql`u.type = ANY(${[...DRAWING_ADMIN_TYPES]}::int[]) AND u.enabled`,
    keywordSql(['u.account', 'u.name'], keyword),
  ]);
  const rows = await db.$queryRaw<
    { id: number; account: string; name: string; type: number }[]
  >`SELECT u.id, u.account, u.name, u.type FROM app_user u ${where} ORDER BY u.account LIMIT 30`;
  return rows.map((u) => ({ id: u.id, account: u.account, name: u.name, department: departmentOf(u.type) }));
}

/** File versions to pick from, by standard code or name (newest first), or the ones named. */
export async function fileOptions(db: Db, q: { keyword?: string; ids?: number[]; supplierCode?: string }) {
  const supplied =
    q.supplierCode &&
    Prisma.sql`EXISTS (SELECT 1 FROM supplier_material sm WHERE sm.material_code = f.material_code AND sm.supplier_code = ${q.supplierCode})`;
  const where = q.ids?.length
    ? whereSql([Prisma.sql`f.id = ANY(${q.ids}::int[])`])
    : whereSql([keywordSql(['f.standard_code', 'f.name'], q.keyword), supplied]);
  const rows = await db.$queryRaw<
    { id: number }[]
  >`SELECT f.id FROM standard_file f ${where} ORDER BY f.id DESC LIMIT 30`;
  return filesOf(
    db,
    rows.map((r) => r.id),
  );
}
