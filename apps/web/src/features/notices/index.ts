/** The notices feature's public face: the header bell, links other features offer, and its pages (loaded when opened). */
import type { PageLoaders } from '../pages.ts';

export { NoticeBell } from './NoticeBell.tsx';
export { newNoticeHref } from './links.ts';
export { DueDate, OverdueTag } from './labels.tsx';
export const pages: PageLoaders = {
  changeNoticeList: () => import('./pages/changeNoticeList.tsx'),
  noticeOfChangeOfDrawingsHR: () => import('./pages/noticeOfChangeOfDrawingsHR.tsx'),
  noticeList: () => import('./pages/noticeList.tsx'),
  noticeOfChangeOfDrawings: () => import('./pages/noticeOfChangeOfDrawings.tsx'),
};
