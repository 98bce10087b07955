/** The empower feature's public face: its pages (loaded when opened). */
import type { PageLoaders } from '../pages.ts';

export const pages: PageLoaders = {
  supplierDrawingEmpowerApply: () => import('./pages/supplierDrawingEmpowerApply.tsx'),
  drawingEmpowerApprove: () => import('./pages/drawingEmpowerApprove.tsx'),
  drawingAuthorizedFile: () => import('./pages/drawingAuthorizedFile.tsx'),
  drawingAuthorizedFileHistory: () => import('./pages/drawingAuthorizedFileHistory.tsx'),
  noDrawingMaterialCensus: () => import('./pages/noDrawingMaterialCensus.tsx'),
  noDrawingAndArchivesInformation: () => import('./pages/noDrawingAndArchivesInformation.tsx'),
  drawingAccessReport: () => import('./pages/drawingAccessReport.tsx'),
};
