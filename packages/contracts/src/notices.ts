/**
 * Drawing change notices: a notice lists changed standard files (old version → new
 * version, the new one already published in the archive), goes to the suppliers that supply an
 * affected material under a valid grant at publish (frozen then), and each of them reads and
 * confirms it — the confirmation only after a user of that supplier viewed every new version.
 * Call names are the legacy portal's where it has one; create/edit/publish/withdraw/close/remind/export
 * are ours (the legacy portal has none).
 */
import type { Transition } from './workflow.ts';
import { z } from 'zod';
import { DRAWING_ADMIN_TYPES, SUPPLIER_TYPES } from './codes.ts';
import { endpoint, governedColumns } from './endpoint.ts';
import { ZCappedPage, ZEnvelope } from './envelope.ts';
import { zDay, zId, zOptionalDate, zOptionalEnum, zOptionalText, zText, withDateRange } from './fields.ts';
import { ZPageRequest } from './paging.ts';
import { FILE_STATUSES, FILE_TYPE_NAMES } from './archives.ts';
import { PAGES } from './pages.ts';

// ---- states and their transition tables ----------------------------------------------------------

export const NOTICE_STATUS_LABELS = {
  DRAFT: '草稿',
  PUBLISHED: '已发布',
  CLOSED: '已关闭',
  WITHDRAWN: '已撤回',
} as const;
export type NoticeStatus = keyof typeof NOTICE_STATUS_LABELS;
export const NOTICE_STATUSES = Object.keys(NOTICE_STATUS_LABELS) as [NoticeStatus, ...NoticeStatus[]];

export const RECIPIENT_STATUS_LABELS = { UNREAD: '未读', READ: '已读', CONFIRMED: '已确认' } as const;
export type RecipientStatus = keyof typeof RECIPIENT_STATUS_LABELS;
export const RECIPIENT_STATUSES = Object.keys(RECIPIENT_STATUS_LABELS) as [RecipientStatus, ...RecipientStatus[]];

/** A recipient filter: its status, or OVERDUE (past the due date and not confirmed — derived, never stored). */
export const RECIPIENT_FILTER_LABELS = { ...RECIPIENT_STATUS_LABELS, OVERDUE: '逾期' } as const;
export type RecipientFilter = keyof typeof RECIPIENT_FILTER_LABELS;
export const RECIPIENT_FILTERS = Object.keys(RECIPIENT_FILTER_LABELS) as [RecipientFilter, ...RecipientFilter[]];

/**
 * The notice's moves: 草稿 → 已发布 → 已关闭, or 已发布 → 已撤回 (with a reason). Editing is not a
 * move: only a draft can be edited. The api moves with `UPDATE … WHERE status IN (from)`.
 */
export const NOTICE_TRANSITIONS = {
  publish: { from: ['DRAFT'], to: 'PUBLISHED', label: '发布' },
  close: { from: ['PUBLISHED'], to: 'CLOSED', label: '关闭' },
  withdraw: { from: ['PUBLISHED'], to: 'WITHDRAWN', label: '撤回' },
} as const satisfies Record<string, Transition<NoticeStatus>>;
export type NoticeMove = keyof typeof NOTICE_TRANSITIONS;
export const NOTICE_EDITABLE: readonly NoticeStatus[] = ['DRAFT'];

/**
 * A recipient's moves: 未读 → 已读 (a user of the supplier opens it) → 已确认. Confirming an unread
 * notice reads it too. Repeating a move that is already done changes nothing and is not an error.
 */
export const RECIPIENT_TRANSITIONS = {
  read: { from: ['UNREAD'], to: 'READ', label: '阅读' },
  confirm: { from: ['UNREAD', 'READ'], to: 'CONFIRMED', label: '确认' },
} as const satisfies Record<string, Transition<RecipientStatus>>;
export type RecipientMove = keyof typeof RECIPIENT_TRANSITIONS;

