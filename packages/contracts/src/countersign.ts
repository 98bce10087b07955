/**
 * Countersign lists (会签单): the manufacturer issues a sign-off document to one supplier
 * about a drawing change or a new drawing — title, an optional published change notice, the file
 * versions concerned (with their sha256), the items to agree on, a due date and the internal
 * countersigners in order. The supplier signs first (step 0), then each internal signer in turn
 * (steps 1…n); any of them may return it with a reason, which ends the round; the issuer edits
 * and reissues it as a new round, earlier rounds staying readable. On completion the server
 * produces the stamped sign-off sheet (PDF). Call names are the legacy portal's where it has one; the
 * draft, issue, internal sign, cancel and sheet calls are ours (the legacy portal has none).
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

// ---- states and the transition table -------------------------------------------------------------

export const COUNTERSIGN_STATUS_LABELS = {
  DRAFT: '草稿',
  SUPPLIER_SIGNING: '待供应商会签',
  INTERNAL_SIGNING: '待我方会签',
  RETURNED: '已退回',
  COMPLETED: '已完成',
  CANCELLED: '已取消',
} as const;
export type CountersignStatus = keyof typeof COUNTERSIGN_STATUS_LABELS;
export const COUNTERSIGN_STATUSES = Object.keys(COUNTERSIGN_STATUS_LABELS) as [
  CountersignStatus,
  ...CountersignStatus[],
];

/**
 * The moves: 草稿/已退回 → 待供应商会签 (issue; from 已退回 it opens the next round) → 待我方会签
 * (the supplier signs) → 待我方会签 (an internal signer signs, not the last) → 已完成 (the last
 * signer signs); 退回 from either signing state ends the round; 已取消 from 草稿 or 已退回. The api
 * moves with `UPDATE … WHERE status = <from> AND round = <seen> AND step = <seen>`.
 */
export const COUNTERSIGN_TRANSITIONS = {
  issue: { from: ['DRAFT', 'RETURNED'], to: 'SUPPLIER_SIGNING', label: '下发' },
  supplierSign: { from: ['SUPPLIER_SIGNING'], to: 'INTERNAL_SIGNING', label: '会签' },
  internalSign: { from: ['INTERNAL_SIGNING'], to: 'INTERNAL_SIGNING', label: '会签' },
  complete: { from: ['INTERNAL_SIGNING'], to: 'COMPLETED', label: '会签' },
  return: { from: ['SUPPLIER_SIGNING', 'INTERNAL_SIGNING'], to: 'RETURNED', label: '退回' },
  cancel: { from: ['DRAFT', 'RETURNED'], to: 'CANCELLED', label: '取消' },
} as const satisfies Record<string, Transition<CountersignStatus>>;
export type CountersignMove = keyof typeof COUNTERSIGN_TRANSITIONS;
/** Only the issuer edits, and only a draft or a returned round (the next round's content). */
export const COUNTERSIGN_EDITABLE: readonly CountersignStatus[] = ['DRAFT', 'RETURNED'];

/** Why a list cannot make `move` (or be edited) from `status`: the 409's message. */
export function countersignMoveRefusal(move: CountersignMove | 'edit', status: CountersignStatus): string {
  const now = `该会签单当前为「${COUNTERSIGN_STATUS_LABELS[status]}」`;
  if (move === 'edit') return `${now}，只有草稿或已退回的会签单可以编辑`;
  if (move === 'issue' && (status === 'SUPPLIER_SIGNING' || status === 'INTERNAL_SIGNING'))
    return '该会签单已下发，不能重复下发';
  if (move === 'cancel' && status === 'CANCELLED') return '该会签单已取消';
  return `${now}，不能${COUNTERSIGN_TRANSITIONS[move].label}`;
}

/** A signer's decision. 有条件同意 and 退回 need a text (the condition, the reason). */
export const COUNTERSIGN_DECISION_LABELS = { AGREE: '同意', CONDITIONAL: '有条件同意', RETURN: '退回' } as const;
export type CountersignDecision = keyof typeof COUNTERSIGN_DECISION_LABELS;
export const COUNTERSIGN_DECISIONS = Object.keys(COUNTERSIGN_DECISION_LABELS) as [
  CountersignDecision,
  ...CountersignDecision[],
];

