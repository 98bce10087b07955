/** The archives feature's public face: pickers other features filter by, and its pages (loaded when opened). */
import type { PageLoaders } from '../pages.ts';

export { supplierSource } from './api.ts';
export const pages: PageLoaders = {
  // the spec's dashboard chunk
  dashboard: () => import('./pages/dashboard.tsx'),
  dashboardS: () => import('./pages/dashboardS.tsx'),
  dashboardSHistory: () => import('./pages/dashboardSHistory.tsx'),
  drawingsAndArchivesInformationG: () => import('./pages/drawingsAndArchivesInformationG.tsx'),
  drawingsAndArchivesInformation: () => import('./pages/drawingsAndArchivesInformation.tsx'),
  archivalHistory: () => import('./pages/archivalHistory.tsx'),
};
