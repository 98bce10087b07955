/**
 * Countersign reads: the two lists (internal: every list; supplier: its own issued ones) and one
 * row by id, in the row shape of contracts ZCountersignRow.
 */
import type { z } from 'zod';
import type { CountersignRow, ZCountersignPageRequestSchema } from '@esm/contracts';
import { Prisma } from '../../generated/prisma/client.ts';
import type { Db } from '../../db/database.ts';
import { cstDay } from '../../lib/dates.ts';
import { equalsSql, jsonRow, keywordSql, listJsonPage, orderBySql, whereSql, type Condition } from '../../lib/list.ts';

type PageQuery = z.output<typeof ZCountersignPageRequestSchema>;

/** Being signed and past the end of its due day (UTC+8): derived, never stored. */
const overdueSql = (today: string) =>
  Prisma.sql`(c.status IN ('SUPPLIER_SIGNING', 'INTERNAL_SIGNING') AND c.due_date < ${today}::date)`;

const rowSelect = (
  today: string,
) => Prisma.sql`c.id, c.number, c.title, c.supplier_code AS "supplierCode", s.name AS "supplierName",
  c.notice_id AS "noticeId", n.number AS "noticeNumber", c.status, c.round, c.step, to_char(c.due_date, 'YYYY-MM-DD') AS "dueDate",
  ${overdueSql(today)} AS overdue,
  CASE WHEN c.status = 'SUPPLIER_SIGNING' THEN s.name
       WHEN c.status = 'INTERNAL_SIGNING' THEN (SELECT u.name FROM app_user u WHERE u.id = c.signer_ids[c.step]) END AS "waitingFor",
  COALESCE((SELECT string_agg(u.name, ' → ' ORDER BY o.ord) FROM unnest(c.signer_ids) WITH ORDINALITY AS o(uid, ord) JOIN app_user u ON u.id = o.uid), '') AS "signerNames",
  cardinality(c.file_ids) AS "fileCount", c.created_by_name AS "createdByName", c.created_at AS "createdAt", c.issued_at AS "issuedAt", c.completed_at AS "completedAt"`;

const rowFrom = Prisma.sql`countersign c JOIN supplier s ON s.code = c.supplier_code LEFT JOIN change_notice n ON n.id = c.notice_id`;

const SORT = { number: 'c.number', dueDate: 'c.due_date', createdAt: 'c.created_at', issuedAt: 'c.issued_at' } as const;

/** One page of lists; `supplierCode` given: only that supplier's lists that were ever issued. */
export async function pageCountersigns(
  db: Db,
  q: Omit<PageQuery, 'supplierCode' | 'signer'> & { supplierCode?: string; signer?: string },
  scope?: string,
  now = new Date(),
) {
  const today = cstDay(now);
  const conditions: Condition[] = [
    scope !== undefined && Prisma.sql`c.supplier_code = ${scope} AND c.round > 0`,
    keywordSql(['c.number', 'c.title'], q.keyword),
    equalsSql('c.supplier_code', q.supplierCode),
    equalsSql('c.status', q.status),
    q.dateFrom && Prisma.sql`c.due_date >= ${q.dateFrom}::date`,
    q.dateTo && Prisma.sql`c.due_date <= ${q.dateTo}::date`,
    q.signer &&
      Prisma.sql`EXISTS (SELECT 1 FROM app_user u WHERE u.account = ${q.signer} AND u.id = ANY(c.signer_ids))`,
    q.overdueOnly && overdueSql(today),
  ];
  return listJsonPage<CountersignRow>(db, q, {
    select: rowSelect(today),
    from: rowFrom,
    where: whereSql(conditions),
    orderBy: orderBySql(SORT, q, 'c.id', 'c.id DESC'),
  });
}

/** One row by id (for a supplier: only its own, issued), or null. */
export async function findCountersignRow(
  db: Db | Prisma.TransactionClient,
  id: number,
  scope?: string,
  now = new Date(),
): Promise<CountersignRow | null> {
  const where = whereSql([
    Prisma.sql`c.id = ${id}`,
    scope !== undefined && Prisma.sql`c.supplier_code = ${scope} AND c.round > 0`,
  ]);
  const sql = Prisma.sql`SELECT ${rowSelect(cstDay(now))} FROM ${rowFrom} ${where}`;
  const [row] = await db.$queryRaw<object[]>(sql);
  return row ? jsonRow<CountersignRow>(row) : null;
}
