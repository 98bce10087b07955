/** The empower feature's public face: its pages (loaded when opened). */
import { ACCESS_REPORT_PAGE, BASE_PATH } from '@esm/contracts/basics';
import type { PageLoaders } from '../pages.ts';

const g = `${BASE_PATH}/drawingAuthorization`;
export const pages: PageLoaders = {
  [`${BASE_PATH}/supplier/supplierDrawingEmpowerApply`]: () => import('./pages/supplierDrawingEmpowerApply.tsx'),
  [`${g}/drawingEmpowerApprove`]: () => import('./pages/drawingEmpowerApprove.tsx'),
  [`${g}/drawingAuthorizedFile`]: () => import('./pages/drawingAuthorizedFile.tsx'),
  [`${g}/drawingAuthorizedFileHistory`]: () => import('./pages/drawingAuthorizedFileHistory.tsx'),
  [`${g}/noDrawingMaterialCensus`]: () => import('./pages/noDrawingMaterialCensus.tsx'),
  [`${g}/noDrawingAndArchivesInformation`]: () => import('./pages/noDrawingAndArchivesInformation.tsx'),
  [ACCESS_REPORT_PAGE]: () => import('./pages/drawingAccessReport.tsx'),
};