export const COUNTERSIGN_EVENT_LABELS = {
  CREATE: '创建草稿',
  UPDATE: '编辑',
  ISSUE: '下发',
  SIGN: '会签',
  RETURN: '退回',
  COMPLETE: '完成',
  CANCEL: '取消',
  DOWNLOAD: '下载签核单',
} as const;
export type CountersignEventAction = keyof typeof COUNTERSIGN_EVENT_LABELS;
export const COUNTERSIGN_EVENT_ACTIONS = Object.keys(COUNTERSIGN_EVENT_LABELS) as [
  CountersignEventAction,
  ...CountersignEventAction[],
];

/** What the current user may do on a list now (the server decides; the page shows these only). */
export const COUNTERSIGN_ACTION_LABELS = {
  edit: '编辑',
  issue: '下发',
  cancel: '取消',
  sign: '会签',
  download: '下载签核单',
} as const;
export type CountersignAction = keyof typeof COUNTERSIGN_ACTION_LABELS;
export const COUNTERSIGN_ACTIONS = Object.keys(COUNTERSIGN_ACTION_LABELS) as [
  CountersignAction,
  ...CountersignAction[],
];

export const COUNTERSIGN_FILES_MAX = 50;
export const COUNTERSIGN_SIGNERS_MAX = 10;
/** A new list's due date: this many days after today. */
export const COUNTERSIGN_DUE_DAYS_DEFAULT = 7;

const tag = 'countersign';
const tagSupplier = 'countersign (supplier)';

// ---- rows ----------------------------------------------------------------------------------------

/** A file version concerned, with the sha256 of its bytes as the archive stores it. */
export const ZCountersignFile = z.object({
  fileId: z.number().int(),
  standardCode: z.string(),
  name: z.string(),
  version: z.string(),
  status: z.enum(FILE_STATUSES),
  fileName: z.string(),
  fileType: z.enum(FILE_TYPE_NAMES),
  materialCode: z.string(),
  sha256: z.string(),
});
export type CountersignFile = z.infer<typeof ZCountersignFile>;

/** An internal countersigner: its place in the order (1…n), and who. */
export const ZCountersignSigner = z.object({
  step: z.number().int(),
  userId: z.number().int(),
  account: z.string(),
  name: z.string(),
  department: z.string(),
});
export type CountersignSigner = z.infer<typeof ZCountersignSigner>;

/** One signature: who (user, supplier or department), the decision, when, from where, on which content. */
export const ZCountersignSignature = z.object({
  id: z.number().int(),
  round: z.number().int(),
  step: z.number().int(),
  /** Who signed is who the trail's SIGN or RETURN entry names: governed with 操作记录·操作人 / 操作人账号 (COUNTERSIGN_COLUMNS), absent when hidden. */
  userAccount: z.string().optional(),
  userName: z.string().optional(),
  supplierCode: z.string().nullable(),
  supplierName: z.string().nullable(),
  department: z.string().nullable(),
  decision: z.enum(COUNTERSIGN_DECISIONS),
  comment: z.string().nullable(),
  /** The sha256 of the round's content the signer signed. */
  contentSha256: z.string(),
  /** Governed (COUNTERSIGN_COLUMNS `rounds.signatures.ip`): absent when hidden for the caller, masked when masked. */
  ip: z.string().nullable().optional(),
  createdAt: z.string(),
});
export type CountersignSignature = z.infer<typeof ZCountersignSignature>;

/** One issued round: the content as issued (frozen), how it ended, and its signatures. */
export const ZCountersignRound = z.object({
  round: z.number().int(),
  title: z.string(),
  items: z.string(),
  dueDate: z.string(),
  noticeNumber: z.string().nullable(),
  files: z.array(ZCountersignFile),
  signers: z.array(ZCountersignSigner),
  contentSha256: z.string(),
  issuedAt: z.string(),
  /** Who issued is who the trail's ISSUE entry names: governed with 操作记录·操作人 (COUNTERSIGN_COLUMNS), absent when hidden. */
  issuedByName: z.string().optional(),
  /** null while the round is being signed. */
  outcome: z.enum(['RETURNED', 'COMPLETED']).nullable(),
  endedAt: z.string().nullable(),
  signatures: z.array(ZCountersignSignature),
});
export type CountersignRound = z.infer<typeof ZCountersignRound>;

