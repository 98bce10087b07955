/** The countersign feature's public face: its pages (loaded when opened). */
import { BASE_PATH } from '@esm/contracts/basics';
import type { PageLoaders } from '../pages.ts';

export const pages: PageLoaders = {
  [`${BASE_PATH}/drawingManagement/countersignList`]: () => import('./pages/countersignList.tsx'),
  [`${BASE_PATH}/supplier/countersignList`]: () => import('./pages/supplierCountersignList.tsx'),
};
