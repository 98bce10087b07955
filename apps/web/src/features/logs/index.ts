/** The logs feature's public face: the five log pages (one component, loaded when opened). */
import { LOG_PAGES } from '@esm/contracts/basics';
import type { PageLoaders } from '../pages.ts';

const logPage = () => import('./logPages.tsx');
export const pages: PageLoaders = Object.fromEntries(Object.values(LOG_PAGES).map((path) => [path, logPage]));