/** A row of either list. */
export const ZCountersignRow = z.object({
  id: z.number().int(),
  number: z.string(),
  title: z.string(),
  supplierCode: z.string(),
  supplierName: z.string(),
  noticeId: z.number().int().nullable(),
  noticeNumber: z.string().nullable(),
  status: z.enum(COUNTERSIGN_STATUSES),
  /** 0 before the first issue. */
  round: z.number().int(),
  /** 0: the supplier's turn; 1…n: that internal signer's turn. */
  step: z.number().int(),
  /** YYYY-MM-DD: sign by the end of this day (UTC+8). */
  dueDate: z.string(),
  /** Being signed and past its due date (derived, never stored). */
  overdue: z.boolean(),
  /** Whose turn it is: the supplier's name or the internal signer's; null when nobody's. */
  waitingFor: z.string().nullable(),
  signerNames: z.string(),
  fileCount: z.number().int(),
  /** Governed (COUNTERSIGN_COLUMNS): absent when hidden for the caller, masked when masked. */
  createdByName: z.string().optional(),
  createdAt: z.string(),
  issuedAt: z.string().nullable(),
  completedAt: z.string().nullable(),
});
export type CountersignRow = z.infer<typeof ZCountersignRow>;

export const ZCountersignEvent = z.object({
  id: z.number().int(),
  round: z.number().int(),
  action: z.enum(COUNTERSIGN_EVENT_ACTIONS),
  /** Governed (COUNTERSIGN_COLUMNS `events.*`): absent when hidden for the caller, masked when masked. */
  userAccount: z.string().optional(),
  userName: z.string().optional(),
  ip: z.string().nullable().optional(),
  detail: z.string().nullable(),
  createdAt: z.string(),
});
export type CountersignEvent = z.infer<typeof ZCountersignEvent>;

/** Either Info call: the current content, every round with its signatures, and what the caller may do. */
export const ZCountersignDetail = ZCountersignRow.extend({
  items: z.string(),
  files: z.array(ZCountersignFile),
  signers: z.array(ZCountersignSigner),
  rounds: z.array(ZCountersignRound),
  /** Governed (COUNTERSIGN_COLUMNS). */
  cancelReason: z.string().nullable().optional(),
  /** Internal users only (the supplier gets an empty list). */
  events: z.array(ZCountersignEvent),
  actions: z.array(z.enum(COUNTERSIGN_ACTIONS)),
});
export type CountersignDetail = z.infer<typeof ZCountersignDetail>;

/** An internal user that may countersign (types 3/7/8/9). */
export const ZCountersignerOption = z.object({
  id: z.number().int(),
  account: z.string(),
  name: z.string(),
  department: z.string(),
});
export type CountersignerOption = z.infer<typeof ZCountersignerOption>;

// ---- requests ------------------------------------------------------------------------------------

export const COUNTERSIGN_SORT_FIELDS = ['number', 'dueDate', 'createdAt', 'issuedAt'] as const;
const listFilters = {
  /** Number or title contains. */
  keyword: zOptionalText(100),
  status: zOptionalEnum(
    COUNTERSIGN_STATUSES,
    '状态只能是 DRAFT、SUPPLIER_SIGNING、INTERNAL_SIGNING、RETURNED、COMPLETED 或 CANCELLED',
  ),
  /** Due date range, YYYY-MM-DD. */
  dateFrom: zOptionalDate,
  dateTo: zOptionalDate,
  /** '1': only lists being signed past their due date. */
  overdueOnly: zOptionalEnum(['1'], '逾期筛选只能是 1'),
};
export const ZCountersignPageRequestSchema = withDateRange(
  ZPageRequest(COUNTERSIGN_SORT_FIELDS, {
    ...listFilters,
    supplierCode: zOptionalText(32),
    /** An internal countersigner's account (exact). */
    signer: zOptionalText(64),
  }),
);
export type CountersignPageRequest = z.input<typeof ZCountersignPageRequestSchema>;
export const ZSupplierCountersignPageRequestSchema = withDateRange(ZPageRequest(COUNTERSIGN_SORT_FIELDS, listFilters));
export type SupplierCountersignPageRequest = z.input<typeof ZSupplierCountersignPageRequestSchema>;

export const ZCountersignIdRequestSchema = z.object({ id: zId('会签单') });

