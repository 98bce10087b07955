/** The "user_visit" event of the legacy portal and its log; the server adds who (from the session), IP and time. */
import { z } from 'zod';
import { DRAWING_ADMIN_TYPES, USER_TYPES } from './codes.ts';
import { endpoint, governedColumns } from './endpoint.ts';
import { ZCappedPage, ZNullData } from './envelope.ts';
import { zOptionalDate, zOptionalEnum, zOptionalInt, zOptionalText, zText, withDateRange } from './fields.ts';
import { ZPageRequest } from './paging.ts';
import { PAGES } from './pages.ts';

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
/** 访问日志 and its governed columns. */
export const VISIT_LOG_PAGE = PAGES.visitLog.path;
export const VISIT_LOG_COLUMNS = governedColumns(PAGES.visitLog, ['ip']);

/**
 * 登录日志 (not in the legacy portal; every sign-in writes sign_in_log, this shows it): every sign-in,
 * by password or through the company home page, success or refusal, with its code and reason —
 * what an administrator reads when an account was locked or a supplier says "I cannot get in".
 */
export const SIGN_IN_SOURCES = ['password', 'oidc'] as const;
export type SignInSourceCode = (typeof SIGN_IN_SOURCES)[number];
export const SIGN_IN_SOURCE_LABELS: Record<SignInSourceCode, string> = { password: '账号密码', oidc: '公司门户' };
export const SIGN_IN_SORT_FIELDS = ['createdAt', 'account'] as const;
export const ZSignInLogRequestSchema = withDateRange(
  ZPageRequest(SIGN_IN_SORT_FIELDS, {
    /** Matches the account as typed, or the name of the account it found. */
    keyword: zOptionalText(64),
    source: zOptionalEnum(SIGN_IN_SOURCES, '登录方式只能是 password 或 oidc'),
    /** '1' successes only, '0' refusals only. */
    result: zOptionalEnum(['1', '0'], '登录结果只能是 1（成功）或 0（失败）'),
    dateFrom: zOptionalDate,
    dateTo: zOptionalDate,
  }),
);
export type SignInLogRequest = z.input<typeof ZSignInLogRequestSchema>;

export const ZSignInLogRow = z.object({
  id: z.number().int(),
  /** The account as typed or claimed ('' when the company hand-off named none). */
  account: z.string(),
  /** The portal account's name (a supplier's nick) when one was found, else null. */
  userName: z.string().nullable(),
  userType: z.number().int().nullable(),
  source: z.enum(SIGN_IN_SOURCES),
  success: z.boolean(),
  code: z.string(),
  reason: z.string(),
  /** Governed (SIGN_IN_LOG_COLUMNS). */
  ip: z.string().nullable().optional(),
  createdAt: z.string(),
});
export type SignInLogRow = z.infer<typeof ZSignInLogRow>;
export const SIGN_IN_LOG_PAGE = PAGES.signInLog.path;
export const SIGN_IN_LOG_COLUMNS = governedColumns(PAGES.signInLog, ['ip']);

export const visitsApi = {
  visit: endpoint({
    path: 'main/visit',
    access: USER_TYPES,
    tag: 'visits',
    summary: '记录 user_visit 事件',
    body: ZVisitRequestSchema,
    response: ZNullData,
  }),
  page: endpoint({
    path: 'haier/visitLog/page',
    access: DRAWING_ADMIN_TYPES,
    tag: 'visits',
    summary: '访问日志分页查询',
    body: ZVisitLogRequestSchema,
    response: ZCappedPage(ZVisitLogRow),
    columns: VISIT_LOG_COLUMNS,
  }),
  signInLog: endpoint({
    path: 'haier/signInLog/page',
    access: DRAWING_ADMIN_TYPES,
    tag: 'visits',
    summary: '登录日志分页查询',
    body: ZSignInLogRequestSchema,
    response: ZCappedPage(ZSignInLogRow),
    columns: SIGN_IN_LOG_COLUMNS,
  }),
} as const;
