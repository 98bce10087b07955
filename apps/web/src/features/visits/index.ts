/** The visits feature's public face: the visit event, and its pages, the visit log and the sign-in log (loaded when opened). */
import { BASE_PATH } from '@esm/contracts/basics';
import type { PageLoaders } from '../pages.ts';

export { sendVisit } from './api.ts';
export const pages: PageLoaders = {
  [`${BASE_PATH}/system/visitLog`]: () => import('./visitLog.tsx'),
  [`${BASE_PATH}/system/signInLog`]: () => import('./signInLog.tsx'),
};
