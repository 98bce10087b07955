/**
 * The lists: a row of either side's list, the audit trail, the detail with every round, the
 * internal rows' governed columns, the lists' filters, and cancelling.
 */
import { z } from 'zod';
import { governedColumns } from '../endpoint.ts';
import { zId, zOptionalDate, zOptionalEnum, zOptionalText, zText, withDateRange } from '../fields.ts';
import { ZPageRequest } from '../paging.ts';
import { PAGES } from '../pages.ts';
import { ZCountersignFile, ZCountersignSigner } from './content.ts';
import { ZCountersignRound } from './signatures.ts';
import { COUNTERSIGN_ACTIONS, COUNTERSIGN_EVENT_ACTIONS, COUNTERSIGN_STATUSES } from './state.ts';

// ---- rows ----------------------------------------------------------------------------------------

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

export const ZCountersignCancelSchema = z.object({
  id: zId('会签单'),
  reason: zText('取消原因', 200, { verb: '请填写' }),
});
