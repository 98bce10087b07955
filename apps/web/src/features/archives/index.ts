/** The archives feature's public face: its pages (loaded when opened). */
import { BASE_PATH } from '@esm/contracts/basics';
import type { PageLoaders } from '../pages.ts';

export const pages: PageLoaders = {
  // the legacy portal's dashboard chunk
  [`${BASE_PATH}/dashboard`]: () => import('./pages/dashboard.tsx'),
  [`${BASE_PATH}/supplier/dashboardS`]: () => import('./pages/dashboardS.tsx'),
  [`${BASE_PATH}/supplier/dashboardSHistory`]: () => import('./pages/dashboardSHistory.tsx'),
  [`${BASE_PATH}/supplier/drawingsAndArchivesInformationG`]: () => import('./pages/drawingsAndArchivesInformationG.tsx'),
  [`${BASE_PATH}/drawingManagement/drawingsAndArchivesInformation`]: () => import('./pages/drawingsAndArchivesInformation.tsx'),
  [`${BASE_PATH}/drawingManagement/archivalHistory`]: () => import('./pages/archivalHistory.tsx'),
};
