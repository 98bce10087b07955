/**
 * The user_visit event and its log. Who visited comes from the session, never from
 * the body: a caller cannot write someone else's visit.
 */
import type { z } from 'zod';
import type {
  SignInLogRow,
  VisitLogRow,
  ZSignInLogRequestSchema,
  ZVisitLogRequestSchema,
  ZVisitRequestSchema,
} from '@esm/contracts';
import { Prisma } from '../../generated/prisma/client.ts';
import type { Db } from '../../db/database.ts';
import type { SessionUser } from '../../plugins/auth.ts';
import type { ClientInfo } from '../../lib/access-log.ts';
import {
  dayRangeSql,
  equalsSql,
  keywordSql,
  listJsonPage,
  orderBySql,
  whereSql,
  type CappedTotal,
} from '../../lib/list.ts';

type Query = z.output<typeof ZVisitLogRequestSchema>;

/**
 * The page's name is the menu's own when the path is a menu page (the body's name is what the
 * browser showed; a menu page is not recorded under another page's name), the body's otherwise
 * (a route outside the menu, the not-found page).
 */
export async function recordVisit(
  db: Db,
  u: SessionUser,
  visit: z.output<typeof ZVisitRequestSchema>,
  client: ClientInfo,
): Promise<void> {
  const entry = await db.menuEntry.findFirst({ where: { router: visit.path }, select: { cn: true } });
  await db.visitEvent.create({
    data: {
      userId: u.id,
      userType: u.type,
      userCode: u.account,
      userName: u.isSupplier ? u.nick : u.name,
      menuName: entry?.cn ?? visit.menuName,
      path: visit.path,
      ip: client.ip,
      userAgent: client.userAgent,
    },
  });
}

const SORT = { createdAt: 'created_at', userCode: 'user_code', userType: 'user_type', menuName: 'menu_name' } as const;

export async function pageVisits(db: Db, q: Query): Promise<{ rows: VisitLogRow[] } & CappedTotal> {
  return listJsonPage<VisitLogRow>(db, q, {
    select: Prisma.sql`id, user_type AS "userType", user_code AS "userCode", user_name AS "userName", menu_name AS "menuName", path, ip, created_at AS "createdAt"`,
    from: Prisma.sql`visit_event`,
    where: whereSql([
      keywordSql(['user_code', 'user_name'], q.keyword),
      equalsSql('user_type', q.userType),
      keywordSql(['menu_name'], q.menuName),
      ...dayRangeSql('created_at', q.dateFrom, q.dateTo),
    ]),
    orderBy: orderBySql(SORT, q, 'id', 'id DESC'),
  });
}

const SIGN_IN_SORT = { createdAt: 's.created_at', account: 's.account' } as const;

/**
 * 登录日志: sign_in_log, newest first, with the name of the account it found (a supplier by its
 * nick, as everywhere a supplier user is shown). The keyword matches the account as typed or
 * that name; `result` '1' keeps successes, '0' refusals.
 */
export async function pageSignIns(
  db: Db,
  q: z.output<typeof ZSignInLogRequestSchema>,
): Promise<{ rows: SignInLogRow[] } & CappedTotal> {
  return listJsonPage<SignInLogRow>(db, q, {
    select: Prisma.sql`s.id, s.account, CASE WHEN u.id IS NULL THEN NULL WHEN u.supplier_code IS NOT NULL THEN u.nick ELSE u.name END AS "userName",
      u.type AS "userType", s.source, s.success, s.code, s.reason, s.ip, s.created_at AS "createdAt"`,
    from: Prisma.sql`sign_in_log s LEFT JOIN app_user u ON u.id = s.user_id`,
    where: whereSql([
      keywordSql(['s.account', 'u.name', 'u.nick'], q.keyword),
      equalsSql('s.source', q.source),
      q.result === undefined ? undefined : Prisma.sql`s.success = ${q.result === '1'}`,
      ...dayRangeSql('s.created_at', q.dateFrom, q.dateTo),
    ]),
    orderBy: orderBySql(SIGN_IN_SORT, q, 's.id', 's.id DESC'),
  });
}
