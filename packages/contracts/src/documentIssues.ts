/**
 * Questions on drawings (the legacy portal's "document issuing with assign and reply"): a supplier
 * asks about one version of a standard file it may see, with attachments; on submit the question
 * routes by its problem type's handling role and the drawing's product line (problemTypes.ts) to
 * one answerer (type 5), or waits in the pool (待分派) where an answerer takes or assigns it. The
 * answerer replies; the supplier closes it or reopens it with a follow-up. Every step is a message
 * of the question's thread. Call names are the legacy portal's where it has one (paging, add, update,
 * delete, deletes, findUploadFiles, searchPursByMaterial, assign, reply); the rest are ours.
 */
import type { Transition } from './workflow.ts';
import { z } from 'zod';
import { SUPPLIER_TYPES } from './codes.ts';
import { endpoint, governedColumns } from './endpoint.ts';
import { ZCappedPage, ZEnvelope } from './envelope.ts';
import { zId, zOptionalDate, zOptionalEnum, zOptionalText, zText, withDateRange } from './fields.ts';
import { ZPageRequest } from './paging.ts';
import { FILE_STATUSES, FILE_TYPE_NAMES } from './archives.ts';
import { HANDLING_ROLES, ISSUE_HANDLER_TYPES } from './problemTypes.ts';
import { PAGES } from './pages.ts';

// ---- states and the transition table -------------------------------------------------------------

export const ISSUE_STATUS_LABELS = {
  DRAFT: '草稿',
  PENDING: '待分派',
  PROCESSING: '处理中',
  ANSWERED: '已回复',
  CLOSED: '已关闭',
} as const;
export type IssueStatus = keyof typeof ISSUE_STATUS_LABELS;
export const ISSUE_STATUSES = Object.keys(ISSUE_STATUS_LABELS) as [IssueStatus, ...IssueStatus[]];

/**
 * The question's moves. submit: 草稿 → 待分派, and in the same transaction, when the role table
 * names exactly one answerer, route: 待分派 → 处理中 (assigned to that user). assign (take, assign or
 * reassign with a reason): 待分派/处理中 → 处理中. reply: 处理中 → 已回复 (the assignee only).
 * reopen (with a follow-up): 已回复/已关闭 → 处理中. close: 已回复 → 已关闭. Only drafts are edited or
 * deleted. The api moves with `UPDATE … WHERE status IN (from)`.
 */
export const ISSUE_TRANSITIONS = {
  submit: { from: ['DRAFT'], to: 'PENDING', label: '提交' },
  route: { from: ['PENDING'], to: 'PROCESSING', label: '自动分派' },
  assign: { from: ['PENDING', 'PROCESSING'], to: 'PROCESSING', label: '分派' },
  reply: { from: ['PROCESSING'], to: 'ANSWERED', label: '回复' },
  reopen: { from: ['ANSWERED', 'CLOSED'], to: 'PROCESSING', label: '重新打开' },
  close: { from: ['ANSWERED'], to: 'CLOSED', label: '关闭' },
} as const satisfies Record<string, Transition<IssueStatus>>;
export type IssueMove = keyof typeof ISSUE_TRANSITIONS;
export const ISSUE_EDITABLE: readonly IssueStatus[] = ['DRAFT'];

/** Why a question cannot make `move` (or be edited/deleted) from `status`: the 409's message. */
export function issueMoveRefusal(move: IssueMove | 'edit' | 'delete', status: IssueStatus): string {
  const now = `该问题当前为「${ISSUE_STATUS_LABELS[status]}」`;
  if (move === 'edit') return `${now}，只有草稿可以编辑`;
  if (move === 'delete') return `${now}，只有草稿可以删除`;
  const t = ISSUE_TRANSITIONS[move];
  if (move === 'submit' && status !== 'DRAFT') return '该问题已提交，不能重复提交';
  if (move === 'reply' && status === 'ANSWERED') return '该问题已回复，请勿重复回复';
  if (move === 'close' && status === 'CLOSED') return '该问题已关闭';
  return `${now}，不能${t.label}`;
}

/** Thread messages: each step of the question. */
export const ISSUE_ACTION_LABELS = {
  CREATE: '创建草稿',
  UPDATE: '编辑草稿',
  SUBMIT: '提交',
  ROUTE: '自动分派',
  ASSIGN: '分派',
  REPLY: '回复',
  REOPEN: '追问并重新打开',
  CLOSE: '关闭',
} as const;
export type IssueAction = keyof typeof ISSUE_ACTION_LABELS;
export const ISSUE_ACTIONS = Object.keys(ISSUE_ACTION_LABELS) as [IssueAction, ...IssueAction[]];

// ---- due dates -----------------------------------------------------------------------------------

