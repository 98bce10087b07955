/** The problem types feature's public face: its page (loaded when opened). */
import { BASE_PATH } from '@esm/contracts/basics';
import type { PageLoaders } from '../pages.ts';

export const pages: PageLoaders = {
  [`${BASE_PATH}/personManagement/problemType`]: () => import('./pages/problemType.tsx'),
};
