/** The "user_visit" event of spec §4 and its log; the server adds who (from the session), IP and time. */
import { z } from 'zod';
import { DRAWING_ADMIN_TYPES, USER_TYPES } from './codes.ts';
import { endpoint, governedColumns } from './endpoint.ts';
import { ZCappedPage, ZNullData } from './envelope.ts';
import { zOptionalDate, zOptionalInt, zOptionalText, zText, withDateRange } from './fields.ts';
import { ZPageRequest } from './paging.ts';

export const ZVisitRequestSchema = z.object({
  menuName: zText('菜单名称', 100, { verb: '缺少' }),
  path: zText('页面路径', 300, { verb: '缺少' }),
});

export const VISIT_SORT_FIELDS = ['createdAt', 'userCode', 'userType', 'menuName'] as const;
export const ZVisitLogRequestSchema = withDateRange(
  ZPageRequest(VISIT_SORT_FIELDS, {
  /** Matches account or name. */
  keyword: zOptionalText(64),
  userType: zOptionalInt(2, 9, '用户类型为 2 到 9'),
  menuName: zOptionalText(100),
  dateFrom: zOptionalDate,
  dateTo: zOptionalDate,
}),
);
export type VisitLogRequest = z.input<typeof ZVisitLogRequestSchema>;

export const ZVisitLogRow = z.object({
  id: z.number().int(),
  userType: z.number().int(),
  userCode: z.string(),
  userName: z.string(),
  menuName: z.string(),
  path: z.string(),
  /** Governed (VISIT_LOG_COLUMNS): absent when hidden for the caller, masked when masked. */
  ip: z.string().nullable().optional(),
  createdAt: z.string(),
});
export type VisitLogRow = z.infer<typeof ZVisitLogRow>;
/** 访问日志 and its governed columns (issue 14). */
export const VISIT_LOG_PAGE = '/esm/system/visitLog';
export const VISIT_LOG_COLUMNS = governedColumns(VISIT_LOG_PAGE, { ip: 'IP地址' });

export const visitsApi = {
  visit: endpoint({ path: 'main/visit', access: USER_TYPES, tag: 'visits', summary: '记录 user_visit 事件', body: ZVisitRequestSchema, response: ZNullData }),
  page: endpoint({
    path: 'haier/visitLog/page',
    access: DRAWING_ADMIN_TYPES,
    tag: 'visits',
    summary: '访问日志分页查询',
    body: ZVisitLogRequestSchema,
    response: ZCappedPage(ZVisitLogRow),
    columns: VISIT_LOG_COLUMNS,
  }),
} as const;
