/** The BOM feature's public face: its pages (loaded when opened). */
import type { PageLoaders } from '../pages.ts';

export const pages: PageLoaders = {
  twoOrThreeLevelsBom: () => import('./pages/twoOrThreeLevelsBom.tsx'),
  twoOrThreeLevelsSupplier: () => import('./pages/twoOrThreeLevelsSupplier.tsx'),
  supplierBomTrace: () => import('./pages/supplierBomTrace.tsx'),
};
