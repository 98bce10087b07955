/**
 * A notice as the manufacturer handles it: the changes it lists, its rows, its audit trail and
 * detail, the list's filters, the draft form with the versions it may name, withdrawing and reminding.
 */
import { z } from 'zod';
import { governedColumns } from '../endpoint.ts';
import { zDay, zId, zOptionalDate, zOptionalEnum, zOptionalText, zText, withDateRange } from '../fields.ts';
import { ZPageRequest } from '../paging.ts';
import { FILE_STATUSES, FILE_TYPE_NAMES } from '../archives.ts';
import { PAGES } from '../pages.ts';
import { noticeCore } from './core.ts';
import { NOTICE_CHANGES_MAX, NOTICE_EVENT_ACTIONS, NOTICE_STATUSES } from './state.ts';

// ---- rows ----------------------------------------------------------------------------------------

/** A version of a standard file as a notice shows it. */
export const ZNoticeFile = z.object({
  id: z.number().int(),
  version: z.string(),
  versionNo: z.number().int(),
  status: z.enum(FILE_STATUSES),
  fileName: z.string(),
  fileType: z.enum(FILE_TYPE_NAMES),
  viewable: z.boolean(),
  effectiveDate: z.string(),
});
export type NoticeFile = z.infer<typeof ZNoticeFile>;

/** One change: which version of which standard code replaced which (old null: a new file). */
export const ZNoticeChange = z.object({
  id: z.number().int(),
  standardCode: z.string(),
  name: z.string(),
  materialCode: z.string(),
  materialName: z.string(),
  oldFile: ZNoticeFile.nullable(),
  newFile: ZNoticeFile,
});
export type NoticeChange = z.infer<typeof ZNoticeChange>;

/** 变更通知列表: the page the manufacturer's notice buttons and columns belong to. */
export const NOTICE_LIST_PAGE = PAGES.changeNoticeList.path;
/** The internal notice rows' governed columns: list and detail (and every call answering a detail). */
export const NOTICE_COLUMNS = governedColumns(
  PAGES.changeNoticeList,
  ['publishedByName', 'withdrawReason', 'events.userName', 'events.userAccount', 'events.ip'],
  { withdrawReason: 'WITHDRAW' },
  undefined,
  {
    // the trail's actors are the people the notice names: hiding 操作人 hides them there too
    'events.userName': ['createdByName', 'publishedByName', 'closedByName', 'withdrawnByName'],
    // the audit trail names the publisher, and each reader and confirmer (the recipients matrix's columns) with their address
    publishedByName: ['events.[action=PUBLISH].userName', 'events.[action=PUBLISH].userAccount'],
    readByName: ['events.[action=READ].userName', 'events.[action=READ].userAccount'],
    readByAccount: ['events.[action=READ].userAccount'],
    readIp: ['events.[action=READ].ip'],
    confirmedByName: ['events.[action=CONFIRM].userName', 'events.[action=CONFIRM].userAccount'],
    confirmedByAccount: ['events.[action=CONFIRM].userAccount'],
    confirmedIp: ['events.[action=CONFIRM].ip'],
  },
);

/** A row of the internal notice list, with its recipients counted by state. */
export const ZNoticeRow = z.object({
  ...noticeCore,
  /** Governed (NOTICE_COLUMNS): absent when hidden for the caller, masked when masked. */
  publishedByName: z.string().nullable().optional(),
  withdrawReason: z.string().nullable().optional(),
  /** Governed with 操作记录·操作人 (the CREATE entry names the same person): absent when hidden. */
  createdByName: z.string().optional(),
  createdAt: z.string(),
  recipientCount: z.number().int(),
  /** Read or confirmed. */
  readCount: z.number().int(),
  confirmedCount: z.number().int(),
  overdueCount: z.number().int(),
});
export type NoticeRow = z.infer<typeof ZNoticeRow>;

export const ZNoticeEvent = z.object({
  id: z.number().int(),
  action: z.enum(NOTICE_EVENT_ACTIONS),
  supplierCode: z.string().nullable(),
  /** Governed (NOTICE_COLUMNS `events.*`): absent when hidden for the caller, masked when masked. */
  userAccount: z.string().optional(),
  userName: z.string().optional(),
  ip: z.string().nullable().optional(),
  detail: z.string().nullable(),
  createdAt: z.string(),
});
export type NoticeEvent = z.infer<typeof ZNoticeEvent>;

