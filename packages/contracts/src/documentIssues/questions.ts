/**
 * The question: its rows, thread and detail with the answerers' governed columns, the drawings and
 * purchasers the form picks from, and the requests (lists, the draft form, reply, reopen, assign).
 */
import { z } from 'zod';
import { governedColumns } from '../endpoint.ts';
import { zId, zOptionalDate, zOptionalEnum, zOptionalText, zText, withDateRange } from '../fields.ts';
import { ZPageRequest } from '../paging.ts';
import { FILE_STATUSES, FILE_TYPE_NAMES } from '../archives.ts';
import { HANDLING_ROLES } from '../problemTypes.ts';
import { PAGES } from '../pages.ts';
import { ATTACHMENTS_PER_MESSAGE, ZAttachmentRow } from './attachments.ts';
import { ISSUE_ACTIONS, ISSUE_STATUSES } from './state.ts';

// ---- rows ----------------------------------------------------------------------------------------

export const ZIssueRow = z.object({
  id: z.number().int(),
  number: z.string(),
  supplierCode: z.string(),
  supplierName: z.string(),
  fileId: z.number().int(),
  standardCode: z.string(),
  /** The drawing's name and file, for the viewer. */
  fileTitle: z.string(),
  fileName: z.string(),
  fileType: z.enum(FILE_TYPE_NAMES),
  version: z.string(),
  /** The version's status now: HISTORY or OBSOLETE once superseded. */
  fileStatus: z.enum(FILE_STATUSES),
  materialCode: z.string(),
  materialName: z.string(),
  productLineCode: z.string(),
  productLineName: z.string(),
  problemTypeId: z.number().int(),
  problemTypeName: z.string(),
  role: z.enum(HANDLING_ROLES),
  title: z.string(),
  /** Governed (ISSUE_COLUMNS) on the internal calls: absent when hidden for the caller, masked when masked. */
  description: z.string().optional(),
  purchaser: z.string().nullable(),
  status: z.enum(ISSUE_STATUSES),
  askedByAccount: z.string(),
  askedByName: z.string(),
  /** Governed with 回复人 (ISSUE_COLUMNS): the id names the assignee as well as the name does. */
  assigneeId: z.number().int().nullable().optional(),
  assigneeName: z.string().nullable().optional(),
  /** The answerer reading is its assignee (computed by the server: the assignee's id may be hidden from them). Always false for a supplier. */
  assignedToMe: z.boolean(),
  /** YYYY-MM-DD (UTC+8), set at submit and at reopen. */
  dueDate: z.string().nullable(),
  /** Past the due date and not answered (待分派 / 处理中). */
  overdue: z.boolean(),
  submittedAt: z.string().nullable(),
  answeredAt: z.string().nullable(),
  closedAt: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
  attachmentCount: z.number().int(),
});
export type IssueRow = z.infer<typeof ZIssueRow>;
/** The answerers' page, whose buttons (领取/分派, 回复) and columns the permissions govern. */
export const ISSUE_ANSWER_PAGE = PAGES.documentIssueH.path;
/**
 * The internal question rows' governed columns (按钮与列权限): list and detail (every internal call
 * answering one). 回复人 is a person: hidden or masked, it is so wherever the answerers' page
 * shows who answers — the assignee's id (findHandlers would name it), the author of an
 * answerer's thread message (type 5: hidden, the message shows no author — the page says
 * 已隐藏 —; masked, the masked name and account), and the thread texts that name an answerer
 * ("按问题类型与产品线自动分派给 刘洋", "由 刘洋 改派给 赵丽。原因：…"): the names are replaced by
 * （已隐藏） or masked there, the rest of the text (a reason given) stays.
 */
export const ISSUE_COLUMNS = governedColumns(
  PAGES.documentIssueH,
  ['assigneeName', 'description'],
  undefined,
  undefined,
  {
    assigneeName: [
      'assigneeId',
      'messages.[userType=5].userName',
      'messages.[userType=5].userAccount',
      'messages.mentions',
      // an answerer's reply attachments name their uploader
      'messages.attachments.[byStaff=true].uploadedByName',
      'attachments.[byStaff=true].uploadedByName',
      { redact: 'messages.text', names: ['assigneeName', 'messages.[userType=5].userName', 'messages.mentions'] },
    ],
  },
);
/** A question's attachments on the answerers' page (findUploadFiles): one uploaded by an answerer names a 回复人. */
export const ISSUE_ATTACHMENT_COLUMNS = governedColumns(PAGES.documentIssueH, [], undefined, undefined, {
  assigneeName: ['[byStaff=true].uploadedByName'],
});

export const ZIssueNoticeRef = z.object({
  id: z.number().int(),
  number: z.string(),
  title: z.string(),
  newVersion: z.string(),
  publishedAt: z.string().nullable(),
});
export type IssueNoticeRef = z.infer<typeof ZIssueNoticeRef>;

export const ZIssueMessage = z.object({
  id: z.number().int(),
  action: z.enum(ISSUE_ACTIONS),
  fromStatus: z.enum(ISSUE_STATUSES).nullable(),
  toStatus: z.enum(ISSUE_STATUSES),
  /** Governed with 回复人 (ISSUE_COLUMNS) when the author is an answerer: absent when hidden, masked when masked. */
  userAccount: z.string().optional(),
  userName: z.string().optional(),
  userType: z.number().int(),
  text: z.string().nullable(),
  /** The answerers the text names (an assignment's): governed with 回复人 like the text itself. */
  mentions: z.array(z.string()).optional(),
  notice: ZIssueNoticeRef.nullable(),
  createdAt: z.string(),
  attachments: z.array(ZAttachmentRow),
});
export type IssueMessage = z.infer<typeof ZIssueMessage>;

