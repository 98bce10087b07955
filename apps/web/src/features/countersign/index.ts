/** The countersign feature's public face: its pages (loaded when opened). */
import type { PageLoaders } from '../pages.ts';

export const pages: PageLoaders = {
  countersignList: () => import('./pages/countersignList.tsx'),
  supplierCountersignList: () => import('./pages/supplierCountersignList.tsx'),
};
