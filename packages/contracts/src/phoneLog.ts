/**
 * Mobile numbers (the legacy portal's "a log of views of mobile phone numbers", its call
 * saveLookMobilePhoneLog). Every response that carries a person's mobile sends it masked (138****5678); the one
 * path to the full number is saveLookMobilePhoneLog on the caller's side, which checks the caller
 * may see that person and writes the view log row in the same transaction.
 */
import { z } from 'zod';
import { DRAWING_ADMIN_TYPES, INTERNAL_TYPES, SUPPLIER_TYPES } from './codes.ts';
import { endpoint, governedColumns } from './endpoint.ts';
import { ZCappedPage, ZEnvelope } from './envelope.ts';
import { zId, zOptionalDate, zOptionalEnum, zOptionalInt, zOptionalText, zText, withDateRange } from './fields.ts';
import { ZPageRequest } from './paging.ts';

const tag = 'phoneLog';
const tagSupplier = 'phoneLog (supplier)';

import { PHONE_LOG_PAGE } from './page-paths.ts';
import { PAGES } from './pages.ts';
export { PHONE_LOG_PAGE };

/**
 * Whose number: a supplier's contact, a purchaser (采购员) named on materials, or the contact of a
 * sub-tier vendor on a BOM line (BOM_VENDOR: its `contactId` is the BOM line's id).
 */
export const CONTACT_KIND_LABELS = {
  SUPPLIER: '供应商联系人',
  PURCHASER: '采购员',
  BOM_VENDOR: '次级供应商联系人',
} as const;
export type ContactKind = keyof typeof CONTACT_KIND_LABELS;
export const CONTACT_KINDS = Object.keys(CONTACT_KIND_LABELS) as [ContactKind, ...ContactKind[]];
const CONTACT_KIND_MESSAGE = `联系人类型只能是 ${CONTACT_KINDS.join('、')}`;

export const ZContactRow = z.object({
  id: z.number().int(),
  kind: z.enum(CONTACT_KINDS),
  supplierCode: z.string().nullable(),
  supplierName: z.string().nullable(),
  name: z.string(),
  title: z.string().nullable(),
  /** Always masked: 138****5678. */
  mobile: z.string(),
  email: z.string().nullable(),
});
export type ContactRow = z.infer<typeof ZContactRow>;

export const ZContactPageRequestSchema = ZPageRequest(['name', 'supplierCode'], {
  kind: zOptionalEnum(CONTACT_KINDS, CONTACT_KIND_MESSAGE),
  supplierCode: zOptionalText(32),
  /** Matches name or title. */
  keyword: zOptionalText(100),
});
export type ContactPageRequest = z.input<typeof ZContactPageRequestSchema>;

export const ZRevealRequestSchema = z.object({
  /** The contact's id; for kind BOM_VENDOR, the BOM line's id. */
  contactId: zId('联系人编号'),
  /** Absent: a contact of the contacts list (SUPPLIER or PURCHASER); BOM_VENDOR: a BOM line's vendor contact. */
  kind: zOptionalEnum(CONTACT_KINDS, CONTACT_KIND_MESSAGE),
  /** The page the number was revealed on (its route), for the log. */
  page: zText('页面', 200, { verb: '缺少' }),
});
export type RevealRequest = z.input<typeof ZRevealRequestSchema>;
export const ZRevealResult = z.object({ contactId: z.number().int(), mobile: z.string(), logId: z.number().int() });

export const ZPhoneLogRow = z.object({
  id: z.number().int(),
  viewerAccount: z.string(),
  viewerName: z.string(),
  viewerType: z.number().int(),
  viewerSupplierName: z.string().nullable(),
  contactKind: z.enum(CONTACT_KINDS),
  contactName: z.string(),
  contactSupplierName: z.string().nullable(),
  /** The number as it was shown before the reveal. */
  maskedMobile: z.string(),
  page: z.string(),
  /** Governed (PHONE_LOG_COLUMNS): absent when hidden for the caller, masked when masked. */
  ip: z.string().nullable().optional(),
  createdAt: z.string(),
});
export type PhoneLogRow = z.infer<typeof ZPhoneLogRow>;
/** The log rows' governed columns: the list and its Excel export. */
export const PHONE_LOG_COLUMNS = governedColumns(PAGES.mobilePhoneLog, ['ip']);

export const ZPhoneLogRequestSchema = withDateRange(
  ZPageRequest(['createdAt', 'viewerAccount', 'contactName'], {
    /** Who looked: account or name. */
    viewer: zOptionalText(64),
    viewerType: zOptionalInt(2, 9, '用户类型为 2 到 9'),
    /** Whose number: the contact's name. */
    contact: zOptionalText(100),
    contactKind: zOptionalEnum(CONTACT_KINDS, CONTACT_KIND_MESSAGE),
    supplierCode: zOptionalText(32),
    dateFrom: zOptionalDate,
    dateTo: zOptionalDate,
  }),
);
export type PhoneLogRequest = z.input<typeof ZPhoneLogRequestSchema>;

export const phoneLogApi = {
  contacts: endpoint({
    path: 'haier/supplierContact/list',
    access: DRAWING_ADMIN_TYPES,
    tag,
    summary: '供应商联系人与采购员（手机号脱敏）',
    body: ZContactPageRequestSchema,
    response: ZCappedPage(ZContactRow),
  }),
  reveal: endpoint({
    path: 'haier/saveLookMobilePhoneLog',
    access: INTERNAL_TYPES,
    tag,
    summary: '查看完整手机号（同一事务中写入查看日志）',
    body: ZRevealRequestSchema,
    response: ZEnvelope(ZRevealResult),
  }),
  page: endpoint({
    path: 'haier/mobilePhoneLog/page',
    access: DRAWING_ADMIN_TYPES,
    tag,
    summary: '手机号查看日志分页',
    body: ZPhoneLogRequestSchema,
    response: ZCappedPage(ZPhoneLogRow),
    columns: PHONE_LOG_COLUMNS,
  }),
  exportExcel: endpoint({
    path: 'haier/mobilePhoneLog/export',
    access: DRAWING_ADMIN_TYPES,
    tag,
    kind: 'bytes',
    summary: '导出手机号查看日志（.xlsx，与列表相同的筛选）',
    body: ZPhoneLogRequestSchema,
    button: PAGES.mobilePhoneLog.buttons.export,
    columns: PHONE_LOG_COLUMNS,
  }),

  // supplier side: the caller's own contacts and the purchasers of the materials it supplies
  supplierContacts: endpoint({
    path: 'supplier/supplierContact/list',
    access: SUPPLIER_TYPES,
    tag: tagSupplier,
    summary: '本公司联系人及所供物料的采购员（手机号脱敏）',
    body: ZContactPageRequestSchema,
    response: ZCappedPage(ZContactRow),
  }),
  supplierReveal: endpoint({
    path: 'supplier/saveLookMobilePhoneLog',
    access: SUPPLIER_TYPES,
    tag: tagSupplier,
    summary:
      '查看完整手机号（仅本公司联系人、所供物料的采购员与本公司BOM行上的次级供应商联系人；同一事务中写入查看日志）',
    body: ZRevealRequestSchema,
    response: ZEnvelope(ZRevealResult),
  }),
} as const;
