/** The permission change log: each change to a row, who made it, and the log's filters. */
import { z } from 'zod';
import { zOptionalDate, zOptionalEnum, zOptionalText, withDateRange } from '../fields.ts';
import { ZPageRequest } from '../paging.ts';
import { PERMISSION_ACTIONS, PERMISSION_KINDS } from './labels.ts';

/** One change: who, when, before → after (append-only). */
export const ZPermissionChangeRow = z.object({
  id: z.number().int(),
  action: z.enum(PERMISSION_ACTIONS),
  kind: z.enum(PERMISSION_KINDS),
  page: z.string(),
  code: z.string(),
  label: z.string(),
  before: z.string().nullable(),
  after: z.string().nullable(),
  userAccount: z.string(),
  userName: z.string(),
  ip: z.string().nullable(),
  createdAt: z.string(),
});
export type PermissionChangeRow = z.infer<typeof ZPermissionChangeRow>;
export const ZPermissionChangeRequestSchema = withDateRange(
  ZPageRequest(['createdAt'], {
    menuPage: zOptionalText(200),
    /** Matches code, label, account or name. */
    keyword: zOptionalText(100),
    action: zOptionalEnum(PERMISSION_ACTIONS, '操作只能是 INSERT、UPDATE 或 DELETE'),
    dateFrom: zOptionalDate,
    dateTo: zOptionalDate,
  }),
);
