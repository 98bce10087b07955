/** The questions feature's public face: its pages (loaded when opened). */
import type { PageLoaders } from '../pages.ts';

export const pages: PageLoaders = {
  documentIssue: () => import('./pages/documentIssue.tsx'),
  documentIssueH: () => import('./pages/documentIssueH.tsx'),
};
