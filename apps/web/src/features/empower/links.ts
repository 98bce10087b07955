/** Links between the domain's pages (query strings the target pages read). */
import dayjs from 'dayjs';
import { ACCESS_REPORT_PAGE, PAGES } from '@esm/contracts';

/** The access report of a material (or a drawing) for a day, today by default. */
export const reportLink = (q: { materialCode?: string; standardCode?: string; date?: string }) => {
  const params = new URLSearchParams();
  if (q.materialCode) params.set('materialCode', q.materialCode);
  if (q.standardCode) params.set('standardCode', q.standardCode);
  params.set('date', q.date ?? dayjs().format('YYYY-MM-DD'));
  return `${ACCESS_REPORT_PAGE}?${params}`;
};

/** One supplier's materials without a valid grant (from the census). */
export const unauthorizedLink = (supplierCode: string) =>
  `${PAGES.noDrawingAndArchivesInformation.path}?supplierCode=${encodeURIComponent(supplierCode)}`;

/** The approvers' list, filtered to one supplier's pending applications. */
export const APPROVE_PAGE = PAGES.drawingEmpowerApprove.path;