/**
 * The day `n` working days after `day` (YYYY-MM-DD): working days are Monday to Friday. There is
 * no holiday calendar (public holidays and make-up working days are NOT taken into account).
 */
export function addWorkingDays(day: string, n: number): string {
  const d = new Date(`${day}T00:00:00Z`);
  let left = n;
  while (left > 0) {
    d.setUTCDate(d.getUTCDate() + 1);
    const w = d.getUTCDay();
    if (w !== 0 && w !== 6) left--;
  }
  return d.toISOString().slice(0, 10);
}

// ---- attachments ---------------------------------------------------------------------------------

/** What an attachment may be: drawings and images like the archive, and Office files. */
export const ATTACHMENT_EXTENSIONS = [
  'pdf',
  'png',
  'jpg',
  'jpeg',
  'dwg',
  'dxf',
  'doc',
  'docx',
  'xls',
  'xlsx',
  'ppt',
  'pptx',
] as const;
export const ATTACHMENT_TYPES_TEXT = 'PDF、图片（PNG/JPG）、DWG/DXF、Office 文件（Word/Excel/PowerPoint）';
export const ATTACHMENT_MAX_BYTES = 20 * 1024 * 1024;
/** Attachments one message (the question, a reply, a follow-up) may carry. */
export const ATTACHMENTS_PER_MESSAGE = 10;

export const ZAttachmentRow = z.object({
  id: z.number().int(),
  fileName: z.string(),
  fileSize: z.number().int(),
  fileType: z.string(),
  /** Uploaded by staff (an answerer), not by the supplier: on the answerers' page its uploader is a 回复人 (ISSUE_COLUMNS). */
  byStaff: z.boolean(),
  /** Governed with 回复人 on the answerers' page when `byStaff`: absent when hidden, masked when masked. */
  uploadedByName: z.string().optional(),
  /** The thread message it came with (null: the question's own). */
  messageId: z.number().int().nullable(),
  createdAt: z.string(),
});
export type AttachmentRow = z.infer<typeof ZAttachmentRow>;

const zAttachmentIds = z
  .array(zId('附件'), { error: '附件格式有误' })
  .max(ATTACHMENTS_PER_MESSAGE, `最多 ${ATTACHMENTS_PER_MESSAGE} 个附件`)
  .refine((ids) => new Set(ids).size === ids.length, '附件不能重复')
  .default([]);

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
export const ZAttachmentIdSchema = z.object({ id: zId('附件') });
export const ZIssueDrawingSearchSchema = z.object({ keyword: zOptionalText(100) });
export const ZPurchaserRequestSchema = z.object({ materialCode: zText('物料编码', 40, { verb: '请选择' }) });

// ---- calls -------------------------------------------------------------------------------------

const supplier = SUPPLIER_TYPES;
const handler = ISSUE_HANDLER_TYPES;
const tag = 'documentIssues';
const tagSupplier = 'documentIssues (supplier)';
const ZDetail = ZEnvelope(ZIssueDetail);

