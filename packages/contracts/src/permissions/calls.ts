/** The permission calls: what the caller may use on a page, then the administration (type 7). */
import { z } from 'zod';
import { USER_TYPES } from '../codes.ts';
import { endpoint } from '../endpoint.ts';
import { ZCappedPage, ZEnvelope } from '../envelope.ts';
import { ZPermissionChangeRequestSchema, ZPermissionChangeRow } from './changes.ts';
import {
  ZPermissionIdSchema,
  ZPermissionIdsSchema,
  ZPermissionInsertSchema,
  ZPermissionItem,
  ZPermissionListRequestSchema,
  ZPermissionPageRequestSchema,
  ZPermissionUpdateSchema,
} from './items.ts';
import { PERMISSION_ADMIN_TYPES } from './labels.ts';
import { ZPageButtons, ZPageColumns, ZPageRequestSchema } from './page.ts';

const tag = 'permissions';

const admin = PERMISSION_ADMIN_TYPES;

export const permissionsApi = {
  buttons: endpoint({
    path: 'menuBtnPermission/selectBtnPermission',
    access: USER_TYPES,
    tag,
    summary: '当前用户在某页面可用的按钮',
    body: ZPageRequestSchema,
    response: ZEnvelope(ZPageButtons),
  }),
  columns: endpoint({
    path: 'menuBtnPermission/hasColPermission',
    access: USER_TYPES,
    tag,
    summary: '当前用户在某页面可见、脱敏与隐藏的列',
    body: ZPageRequestSchema,
    response: ZEnvelope(ZPageColumns),
  }),
  page: endpoint({
    path: 'button/findButtonPage',
    access: admin,
    tag,
    summary: '按钮与列权限分页（可按页面、类型、关键字筛选）',
    body: ZPermissionPageRequestSchema,
    response: ZCappedPage(ZPermissionItem),
  }),
  list: endpoint({
    path: 'button/list',
    access: admin,
    tag,
    summary: '某页面（或全部）的按钮与列权限',
    body: ZPermissionListRequestSchema,
    response: ZEnvelope(z.array(ZPermissionItem)),
  }),
  insert: endpoint({
    path: 'button/insert',
    access: admin,
    tag,
    summary: '新增按钮或列权限（页面 + 编码不可重复）',
    body: ZPermissionInsertSchema,
    response: ZEnvelope(ZPermissionItem),
  }),
  update: endpoint({
    path: 'button/update',
    access: admin,
    tag,
    summary: '修改名称与各用户类型的权限（他人已修改时返回 409）',
    body: ZPermissionUpdateSchema,
    response: ZEnvelope(ZPermissionItem),
  }),
  deleteById: endpoint({
    path: 'button/deleteById',
    access: admin,
    tag,
    summary: '删除一条权限（声明的按钮与列恢复默认）',
    body: ZPermissionIdSchema,
    response: ZEnvelope(z.object({ deleted: z.number().int() })),
  }),
  deleteByIds: endpoint({
    path: 'button/deleteByIds',
    access: admin,
    tag,
    summary: '批量删除权限',
    body: ZPermissionIdsSchema,
    response: ZEnvelope(z.object({ deleted: z.number().int() })),
  }),
  changes: endpoint({
    path: 'button/findChangeLog',
    access: admin,
    tag,
    summary: '权限变更记录（谁、何时、修改前 → 修改后）',
    body: ZPermissionChangeRequestSchema,
    response: ZCappedPage(ZPermissionChangeRow),
  }),
} as const;
