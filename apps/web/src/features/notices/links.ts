/** Where the notice pages are (the legacy portal's routes), for links from other pages and features. */
import { path } from '@esm/contracts';

export const noticeHref = (id: number) => `${path('drawingManagement', 'noticeOfChangeOfDrawingsHR')}?id=${id}`;
export const supplierNoticeHref = (id: number) => `${path('supplier', 'noticeOfChangeOfDrawings')}?id=${id}`;
/** A new notice about a version just uploaded (the form opens prefilled with it). */
export const newNoticeHref = (fileId: number) => `${path('drawingManagement', 'changeNoticeList')}?newFileId=${fileId}`;
