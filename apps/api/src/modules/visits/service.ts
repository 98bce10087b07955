/**
 * The user_visit event (spec §4) and its log. Who visited comes from the session, never from
 * the body: a caller cannot write someone else's visit.
 */
import type { z } from 'zod';
import type { VisitLogRow, ZVisitLogRequestSchema, ZVisitRequestSchema } from '@esm/contracts';
import { Prisma } from '../../generated/prisma/client.ts';
import type { Db } from '../../db/database.ts';
import type { SessionUser } from '../../plugins/auth.ts';
import type { ClientInfo } from '../logs/writer.ts';
import { dayRangeSql, equalsSql, jsonRow, keywordSql, listPage, mapPage, orderBySql, whereSql, type CappedTotal } from '../../lib/list.ts';

type Query = z.output<typeof ZVisitLogRequestSchema>;

export async function recordVisit(db: Db, u: SessionUser, visit: z.output<typeof ZVisitRequestSchema>, client: ClientInfo): Promise<void> {
  await db.visitEvent.create({
    data: {
      userId: u.id,
      userType: u.type,
      userCode: u.account,
      userName: u.isSupplier ? u.nick : u.name,
      menuName: visit.menuName,
      path: visit.path,
      ip: client.ip,
      userAgent: client.userAgent,
    },
  });
}

const SORT = { createdAt: 'created_at', userCode: 'user_code', userType: 'user_type', menuName: 'menu_name' } as const;

export async function pageVisits(db: Db, q: Query): Promise<{ rows: VisitLogRow[] } & CappedTotal> {
  const page = await listPage<object>(db, q, {
    select: Prisma.sql`id, user_type AS "userType", user_code AS "userCode", user_name AS "userName", menu_name AS "menuName", path, ip, created_at AS "createdAt"`,
    from: Prisma.sql`visit_event`,
    where: whereSql([keywordSql(['user_code', 'user_name'], q.keyword), equalsSql('user_type', q.userType), keywordSql(['menu_name'], q.menuName), ...dayRangeSql('created_at', q.dateFrom, q.dateTo)]),
    orderBy: orderBySql(SORT, q, 'id', 'id DESC'),
  });
  return mapPage(page, jsonRow<VisitLogRow>);
}