/** Why a notice cannot make `move` (or be edited) from `status`: the 409's message. */
export function noticeMoveRefusal(move: NoticeMove | 'edit', status: NoticeStatus): string {
  const now = `该通知当前为「${NOTICE_STATUS_LABELS[status]}」`;
  if (move === 'edit') return `${now}，只有草稿可以编辑`;
  const t = NOTICE_TRANSITIONS[move];
  if (status === t.to) return move === 'publish' ? '该通知已发布，不能重复发布' : `该通知已${t.label}`;
  return `${now}，不能${t.label}`;
}

/** Notice events in the audit trail. */
export const NOTICE_EVENT_LABELS = {
  CREATE: '创建草稿',
  UPDATE: '编辑草稿',
  PUBLISH: '发布',
  WITHDRAW: '撤回',
  CLOSE: '关闭',
  REMIND: '催办',
  READ: '阅读',
  CONFIRM: '确认',
} as const;
export type NoticeEventAction = keyof typeof NOTICE_EVENT_LABELS;
export const NOTICE_EVENT_ACTIONS = Object.keys(NOTICE_EVENT_LABELS) as [NoticeEventAction, ...NoticeEventAction[]];

/** A new notice's confirmation due date: this many days after today. */
export const NOTICE_DUE_DAYS_DEFAULT = 7;
export const NOTICE_CHANGES_MAX = 50;
/** A recipient reminded less than this long ago is not reminded again. */
export const REMIND_INTERVAL_MINUTES = 60;
/** The bell's dropdown shows this many notices. */
export const BELL_LATEST = 5;

const tag = 'notices';
const tagSupplier = 'notices (supplier)';

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

const noticeCore = {
  id: z.number().int(),
  number: z.string(),
  title: z.string(),
  reason: z.string(),
  productLineCode: z.string(),
  productLineName: z.string(),
  status: z.enum(NOTICE_STATUSES),
  /** YYYY-MM-DD: confirm by the end of this day (UTC+8). */
  dueDate: z.string(),
  /** e.g. "HR-KT-D202（B→C）等 2 项" */
  changeSummary: z.string(),
  changeCount: z.number().int(),
  publishedAt: z.string().nullable(),
  publishedByName: z.string().nullable(),
  closedAt: z.string().nullable(),
  withdrawnAt: z.string().nullable(),
  withdrawReason: z.string().nullable(),
};

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

/** Why a supplier received a notice: an affected material it supplied under a valid grant at publish. */
export const ZRecipientBasis = z.object({ materialCode: z.string(), materialName: z.string(), validUntil: z.string() });
export type RecipientBasis = z.infer<typeof ZRecipientBasis>;

/** A file version a confirmation confirmed, and the logged view that proves it was seen. */
export const ZConfirmedFile = z.object({
  fileId: z.number().int(),
  standardCode: z.string(),
  version: z.string(),
  sha256: z.string(),
  viewedAt: z.string(),
});
export type ConfirmedFile = z.infer<typeof ZConfirmedFile>;

/** A recipient's state (its status is named by the row it is in: status, or recipientStatus). */
const recipientState = {
  overdue: z.boolean(),
  readAt: z.string().nullable(),
  readByAccount: z.string().nullable(),
  readByName: z.string().nullable(),
  confirmedAt: z.string().nullable(),
  confirmedByAccount: z.string().nullable(),
  confirmedByName: z.string().nullable(),
  remindCount: z.number().int(),
  lastRemindedAt: z.string().nullable(),
};

/** One supplier of the recipients matrix. */
export const ZRecipientRow = z.object({
  id: z.number().int(),
  supplierCode: z.string(),
  supplierName: z.string(),
  basis: z.array(ZRecipientBasis),
  status: z.enum(RECIPIENT_STATUSES),
  ...recipientState,
  /** Governed (NOTICE_RECIPIENT_COLUMNS): absent when hidden for the caller, masked when masked. */
  readByAccount: z.string().nullable().optional(),
  readByName: z.string().nullable().optional(),
  confirmedByAccount: z.string().nullable().optional(),
  confirmedByName: z.string().nullable().optional(),
  readIp: z.string().nullable().optional(),
  confirmedIp: z.string().nullable().optional(),
  confirmedFiles: z.array(ZConfirmedFile),
});
/** The recipients matrix's governed columns: its list and its Excel export. */
export const NOTICE_RECIPIENT_COLUMNS = governedColumns(
  PAGES.changeNoticeList,
  ['readByName', 'readByAccount', 'readIp', 'confirmedByName', 'confirmedByAccount', 'confirmedIp'],
  undefined,
  undefined,
  // a reading and a confirmation are entries of the notice's audit trail too: who and from where
  {
    'events.userName': ['readByName', 'confirmedByName'],
    'events.userAccount': ['readByAccount', 'confirmedByAccount'],
    'events.ip': ['readIp', 'confirmedIp'],
  },
);
export type RecipientRow = z.infer<typeof ZRecipientRow>;