/** One question: its thread, its own attachments, and what superseded the version asked about. */
export const ZIssueDetail = ZIssueRow.extend({
  messages: z.array(ZIssueMessage),
  attachments: z.array(ZAttachmentRow),
  /** The version now in effect for the standard code, when it is not the one asked about. */
  latestVersion: z.string().nullable(),
  /** Published change notices whose old version is the one asked about. */
  supersededBy: z.array(ZIssueNoticeRef),
});
export type IssueDetail = z.infer<typeof ZIssueDetail>;

/** A drawing version the supplier may ask about (it may see it now). */
export const ZIssueDrawing = z.object({
  fileId: z.number().int(),
  standardCode: z.string(),
  name: z.string(),
  version: z.string(),
  status: z.enum(FILE_STATUSES),
  materialCode: z.string(),
  materialName: z.string(),
  productLineName: z.string(),
});
export type IssueDrawing = z.infer<typeof ZIssueDrawing>;

export const ZPurchaser = z.object({ name: z.string(), materialCode: z.string() });
export const ZIssueHandler = z.object({ id: z.number().int(), account: z.string(), name: z.string() });
export type IssueHandler = z.infer<typeof ZIssueHandler>;

// ---- requests ------------------------------------------------------------------------------------

const zAttachmentIds = z
  .array(zId('附件'), { error: '附件格式有误' })
  .max(ATTACHMENTS_PER_MESSAGE, `最多 ${ATTACHMENTS_PER_MESSAGE} 个附件`)
  .refine((ids) => new Set(ids).size === ids.length, '附件不能重复')
  .default([]);

export const ISSUE_SORT_FIELDS = ['number', 'createdAt', 'submittedAt', 'dueDate', 'status'] as const;
const issueFilters = {
  status: zOptionalEnum(ISSUE_STATUSES, '状态只能是 DRAFT、PENDING、PROCESSING、ANSWERED 或 CLOSED'),
  /** Number or title contains. */
  keyword: zOptionalText(100),
  materialCode: zOptionalText(40),
  problemTypeId: z.preprocess((v) => (v === '' || v === null ? undefined : v), zId('问题类型').optional()),
  /** Created between these days (UTC+8). */
  dateFrom: zOptionalDate,
  dateTo: zOptionalDate,
  overdueOnly: zOptionalEnum(['1'], '逾期筛选只能是 1'),
};
export const ZSupplierIssuePageRequestSchema = withDateRange(ZPageRequest(ISSUE_SORT_FIELDS, issueFilters));
export type SupplierIssuePageRequest = z.input<typeof ZSupplierIssuePageRequestSchema>;

export const ISSUE_SCOPE_LABELS = { MINE: '分派给我', POOL: '待分派', ALL: '全部' } as const;
export type IssueScope = keyof typeof ISSUE_SCOPE_LABELS;
export const ISSUE_SCOPES = Object.keys(ISSUE_SCOPE_LABELS) as [IssueScope, ...IssueScope[]];
/** The answerers' list: assigned to me, the pool, or all submitted questions (drafts are the supplier's own). */
export const ZIssuePageRequestSchema = withDateRange(
  ZPageRequest(ISSUE_SORT_FIELDS, {
    ...issueFilters,
    scope: zOptionalEnum(ISSUE_SCOPES, '范围只能是 MINE、POOL 或 ALL'),
    supplierCode: zOptionalText(32),
  }),
);
export type IssuePageRequest = z.input<typeof ZIssuePageRequestSchema>;

const questionFields = {
  fileId: zId('图纸'),
  problemTypeId: zId('问题类型'),
  title: zText('问题标题', 100),
  description: zText('问题描述', 2000),
  purchaser: zOptionalText(100),
  attachmentIds: zAttachmentIds,
};
export const ZIssueDraftSchema = z.object(questionFields);
export type IssueDraft = z.input<typeof ZIssueDraftSchema>;
export const ZIssueUpdateSchema = z.object({ id: zId('问题'), ...questionFields });
export const ZIssueIdSchema = z.object({ id: zId('问题') });
export const ZIssueIdsSchema = z.object({
  ids: z.array(zId('问题'), { error: '请选择问题' }).min(1, '请选择要删除的问题').max(100, '一次最多删除 100 个问题'),
});
export const ZIssueReopenSchema = z.object({
  id: zId('问题'),
  text: zText('追问内容', 2000, { verb: '请填写' }),
  attachmentIds: zAttachmentIds,
});
export const ZIssueReplySchema = z.object({
  id: zId('问题'),
  text: zText('回复内容', 2000, { verb: '请填写' }),
  attachmentIds: zAttachmentIds,
  /** A change notice that superseded the version asked about. */
  noticeId: z.preprocess((v) => (v === '' || v === null ? undefined : v), zId('变更通知').optional()),
});
export const ZIssueAssignSchema = z.object({
  id: zId('问题'),
  userId: zId('处理人'),
  /** Required when the question already has another assignee (reassigning). */
  reason: zOptionalText(500),
});

export const ZIssueDrawingSearchSchema = z.object({ keyword: zOptionalText(100) });
export const ZPurchaserRequestSchema = z.object({ materialCode: zText('物料编码', 40, { verb: '请选择' }) });
