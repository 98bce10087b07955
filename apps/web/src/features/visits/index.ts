/** The visits feature's public face: the visit event, and its page (loaded when opened). */
import { BASE_PATH } from '@esm/contracts/basics';
import type { PageLoaders } from '../pages.ts';

export { sendVisit } from './api.ts';
export const pages: PageLoaders = { [`${BASE_PATH}/system/visitLog`]: () => import('./visitLog.tsx') };