/** A supplier that would receive a draft if it were published now, and why. */
export const ZRecipientPreview = z.object({
  supplierCode: z.string(),
  supplierName: z.string(),
  basis: z.array(ZRecipientBasis),
});
export type RecipientPreview = z.infer<typeof ZRecipientPreview>;

/** A change record: which version of which standard code replaced which, by which notice. */
export const ZChangeRecordRow = z.object({
  changeId: z.number().int(),
  noticeId: z.number().int(),
  noticeNumber: z.string(),
  noticeTitle: z.string(),
  noticeStatus: z.enum(NOTICE_STATUSES),
  standardCode: z.string(),
  name: z.string(),
  materialCode: z.string(),
  materialName: z.string(),
  oldVersion: z.string().nullable(),
  newVersion: z.string(),
  newFileId: z.number().int(),
  newFileStatus: z.enum(FILE_STATUSES),
  publishedAt: z.string().nullable(),
  dueDate: z.string(),
});
export type ChangeRecordRow = z.infer<typeof ZChangeRecordRow>;

/** A change record as it concerns one supplier: with that supplier's state on its notice. */
export const ZSupplierChangeRow = ZChangeRecordRow.extend({
  recipientStatus: z.enum(RECIPIENT_STATUSES),
  overdue: z.boolean(),
});
export type SupplierChangeRow = z.infer<typeof ZSupplierChangeRow>;

/** One notice as one supplier stands on it (its inbox, and searchSupplierDetail). */
export const ZSupplierNoticeRow = z.object({
  ...noticeCore,
  recipientStatus: z.enum(RECIPIENT_STATUSES),
  ...recipientState,
});
export type SupplierNoticeRow = z.infer<typeof ZSupplierNoticeRow>;

/**
 * searchSupplierDetail (供应商确认情况, on 变更通知列表): one supplier across notices, as the
 * manufacturer reads it. Its rows repeat governed fields of the notice list and of the recipients
 * matrix, so they are governed as there (same page and fields: the same permission rows).
 */
export const SUPPLIER_STANDING_COLUMNS = governedColumns(
  PAGES.changeNoticeList,
  ['publishedByName', 'withdrawReason', 'readByName', 'readByAccount', 'confirmedByName', 'confirmedByAccount'],
  undefined,
  undefined,
  {
    // the rows carry the reading's and the confirmation's addresses and the trail's people as well
    readIp: ['readIp'],
    confirmedIp: ['confirmedIp'],
    'events.userName': ['createdByName', 'publishedByName', 'readByName', 'confirmedByName'],
    'events.userAccount': ['readByAccount', 'confirmedByAccount'],
    'events.ip': ['readIp', 'confirmedIp'],
  },
);
/** A row of searchSupplierDetail: governed (SUPPLIER_STANDING_COLUMNS): absent when hidden for the caller, masked when masked. */
export const ZSupplierStandingRow = ZSupplierNoticeRow.extend(
  Object.fromEntries(
    Object.keys(SUPPLIER_STANDING_COLUMNS.columns).map((k) => [k, z.string().nullable().optional()]),
  ) as Record<keyof typeof SUPPLIER_STANDING_COLUMNS.columns, z.ZodOptional<z.ZodNullable<z.ZodString>>>,
);
export type SupplierStandingRow = z.infer<typeof ZSupplierStandingRow>;

/** A change as a supplier sees it: with when a user of that supplier first viewed the new version. */
export const ZSupplierNoticeChange = ZNoticeChange.extend({ viewedAt: z.string().nullable() });
export type SupplierNoticeChange = z.infer<typeof ZSupplierNoticeChange>;

