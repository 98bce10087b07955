/**
 * Problem types and the SQE / product-line role table (the legacy portal's
 * `personManagement/problemType`): a problem type says which role answers a question of its kind
 * and within how many working days; the role table says which users hold a role for a product
 * line. Together they route a submitted question (documentIssues/). Maintained by type 7.
 * Call names are the legacy portal's where it has one; create and the internal list are ours.
 */
import { z } from 'zod';
import { SUPPLIER_TYPES } from './codes.ts';
import { endpoint } from './endpoint.ts';
import { ZCappedPage, ZEnvelope } from './envelope.ts';
import { zId, zOptionalEnum, zOptionalText, zText } from './fields.ts';
import { ZPageRequest } from './paging.ts';
import { PAGES } from './pages.ts';

export const HANDLING_ROLE_LABELS = { SQE: 'SQE', PRODUCT_LINE: '产品线' } as const;
export type HandlingRole = keyof typeof HANDLING_ROLE_LABELS;
export const HANDLING_ROLES = Object.keys(HANDLING_ROLE_LABELS) as [HandlingRole, ...HandlingRole[]];

/** SQE and product-line management (type 7). */
export const PROBLEM_ADMIN_TYPES = [7] as const;
/** Drawing question reply (type 5): the only users who answer, so the only ones the role table names. */
export const ISSUE_HANDLER_TYPES = [5] as const;

export const RESPONSE_DAYS_MAX = 60;

const tag = 'problemTypes';

// ---- rows ----------------------------------------------------------------------------------------

export const ZProblemTypeRow = z.object({
  id: z.number().int(),
  name: z.string(),
  role: z.enum(HANDLING_ROLES),
  /** Working days (Mon–Fri) to answer. */
  responseDays: z.number().int(),
  enabled: z.boolean(),
  /** Questions of this type (drafts included): a type in use is disabled, never deleted. */
  issueCount: z.number().int(),
  updatedAt: z.string(),
});
export type ProblemTypeRow = z.infer<typeof ZProblemTypeRow>;

/** A type as the supplier's form offers it (enabled ones only). */
export const ZProblemTypeOption = z.object({
  id: z.number().int(),
  name: z.string(),
  role: z.enum(HANDLING_ROLES),
  responseDays: z.number().int(),
});
export type ProblemTypeOption = z.infer<typeof ZProblemTypeOption>;

export const ZRoleRow = z.object({
  id: z.number().int(),
  productLineCode: z.string(),
  productLineName: z.string(),
  role: z.enum(HANDLING_ROLES),
  userId: z.number().int(),
  userAccount: z.string(),
  userName: z.string(),
  userEnabled: z.boolean(),
  createdByName: z.string(),
  createdAt: z.string(),
});
export type RoleRow = z.infer<typeof ZRoleRow>;

export const ZRoleUser = z.object({
  id: z.number().int(),
  account: z.string(),
  name: z.string(),
  type: z.number().int(),
});
export type RoleUser = z.infer<typeof ZRoleUser>;

export const ZRoleProductLine = z.object({ code: z.string(), name: z.string() });

// ---- requests ------------------------------------------------------------------------------------

const zResponseDays = z
  .union([z.number(), z.string().regex(/^\d{1,3}$/, '响应时间必须是整数')], { error: '请输入响应时间（工作日）' })
  .transform((v) => Number(v))
  .pipe(
    z
      .number()
      .int('响应时间必须是整数')
      .min(1, '响应时间至少 1 个工作日')
      .max(RESPONSE_DAYS_MAX, `响应时间最多 ${RESPONSE_DAYS_MAX} 个工作日`),
  );

const problemTypeFields = {
  name: zText('问题类型名称', 50),
  role: z.enum(HANDLING_ROLES, { error: '请选择处理角色' }),
  responseDays: zResponseDays,
  enabled: z.boolean({ error: '启用状态只能是是或否' }).default(true),
};
export const ZProblemTypeCreateSchema = z.object(problemTypeFields);
export type ProblemTypeCreate = z.input<typeof ZProblemTypeCreateSchema>;
export const ZProblemTypeUpdateSchema = z.object({ id: zId('问题类型'), ...problemTypeFields });
export const ZProblemTypeIdSchema = z.object({ id: zId('问题类型') });

