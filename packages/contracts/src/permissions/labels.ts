/** Who administers the permissions and where, and the labels of a permission's kinds, a column's modes and the log's actions. */
import { PERMISSION_PAGE } from '../page-paths.ts';
export { PERMISSION_PAGE };

/** Who administers the permissions (type 7, internal plus SQE / product-line management). */
export const PERMISSION_ADMIN_TYPES = [7] as const;

export const PERMISSION_KIND_LABELS = { BUTTON: '按钮', COLUMN: '列' } as const;
export type PermissionKind = keyof typeof PERMISSION_KIND_LABELS;
export const PERMISSION_KINDS = Object.keys(PERMISSION_KIND_LABELS) as [PermissionKind, ...PermissionKind[]];

/** What a user type gets of a governed column. */
export const COLUMN_MODE_LABELS = { VISIBLE: '可见', MASKED: '脱敏', HIDDEN: '隐藏' } as const;
export type ColumnMode = keyof typeof COLUMN_MODE_LABELS;
export const COLUMN_MODES = Object.keys(COLUMN_MODE_LABELS) as [ColumnMode, ...ColumnMode[]];

export const PERMISSION_ACTION_LABELS = { INSERT: '新增', UPDATE: '修改', DELETE: '删除' } as const;
export type PermissionAction = keyof typeof PERMISSION_ACTION_LABELS;
export const PERMISSION_ACTIONS = Object.keys(PERMISSION_ACTION_LABELS) as [PermissionAction, ...PermissionAction[]];
