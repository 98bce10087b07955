/** The notices feature's public face: the header bell, links other features offer, and its pages (loaded when opened). */
import { BASE_PATH } from '@esm/contracts/basics';
import type { PageLoaders } from '../pages.ts';

export { NoticeBell, NoticeSummary } from './NoticeBell.tsx';
export { newNoticeHref } from './links.ts';
export { DueDate, OverdueTag } from './labels.tsx';
export const pages: PageLoaders = {
  [`${BASE_PATH}/drawingManagement/changeNoticeList`]: () => import('./pages/changeNoticeList.tsx'),
  [`${BASE_PATH}/drawingManagement/noticeOfChangeOfDrawingsHR`]: () => import('./pages/noticeOfChangeOfDrawingsHR.tsx'),
  [`${BASE_PATH}/supplier/noticeList`]: () => import('./pages/noticeList.tsx'),
  [`${BASE_PATH}/supplier/noticeOfChangeOfDrawings`]: () => import('./pages/noticeOfChangeOfDrawings.tsx'),
};