export const PROBLEM_TYPE_SORT_FIELDS = ['name', 'responseDays', 'updatedAt'] as const;
export const ZProblemTypePageRequestSchema = ZPageRequest(PROBLEM_TYPE_SORT_FIELDS, {
  keyword: zOptionalText(50),
  role: zOptionalEnum(HANDLING_ROLES, '处理角色只能是 SQE 或 PRODUCT_LINE'),
});

export const ROLE_SORT_FIELDS = ['productLineCode', 'role', 'createdAt'] as const;
export const ZRolePageRequestSchema = ZPageRequest(ROLE_SORT_FIELDS, {
  productLineCode: zOptionalText(32),
  role: zOptionalEnum(HANDLING_ROLES, '角色只能是 SQE 或 PRODUCT_LINE'),
  /** User account or name contains. */
  keyword: zOptionalText(100),
});

export const ZRoleCreateSchema = z.object({
  productLineCode: zText('产品线', 32, { verb: '请选择' }),
  role: z.enum(HANDLING_ROLES, { error: '请选择角色' }),
  userId: zId('人员'),
});
export type RoleCreate = z.input<typeof ZRoleCreateSchema>;
export const ZRoleIdSchema = z.object({ id: zId('角色记录') });
export const ZSelectUserSchema = z.object({ keyword: zOptionalText(100) });

// ---- calls -------------------------------------------------------------------------------------

const admin = PROBLEM_ADMIN_TYPES;

export const problemTypesApi = {
  supplierList: endpoint({
    path: 'supplier/problemType/list',
    access: SUPPLIER_TYPES,
    tag: 'problemTypes (supplier)',
    summary: '可选的问题类型（仅启用的）',
    response: ZEnvelope(z.array(ZProblemTypeOption)),
  }),
  page: endpoint({
    path: 'haier/problemType/list',
    access: [...admin, ...ISSUE_HANDLER_TYPES],
    tag,
    summary: '问题类型分页（含使用次数）',
    body: ZProblemTypePageRequestSchema,
    response: ZCappedPage(ZProblemTypeRow),
  }),
  create: endpoint({
    path: 'haier/problemType/addProblemType',
    access: admin,
    tag,
    summary: '新增问题类型',
    body: ZProblemTypeCreateSchema,
    response: ZEnvelope(ZProblemTypeRow),
  }),
  update: endpoint({
    path: 'haier/problemType/updateProblemType',
    access: admin,
    tag,
    summary: '修改问题类型（名称、处理角色、响应时间、启用）',
    body: ZProblemTypeUpdateSchema,
    response: ZEnvelope(ZProblemTypeRow),
  }),
  remove: endpoint({
    path: 'haier/problemType/deleteProblemType',
    access: admin,
    tag,
    button: PAGES.problemType.buttons.delete,
    summary: '删除未使用的问题类型（已使用的只能停用）',
    body: ZProblemTypeIdSchema,
    response: ZEnvelope(z.null()),
  }),
  productLines: endpoint({
    path: 'haier/sqegxRole/selectProductType',
    access: admin,
    tag,
    summary: '产品线（角色表的第一列）',
    response: ZEnvelope(z.array(ZRoleProductLine)),
  }),
  roles: endpoint({
    path: 'haier/sqegxRole/selectSqegxRole',
    access: admin,
    tag,
    summary: 'SQE / 产品线角色表分页',
    body: ZRolePageRequestSchema,
    response: ZCappedPage(ZRoleRow),
  }),
  addRole: endpoint({
    path: 'haier/sqegxRole/addSqegxRole',
    access: admin,
    tag,
    summary: '新增角色记录（产品线 × 角色 × 人员，唯一）',
    body: ZRoleCreateSchema,
    response: ZEnvelope(ZRoleRow),
  }),
  deleteRole: endpoint({
    path: 'haier/sqegxRole/deleteSqegxRole',
    access: admin,
    tag,
    summary: '删除角色记录',
    body: ZRoleIdSchema,
    response: ZEnvelope(z.null()),
  }),
  selectUser: endpoint({
    path: 'haier/sqegxRole/selectUser',
    access: admin,
    tag,
    summary: '可选人员：内部的图纸问题回复人员（用户类型 5），按账号或姓名搜索',
    body: ZSelectUserSchema,
    response: ZEnvelope(z.array(ZRoleUser)),
  }),
} as const;