/** A draft (or the next round's content): what the form edits. */
export const ZCountersignDraftSchema = z.object({
  title: zText('标题', 100),
  supplierCode: zText('供应商', 32, { verb: '请选择' }),
  /** Optional; null (a cleared picker) counts as none. */
  noticeId: z.preprocess((v) => (v === null || v === '' ? undefined : v), zId('变更通知').optional()),
  items: zText('会签事项', 2000),
  dueDate: zDay('会签截止日期'),
  fileIds: z
    .array(zId('文件版本'), { error: '请选择涉及的文件版本' })
    .min(1, '请至少选择一个涉及的文件版本')
    .max(COUNTERSIGN_FILES_MAX, `最多 ${COUNTERSIGN_FILES_MAX} 个文件版本`)
    .refine((ids) => new Set(ids).size === ids.length, '同一文件版本不能重复选择'),
  signerIds: z
    .array(zId('会签人'), { error: '请选择我方会签人' })
    .min(1, '请至少选择一位我方会签人')
    .max(COUNTERSIGN_SIGNERS_MAX, `最多 ${COUNTERSIGN_SIGNERS_MAX} 位会签人`)
    .refine((ids) => new Set(ids).size === ids.length, '同一会签人不能重复选择'),
});
export type CountersignDraft = z.input<typeof ZCountersignDraftSchema>;
export const ZCountersignUpdateSchema = ZCountersignDraftSchema.extend({ id: zId('会签单') });

/**
 * A signature (or a return): the round and step the signer saw — a stale page or a second submit
 * of the same step is refused (409), never doubled. 有条件同意 names the condition, 退回 the reason.
 */
export const ZCountersignSubmitSchema = z
  .object({
    id: zId('会签单'),
    round: zId('轮次'),
    step: z
      .number({ error: '缺少会签步骤' })
      .int('会签步骤无效')
      .min(0, '会签步骤无效')
      .max(COUNTERSIGN_SIGNERS_MAX, '会签步骤无效'),
    decision: z.enum(COUNTERSIGN_DECISIONS, { error: '请选择会签意见' }),
    comment: zOptionalText(500),
  })
  .superRefine((v, ctx) => {
    if (v.decision !== 'AGREE' && !v.comment)
      ctx.addIssue({
        code: 'custom',
        path: ['comment'],
        message: v.decision === 'RETURN' ? '请填写退回原因' : '请填写同意的条件',
      });
  });
export type CountersignSubmit = z.input<typeof ZCountersignSubmitSchema>;

export const ZCountersignCancelSchema = z.object({
  id: zId('会签单'),
  reason: zText('取消原因', 200, { verb: '请填写' }),
});

export const ZCountersignerRequestSchema = z.object({ keyword: zOptionalText(64) });
/** File versions of the archive to pick from (any status: a sign-off may concern a version not yet effective). */
export const ZCountersignFileRequestSchema = z.object({
  keyword: zOptionalText(100),
  /** Only versions of materials this supplier supplies (what a list for it may name). */
  supplierCode: zOptionalText(32),
  ids: z.array(zId('文件')).max(COUNTERSIGN_FILES_MAX, `最多 ${COUNTERSIGN_FILES_MAX} 个文件`).optional(),
});

export const ZCountersignSubmitResult = z.object({
  status: z.enum(COUNTERSIGN_STATUSES),
  round: z.number().int(),
  step: z.number().int(),
});

// ---- calls -------------------------------------------------------------------------------------

const admin = DRAWING_ADMIN_TYPES;
const supplier = SUPPLIER_TYPES;
const detail = ZEnvelope(ZCountersignDetail);

/** The page whose buttons (新建, 编辑, 下发, 取消, 会签, 下载签核单) and columns the permissions govern. */
export const COUNTERSIGN_LIST_PAGE = PAGES.countersignList.path;
/** The internal countersign rows' governed columns: list and detail (every internal call answering one). */
export const COUNTERSIGN_COLUMNS = governedColumns(
  PAGES.countersignList,
  ['createdByName', 'cancelReason', 'events.userName', 'events.userAccount', 'events.ip', 'rounds.signatures.ip'],
  { cancelReason: 'CANCEL' },
  undefined,
  {
    // the trail's CREATE entry names the creator; the row's creator, a round's issuer and its signers are people of the trail
    createdByName: ['events.[action=CREATE].userName', 'events.[action=CREATE].userAccount'],
    'events.userName': ['createdByName', 'rounds.issuedByName', 'rounds.signatures.userName'],
    'events.userAccount': ['rounds.signatures.userAccount'],
    // a signature is made from where the trail's SIGN, RETURN or COMPLETE entry says, and the other way round
    'events.ip': ['rounds.signatures.ip'],
    'rounds.signatures.ip': ['events.[action=SIGN|RETURN|COMPLETE].ip'],
  },
);
const csButton = PAGES.countersignList.buttons;

