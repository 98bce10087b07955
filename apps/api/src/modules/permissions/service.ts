/**
 * Administration of the button and column permissions (button/*). Every change commits
 * with its permission_change_log row (who, when, before → after) in one transaction; an update
 * names the version it saw, and a change made meanwhile answers 409.
 */
import type { z } from 'zod';
import type {
  PermissionChangeRow,
  PermissionItem,
  PermissionKind,
  ZPermissionChangeRequestSchema,
  ZPermissionInsertSchema,
  ZPermissionListRequestSchema,
  ZPermissionPageRequestSchema,
  ZPermissionUpdateSchema,
} from '@esm/contracts';
import { Prisma } from '../../generated/prisma/client.ts';
import type { Db } from '../../db/database.ts';
import type { SessionUser } from '../../plugins/auth.ts';
import { conflict, notFound } from '../../plugins/errors.ts';
import {
  dayRangeSql,
  equalsSql,
  jsonRow,
  keywordSql,
  listJsonPage,
  listPage,
  mapPage,
  orderBySql,
  whereSql,
  type CappedTotal,
} from '../../lib/list.ts';
import type { ClientInfo } from '../../lib/access-log.ts';

type Tx = Prisma.TransactionClient;
type ItemRecord = Awaited<ReturnType<Db['permissionItem']['findFirstOrThrow']>>;

const NOT_FOUND = '权限不存在或已被删除';
const STALE = '该权限已被他人修改，请刷新后重试';

export function itemJson(r: ItemRecord): PermissionItem {
  return {
    id: r.id,
    kind: r.kind as PermissionKind,
    page: r.page,
    code: r.code,
    label: r.label,
    allowedTypes: [...r.allowedTypes].sort((a, b) => a - b),
    maskedTypes: [...r.maskedTypes].sort((a, b) => a - b),
    declared: r.declared,
    version: r.version,
    updatedAt: r.updatedAt.toISOString(),
  };
}

/** What the change log keeps of a row: the part an admin edits. */
const snapshot = (r: ItemRecord) => ({
  label: r.label,
  allowedTypes: [...r.allowedTypes].sort((a, b) => a - b),
  maskedTypes: [...r.maskedTypes].sort((a, b) => a - b),
});

async function logChange(
  tx: Tx,
  action: 'INSERT' | 'UPDATE' | 'DELETE',
  item: ItemRecord,
  before: object | null,
  after: object | null,
  user: SessionUser,
  client: ClientInfo,
) {
  await tx.permissionChangeLog.create({
    data: {
      itemId: item.id,
      action,
      kind: item.kind,
      page: item.page,
      code: item.code,
      label: item.label,
      before: before ?? Prisma.DbNull,
      after: after ?? Prisma.DbNull,
      userId: user.id,
      userAccount: user.account,
      userName: user.name,
      ip: client.ip.slice(0, 64),
    },
  });
}

const SORT = { page: 'page', code: 'code', kind: 'kind', updatedAt: 'updated_at' } as const;
const ITEM_COLUMNS = Prisma.sql`id, kind, page, code, label, allowed_types AS "allowedTypes", masked_types AS "maskedTypes", declared, version, updated_at AS "updatedAt"`;

const rowJson = (r: object) => {
  const j = jsonRow<PermissionItem>(r);
  return {
    ...j,
    allowedTypes: (j.allowedTypes ?? []).map(Number).sort((a, b) => a - b),
    maskedTypes: (j.maskedTypes ?? []).map(Number).sort((a, b) => a - b),
  };
};

export async function pageItems(
  db: Db,
  q: z.output<typeof ZPermissionPageRequestSchema>,
): Promise<{ rows: PermissionItem[] } & CappedTotal> {
  const page = await listPage<object>(db, q, {
    select: ITEM_COLUMNS,
    from: Prisma.sql`permission_item`,
    where: whereSql([
      equalsSql('kind', q.kind),
      equalsSql('page', q.menuPage),
      keywordSql(['code', 'label'], q.keyword),
    ]),
    orderBy: orderBySql(SORT, q, 'id', 'page, kind, id'),
  });
  return mapPage(page, rowJson);
}

