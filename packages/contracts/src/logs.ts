/**
 * The five logs of the drawing archives — view, confirm, download, print, confidentiality
 * agreement — for drawing admins (types 3/7/8/9). One table, one row shape, one call each.
 */
import { z } from 'zod';
import { LOG_PAGE_DEFS, LOG_PAGES as LOG_PAGE_PATHS } from './page-paths.ts';
import { DRAWING_ADMIN_TYPES } from './codes.ts';
import { endpoint, governedColumns } from './endpoint.ts';
import { ZCappedPage } from './envelope.ts';
import { zOptionalDate, zOptionalEnum, zOptionalText, withDateRange } from './fields.ts';
import { ZPageRequest } from './paging.ts';

export const LOG_ACTION_LABELS = {
  VIEW: '查看',
  CONFIRM: '确认',
  DOWNLOAD: '下载',
  PRINT: '打印',
  KEEPSECRET: '签署保密协议',
} as const;
export type LogAction = keyof typeof LOG_ACTION_LABELS;
export const LOG_ACTIONS = Object.keys(LOG_ACTION_LABELS) as [LogAction, ...LogAction[]];
/**
 * OK: done — for a view, print or download, every byte was handed to the server's network
 * socket. PARTIAL: a delivery whose bytes did not all go out (the client went away, the server
 * stopped, the storage failed mid-file), or whose end was never recorded.
 */
export const LOG_OUTCOME_LABELS = { OK: '成功', PARTIAL: '不完整', REFUSED: '已拒绝' } as const;
export type LogOutcome = keyof typeof LOG_OUTCOME_LABELS;
export const LOG_OUTCOMES = Object.keys(LOG_OUTCOME_LABELS) as [LogOutcome, ...LogOutcome[]];

export const LOG_SORT_FIELDS = ['createdAt', 'standardCode', 'supplierCode', 'userAccount', 'materialCode'] as const;
/** The supplier, material and standard codes match exactly (indexed); the user matches a part. */
export const ZLogRequestSchema = withDateRange(
  ZPageRequest(LOG_SORT_FIELDS, {
    supplierCode: zOptionalText(32),
    materialCode: zOptionalText(40),
    standardCode: zOptionalText(64),
    /** Account or name of the user. */
    user: zOptionalText(100),
    outcome: zOptionalEnum(LOG_OUTCOMES, '结果只能是 OK、PARTIAL 或 REFUSED'),
    dateFrom: zOptionalDate,
    dateTo: zOptionalDate,
  }),
);
export type LogRequest = z.input<typeof ZLogRequestSchema>;
export const ZLogRow = z.object({
  id: z.number().int(),
  action: z.enum(LOG_ACTIONS),
  outcome: z.enum(LOG_OUTCOMES),
  /** A PARTIAL delivery's bytes sent and total; null when its end was never recorded (the server stopped). */
  delivery: z.object({ bytesSent: z.number().int(), bytesTotal: z.number().int() }).nullable().optional(),
  reason: z.string().nullable(),
  userAccount: z.string(),
  userName: z.string(),
  userType: z.number().int(),
  supplierCode: z.string().nullable(),
  supplierName: z.string().nullable(),
  fileId: z.number().int().nullable(),
  standardCode: z.string().nullable(),
  fileName: z.string().nullable(),
  version: z.string().nullable(),
  materialCode: z.string().nullable(),
  materialName: z.string().nullable(),
  /** Governed (logColumns): absent when hidden for the caller, masked when masked. */
  ip: z.string().nullable().optional(),
  createdAt: z.string(),
});
export type LogRow = z.infer<typeof ZLogRow>;

/** A log row's result as the pages and exports say it: 不完整（已发送 X / Y 字节）for a delivery cut short. */
export function logOutcomeText(row: Pick<LogRow, 'outcome' | 'delivery'>): string {
  if (row.outcome !== 'PARTIAL') return LOG_OUTCOME_LABELS[row.outcome];
  if (!row.delivery) return '未完成（发送未结束或服务已停止）';
  const n = (v: number) => v.toLocaleString('en-US');
  return `不完整（已发送 ${n(row.delivery.bytesSent)} / ${n(row.delivery.bytesTotal)} 字节）`;
}

/** Which page shows which log: page-paths.ts, zod-free for the router. */
export const LOG_PAGES: Record<LogAction, string> = LOG_PAGE_PATHS;
/** Each log page's governed columns. */
export const logColumns = (action: LogAction) => governedColumns(LOG_PAGE_DEFS[action], ['ip']);

const logEndpoint = <const P extends string>(path: P, action: LogAction) =>
  endpoint({
    path,
    access: DRAWING_ADMIN_TYPES,
    tag: 'logs',
    summary: `${LOG_ACTION_LABELS[action]}日志分页`,
    body: ZLogRequestSchema,
    response: ZCappedPage(ZLogRow),
    columns: logColumns(action),
  });

/** Which call lists which log. */
export const logsApi = {
  VIEW: logEndpoint('haier/standardLookingup/searchStandardLookingup', 'VIEW'),
  CONFIRM: logEndpoint('haier/standardConfirm/searchStandardConfirm', 'CONFIRM'),
  DOWNLOAD: logEndpoint('haier/standardDownLoad/searchStandardDownLoad', 'DOWNLOAD'),
  PRINT: logEndpoint('haier/tablePrintLog/findPrintLogList', 'PRINT'),
  KEEPSECRET: logEndpoint('haier/standardKeepsecret/searchStandardKeepsecret', 'KEEPSECRET'),
} as const;
