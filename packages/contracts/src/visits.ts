import { z } from 'zod';
import { ZEnvelope, ZPagedEnvelope } from './envelope.ts';
import { ZPageRequest, zOptionalDate, zOptionalText } from './paging.ts';

/** The "user_visit" event of spec §4; the server adds who (from the session), IP and time. */
export const ZVisitRequestSchema = z.object({
  menuName: z.string({ error: '缺少菜单名称' }).trim().min(1, '缺少菜单名称').max(100, '菜单名称不能超过 100 个字符'),
  path: z.string({ error: '缺少页面路径' }).trim().min(1, '缺少页面路径').max(300, '页面路径不能超过 300 个字符'),
});
export const ZVisitResponseSchema = ZEnvelope(z.null());

export const VISIT_SORT_FIELDS = ['createdAt', 'userCode', 'userType', 'menuName'] as const;
export const ZVisitLogRequestSchema = ZPageRequest(VISIT_SORT_FIELDS, {
  /** Matches account or name. */
  keyword: zOptionalText(64),
  userType: z.preprocess((v) => (v === '' || v === null ? undefined : v), z.coerce.number().int().min(2, '用户类型为 2 到 9').max(9, '用户类型为 2 到 9').optional()),
  menuName: zOptionalText(100),
  dateFrom: zOptionalDate,
  dateTo: zOptionalDate,
}).refine((v) => !v.dateFrom || !v.dateTo || v.dateFrom <= v.dateTo, { message: '开始日期不能晚于结束日期', path: ['dateTo'] });
export type VisitLogRequest = z.input<typeof ZVisitLogRequestSchema>;

export const ZVisitLogRow = z.object({
  id: z.number().int(),
  userType: z.number().int(),
  userCode: z.string(),
  userName: z.string(),
  menuName: z.string(),
  path: z.string(),
  ip: z.string().nullable(),
  createdAt: z.string(),
});
export type VisitLogRow = z.infer<typeof ZVisitLogRow>;
export const ZVisitLogResponseSchema = ZPagedEnvelope(ZVisitLogRow);
