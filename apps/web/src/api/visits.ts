import type { PagedEnvelope, VisitLogRequest, VisitLogRow } from '@esm/contracts';
import { post } from './client.ts';

/** The user_visit event (spec §4); failures are not the user's business, so it is silent. */
export function sendVisit(menuName: string, path: string) {
  post('main/visit', { menuName, path }, { silent: true }).catch(() => {});
}

/** sortField comes from the table's columns; the server checks it against its list. */
export const fetchVisitLog = (req: Omit<VisitLogRequest, 'sortField'> & { sortField?: string }) => post<VisitLogRow[], PagedEnvelope<VisitLogRow>>('haier/visitLog/page', req);
