/** A notice as its supplier sees it: the inbox and the bell, the notice opened, and confirming it. */
import { z } from 'zod';
import { zOptionalEnum, zOptionalText } from '../fields.ts';
import { ZPageRequest } from '../paging.ts';
import { noticeCore, recipientState } from './core.ts';
import { ZNoticeChange } from './notice.ts';
import { RECIPIENT_FILTERS, RECIPIENT_STATUSES } from './state.ts';

// ---- rows ----------------------------------------------------------------------------------------

/** A file version a confirmation confirmed, and the logged view that proves it was seen. */
export const ZConfirmedFile = z.object({
  fileId: z.number().int(),
  standardCode: z.string(),
  version: z.string(),
  sha256: z.string(),
  viewedAt: z.string(),
});
export type ConfirmedFile = z.infer<typeof ZConfirmedFile>;

/** One notice as one supplier stands on it (its inbox, and searchSupplierDetail). */
export const ZSupplierNoticeRow = z.object({
  ...noticeCore,
  recipientStatus: z.enum(RECIPIENT_STATUSES),
  ...recipientState,
});
export type SupplierNoticeRow = z.infer<typeof ZSupplierNoticeRow>;

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

// ---- requests ------------------------------------------------------------------------------------

export const SUPPLIER_NOTICE_SORT_FIELDS = ['publishedAt', 'dueDate'] as const;

export const ZInboxRequestSchema = ZPageRequest(SUPPLIER_NOTICE_SORT_FIELDS, {
  state: zOptionalEnum(RECIPIENT_FILTERS, '状态只能是 UNREAD、READ、CONFIRMED 或 OVERDUE'),
  /** Number or title contains. */
  keyword: zOptionalText(100),
});
export type InboxRequest = z.input<typeof ZInboxRequestSchema>;

export const ZConfirmNoticeResult = z.object({
  recipientStatus: z.enum(RECIPIENT_STATUSES),
  confirmedAt: z.string(),
  alreadyConfirmed: z.boolean(),
  confirmedFiles: z.array(ZConfirmedFile),
});
