/** The grants an approval creates: rows, lists, the overdue list and revoking. */
import { z } from 'zod';
import { governedColumns } from '../endpoint.ts';
import { zId, zOptionalDate, zOptionalEnum, zOptionalText, zText, withDateRange } from '../fields.ts';
import { ZPageRequest } from '../paging.ts';
import { PAGES } from '../pages.ts';

/** A grant as the internal pages show it. */
export const GRANT_ROW_STATE_LABELS = {
  VALID: '有效',
  NOT_YET: '未生效',
  EXPIRED: '已过期',
  REVOKED: '已撤销',
} as const;
export type GrantRowState = keyof typeof GRANT_ROW_STATE_LABELS;
export const GRANT_ROW_STATES = Object.keys(GRANT_ROW_STATE_LABELS) as [GrantRowState, ...GrantRowState[]];

export const ZGrantRow = z.object({
  id: z.number().int(),
  supplierCode: z.string(),
  supplierName: z.string(),
  materialCode: z.string(),
  materialName: z.string(),
  productLineName: z.string(),
  validFrom: z.string(),
  /** The instant it ends (exclusive). */
  validUntil: z.string(),
  state: z.enum(GRANT_ROW_STATES),
  /** Valid now and ending within the configured number of days. */
  expiringSoon: z.boolean(),
  /** A later grant (not revoked) on the same supplier and material ends after this one. */
  renewed: z.boolean(),
  /** The supplier supplies the material now (a grant alone opens nothing). */
  suppliesNow: z.boolean(),
  /** Effective drawings of the material. */
  drawingCount: z.number().int(),
  imported: z.boolean(),
  applicationId: z.number().int().nullable(),
  approverAccount: z.string().nullable().optional(),
  /** Governed (GRANT_COLUMNS / GRANT_HISTORY_COLUMNS): absent when hidden for the caller, masked when masked. */
  approverName: z.string().nullable().optional(),
  approvedAt: z.string().nullable(),
  revokedAt: z.string().nullable(),
  revokedByAccount: z.string().nullable(),
  revokedByName: z.string().nullable(),
  revokeReason: z.string().nullable().optional(),
  createdAt: z.string(),
});
export type GrantRow = z.infer<typeof ZGrantRow>;
/** 授权中的图纸 and 授权历史: the pages of the grant lists. */
export const GRANT_PAGE = PAGES.drawingAuthorizedFile.path;
export const GRANT_HISTORY_PAGE = PAGES.drawingAuthorizedFileHistory.path;
/** The grant rows' governed columns, per page. */
export const GRANT_COLUMNS = governedColumns(PAGES.drawingAuthorizedFile, ['approverName', 'revokeReason'], undefined, {
  approverName: ['approverAccount'],
});
export const GRANT_HISTORY_COLUMNS = governedColumns(
  PAGES.drawingAuthorizedFileHistory,
  ['approverName', 'revokeReason'],
  undefined,
  { approverName: ['approverAccount'] },
);

// ---- grants --------------------------------------------------------------------------------------------

export const GRANT_SORT_FIELDS = [
  'validUntil',
  'validFrom',
  'supplierCode',
  'materialCode',
  'approvedAt',
  'revokedAt',
] as const;
export const GRANT_SOURCES = ['APPLICATION', 'IMPORTED'] as const;
export const GRANT_SOURCE_LABELS = { APPLICATION: '申请批准', IMPORTED: '历史导入' } as const;
const grantFilters = {
  supplierCode: zOptionalText(32),
  materialCode: zOptionalText(40),
  source: zOptionalEnum(GRANT_SOURCES, '来源只能是 APPLICATION 或 IMPORTED'),
};
/** Grants in force now or starting later (findEmpowerPage). */
export const ZGrantPageRequestSchema = ZPageRequest(GRANT_SORT_FIELDS, {
  ...grantFilters,
  state: zOptionalEnum(['VALID', 'NOT_YET'] as const, '状态只能是 VALID 或 NOT_YET'),
  /** Only those ending within the configured number of days. */
  expiringOnly: z.preprocess(
    (v) => (v === '' || v === null ? undefined : v === 'true' ? true : v === 'false' ? false : v),
    z.boolean({ error: '即将到期只能是 true 或 false' }).optional(),
  ),
});
export type GrantPageRequest = z.input<typeof ZGrantPageRequestSchema>;

export const OVERDUE_KINDS = ['EXPIRED', 'REVOKED', 'EXPIRING'] as const;
export type OverdueKind = (typeof OVERDUE_KINDS)[number];
export const OVERDUE_KIND_LABELS: Record<OverdueKind, string> = {
  EXPIRED: '已过期',
  REVOKED: '已撤销',
  EXPIRING: '即将到期',
};
/** Expired, revoked and expiring grants (findEmpowerOverduePage); the days are of the end: expiry or revocation. */
export const ZOverduePageRequestSchema = withDateRange(
  ZPageRequest(GRANT_SORT_FIELDS, {
    ...grantFilters,
    kind: zOptionalEnum(OVERDUE_KINDS, '类型只能是 EXPIRED、REVOKED 或 EXPIRING'),
    dateFrom: zOptionalDate,
    dateTo: zOptionalDate,
  }),
);
export type OverduePageRequest = z.input<typeof ZOverduePageRequestSchema>;

export const ZRevokeRequestSchema = z.object({
  id: zId('授权编号'),
  reason: zText('撤销原因', 200, { verb: '请填写' }),
});
