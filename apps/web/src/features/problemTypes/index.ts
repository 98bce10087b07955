/** The problem types feature's public face: its page (loaded when opened). */
import type { PageLoaders } from '../pages.ts';

export const pages: PageLoaders = {
  problemType: () => import('./pages/problemType.tsx'),
};
