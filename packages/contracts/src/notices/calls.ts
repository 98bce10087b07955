/**
 * The notice calls, manufacturer side then supplier side. Call names are the legacy portal's where
 * it has one; create/edit/publish/withdraw/close/remind/export are ours (the legacy portal has none).
 */
import { z } from 'zod';
import { DRAWING_ADMIN_TYPES, SUPPLIER_TYPES } from '../codes.ts';
import { endpoint } from '../endpoint.ts';
import { ZCappedPage, ZEnvelope } from '../envelope.ts';
import { PAGES } from '../pages.ts';
import {
  ZChangeRecordRequestSchema,
  ZChangeRecordRow,
  ZSharedChangeListRequestSchema,
  ZSupplierChangeRow,
} from './changes.ts';
import {
  ZConfirmNoticeResult,
  ZInboxRequestSchema,
  ZSupplierNoticeDetail,
  ZSupplierNoticeRow,
  ZUnreadNotice,
} from './inbox.ts';
import {
  NOTICE_COLUMNS,
  ZChangeCandidate,
  ZChangeCandidatesRequestSchema,
  ZNoticeDetail,
  ZNoticeDraftSchema,
  ZNoticeIdRequestSchema,
  ZNoticePageRequestSchema,
  ZNoticeRemindSchema,
  ZNoticeRow,
  ZNoticeUpdateSchema,
  ZNoticeWithdrawSchema,
  ZRemindResult,
} from './notice.ts';
import {
  NOTICE_RECIPIENT_COLUMNS,
  SUPPLIER_STANDING_COLUMNS,
  ZRecipientExportSchema,
  ZRecipientPageRequestSchema,
  ZRecipientPreview,
  ZRecipientRow,
  ZSupplierDetailRequestSchema,
  ZSupplierStandingRow,
} from './recipients.ts';

const tag = 'notices';
const tagSupplier = 'notices (supplier)';

// ---- calls -------------------------------------------------------------------------------------

const admin = DRAWING_ADMIN_TYPES;
const supplier = SUPPLIER_TYPES;
const noticeButton = PAGES.changeNoticeList.buttons;

