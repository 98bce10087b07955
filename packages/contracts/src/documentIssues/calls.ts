/**
 * The question calls, supplier side then the answerers' (type 5). Call names are the legacy portal's
 * where it has one (paging, add, update, delete, deletes, findUploadFiles, searchPursByMaterial,
 * assign, reply); the rest are ours.
 */
import { z } from 'zod';
import { SUPPLIER_TYPES } from '../codes.ts';
import { endpoint } from '../endpoint.ts';
import { ZCappedPage, ZEnvelope } from '../envelope.ts';
import { ISSUE_HANDLER_TYPES } from '../problemTypes.ts';
import { PAGES } from '../pages.ts';
import { ATTACHMENT_TYPES_TEXT, ZAttachmentIdSchema, ZAttachmentRow } from './attachments.ts';
import {
  ISSUE_ATTACHMENT_COLUMNS,
  ISSUE_COLUMNS,
  ZIssueAssignSchema,
  ZIssueDetail,
  ZIssueDraftSchema,
  ZIssueDrawing,
  ZIssueDrawingSearchSchema,
  ZIssueHandler,
  ZIssueIdSchema,
  ZIssueIdsSchema,
  ZIssuePageRequestSchema,
  ZIssueReopenSchema,
  ZIssueReplySchema,
  ZIssueRow,
  ZIssueUpdateSchema,
  ZPurchaser,
  ZPurchaserRequestSchema,
  ZSupplierIssuePageRequestSchema,
} from './questions.ts';

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