export const documentIssuesApi = {
  // supplier side: every call acts within the caller's own supplier
  supplierPage: endpoint({
    path: 'supplier/documentissue/paging',
    access: supplier,
    tag: tagSupplier,
    summary: '本供应商的图纸问题分页',
    body: ZSupplierIssuePageRequestSchema,
    response: ZCappedPage(ZIssueRow),
  }),
  supplierFind: endpoint({
    path: 'supplier/documentissue/findById',
    access: supplier,
    tag: tagSupplier,
    summary: '问题详情与往来记录',
    body: ZIssueIdSchema,
    response: ZDetail,
  }),
  add: endpoint({
    path: 'supplier/documentissue/add',
    access: supplier,
    tag: tagSupplier,
    summary: '新建问题（草稿）',
    body: ZIssueDraftSchema,
    response: ZDetail,
  }),
  update: endpoint({
    path: 'supplier/documentissue/update',
    access: supplier,
    tag: tagSupplier,
    summary: '编辑草稿',
    body: ZIssueUpdateSchema,
    response: ZDetail,
  }),
  remove: endpoint({
    path: 'supplier/documentissue/delete',
    access: supplier,
    tag: tagSupplier,
    summary: '删除草稿',
    body: ZIssueIdSchema,
    response: ZEnvelope(z.null()),
  }),
  removeMany: endpoint({
    path: 'supplier/documentissue/deletes',
    access: supplier,
    tag: tagSupplier,
    summary: '批量删除草稿（全部是草稿才删除）',
    body: ZIssueIdsSchema,
    response: ZEnvelope(z.object({ deleted: z.number().int() })),
  }),
  submit: endpoint({
    path: 'supplier/documentissue/submit',
    access: supplier,
    tag: tagSupplier,
    summary: '提交问题：按问题类型与产品线分派',
    body: ZIssueIdSchema,
    response: ZDetail,
  }),
  close: endpoint({
    path: 'supplier/documentissue/close',
    access: supplier,
    tag: tagSupplier,
    summary: '关闭已回复的问题',
    body: ZIssueIdSchema,
    response: ZDetail,
  }),
  reopen: endpoint({
    path: 'supplier/documentissue/reopen',
    access: supplier,
    tag: tagSupplier,
    summary: '追问并重新打开',
    body: ZIssueReopenSchema,
    response: ZDetail,
  }),
  supplierFiles: endpoint({
    path: 'supplier/documentissue/findUploadFiles',
    access: supplier,
    tag: tagSupplier,
    summary: '问题的全部附件',
    body: ZIssueIdSchema,
    response: ZEnvelope(z.array(ZAttachmentRow)),
  }),
  supplierUpload: endpoint({
    path: 'supplier/documentissue/upload',
    access: supplier,
    tag: tagSupplier,
    kind: 'multipart',
    summary: '上传附件（随后在新建、编辑或追问时引用）',
    description: `multipart/form-data：一个文件部分 file（${ATTACHMENT_TYPES_TEXT}，按扩展名和文件头识别，最大 20 MB）。`,
    response: ZEnvelope(ZAttachmentRow),
  }),
  supplierDownload: endpoint({
    path: 'supplier/documentissue/downloadFile',
    access: supplier,
    tag: tagSupplier,
    kind: 'bytes',
    summary: '下载本供应商问题的附件',
    body: ZAttachmentIdSchema,
  }),
  purchasers: endpoint({
    path: 'supplier/documentissue/searchPursByMaterial',
    access: supplier,
    tag: tagSupplier,
    summary: '物料的采购员（问题的收件人）',
    body: ZPurchaserRequestSchema,
    response: ZEnvelope(z.array(ZPurchaser)),
  }),
  drawings: endpoint({
    path: 'supplier/documentissue/searchDrawings',
    access: supplier,
    tag: tagSupplier,
    summary: '可提问的图纸版本（本供应商现在可查看的）',
    body: ZIssueDrawingSearchSchema,
    response: ZEnvelope(z.array(ZIssueDrawing)),
  }),

  // the answerers (type 5)
  page: endpoint({
    path: 'haier/documentissue/paging',
    access: handler,
    tag,
    summary: '图纸问题分页：分派给我、待分派、全部',
    body: ZIssuePageRequestSchema,
    response: ZCappedPage(ZIssueRow),
    columns: ISSUE_COLUMNS,
  }),
  find: endpoint({
    path: 'haier/documentissue/findById',
    access: handler,
    tag,
    summary: '问题详情与往来记录',
    body: ZIssueIdSchema,
    response: ZDetail,
    columns: ISSUE_COLUMNS,
  }),
  assign: endpoint({
    path: 'haier/documentissue/assign',
    access: handler,
    tag,
    button: PAGES.documentIssueH.buttons.assign,
    summary: '领取、分派或改派（改派须填写原因）',
    body: ZIssueAssignSchema,
    response: ZDetail,
    columns: ISSUE_COLUMNS,
  }),
  reply: endpoint({
    path: 'haier/documentissue/reply',
    access: handler,
    tag,
    button: PAGES.documentIssueH.buttons.reply,
    summary: '回复（仅处理人），可附附件、关联变更通知',
    body: ZIssueReplySchema,
    response: ZDetail,
    columns: ISSUE_COLUMNS,
  }),
  files: endpoint({
    path: 'haier/documentissue/findUploadFiles',
    access: handler,
    tag,
    summary: '问题的全部附件',
    body: ZIssueIdSchema,
    response: ZEnvelope(z.array(ZAttachmentRow)),
    columns: ISSUE_ATTACHMENT_COLUMNS,
  }),
  upload: endpoint({
    path: 'haier/documentissue/upload',
    access: handler,
    tag,
    kind: 'multipart',
    summary: '上传附件（随后在回复时引用）',
    description: `multipart/form-data：一个文件部分 file（${ATTACHMENT_TYPES_TEXT}，最大 20 MB）。`,
    response: ZEnvelope(ZAttachmentRow),
  }),
  download: endpoint({
    path: 'haier/documentissue/downloadFile',
    access: handler,
    tag,
    kind: 'bytes',
    summary: '下载问题附件',
    body: ZAttachmentIdSchema,
  }),
  handlers: endpoint({
    path: 'haier/documentissue/findHandlers',
    access: handler,
    tag,
    summary: '可分派的处理人（图纸问题回复人员）',
    response: ZEnvelope(z.array(ZIssueHandler)),
  }),
} as const;
