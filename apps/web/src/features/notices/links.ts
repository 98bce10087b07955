/** Where the notice pages are (the legacy portal's routes), for links from other pages and features. */
import { PAGES } from '@esm/contracts';

export const noticeHref = (id: number) => `${PAGES.noticeOfChangeOfDrawingsHR.path}?id=${id}`;
export const supplierNoticeHref = (id: number) => `${PAGES.noticeOfChangeOfDrawings.path}?id=${id}`;
/** A new notice about a version just uploaded (the form opens prefilled with it). */
export const newNoticeHref = (fileId: number) => `${PAGES.changeNoticeList.path}?newFileId=${fileId}`;
