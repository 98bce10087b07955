/** The questions feature's public face: its pages (loaded when opened). */
import { BASE_PATH } from '@esm/contracts/basics';
import type { PageLoaders } from '../pages.ts';

export const pages: PageLoaders = {
  [`${BASE_PATH}/supplier/documentIssue`]: () => import('./pages/documentIssue.tsx'),
  [`${BASE_PATH}/drawingManagement/documentIssueH`]: () => import('./pages/documentIssueH.tsx'),
};
