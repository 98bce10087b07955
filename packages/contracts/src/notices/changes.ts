/** Change records: which version of which standard code replaced which, by which notice; and as one supplier's. */
import { z } from 'zod';
import { zOptionalDate, zOptionalText, withDateRange } from '../fields.ts';
import { ZPageRequest } from '../paging.ts';
import { FILE_STATUSES } from '../archives.ts';
import { NOTICE_STATUSES, RECIPIENT_STATUSES } from './state.ts';

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

// ---- requests ------------------------------------------------------------------------------------

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