/** supplier findById: the notice, its changes with what this supplier viewed, and its own state. */
export const ZSupplierNoticeDetail = ZSupplierNoticeRow.extend({
  description: z.string().nullable(),
  changes: z.array(ZSupplierNoticeChange),
  confirmedFiles: z.array(ZConfirmedFile),
});
export type SupplierNoticeDetail = z.infer<typeof ZSupplierNoticeDetail>;

/** The bell: counts over published notices, and the latest few (unread first). */
export const ZUnreadNotice = z.object({
  unread: z.number().int(),
  unconfirmed: z.number().int(),
  overdue: z.number().int(),
  latest: z.array(ZSupplierNoticeRow),
});
export type UnreadNotice = z.infer<typeof ZUnreadNotice>;

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

export const RECIPIENT_SORT_FIELDS = ['supplierCode', 'readAt', 'confirmedAt'] as const;
export const ZRecipientPageRequestSchema = ZPageRequest(RECIPIENT_SORT_FIELDS, {
  id: zId('通知'),
  state: zOptionalEnum(RECIPIENT_FILTERS, '状态只能是 UNREAD、READ、CONFIRMED 或 OVERDUE'),
  /** Supplier code or name contains. */
  keyword: zOptionalText(100),
});
export type RecipientPageRequest = z.input<typeof ZRecipientPageRequestSchema>;

export const ZRecipientExportSchema = z.object({
  id: zId('通知'),
  state: zOptionalEnum(RECIPIENT_FILTERS, '状态只能是 UNREAD、READ、CONFIRMED 或 OVERDUE'),
  keyword: zOptionalText(100),
});

export const CHANGE_SORT_FIELDS = ['publishedAt', 'standardCode'] as const;
const changeFilters = {
  standardCode: zOptionalText(64),
  materialCode: zOptionalText(40),
  noticeNumber: zOptionalText(20),
  productLineCode: zOptionalText(32),
  dateFrom: zOptionalDate,
  dateTo: zOptionalDate,
};
export const ZChangeRecordRequestSchema = withDateRange(ZPageRequest(CHANGE_SORT_FIELDS, changeFilters));
export type ChangeRecordRequest = z.input<typeof ZChangeRecordRequestSchema>;
/** The shared call: internal users name the supplier; a supplier always gets its own (the field is ignored). */
export const ZSharedChangeListRequestSchema = withDateRange(
  ZPageRequest(CHANGE_SORT_FIELDS, { ...changeFilters, supplierCode: zOptionalText(32) }),
);

export const SUPPLIER_NOTICE_SORT_FIELDS = ['publishedAt', 'dueDate'] as const;
export const ZSupplierDetailRequestSchema = ZPageRequest(SUPPLIER_NOTICE_SORT_FIELDS, {
  supplierCode: zText('供应商', 32, { verb: '请选择' }),
  state: zOptionalEnum(RECIPIENT_FILTERS, '状态只能是 UNREAD、READ、CONFIRMED 或 OVERDUE'),
});

export const ZInboxRequestSchema = ZPageRequest(SUPPLIER_NOTICE_SORT_FIELDS, {
  state: zOptionalEnum(RECIPIENT_FILTERS, '状态只能是 UNREAD、READ、CONFIRMED 或 OVERDUE'),
  /** Number or title contains. */
  keyword: zOptionalText(100),
});
export type InboxRequest = z.input<typeof ZInboxRequestSchema>;

export const ZChangeCandidatesRequestSchema = z.object({
  /** Standard code or name contains. */
  keyword: zOptionalText(100),
  /** These files (e.g. the version just uploaded), effective or not. */
  ids: z.array(zId('文件')).max(NOTICE_CHANGES_MAX, `最多 ${NOTICE_CHANGES_MAX} 个文件`).optional(),
});

export const ZConfirmNoticeResult = z.object({
  recipientStatus: z.enum(RECIPIENT_STATUSES),
  confirmedAt: z.string(),
  alreadyConfirmed: z.boolean(),
  confirmedFiles: z.array(ZConfirmedFile),
});

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
