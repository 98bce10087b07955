/** The "user_visit" event of spec §4 and its log; the server adds who (from the session), IP and time. */
import { z } from 'zod';
import { DRAWING_ADMIN_TYPES, USER_TYPES } from './codes.ts';
import { endpoint } from './endpoint.ts';
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
  ip: z.string().nullable(),
  createdAt: z.string(),
});
export type VisitLogRow = z.infer<typeof ZVisitLogRow>;

export const visitsApi = {
  visit: endpoint({ path: 'main/visit', access: USER_TYPES, tag: 'visits', summary: '记录 user_visit 事件', body: ZVisitRequestSchema, response: ZNullData }),
  page: endpoint({
    path: 'haier/visitLog/page',
    access: DRAWING_ADMIN_TYPES,
    tag: 'visits',
    summary: '访问日志分页查询',
    body: ZVisitLogRequestSchema,
    response: ZCappedPage(ZVisitLogRow),
  }),
} as const;
