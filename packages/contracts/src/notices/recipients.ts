/**
 * Who a notice went to and how each stands, as the manufacturer reads it: the recipients matrix
 * (list and export), the suppliers a draft would reach, and one supplier across notices
 * (searchSupplierDetail).
 */
import { z } from 'zod';
import { governedColumns } from '../endpoint.ts';
import { zId, zOptionalEnum, zOptionalText, zText } from '../fields.ts';
import { ZPageRequest } from '../paging.ts';
import { PAGES } from '../pages.ts';
import { recipientState } from './core.ts';
import { SUPPLIER_NOTICE_SORT_FIELDS, ZConfirmedFile, ZSupplierNoticeRow } from './inbox.ts';
import { RECIPIENT_FILTERS, RECIPIENT_STATUSES } from './state.ts';

// ---- rows ----------------------------------------------------------------------------------------

/** Why a supplier received a notice: an affected material it supplied under a valid grant at publish. */
export const ZRecipientBasis = z.object({ materialCode: z.string(), materialName: z.string(), validUntil: z.string() });
export type RecipientBasis = z.infer<typeof ZRecipientBasis>;

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

// ---- requests ------------------------------------------------------------------------------------

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

export const ZSupplierDetailRequestSchema = ZPageRequest(SUPPLIER_NOTICE_SORT_FIELDS, {
  supplierCode: zText('供应商', 32, { verb: '请选择' }),
  state: zOptionalEnum(RECIPIENT_FILTERS, '状态只能是 UNREAD、READ、CONFIRMED 或 OVERDUE'),
});
