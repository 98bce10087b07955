/**
 * Page paths other contract files and the web's features use by name, taken from PAGES (zod-free:
 * the router loads them on the login page's first load). Re-exported by their domain files.
 */
import { PAGES } from './pages.ts';

export const BOM_TRACE_PAGE = PAGES.supplierBomTrace.path;
export const ACCESS_REPORT_PAGE = PAGES.drawingAccessReport.path;
export const PERMISSION_PAGE = PAGES.permission.path;
export const PHONE_LOG_PAGE = PAGES.mobilePhoneLog.path;
export const AUDIT_VERIFY_PAGE = PAGES.auditVerify.path;
export const LEAK_TRACE_PAGE = PAGES.leakTrace.path;
export const NOTIFICATION_LOG_PAGE = PAGES.notificationLog.path;

/** Which page shows which log; keyed by logs.ts's LogAction. */
export const LOG_PAGE_DEFS = {
  VIEW: PAGES.drawingViewLog,
  CONFIRM: PAGES.drawingConfirmationLog,
  DOWNLOAD: PAGES.blueprintDownloadingLog,
  PRINT: PAGES.drawingPrintlog,
  KEEPSECRET: PAGES.confidentialityAgreement,
} as const;
export const LOG_PAGES = {
  VIEW: LOG_PAGE_DEFS.VIEW.path,
  CONFIRM: LOG_PAGE_DEFS.CONFIRM.path,
  DOWNLOAD: LOG_PAGE_DEFS.DOWNLOAD.path,
  PRINT: LOG_PAGE_DEFS.PRINT.path,
  KEEPSECRET: LOG_PAGE_DEFS.KEEPSECRET.path,
} as const;
