/** Administering the permission rows (按钮与列权限): a row, the list's filters, adding, changing and deleting. */
import { z } from 'zod';
import { USER_TYPES } from '../codes.ts';
import { INT4_MAX, zId, zOptionalEnum, zOptionalText, zText } from '../fields.ts';
import { ZPageRequest } from '../paging.ts';
import { PAGES } from '../pages.ts';
import { BASE_PATH } from '../routes.ts';
import { PERMISSION_KINDS, type PermissionKind } from './labels.ts';

const zTypes = z
  .array(
    z
      .number({ error: '用户类型为 2 到 9' })
      .int('用户类型为 2 到 9')
      .refine((t) => (USER_TYPES as readonly number[]).includes(t), '用户类型为 2 到 9'),
    { error: '请选择用户类型' },
  )
  .max(USER_TYPES.length, '用户类型重复')
  .refine((a) => new Set(a).size === a.length, '用户类型重复');

export const ZPermissionItem = z.object({
  id: z.number().int(),
  kind: z.enum(PERMISSION_KINDS),
  page: z.string(),
  code: z.string(),
  label: z.string(),
  /** Buttons: the types that may use it. Columns: the types that see it in full. */
  allowedTypes: z.array(z.number().int()),
  /** Columns only: the types that see it masked (the others: hidden). */
  maskedTypes: z.array(z.number().int()),
  /** Declared by a call or a row schema (deleting it restores the declaration's default). */
  declared: z.boolean(),
  version: z.number().int(),
  updatedAt: z.string(),
});
export type PermissionItem = z.infer<typeof ZPermissionItem>;

export const PERMISSION_SORT_FIELDS = ['page', 'code', 'kind', 'updatedAt'] as const;
export const ZPermissionPageRequestSchema = ZPageRequest(PERMISSION_SORT_FIELDS, {
  kind: zOptionalEnum(PERMISSION_KINDS, '类型只能是 BUTTON 或 COLUMN'),
  /** The menu page (route); `page` is the paging's. */
  menuPage: zOptionalText(200),
  /** Matches code or label. */
  keyword: zOptionalText(100),
});
export type PermissionPageRequest = z.input<typeof ZPermissionPageRequestSchema>;

const itemRules = <S extends z.ZodType<{ kind?: PermissionKind; allowedTypes: number[]; maskedTypes: number[] }>>(
  schema: S,
) =>
  schema
    .refine((v) => v.kind !== 'BUTTON' || v.maskedTypes.length === 0, {
      message: '按钮没有脱敏，只能选择允许的用户类型',
      path: ['maskedTypes'],
    })
    .refine((v) => !v.maskedTypes.some((t) => v.allowedTypes.includes(t)), {
      message: '同一用户类型不能既可见又脱敏',
      path: ['maskedTypes'],
    });

export const ZPermissionInsertSchema = itemRules(
  z.object({
    kind: z.enum(PERMISSION_KINDS, { error: '请选择类型' }),
    page: zText('页面', 200).pipe(
      z.string().regex(/^\/esm\/[\w/]+$/, `页面为 ${BASE_PATH}/ 开头的路由，如 ${PAGES.dashboard.path}`),
    ),
    code: zText('编码', 64).pipe(z.string().regex(/^[A-Za-z][\w.-]*$/, '编码以字母开头，只能包含字母、数字和 _ . -')),
    label: zText('名称', 100),
    allowedTypes: zTypes,
    maskedTypes: zTypes.default([]),
  }),
);
export type PermissionInsert = z.input<typeof ZPermissionInsertSchema>;

export const ZPermissionUpdateSchema = itemRules(
  z.object({
    id: zId('权限编号'),
    /** The version the editor saw: a change made meanwhile by someone else answers 409. */
    version: z.number({ error: '缺少版本号' }).int('版本号无效').min(0, '版本号无效').max(INT4_MAX, '版本号无效'),
    label: zText('名称', 100),
    allowedTypes: zTypes,
    maskedTypes: zTypes.default([]),
  }),
);
export type PermissionUpdate = z.input<typeof ZPermissionUpdateSchema>;

export const ZPermissionIdSchema = z.object({ id: zId('权限编号') });
export const ZPermissionIdsSchema = z.object({
  ids: z
    .array(zId('权限编号'), { error: '请选择要删除的权限' })
    .min(1, '请选择要删除的权限')
    .max(200, '一次最多删除 200 条'),
});

export const ZPermissionListRequestSchema = z.object({
  menuPage: zOptionalText(200),
  kind: zOptionalEnum(PERMISSION_KINDS, '类型只能是 BUTTON 或 COLUMN'),
});
