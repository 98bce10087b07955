/**
 * The fields a notice row carries on every side, and a recipient's state: shared by the rows of
 * notice.ts, recipients.ts and inbox.ts. Internal to this folder (index.ts does not re-export it).
 */
import { z } from 'zod';
import { NOTICE_STATUSES } from './state.ts';

/** The notice itself, as every list and detail carries it. */

export const noticeCore = {
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

/** A recipient's state (its status is named by the row it is in: status, or recipientStatus). */
export const recipientState = {
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