/** haier findById: the notice, its changes and its audit trail. */
export const ZNoticeDetail = ZNoticeRow.extend({
  description: z.string().nullable(),
  /** Governed with 操作记录·操作人 (the CLOSE / WITHDRAW entries name the same people). */
  closedByName: z.string().nullable().optional(),
  withdrawnByName: z.string().nullable().optional(),
  changes: z.array(ZNoticeChange),
  events: z.array(ZNoticeEvent),
});
export type NoticeDetail = z.infer<typeof ZNoticeDetail>;

/** A version that may be the new side of a change: an effective file, with the version it replaced. */
export const ZChangeCandidate = z.object({
  fileId: z.number().int(),
  standardCode: z.string(),
  name: z.string(),
  version: z.string(),
  versionNo: z.number().int(),
  materialCode: z.string(),
  materialName: z.string(),
  productLineCode: z.string(),
  productLineName: z.string(),
  oldFileId: z.number().int().nullable(),
  oldVersion: z.string().nullable(),
  effectiveDate: z.string(),
  createdAt: z.string(),
});
export type ChangeCandidate = z.infer<typeof ZChangeCandidate>;

// ---- requests ------------------------------------------------------------------------------------

export const NOTICE_SORT_FIELDS = ['number', 'publishedAt', 'dueDate', 'createdAt'] as const;
export const ZNoticePageRequestSchema = withDateRange(
  ZPageRequest(NOTICE_SORT_FIELDS, {
    /** Part of the number (BG-2026-0001). */
    number: zOptionalText(20),
    title: zOptionalText(100),
    /** Notices with a change of this material (exact). */
    materialCode: zOptionalText(40),
    /** Notices that went to this supplier (exact: a recipient; the countersign form's notice picker). */
    recipientCode: zOptionalText(32),
    productLineCode: zOptionalText(32),
    status: zOptionalEnum(NOTICE_STATUSES, '状态只能是 DRAFT、PUBLISHED、CLOSED 或 WITHDRAWN'),
    /** Publish date range, YYYY-MM-DD (days in UTC+8). */
    dateFrom: zOptionalDate,
    dateTo: zOptionalDate,
    /** '1': only notices with an overdue recipient. */
    overdueOnly: zOptionalEnum(['1'], '逾期筛选只能是 1'),
  }),
);
export type NoticePageRequest = z.input<typeof ZNoticePageRequestSchema>;

export const ZNoticeIdRequestSchema = z.object({ id: zId('通知') });

/** A draft: what the form edits. The old version of each change is the one before the new one. */
export const ZNoticeDraftSchema = z.object({
  title: zText('标题', 100),
  reason: zText('变更原因', 500),
  description: zOptionalText(2000),
  productLineCode: zText('产品线', 32, { verb: '请选择' }),
  dueDate: zDay('确认截止日期'),
  newFileIds: z
    .array(zId('新版本文件'), { error: '请添加变更的图纸' })
    .min(1, '请至少添加一项变更的图纸')
    .max(NOTICE_CHANGES_MAX, `一个通知最多 ${NOTICE_CHANGES_MAX} 项变更`)
    .refine((ids) => new Set(ids).size === ids.length, '同一版本不能重复添加'),
});
export type NoticeDraft = z.input<typeof ZNoticeDraftSchema>;
export const ZNoticeUpdateSchema = ZNoticeDraftSchema.extend({ id: zId('通知') });

export const ZNoticeWithdrawSchema = z.object({ id: zId('通知'), reason: zText('撤回原因', 200, { verb: '请填写' }) });

export const ZNoticeRemindSchema = z.object({
  id: zId('通知'),
  /** Only these suppliers (each must be an overdue recipient); absent: every overdue recipient. */
  supplierCodes: z
    .array(zText('供应商编码', 32))
    .min(1, '请选择要催办的供应商')
    .max(5000, '一次最多催办 5000 家供应商')
    .optional(),
});
export const ZRemindResult = z.object({ reminded: z.number().int(), skipped: z.number().int() });

export const ZChangeCandidatesRequestSchema = z.object({
  /** Standard code or name contains. */
  keyword: zOptionalText(100),
  /** These files (e.g. the version just uploaded), effective or not. */
  ids: z.array(zId('文件')).max(NOTICE_CHANGES_MAX, `最多 ${NOTICE_CHANGES_MAX} 个文件`).optional(),
});