export const noticesApi = {
  page: endpoint({
    path: 'haier/tableChangeLog/findTableChangeLogListForHaier',
    access: admin,
    tag,
    summary: '变更通知分页（含接收方阅读、确认、逾期数）',
    body: ZNoticePageRequestSchema,
    response: ZCappedPage(ZNoticeRow),
    columns: NOTICE_COLUMNS,
  }),
  detail: endpoint({
    path: 'haier/tableChangeLog/findById',
    access: admin,
    tag,
    summary: '变更通知详情：变更内容与操作记录',
    body: ZNoticeIdRequestSchema,
    response: ZEnvelope(ZNoticeDetail),
    columns: NOTICE_COLUMNS,
  }),
  recipients: endpoint({
    path: 'haier/tableChangeLog/getSuppliersById',
    access: admin,
    tag,
    summary: '变更通知的接收方（阅读、确认状态），分页，可按状态筛选',
    body: ZRecipientPageRequestSchema,
    response: ZCappedPage(ZRecipientRow),
    columns: NOTICE_RECIPIENT_COLUMNS,
  }),
  exportRecipients: endpoint({
    path: 'haier/tableChangeLog/exportSuppliers',
    access: admin,
    tag,
    kind: 'bytes',
    button: noticeButton.export,
    columns: NOTICE_RECIPIENT_COLUMNS,
    summary: '导出接收方矩阵（.xlsx）',
    body: ZRecipientExportSchema,
  }),
  previewRecipients: endpoint({
    path: 'haier/tableChangeLog/previewSuppliers',
    access: admin,
    tag,
    summary: '草稿若现在发布将通知的供应商及依据',
    body: ZNoticeIdRequestSchema,
    response: ZEnvelope(z.array(ZRecipientPreview)),
  }),
  candidates: endpoint({
    path: 'haier/tableChangeLog/findChangeCandidates',
    access: admin,
    tag,
    summary: '可作为变更新版本的生效文件（含其上一版本）',
    body: ZChangeCandidatesRequestSchema,
    response: ZEnvelope(z.array(ZChangeCandidate)),
  }),
  create: endpoint({
    path: 'haier/tableChangeLog/create',
    access: admin,
    tag,
    summary: '新建变更通知草稿',
    body: ZNoticeDraftSchema,
    response: ZEnvelope(ZNoticeDetail),
    columns: NOTICE_COLUMNS,
  }),
  update: endpoint({
    path: 'haier/tableChangeLog/update',
    access: admin,
    tag,
    summary: '编辑变更通知草稿',
    body: ZNoticeUpdateSchema,
    response: ZEnvelope(ZNoticeDetail),
    columns: NOTICE_COLUMNS,
  }),
  publish: endpoint({
    path: 'haier/tableChangeLog/publish',
    access: admin,
    tag,
    summary: '发布变更通知（接收方此时确定：供应受影响物料且持有有效授权的供应商）',
    button: noticeButton.publish,
    body: ZNoticeIdRequestSchema,
    response: ZEnvelope(ZNoticeDetail),
    columns: NOTICE_COLUMNS,
  }),
  withdraw: endpoint({
    path: 'haier/tableChangeLog/withdraw',
    access: admin,
    tag,
    button: noticeButton.withdraw,
    summary: '撤回已发布的变更通知（须填写原因）',
    body: ZNoticeWithdrawSchema,
    response: ZEnvelope(ZNoticeDetail),
    columns: NOTICE_COLUMNS,
  }),
  close: endpoint({
    path: 'haier/tableChangeLog/close',
    access: admin,
    tag,
    button: noticeButton.close,
    summary: '关闭已发布的变更通知',
    body: ZNoticeIdRequestSchema,
    response: ZEnvelope(ZNoticeDetail),
    columns: NOTICE_COLUMNS,
  }),
  remind: endpoint({
    path: 'haier/tableChangeLog/remind',
    access: admin,
    tag,
    button: noticeButton.remind,
    summary: '催办逾期未确认的供应商',
    body: ZNoticeRemindSchema,
    response: ZEnvelope(ZRemindResult),
  }),
  changes: endpoint({
    path: 'haier/standardChange/searchStandardChange',
    access: admin,
    tag,
    summary: '变更记录：哪个标准编号的哪个版本由哪个通知替换了哪个版本',
    body: ZChangeRecordRequestSchema,
    response: ZCappedPage(ZChangeRecordRow),
  }),
  supplierDetail: endpoint({
    path: 'haier/standardChange/searchSupplierDetail',
    access: admin,
    tag,
    summary: '某供应商在各变更通知上的阅读、确认与逾期情况',
    body: ZSupplierDetailRequestSchema,
    response: ZCappedPage(ZSupplierStandingRow),
    columns: SUPPLIER_STANDING_COLUMNS,
  }),
  sharedChangeList: endpoint({
    path: 'getChangeListForSupplier',
    access: [...SUPPLIER_TYPES, ...DRAWING_ADMIN_TYPES],
    tag,
    summary: '与某供应商有关的变更记录（内部用户选择供应商；供应商只能看本公司）',
    body: ZSharedChangeListRequestSchema,
    response: ZCappedPage(ZSupplierChangeRow),
  }),

  // supplier side: every call runs inside the caller's own supplier's scope
  supplierChangeList: endpoint({
    path: 'supplier/tableChangeLog/getChangeListForSupplier',
    access: supplier,
    tag: tagSupplier,
    summary: '本公司收到的变更记录',
    body: ZChangeRecordRequestSchema,
    response: ZCappedPage(ZSupplierChangeRow),
  }),
  supplierFind: endpoint({
    path: 'supplier/tableChangeLog/findById',
    access: supplier,
    tag: tagSupplier,
    summary: '打开一份变更通知（未读的记为已读）',
    body: ZNoticeIdRequestSchema,
    response: ZEnvelope(ZSupplierNoticeDetail),
  }),
  unread: endpoint({
    path: 'supplier/standardlog/getUnReadNotice',
    access: supplier,
    tag: tagSupplier,
    summary: '通知铃铛：未读、待确认、逾期数与最新几条',
    response: ZEnvelope(ZUnreadNotice),
  }),
  inbox: endpoint({
    path: 'supplier/standardlog/getSupplierNoticeList',
    access: supplier,
    tag: tagSupplier,
    summary: '本公司的变更通知（未读在前）',
    body: ZInboxRequestSchema,
    response: ZCappedPage(ZSupplierNoticeRow),
  }),
  confirm: endpoint({
    path: 'supplier/standardlog/supplierConfirm',
    access: supplier,
    tag: tagSupplier,
    summary: '确认变更通知（须先查看每个新版本；记录所确认的文件版本及 sha256）',
    body: ZNoticeIdRequestSchema,
    response: ZEnvelope(ZConfirmNoticeResult),
  }),
} as const;