export async function listItems(db: Db, q: z.output<typeof ZPermissionListRequestSchema>): Promise<PermissionItem[]> {
  const rows = await db.permissionItem.findMany({
    where: { ...(q.menuPage ? { page: q.menuPage } : {}), ...(q.kind ? { kind: q.kind } : {}) },
    orderBy: [{ page: 'asc' }, { kind: 'asc' }, { id: 'asc' }],
  });
  return rows.map(itemJson);
}

export async function insertItem(
  db: Db,
  input: z.output<typeof ZPermissionInsertSchema>,
  user: SessionUser,
  client: ClientInfo,
  declared: boolean,
): Promise<PermissionItem> {
  try {
    return await db.$transaction(async (tx) => {
      const item = await tx.permissionItem.create({ data: { ...input, declared } });
      await logChange(tx, 'INSERT', item, null, snapshot(item), user, client);
      return itemJson(item);
    });
  } catch (e) {
    if (e instanceof Prisma.PrismaClientKnownRequestError && e.code === 'P2002')
      throw conflict(`页面 ${input.page} 已有编码为 ${input.code} 的${input.kind === 'BUTTON' ? '按钮' : '列'}`);
    throw e;
  }
}

export async function updateItem(
  db: Db,
  input: z.output<typeof ZPermissionUpdateSchema>,
  user: SessionUser,
  client: ClientInfo,
): Promise<PermissionItem> {
  return db.$transaction(async (tx) => {
    const before = await tx.permissionItem.findUnique({ where: { id: input.id } });
    if (!before) throw notFound(NOT_FOUND);
    if (before.kind === 'BUTTON' && input.maskedTypes.length > 0)
      throw conflict('按钮没有脱敏，只能选择允许的用户类型');
    // the version the editor saw: a concurrent or stale save changes nothing and answers 409
    const { count } = await tx.permissionItem.updateMany({
      where: { id: input.id, version: input.version },
      data: {
        label: input.label,
        allowedTypes: input.allowedTypes,
        maskedTypes: input.maskedTypes,
        version: { increment: 1 },
      },
    });
    if (count === 0) throw conflict(STALE);
    const after = await tx.permissionItem.findUniqueOrThrow({ where: { id: input.id } });
    await logChange(tx, 'UPDATE', after, snapshot(before), snapshot(after), user, client);
    return itemJson(after);
  });
}

export async function deleteItems(
  db: Db,
  ids: readonly number[],
  user: SessionUser,
  client: ClientInfo,
): Promise<number> {
  return db.$transaction(async (tx) => {
    const rows = await tx.permissionItem.findMany({ where: { id: { in: [...ids] } } });
    if (rows.length !== new Set(ids).size) throw notFound(NOT_FOUND);
    const { count } = await tx.permissionItem.deleteMany({ where: { id: { in: rows.map((r) => r.id) } } });
    // a concurrent delete took some of them first: all or nothing
    if (count !== rows.length) throw conflict('部分权限已被他人删除，请刷新后重试');
    for (const r of rows) await logChange(tx, 'DELETE', r, snapshot(r), null, user, client);
    return count;
  });
}

const CHANGE_SORT = { createdAt: 'created_at' } as const;

export async function pageChanges(
  db: Db,
  q: z.output<typeof ZPermissionChangeRequestSchema>,
): Promise<{ rows: PermissionChangeRow[] } & CappedTotal> {
  return listJsonPage<PermissionChangeRow>(db, q, {
    select: Prisma.sql`id, action, kind, page, code, label, before::text AS before, after::text AS after, user_account AS "userAccount", user_name AS "userName", ip, created_at AS "createdAt"`,
    from: Prisma.sql`permission_change_log`,
    where: whereSql([
      equalsSql('page', q.menuPage),
      equalsSql('action', q.action),
      keywordSql(['code', 'label', 'user_account', 'user_name'], q.keyword),
      ...dayRangeSql('created_at', q.dateFrom, q.dateTo),
    ]),
    orderBy: orderBySql(CHANGE_SORT, q, 'id', 'id DESC'),
  });
}
