/**
 * Problem types and the SQE / product-line role table: what routes a submitted
 * question (modules/documentIssues/routing.ts). A type in use is disabled, never deleted; a role
 * row is unique per product line × role × user and names only answerers (type 5, enabled).
 */
import {
  ISSUE_HANDLER_TYPES,
  type HandlingRole,
  type ProblemTypeOption,
  type ProblemTypeRow,
  type RoleRow,
  type RoleUser,
} from '@esm/contracts';
import type { z } from 'zod';
import type {
  ZProblemTypeCreateSchema,
  ZProblemTypePageRequestSchema,
  ZRoleCreateSchema,
  ZRolePageRequestSchema,
} from '@esm/contracts';
import { Prisma } from '../../generated/prisma/client.ts';
import type { Db } from '../../db/database.ts';
import {
  equalsSql,
  jsonRow,
  keywordSql,
  likeLiteral,
  listJsonPage,
  orderBySql,
  whereSql,
  type CappedTotal,
} from '../../lib/list.ts';
import type { SessionUser } from '../../plugins/auth.ts';
import { badRequest, conflict, notFound } from '../../plugins/errors.ts';

type ProblemTypeInput = z.output<typeof ZProblemTypeCreateSchema>;
export const PROBLEM_TYPE_NOT_FOUND = '问题类型不存在';
const ROLE_NOT_FOUND = '角色记录不存在';

const isUnique = (e: unknown) => (e as { code?: string }).code === 'P2002';
const duplicateName = (name: string) =>
  badRequest(`问题类型「${name}」已存在`, [{ field: 'name', message: `问题类型「${name}」已存在` }]);

// ---- problem types -----------------------------------------------------------------------------------

const typeSelect = Prisma.sql`t.id, t.name, t.role, t.response_days AS "responseDays", t.enabled, t.updated_at AS "updatedAt",
  (SELECT count(*)::int FROM document_issue i WHERE i.problem_type_id = t.id) AS "issueCount"`;

const TYPE_SORT = { name: 't.name', responseDays: 't.response_days', updatedAt: 't.updated_at' } as const;

export async function pageProblemTypes(
  db: Db,
  q: z.output<typeof ZProblemTypePageRequestSchema>,
): Promise<{ rows: ProblemTypeRow[] } & CappedTotal> {
  return listJsonPage<ProblemTypeRow>(db, q, {
    select: typeSelect,
    from: Prisma.sql`problem_type t`,
    where: whereSql([keywordSql(['t.name'], q.keyword), equalsSql('t.role', q.role)]),
    orderBy: orderBySql(TYPE_SORT, q, 't.id', 't.enabled DESC, t.id'),
  });
}

async function problemTypeRow(db: Db, id: number): Promise<ProblemTypeRow> {
  const [row] = await db.$queryRaw<object[]>`SELECT ${typeSelect} FROM problem_type t WHERE t.id = ${id}`;
  if (!row) throw notFound(PROBLEM_TYPE_NOT_FOUND);
  return jsonRow<ProblemTypeRow>(row);
}

/** The enabled types, for the supplier's question form. */
export async function problemTypeOptions(db: Db): Promise<ProblemTypeOption[]> {
  const rows = await db.problemType.findMany({
    where: { enabled: true },
    orderBy: { id: 'asc' },
    select: { id: true, name: true, role: true, responseDays: true },
  });
  return rows.map((r) => ({ ...r, role: r.role as HandlingRole }));
}

export async function createProblemType(db: Db, t: ProblemTypeInput): Promise<ProblemTypeRow> {
  try {
    const created = await db.problemType.create({ data: t, select: { id: true } });
    return await problemTypeRow(db, created.id);
  } catch (e) {
    if (isUnique(e)) throw duplicateName(t.name);
    throw e;
  }
}

export async function updateProblemType(db: Db, id: number, t: ProblemTypeInput): Promise<ProblemTypeRow> {
  try {
    const { count } = await db.problemType.updateMany({ where: { id }, data: t });
    if (count === 0) throw notFound(PROBLEM_TYPE_NOT_FOUND);
  } catch (e) {
    if (isUnique(e)) throw duplicateName(t.name);
    throw e;
  }
  return problemTypeRow(db, id);
}

/**
 * Deletes a type no question uses. The check and the delete are one statement, so a question
 * created meanwhile either sees the type (and the delete fails on its foreign key) or never does.
 */
