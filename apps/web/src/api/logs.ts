/** The five drawing logs (view, confirm, download, print, confidentiality agreement), spec §7. */
import { LOG_ENDPOINTS, type LogAction, type LogRequest, type LogRow, type ZLogResponseSchema } from '@esm/contracts';
import type { z } from 'zod';
import { post } from './client.ts';

export type LogPage = z.infer<typeof ZLogResponseSchema>;
/** sortField comes from the table's columns; the server checks it against its list. */
export type LogPageRequest = Omit<LogRequest, 'sortField'> & { sortField?: string };

const fetchLog = (action: LogAction) => (req: LogPageRequest) => post<LogRow[], LogPage>(LOG_ENDPOINTS[action].path, req);

export const fetchViewLog = fetchLog('VIEW');
export const fetchConfirmLog = fetchLog('CONFIRM');
export const fetchDownloadLog = fetchLog('DOWNLOAD');
export const fetchPrintLog = fetchLog('PRINT');
export const fetchKeepsecretLog = fetchLog('KEEPSECRET');

export const LOG_FETCHERS: Record<LogAction, (req: LogPageRequest) => Promise<LogPage>> = {
  VIEW: fetchViewLog,
  CONFIRM: fetchConfirmLog,
  DOWNLOAD: fetchDownloadLog,
  PRINT: fetchPrintLog,
  KEEPSECRET: fetchKeepsecretLog,
};
