/** The visits feature's public face: the visit event, and its pages, the visit log and the sign-in log (loaded when opened). */
import type { PageLoaders } from '../pages.ts';

export { sendVisit } from './api.ts';
export const pages: PageLoaders = {
  visitLog: () => import('./visitLog.tsx'),
  signInLog: () => import('./signInLog.tsx'),
};
