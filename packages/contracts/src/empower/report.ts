/** The access report: a supplier's grants and what it did with the drawings. */
import { ACCESS_REPORT_PAGE } from '../page-paths.ts';
import { z } from 'zod';
import { governedColumns } from '../endpoint.ts';
import { zDay, zOptionalText } from '../fields.ts';
import { PAGES } from '../pages.ts';

// ---- the access report -------------------------------------------------------------------------------------

/**
 * For a material or a drawing (standard code, every version) and a day: which suppliers could see
 * it that day, under which grant, approved by whom and when; and what they viewed, downloaded and
 * printed under those grants (the access log).
 */
export const ZAccessReportRequestSchema = z
  .object({
    materialCode: zOptionalText(40),
    standardCode: zOptionalText(64),
    date: zDay('日期'),
  })
  .refine((v) => v.materialCode || v.standardCode, { message: '请输入物料编码或标准编号', path: ['materialCode'] });
export type AccessReportRequest = z.input<typeof ZAccessReportRequestSchema>;

export const ZReportGrant = z.object({
  grantId: z.number().int(),
  supplierCode: z.string(),
  supplierName: z.string(),
  materialCode: z.string(),
  materialName: z.string(),
  suppliesNow: z.boolean(),
  validFrom: z.string(),
  validUntil: z.string(),
  revokedAt: z.string().nullable(),
  revokedByName: z.string().nullable(),
  revokeReason: z.string().nullable(),
  imported: z.boolean(),
  applicationId: z.number().int().nullable(),
  applicantName: z.string().nullable(),
  approverAccount: z.string().nullable(),
  approverName: z.string().nullable(),
  approvedAt: z.string().nullable(),
  /** OK rows of the access log by this supplier on the subject, while this grant was in force. */
  views: z.number().int(),
  downloads: z.number().int(),
  prints: z.number().int(),
  lastAccessAt: z.string().nullable(),
});
export type ReportGrant = z.infer<typeof ZReportGrant>;

export const REPORT_EVENT_ACTIONS = ['VIEW', 'DOWNLOAD', 'PRINT'] as const;
export const ZReportEvent = z.object({
  id: z.number().int(),
  grantId: z.number().int(),
  action: z.enum(REPORT_EVENT_ACTIONS),
  userAccount: z.string().optional(),
  userName: z.string().optional(),
  supplierCode: z.string(),
  supplierName: z.string().nullable(),
  standardCode: z.string().nullable(),
  fileName: z.string().nullable(),
  version: z.string().nullable(),
  materialCode: z.string().nullable(),
  /** Governed (ACCESS_REPORT_COLUMNS `events.*`, as userAccount and userName): absent when hidden for the caller, masked when masked. */
  ip: z.string().nullable().optional(),
  createdAt: z.string(),
});
export type ReportEvent = z.infer<typeof ZReportEvent>;
/** The page shows at most this many events (the export has them all). */
export const REPORT_EVENTS_SHOWN = 200;

export const ZAccessReport = z.object({
  date: z.string(),
  standardCode: z.string().nullable(),
  materials: z.array(z.object({ code: z.string(), name: z.string() })),
  /** The drawing's versions (a standard code's), with when each was in effect. */
  versions: z.array(
    z.object({
      id: z.number().int(),
      version: z.string(),
      status: z.string(),
      effectiveDate: z.string(),
      obsoletedAt: z.string().nullable(),
    }),
  ),
  grants: z.array(ZReportGrant),
  events: z.array(ZReportEvent),
  eventsTotal: z.number().int(),
});
export type AccessReport = z.infer<typeof ZAccessReport>;
/** Who opened the drawing and from where in the report's 访问记录: on the page, in the answer and in its Excel export. */
export const ACCESS_REPORT_COLUMNS = governedColumns(PAGES.drawingAccessReport, [
  'events.userName',
  'events.userAccount',
  'events.ip',
]);

/** The access report's page (not in the legacy portal, under drawingAuthorization). */
export { ACCESS_REPORT_PAGE };
