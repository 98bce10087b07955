/** The BOM feature's public face: its pages (loaded when opened). */
import { BASE_PATH, BOM_TRACE_PAGE } from '@esm/contracts/basics';
import type { PageLoaders } from '../pages.ts';

export const pages: PageLoaders = {
  [`${BASE_PATH}/supplier/twoOrThreeLevelsBom`]: () => import('./pages/twoOrThreeLevelsBom.tsx'),
  [`${BASE_PATH}/supplier/twoOrThreeLevelsSupplier`]: () => import('./pages/twoOrThreeLevelsSupplier.tsx'),
  [BOM_TRACE_PAGE]: () => import('./pages/supplierBomTrace.tsx'),
};