export async function deleteProblemType(db: Db, id: number): Promise<void> {
  const inUse = await db.documentIssue.count({ where: { problemTypeId: id } });
  const exists = await db.problemType.findUnique({ where: { id }, select: { name: true } });
  if (!exists) throw notFound(PROBLEM_TYPE_NOT_FOUND);
  const refusal = () =>
    conflict(`问题类型「${exists.name}」已被${inUse ? ` ${inUse} 个` : ''}问题使用，不能删除；如不再使用请停用`);
  if (inUse > 0) throw refusal();
  try {
    const { count } = await db.problemType.deleteMany({ where: { id } });
    if (count === 0) throw notFound(PROBLEM_TYPE_NOT_FOUND);
  } catch (e) {
    if ((e as { code?: string }).code === 'P2003') throw refusal();
    throw e;
  }
}

// ---- the role table ------------------------------------------------------------------------------------

const roleSelect = Prisma.sql`r.id, r.product_line_code AS "productLineCode", pl.name AS "productLineName", r.role, r.user_id AS "userId",
  u.account AS "userAccount", u.name AS "userName", u.enabled AS "userEnabled", r.created_by_name AS "createdByName", r.created_at AS "createdAt"`;
const roleFrom = Prisma.sql`sqegx_role r JOIN product_line pl ON pl.code = r.product_line_code JOIN app_user u ON u.id = r.user_id`;
const ROLE_SORT = { productLineCode: 'pl.sort', role: 'r.role', createdAt: 'r.created_at' } as const;

export async function pageRoles(
  db: Db,
  q: z.output<typeof ZRolePageRequestSchema>,
): Promise<{ rows: RoleRow[] } & CappedTotal> {
  return listJsonPage<RoleRow>(db, q, {
    select: roleSelect,
    from: roleFrom,
    where: whereSql([
      equalsSql('r.product_line_code', q.productLineCode),
      equalsSql('r.role', q.role),
      keywordSql(['u.account', 'u.name'], q.keyword),
    ]),
    orderBy: orderBySql(ROLE_SORT, q, 'r.id', 'pl.sort, r.role, r.id'),
  });
}

/** Users who may hold a role: enabled answerers (type 5), the only ones who can reply. */
export async function selectableUsers(db: Db, keyword?: string): Promise<RoleUser[]> {
  return db.user.findMany({
    where: {
      type: { in: [...ISSUE_HANDLER_TYPES] },
      enabled: true,
      ...(keyword
        ? {
            OR: [
              { account: { contains: likeLiteral(keyword), mode: 'insensitive' } },
              { name: { contains: likeLiteral(keyword), mode: 'insensitive' } },
            ],
          }
        : {}),
    },
    select: { id: true, account: true, name: true, type: true },
    orderBy: { account: 'asc' },
    take: 50,
  });
}

export async function addRole(db: Db, user: SessionUser, r: z.output<typeof ZRoleCreateSchema>): Promise<RoleRow> {
  const errors = [];
  const line = await db.productLine.findUnique({ where: { code: r.productLineCode }, select: { code: true } });
  if (!line) errors.push({ field: 'productLineCode', message: `产品线不存在：${r.productLineCode}` });
  const person = await db.user.findUnique({ where: { id: r.userId }, select: { type: true, enabled: true } });
  if (!person || !person.enabled || !(ISSUE_HANDLER_TYPES as readonly number[]).includes(person.type)) {
    errors.push({ field: 'userId', message: '只能选择启用的图纸问题回复人员（内部用户）' });
  }
  if (errors.length) throw badRequest(errors[0]!.message, errors);
  try {
    const created = await db.sqegxRole.create({ data: { ...r, createdByName: user.name }, select: { id: true } });
    const [row] = await db.$queryRaw<object[]>`SELECT ${roleSelect} FROM ${roleFrom} WHERE r.id = ${created.id}`;
    return jsonRow<RoleRow>(row!);
  } catch (e) {
    if (isUnique(e)) throw conflict('该产品线的此角色已有这位人员，不能重复添加');
    throw e;
  }
}

export async function deleteRole(db: Db, id: number): Promise<void> {
  const { count } = await db.sqegxRole.deleteMany({ where: { id } });
  if (count === 0) throw notFound(ROLE_NOT_FOUND);
}

export const roleProductLines = (db: Db) =>
  db.productLine.findMany({ orderBy: { sort: 'asc' }, select: { code: true, name: true } });
