/**
 * Page paths the web's feature indexes register their pages under (zod-free, issue 16: the
 * router loads them on the login page's first load). Re-exported by their domain files.
 */
export const BOM_TRACE_PAGE = '/esm/drawingManagement/supplierBomTrace';
export const ACCESS_REPORT_PAGE = '/esm/drawingAuthorization/drawingAccessReport';
export const PERMISSION_PAGE = '/esm/system/permission';
export const PHONE_LOG_PAGE = '/esm/system/mobilePhoneLog';
export const NOTIFICATION_LOG_PAGE = '/esm/system/notificationLog';

/** Which page shows which log (spec §2); keyed by logs.ts's LogAction. */
export const LOG_PAGES = {
  VIEW: '/esm/drawingManagement/drawingViewLog',
  CONFIRM: '/esm/drawingManagement/drawingConfirmationLog',
  DOWNLOAD: '/esm/drawingManagement/blueprintDownloadingLog',
  PRINT: '/esm/drawingManagement/drawingPrintlog',
  KEEPSECRET: '/esm/drawingManagement/confidentialityAgreement',
} as const;