export const countersignApi = {
  page: endpoint({
    path: 'haier/countersign/getCountersignHaierPager',
    access: admin,
    tag,
    summary: '会签单分页（按供应商、状态、截止日期、会签人筛选）',
    body: ZCountersignPageRequestSchema,
    response: ZCappedPage(ZCountersignRow),
    columns: COUNTERSIGN_COLUMNS,
  }),
  detail: endpoint({
    path: 'haier/countersign/getCountersignHaierInfo',
    access: admin,
    tag,
    summary: '会签单详情：内容、文件、各轮签署记录与可做的操作',
    body: ZCountersignIdRequestSchema,
    response: detail,
    columns: COUNTERSIGN_COLUMNS,
  }),
  signers: endpoint({
    path: 'haier/countersign/selectSigners',
    access: admin,
    tag,
    summary: '可选的我方会签人（内部用户）',
    body: ZCountersignerRequestSchema,
    response: ZEnvelope(z.array(ZCountersignerOption)),
  }),
  files: endpoint({
    path: 'haier/countersign/selectFiles',
    access: admin,
    tag,
    summary: '可选的文件版本（含 sha256）',
    body: ZCountersignFileRequestSchema,
    response: ZEnvelope(z.array(ZCountersignFile)),
  }),
  create: endpoint({
    path: 'haier/countersign/create',
    access: admin,
    tag,
    button: csButton.create,
    summary: '新建会签单草稿',
    body: ZCountersignDraftSchema,
    response: detail,
    columns: COUNTERSIGN_COLUMNS,
  }),
  update: endpoint({
    path: 'haier/countersign/update',
    access: admin,
    tag,
    button: csButton.edit,
    summary: '编辑会签单（草稿，或已退回后下一轮的内容）',
    body: ZCountersignUpdateSchema,
    response: detail,
    columns: COUNTERSIGN_COLUMNS,
  }),
  issue: endpoint({
    path: 'haier/countersign/issue',
    access: admin,
    tag,
    button: csButton.issue,
    summary: '下发给供应商会签（已退回的开始新一轮）',
    body: ZCountersignIdRequestSchema,
    response: detail,
    columns: COUNTERSIGN_COLUMNS,
  }),
  sign: endpoint({
    path: 'haier/countersign/sign',
    access: admin,
    tag,
    button: csButton.sign,
    summary: '我方会签：同意、有条件同意或退回（按顺序，轮到本人时）',
    body: ZCountersignSubmitSchema,
    response: ZEnvelope(ZCountersignSubmitResult),
  }),
  cancel: endpoint({
    path: 'haier/countersign/cancel',
    access: admin,
    tag,
    button: csButton.cancel,
    summary: '取消草稿或已退回的会签单',
    body: ZCountersignCancelSchema,
    response: detail,
    columns: COUNTERSIGN_COLUMNS,
  }),
  sheet: endpoint({
    path: 'haier/countersign/downloadSheet',
    access: admin,
    tag,
    kind: 'bytes',
    button: csButton.download,
    summary: '下载签核单 PDF（已完成的会签单，带本人水印，记入下载日志）',
    body: ZCountersignIdRequestSchema,
  }),

  // supplier side: every call runs inside the caller's own supplier's scope
  supplierPage: endpoint({
    path: 'supplier/countersign/getCountersignPager',
    access: supplier,
    tag: tagSupplier,
    summary: '本公司的会签单分页',
    body: ZSupplierCountersignPageRequestSchema,
    response: ZCappedPage(ZCountersignRow),
  }),
  supplierDetail: endpoint({
    path: 'supplier/countersign/getCountersignInfo',
    access: supplier,
    tag: tagSupplier,
    summary: '本公司的会签单详情',
    body: ZCountersignIdRequestSchema,
    response: detail,
  }),
  submit: endpoint({
    path: 'supplier/countersign/submitCountersign',
    access: supplier,
    tag: tagSupplier,
    summary: '供应商会签：同意、有条件同意或退回',
    body: ZCountersignSubmitSchema,
    response: ZEnvelope(ZCountersignSubmitResult),
  }),
  supplierSheet: endpoint({
    path: 'supplier/countersign/downloadSheet',
    access: supplier,
    tag: tagSupplier,
    kind: 'bytes',
    summary: '下载签核单 PDF（带本人水印，记入下载日志）',
    body: ZCountersignIdRequestSchema,
  }),
} as const;

/**
 * The button behind each action an internal user may be offered on a list: an action
 * whose button the caller's type lacks is left out of `actions`, as its route refuses it.
 */
export const COUNTERSIGN_ACTION_BUTTONS = {
  edit: countersignApi.update.button,
  issue: countersignApi.issue.button,
  cancel: countersignApi.cancel.button,
  sign: countersignApi.sign.button,
  download: countersignApi.sheet.button,
} as const satisfies Record<CountersignAction, unknown>;
